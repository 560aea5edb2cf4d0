#pragma once

#include "model/MechanicalSystem.h"

#include <string>
#include <vector>

namespace clab {

/// \brief N equal point masses in a vertical plane under gravity, q = (x₁, y₁, …, x_N, y_N):
/// what the chain scenes share (docs/MATH.md §5). M = (m/N) I, also as a sparse diagonal with a
/// fixed pattern; Q = −(m/N) g ŷ on every bob; T = ½ (m/N) |q̇|², V = (m/N) g Σ yᵢ.
class PlanarBobs : public MechanicalSystem {
public:
    int dof() const override { return 2 * bobs_; }
    /// x1, y1, …, xN, yN.
    std::vector<std::string> coordinateNames() const override;

    void massMatrix(const Eigen::VectorXd& q, double t, Eigen::MatrixXd& M) const override;
    void sparseMassMatrix(const Eigen::VectorXd& q, double t, SparseMatrix& M) const override;
    void givenForce(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                    Eigen::VectorXd& Q) const override;
    double kineticEnergy(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                         double t) const override;
    double potentialEnergy(const Eigen::VectorXd& q, double t) const override;

    /// Number of bobs N.
    int bobs() const { return bobs_; }
    double bobMass() const { return bobMass_; }
    double gravity() const { return g_; }

protected:
    PlanarBobs(int bobs, double bobMass, double g);

private:
    int bobs_;
    double bobMass_;
    double g_;
};

} // namespace clab
