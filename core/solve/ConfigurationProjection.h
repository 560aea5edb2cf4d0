#pragma once

#include "model/MechanicalSystem.h"

#include <Eigen/Dense>

#include <functional>

namespace clab {

/// \brief Moves a configuration so that one point of the system comes as close as it can to a
/// target while every constraint holds (a drag in the 3D view), and gives the velocity a flick
/// of that point leaves the system with (docs/MATH.md §12).
///
/// The point is a function p(q) into space (the view's body position, a system's view point);
/// its Jacobian P = ∂p/∂q is taken by central differences, which are exact for the linear maps
/// of the built-in scenes and accurate to ~1e-10 for a view's expressions.
class ConfigurationProjection {
public:
    using Point = std::function<Eigen::Vector3d(const Eigen::VectorXd& q)>;

    /// `system` must provide its constraint functions
    /// (MechanicalSystem::providesConstraintFunctions). Throws ConstraintLabError(InvalidParameter)
    /// when it does not.
    explicit ConfigurationProjection(const MechanicalSystem& system);

    /// The configuration on φ(q, t) = 0 nearest to `q` whose point p comes as close as it can to
    /// `target`: damped Gauss–Newton (Levenberg–Marquardt) steps on ½‖p(q) − target‖² under the
    /// linearized constraints, each changing q as little as it can in the kinetic-energy norm,
    /// each followed by the projection back onto φ = 0. Throws ConstraintLabError when `q`
    /// cannot be put on φ = 0.
    Eigen::VectorXd dragTo(const Eigen::VectorXd& q, double t, const Point& point,
                           const Eigen::Vector3d& target) const;

    /// The velocity a flick of the point with velocity `pointVelocity` gives the system at
    /// (q, t): the impulse at the point that would give the free system that point velocity,
    /// q̇ᶠ = M⁻¹Pᵀ(P M⁻¹Pᵀ)⁺ v, then its mass-weighted projection onto A_v q̇ = b_v.
    Eigen::VectorXd flick(const Eigen::VectorXd& q, double t, const Point& point,
                          const Eigen::Vector3d& pointVelocity) const;

    /// `qd` onto A_v q̇ = b_v at (q, t) in the kinetic-energy norm (the start velocity a plain drag
    /// keeps at the new configuration).
    Eigen::VectorXd allowedVelocity(const Eigen::VectorXd& q, double t,
                                    const Eigen::VectorXd& qd) const;

    /// P = ∂p/∂q (3×n) at q by central differences.
    static Eigen::MatrixXd pointJacobian(const Point& point, const Eigen::VectorXd& q);

private:
    /// M at (q, t), made positive definite by a tiny multiple of the identity where singular
    /// (the quaternion's), so that it can weigh a step.
    Eigen::MatrixXd weight(const Eigen::VectorXd& q, double t) const;
    /// One damped Gauss–Newton step under the linearized constraints (the KKT system solved in
    /// the least-squares sense, so redundant constraints are fine).
    Eigen::VectorXd step(const Eigen::VectorXd& q, double t, const Point& point,
                         const Eigen::Vector3d& target, double damping) const;

    const MechanicalSystem& system_;
    int n_, h_;
};

} // namespace clab
