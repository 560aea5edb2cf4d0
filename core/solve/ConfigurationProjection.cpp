#include "solve/ConfigurationProjection.h"

#include "model/ConstraintLabError.h"
#include "solve/ManifoldProjection.h"

#include <cmath>
#include <limits>

namespace clab {

namespace {

constexpr int kMaxSteps = 200;
// The Levenberg–Marquardt damping, relative to ‖P‖² / max Mᵢᵢ.
constexpr double kStartDamping = 1e-3;
constexpr double kMinDamping = 1e-12;
constexpr double kMaxDamping = 1e12;

double distance(const ConfigurationProjection::Point& point, const Eigen::VectorXd& q,
                const Eigen::Vector3d& target)
{
    return (point(q) - target).norm();
}

} // namespace

ConfigurationProjection::ConfigurationProjection(const MechanicalSystem& system)
    : system_(system), n_(system.dof()), h_(system.holonomicCount())
{
    if (!system.providesConstraintFunctions())
        throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter,
                                 "this system cannot be dragged: it does not provide its "
                                 "constraint functions φ and ψ");
}

Eigen::MatrixXd ConfigurationProjection::pointJacobian(const Point& point, const Eigen::VectorXd& q)
{
    Eigen::MatrixXd P(3, q.size());
    Eigen::VectorXd x = q;
    for (Eigen::Index k = 0; k < q.size(); ++k) {
        // Divided by the step as stored (x[k] − q[k] is exact), so that a linear point, as
        // every built-in scene's is, gets its Jacobian to the last bit.
        const double h = 1e-6 * (1.0 + std::abs(q[k]));
        x[k] = q[k] + h;
        const double up = x[k];
        const Eigen::Vector3d plus = point(x);
        x[k] = q[k] - h;
        const double down = x[k];
        const Eigen::Vector3d minus = point(x);
        x[k] = q[k];
        P.col(k) = (plus - minus) / (up - down);
    }
    return P;
}

Eigen::MatrixXd ConfigurationProjection::weight(const Eigen::VectorXd& q, double t) const
{
    Eigen::MatrixXd M(n_, n_);
    system_.massMatrix(q, t, M);
    const double scale = n_ > 0 ? M.diagonal().cwiseAbs().maxCoeff() : 1.0;
    M.diagonal().array() += 1e-9 * (scale > 0.0 ? scale : 1.0);
    return M;
}

Eigen::VectorXd ConfigurationProjection::step(const Eigen::VectorXd& q, double t,
                                              const Point& point, const Eigen::Vector3d& target,
                                              double damping) const
{
    // min ½‖P Δ − r‖² + ½ μ Δᵀ M Δ subject to J Δ = −φ (Levenberg–Marquardt in the
    // kinetic-energy norm). The μ M term makes the step unique and moves the coordinates the
    // point does not depend on as little as the constraints let them; a larger μ turns the step
    // towards the constrained gradient, which gets a stretched arm round where Gauss–Newton's
    // step would only bend it. At a fixed point Pᵀr lies in the row space of J, the condition
    // for the nearest reachable point, whatever μ.
    const Eigen::MatrixXd P = pointJacobian(point, q);
    const Eigen::Vector3d r = target - point(q);
    Eigen::VectorXd phi(h_);
    Eigen::MatrixXd J(h_, n_);
    system_.positionConstraints(q, t, phi, J);
    const Eigen::MatrixXd M = weight(q, t);
    const double pScale = std::max(P.squaredNorm(), std::numeric_limits<double>::min());
    const double mu = damping * pScale / M.diagonal().maxCoeff();

    Eigen::MatrixXd K = Eigen::MatrixXd::Zero(n_ + h_, n_ + h_);
    K.topLeftCorner(n_, n_) = P.transpose() * P + mu * M;
    K.topRightCorner(n_, h_) = J.transpose();
    K.bottomLeftCorner(h_, n_) = J;
    Eigen::VectorXd rhs(n_ + h_);
    rhs << P.transpose() * r, -phi;
    return K.completeOrthogonalDecomposition().solve(rhs).head(n_);
}

Eigen::VectorXd ConfigurationProjection::dragTo(const Eigen::VectorXd& q0, double t,
                                                const Point& point,
                                                const Eigen::Vector3d& target) const
{
    ManifoldProjection projection(system_, 0);
    Eigen::VectorXd q = q0;
    projection.projectPositions(q, t);
    double d = distance(point, q, target);
    double damping = kStartDamping;
    for (int i = 0; i < kMaxSteps && damping <= kMaxDamping; ++i) {
        // Each trial is put back on φ = 0 (§6) and kept only when the point comes closer: the
        // constraints' curvature (a pendulum's circle) can make a long linearized step overshoot.
        Eigen::VectorXd next = q + step(q, t, point, target, damping);
        try {
            projection.projectPositions(next, t);
        } catch (const ConstraintLabError&) {
            damping *= 10.0; // too far for the projection to converge: a shorter step
            continue;
        }
        const double dNext = distance(point, next, target);
        if (!(dNext < d)) {
            damping *= 10.0;
            continue;
        }
        const double change = (next - q).lpNorm<Eigen::Infinity>();
        q = next;
        d = dNext;
        damping = std::max(damping * 0.3, kMinDamping);
        if (change <= 1e-15 * (1.0 + q.lpNorm<Eigen::Infinity>()))
            break;
    }
    return q;
}

Eigen::VectorXd ConfigurationProjection::allowedVelocity(const Eigen::VectorXd& q, double t,
                                                         const Eigen::VectorXd& qd) const
{
    ManifoldProjection projection(system_, 0);
    Eigen::VectorXd v = qd;
    projection.projectVelocities(q, v, t, Eigen::MatrixXd(0, n_), Eigen::VectorXd(0), true);
    return v;
}

Eigen::VectorXd ConfigurationProjection::flick(const Eigen::VectorXd& q, double t,
                                               const Point& point,
                                               const Eigen::Vector3d& pointVelocity) const
{
    // An impulse I at the point changes the free system's momentum by PᵀI; the I that gives the
    // point the velocity v is I = (P M⁻¹Pᵀ)⁺ v. The constraints then act as Gauss's principle
    // says for an impulse: the velocity after it is the allowed one nearest in the
    // kinetic-energy norm (docs/MATH.md §12), which allowedVelocity computes.
    const Eigen::MatrixXd P = pointJacobian(point, q);
    const Eigen::LLT<Eigen::MatrixXd> M(weight(q, t));
    const Eigen::MatrixXd MinvPt = M.solve(P.transpose());
    const Eigen::Matrix3d G = P * MinvPt;
    const Eigen::Vector3d impulse = G.completeOrthogonalDecomposition().solve(pointVelocity);
    return allowedVelocity(q, t, MinvPt * impulse);
}

} // namespace clab
