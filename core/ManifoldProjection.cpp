#include "ManifoldProjection.h"

#include "ConstraintLabError.h"

#include <cmath>
#include <limits>
#include <string>

namespace clab {

namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();
constexpr int kMaxIterations = 8;

double infNorm(const Eigen::VectorXd& v)
{
    return v.size() > 0 ? v.lpNorm<Eigen::Infinity>() : 0.0;
}

// ‖J‖∞ ‖x‖∞: the size of the terms a residual J x − c is made of, for a rounding threshold.
double termScale(const Eigen::MatrixXd& J, const Eigen::VectorXd& x)
{
    if (J.rows() == 0)
        return 0.0;
    return J.cwiseAbs().rowwise().sum().maxCoeff() * infNorm(x);
}

} // namespace

ManifoldProjection::ManifoldProjection(const MechanicalSystem& system, int extraRows)
    : system_(system), n_(system.dof()), m_(system.constraintCount()), h_(system.holonomicCount()),
      extra_(extraRows), positionEquation_(n_, h_), velocityEquation_(n_, m_ + extraRows)
{
    if (h_ < 0 || h_ > m_)
        throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter,
                                 "ManifoldProjection: the system declares " + std::to_string(h_) +
                                     " holonomic constraints out of " + std::to_string(m_));
    positionEquation_.setSingularMass(system.massMatrixIsSingular());
    velocityEquation_.setSingularMass(system.massMatrixIsSingular());
    M_.setZero(n_, n_);
    J_.setZero(h_, n_);
    Jv_.setZero(m_ + extra_, n_);
    zero_.setZero(n_);
    phi_.setZero(h_);
    rhs_.setZero(m_ + extra_);
    rv_.setZero(m_ + extra_);
    positionStep_.resize(n_, h_);
    velocityStep_.resize(n_, m_ + extra_);
}

bool ManifoldProjection::projectPositions(Eigen::VectorXd& q, double t)
{
    if (h_ == 0)
        return false;
    bool changed = false;
    for (int iteration = 0;; ++iteration) {
        system_.positionConstraints(q, t, phi_, J_);
        const double residual = infNorm(phi_);
        const double threshold = 8.0 * kEps * (1.0 + termScale(J_, q));
        if (!std::isfinite(residual))
            throw ConstraintLabError(ConstraintLabError::Kind::NonFinite,
                                     "projection onto the constraints: φ(q) is not finite");
        if (residual <= threshold)
            return changed;
        if (iteration == kMaxIterations)
            throw ConstraintLabError(
                ConstraintLabError::Kind::IntegrationFailure,
                "the state cannot be brought back onto the constraints: |φ| = " +
                    ConstraintLabError::number(residual) + " stays above " +
                    ConstraintLabError::number(threshold) + " after " +
                    std::to_string(kMaxIterations) + " Gauss–Newton iterations",
                "the motion has left the constraints too far to return (steps too long or a "
                "singular configuration); try a smaller rtol or dt, or stabilization 'baumgarte'");
        system_.massMatrix(q, t, M_);
        phi_ = -phi_;
        positionEquation_.solveIdeal(M_, zero_, J_, phi_, positionStep_);
        q += positionStep_.qdd;
        changed = true;
    }
}

bool ManifoldProjection::projectVelocities(const Eigen::VectorXd& q, Eigen::VectorXd& qd, double t,
                                           const Eigen::MatrixXd& E, const Eigen::VectorXd& e,
                                           bool correctConstraints)
{
    if (m_ + extra_ == 0)
        return false;
    if (E.rows() != extra_ || E.cols() != n_ || e.size() != extra_)
        throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter,
                                 "ManifoldProjection::projectVelocities: the extra rows must be " +
                                     std::to_string(extra_) + "×" + std::to_string(n_));
    if (m_ > 0)
        system_.velocityConstraints(q, t, Jv_.topRows(m_), rhs_.head(m_));
    if (extra_ > 0) {
        Jv_.bottomRows(extra_) = E;
        rhs_.tail(extra_) = e;
    }
    rv_.noalias() = Jv_ * qd;
    rv_ -= rhs_;
    if (!correctConstraints && m_ > 0)
        rv_.head(m_).setZero();
    const double residual = infNorm(rv_);
    const double threshold = 8.0 * kEps * (1.0 + termScale(Jv_, qd) + infNorm(rhs_));
    if (!std::isfinite(residual))
        throw ConstraintLabError(ConstraintLabError::Kind::NonFinite,
                                 "projection onto the velocity constraints: the residual is not "
                                 "finite");
    if (residual <= threshold)
        return false;
    system_.massMatrix(q, t, M_);
    rv_ = -rv_;
    velocityEquation_.solveIdeal(M_, zero_, Jv_, rv_, velocityStep_);
    qd += velocityStep_.qdd;
    return true;
}

} // namespace clab
