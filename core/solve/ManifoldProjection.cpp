#include "solve/ManifoldProjection.h"

#include "model/ConstraintLabError.h"

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

// The same for a sparse J; rowSums is workspace.
double termScale(const SparseFundamentalEquation::SparseMatrix& J, const Eigen::VectorXd& x,
                 Eigen::VectorXd& rowSums)
{
    if (J.rows() == 0)
        return 0.0;
    rowSums.setZero(J.rows());
    for (Eigen::Index j = 0; j < J.outerSize(); ++j)
        for (SparseFundamentalEquation::SparseMatrix::InnerIterator it(J, j); it; ++it)
            rowSums[it.row()] += std::abs(it.value());
    return rowSums.maxCoeff() * infNorm(x);
}

} // namespace

ManifoldProjection::ManifoldProjection(const MechanicalSystem& system, int extraRows, bool sparse)
    : system_(system), n_(system.dof()), m_(system.constraintCount()), h_(system.holonomicCount()),
      extra_(extraRows), sparse_(sparse), positionEquation_(sparse ? 1 : n_, sparse ? 0 : h_),
      velocityEquation_(sparse ? 1 : n_, sparse ? 0 : m_ + extraRows)
{
    if (sparse && extraRows != 0)
        throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter,
                                 "ManifoldProjection: the sparse path takes no extra rows");
    if (h_ < 0 || h_ > m_)
        throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter,
                                 "ManifoldProjection: the system declares " + std::to_string(h_) +
                                     " holonomic constraints out of " + std::to_string(m_));
    positionEquation_.setSingularMass(system.massMatrixIsSingular());
    velocityEquation_.setSingularMass(system.massMatrixIsSingular());
    if (sparse) {
        positionSparse_ = std::make_unique<SparseFundamentalEquation>(n_, h_);
        velocitySparse_ = std::make_unique<SparseFundamentalEquation>(n_, m_);
    }
    const int denseN = sparse ? 0 : n_;
    M_.setZero(denseN, denseN);
    J_.setZero(sparse ? 0 : h_, denseN);
    Jv_.setZero(sparse ? 0 : m_ + extra_, denseN);
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
        double scale;
        if (sparse_) {
            system_.sparsePositionConstraints(q, t, phi_, sparseJ_);
            scale = termScale(sparseJ_, q, rowSums_);
        } else {
            system_.positionConstraints(q, t, phi_, J_);
            scale = termScale(J_, q);
        }
        const double residual = infNorm(phi_);
        const double threshold = 8.0 * kEps * (1.0 + scale);
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
        phi_ = -phi_;
        correct(q, t, true, phi_, threshold, positionStep_);
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
    double scale;
    if (sparse_) {
        system_.sparseVelocityConstraints(q, t, sparseJv_, rhs_);
        rv_.noalias() = sparseJv_ * qd;
        scale = termScale(sparseJv_, qd, rowSums_);
    } else {
        if (m_ > 0)
            system_.velocityConstraints(q, t, Jv_.topRows(m_), rhs_.head(m_));
        if (extra_ > 0) {
            Jv_.bottomRows(extra_) = E;
            rhs_.tail(extra_) = e;
        }
        rv_.noalias() = Jv_ * qd;
        scale = termScale(Jv_, qd);
    }
    rv_ -= rhs_;
    if (!correctConstraints && m_ > 0)
        rv_.head(m_).setZero();
    const double residual = infNorm(rv_);
    const double threshold = 8.0 * kEps * (1.0 + scale + infNorm(rhs_));
    if (!std::isfinite(residual))
        throw ConstraintLabError(ConstraintLabError::Kind::NonFinite,
                                 "projection onto the velocity constraints: the residual is not "
                                 "finite");
    if (residual <= threshold)
        return false;
    rv_ = -rv_;
    correct(q, t, false, rv_, threshold, velocityStep_);
    qd += velocityStep_.qdd;
    return true;
}

// The residual was evaluated to within `rounding`: redundant constraints (one rod written
// twice) disagree by that much, which the rank-revealing solve must not take for a contradiction.
void ManifoldProjection::correct(const Eigen::VectorXd& q, double t, bool position,
                                 const Eigen::VectorXd& rhs, double rounding,
                                 ConstrainedAcceleration& step)
{
    if (sparse_) {
        system_.sparseMassMatrix(q, t, sparseM_);
        SparseFundamentalEquation& equation = position ? *positionSparse_ : *velocitySparse_;
        equation.setRightHandSideRounding(rounding);
        equation.solveIdeal(sparseM_, zero_, position ? sparseJ_ : sparseJv_, rhs, step);
    } else {
        system_.massMatrix(q, t, M_);
        FundamentalEquation& equation = position ? positionEquation_ : velocityEquation_;
        equation.setRightHandSideRounding(rounding);
        equation.solveIdeal(M_, zero_, position ? J_ : Jv_, rhs, step);
    }
}

} // namespace clab
