#pragma once

#include <Eigen/Dense>

namespace clab {

/// \brief Result of the fundamental equation M q̈ = Q + Qᶜᵢ + Qᶜₙᵢ at one instant.
struct ConstrainedAcceleration {
    Eigen::VectorXd qdd;    ///< generalized acceleration q̈
    Eigen::VectorXd Qci;    ///< ideal constraint force Qᶜᵢ
    Eigen::VectorXd Qcni;   ///< non-ideal constraint force Qᶜₙᵢ
    Eigen::VectorXd lambda; ///< minimum-norm Lagrange multipliers (Qᶜᵢ = Aᵀλ when M > 0)

    void resize(int n, int m)
    {
        qdd.setZero(n);
        Qci.setZero(n);
        Qcni.setZero(n);
        lambda.setZero(m);
    }
};

} // namespace clab
