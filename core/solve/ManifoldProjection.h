#pragma once

#include "model/MechanicalSystem.h"
#include "solve/ConstrainedAcceleration.h"
#include "solve/FundamentalEquation.h"
#include "solve/SparseFundamentalEquation.h"

#include <memory>

#include <Eigen/Dense>

namespace clab {

/// \brief Projects a state back onto the constraint manifold (docs/MATH.md §6).
///
/// Positions: Gauss–Newton on φ(q, t) = 0 with the mass-weighted minimum-norm correction
/// Δq = −M⁻¹Jᵀ(J M⁻¹ Jᵀ)⁺ φ. That is Gauss's principle with A = J and b = −φ, so it is computed
/// by a FundamentalEquation (Q = 0), which also covers a singular M through the auxiliary
/// system (for the quaternion it gives the radial correction u ← u (1 − φ/‖u‖²)).
/// Velocities: one mass-weighted minimum-norm step onto Av q̇ = bv together with extra rows
/// E q̇ = e (the stick rows of stuck contacts); for a velocity the constraints are linear, so
/// one step is exact. An M-orthogonal velocity correction changes the kinetic energy only to
/// second order in its size.
///
/// Residuals within a few units in the last place are left alone, so a state that satisfies the
/// constraints to rounding is not touched at all (a bead at rest stays exactly where it is).
/// Allocation-free after construction.
class ManifoldProjection {
public:
    /// `extraRows` is the number of extra velocity rows the caller may pass (zero rows allowed).
    /// With `sparse` the corrections are solved by SparseFundamentalEquation from the system's
    /// sparse J and A_v (docs/MATH.md §10), which allows no extra rows.
    ManifoldProjection(const MechanicalSystem& system, int extraRows, bool sparse = false);

    /// Gauss–Newton on φ(q, t) = 0 (at most 8 iterations); true when q changed. Throws
    /// ConstraintLabError(IntegrationFailure) when the iteration does not converge.
    bool projectPositions(Eigen::VectorXd& q, double t);

    /// q̇ onto Av q̇ = bv and E q̇ = e; true when q̇ changed. With `correctConstraints` false only
    /// the extra rows are enforced and the residual of the system's constraints is kept as it is
    /// (used at stick events when no stabilization is wanted).
    bool projectVelocities(const Eigen::VectorXd& q, Eigen::VectorXd& qd, double t,
                           const Eigen::MatrixXd& E, const Eigen::VectorXd& e,
                           bool correctConstraints);

private:
    const MechanicalSystem& system_;
    /// Mass-weighted minimum-norm step: positionStep_ or velocityStep_ from J q = rhs (Q = 0),
    /// rhs known to within `rounding` in each entry.
    void correct(const Eigen::VectorXd& q, double t, bool position, const Eigen::VectorXd& rhs,
                 double rounding, ConstrainedAcceleration& step);

    int n_, m_, h_, extra_;
    bool sparse_;
    FundamentalEquation positionEquation_;
    FundamentalEquation velocityEquation_;
    std::unique_ptr<SparseFundamentalEquation> positionSparse_, velocitySparse_;
    SparseFundamentalEquation::SparseMatrix sparseM_, sparseJ_, sparseJv_;
    Eigen::VectorXd rowSums_;
    Eigen::MatrixXd M_, J_, Jv_;
    Eigen::VectorXd zero_, phi_, rhs_, rv_;
    ConstrainedAcceleration positionStep_, velocityStep_;
};

} // namespace clab
