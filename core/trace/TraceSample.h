#pragma once

#include <Eigen/Dense>

namespace clab {

/// \brief Everything known about the system at one output time.
struct TraceSample {
    double t = 0.0;
    Eigen::VectorXd q, qd, qdd;
    Eigen::VectorXd Q, Qci, Qcni;
    double T = 0.0, V = 0.0, E = 0.0;
    double W_nonideal = 0.0;  ///< ∫ Qᶜₙᵢ·q̇ dt
    double W_ideal = 0.0;     ///< ∫ Qᶜᵢ·q̇ dt (non-zero only for rheonomic constraints)
    double W_given_nc = 0.0;  ///< work of non-conservative given forces
    double W_impact = 0.0;    ///< kinetic energy changed by impacts of one-sided contacts (≤ 0)
    double residualMax = 0.0; ///< largest |constraint residual|
    /// Energy audit E(t) − E(0) − W_nonideal − W_given_nc − W_ideal − W_impact: zero up to the
    /// integration error (and the tiny energy the projection onto the constraints changes).
    double E_error = 0.0;
    Eigen::VectorXd contacts; ///< per frictional contact: 1 sliding, 0 stuck
    Eigen::VectorXd extra;    ///< scene-specific columns
};

} // namespace clab
