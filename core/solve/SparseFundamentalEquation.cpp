#include "solve/SparseFundamentalEquation.h"

#include "model/ConstraintLabError.h"
#include "solve/SolverChecks.h"

#include <Eigen/SparseCholesky>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

namespace clab {

namespace {

using Kind = ConstraintLabError::Kind;
using SparseMatrix = SparseFundamentalEquation::SparseMatrix;
using Ldlt = Eigen::SimplicialLDLT<SparseMatrix, Eigen::Lower, Eigen::AMDOrdering<int>>;

using solver::requireSize;

void requireFinite(const double* x, Eigen::Index size, const char* what)
{
    for (Eigen::Index i = 0; i < size; ++i) {
        if (!std::isfinite(x[i])) {
            std::ostringstream msg;
            msg << what << " has a non-finite entry (" << x[i] << ")";
            throw ConstraintLabError(Kind::NonFinite, msg.str(),
                                     "a value overflowed or is not a number: the parameters or "
                                     "the state are probably of extreme size");
        }
    }
}

/// The pattern of a compressed matrix, to notice when a symbolic analysis no longer fits.
struct Pattern {
    std::vector<int> outer, inner;

    /// True when `S` has another pattern than the one stored; stores S's.
    bool changedTo(const SparseMatrix& S)
    {
        const auto cols = static_cast<std::size_t>(S.outerSize()) + 1;
        const auto nnz = static_cast<std::size_t>(S.nonZeros());
        bool same = outer.size() == cols && inner.size() == nnz;
        for (std::size_t i = 0; same && i < cols; ++i)
            same = outer[i] == S.outerIndexPtr()[i];
        for (std::size_t i = 0; same && i < nnz; ++i)
            same = inner[i] == S.innerIndexPtr()[i];
        if (!same) {
            outer.assign(S.outerIndexPtr(), S.outerIndexPtr() + cols);
            inner.assign(S.innerIndexPtr(), S.innerIndexPtr() + nnz);
        }
        return !same;
    }
};

/// Position in the original numbering of each pivot of an LDLᵀ (elimination order).
int originalIndex(const Ldlt& ldlt, Eigen::Index pivot)
{
    return ldlt.permutationPinv().indices()[pivot];
}

/// First pivot, in elimination order, that vanishes against its diagonal entry, or −1.
/// Pivots after a vanishing one are meaningless, so only the first is reported.
int firstVanishingPivot(const Ldlt& ldlt, const Eigen::VectorXd& diagonal, double tol)
{
    const Eigen::VectorXd& d = ldlt.vectorD();
    for (Eigen::Index k = 0; k < d.size(); ++k) {
        const int j = originalIndex(ldlt, k);
        if (!(d[k] > tol * diagonal[j]) || !std::isfinite(d[k]))
            return static_cast<int>(k);
        if (ldlt.info() != Eigen::Success && d[k] == 0.0)
            return static_cast<int>(k);
    }
    return -1;
}

} // namespace

struct SparseFundamentalEquation::Workspace {
    // Mass matrix: a diagonal M is inverted entry by entry, otherwise factorized.
    bool diagonalM = true;
    Eigen::VectorXd invD, mDiag;
    Ldlt mLdlt;
    Pattern mPattern;

    SparseMatrix A, K, Kw, zeroDiagonal, AD, Y;
    Ldlt kLdlt;
    Pattern kPattern;
    Eigen::VectorXd kDiag;
    std::vector<int> dropped;         // rows of K set aside as redundant
    Eigen::MatrixXd N;                // null-space basis of K, one column per dropped row
    Eigen::LLT<Eigen::MatrixXd> gram; // of Nᵀ N

    Eigen::VectorXd a, Aa, rhs, lambda, residual, vn, vm, column, force;

    void massSolve(Eigen::VectorXd& v) const
    {
        if (diagonalM)
            v.array() *= invD.array();
        else
            v = mLdlt.solve(v);
    }

    /// Minimum-norm solution of K x = r (see the class comment).
    void solveK(const Eigen::VectorXd& r, Eigen::VectorXd& x)
    {
        column = r;
        for (int j : dropped)
            column[j] = 0.0;
        x = kLdlt.solve(column);
        if (!dropped.empty()) {
            const Eigen::VectorXd coefficients = gram.solve(N.transpose() * x);
            x.noalias() -= N * coefficients;
        }
    }
};

SparseFundamentalEquation::SparseFundamentalEquation(int n, int m)
    : n_(n), m_(m), ws_(std::make_unique<Workspace>())
{
    if (n < 1 || m < 0)
        throw ConstraintLabError(Kind::InvalidParameter,
                                 "SparseFundamentalEquation: need n ≥ 1 coordinates and m ≥ 0 "
                                 "constraints, got n = " +
                                     std::to_string(n) + ", m = " + std::to_string(m));
    Workspace& w = *ws_;
    w.invD.setZero(n);
    w.mDiag.setZero(n);
    w.zeroDiagonal.resize(m, m);
    w.zeroDiagonal.reserve(Eigen::VectorXi::Constant(m, 1));
    for (int i = 0; i < m; ++i)
        w.zeroDiagonal.insert(i, i) = 0.0; // keeps every diagonal entry of K structural
    w.zeroDiagonal.makeCompressed();
    w.kDiag.setZero(m);
}

SparseFundamentalEquation::~SparseFundamentalEquation() = default;

void SparseFundamentalEquation::setRightHandSideRounding(double rounding)
{
    rhsRounding_ =
        solver::checkedRounding(rounding, "SparseFundamentalEquation::setRightHandSideRounding");
}

void SparseFundamentalEquation::setTolerance(double tol)
{
    tol_ = solver::checkedTolerance(tol, "SparseFundamentalEquation::setTolerance");
    sqrtTol_ = std::sqrt(tol);
}

int SparseFundamentalEquation::redundantCount() const
{
    return static_cast<int>(ws_->dropped.size());
}

void SparseFundamentalEquation::solveIdeal(const SparseMatrix& M, const Eigen::VectorXd& Q,
                                           const SparseMatrix& A, const Eigen::VectorXd& b,
                                           ConstrainedAcceleration& out)
{
    idealSolved_ = false;
    checkInputs(M, Q, A, b);
    if (out.qdd.size() != n_ || out.Qci.size() != n_ || out.Qcni.size() != n_ ||
        out.lambda.size() != m_)
        out.resize(n_, m_);
    out.Qcni.setZero();

    Workspace& w = *ws_;
    w.A = A;
    factorMass(M);

    // a = M⁻¹ Q, the unconstrained acceleration.
    w.a = Q;
    w.massSolve(w.a);
    method_ = Method::Cholesky;
    w.dropped.clear();
    if (m_ == 0) {
        out.qdd = w.a;
        out.Qci.setZero();
        idealSolved_ = true;
        return;
    }

    factorK(A);
    w.Aa.noalias() = A * w.a;
    w.rhs = b - w.Aa;
    w.solveK(w.rhs, w.lambda);
    requireConsistent(b);
    out.lambda = w.lambda;
    out.Qci.noalias() = A.transpose() * w.lambda;
    out.qdd = Q + out.Qci;
    w.massSolve(out.qdd);
    requireFinite(out.qdd.data(), out.qdd.size(), "the computed acceleration q̈");
    idealSolved_ = true;
}

void SparseFundamentalEquation::checkInputs(const SparseMatrix& M, const Eigen::VectorXd& Q,
                                            const SparseMatrix& A, const Eigen::VectorXd& b) const
{
    const char* where = "SparseFundamentalEquation::solveIdeal";
    requireSize(M.rows(), M.cols(), n_, n_, "the mass matrix M", where);
    requireSize(Q.rows(), Q.cols(), n_, 1, "the given force Q", where);
    requireSize(A.rows(), A.cols(), m_, n_, "the constraint matrix A", where);
    requireSize(b.rows(), b.cols(), m_, 1, "the constraint right-hand side b", where);
    requireFinite(M.valuePtr(), M.nonZeros(), "the mass matrix M");
    requireFinite(Q.data(), Q.size(), "the given force Q");
    requireFinite(A.valuePtr(), A.nonZeros(), "the constraint matrix A");
    requireFinite(b.data(), b.size(), "the constraint right-hand side b");
}

void SparseFundamentalEquation::factorMass(const SparseMatrix& M)
{
    Workspace& w = *ws_;
    // M: diagonal when every stored entry lies on the diagonal.
    w.diagonalM = true;
    for (int j = 0; j < n_ && w.diagonalM; ++j)
        for (SparseMatrix::InnerIterator it(M, j); it; ++it)
            if (it.row() != j && it.value() != 0.0) {
                w.diagonalM = false;
                break;
            }
    w.mDiag = M.diagonal();
    if (w.diagonalM) {
        for (int i = 0; i < n_; ++i) {
            if (!(w.mDiag[i] > 0.0))
                throw ConstraintLabError(
                    Kind::SingularMass,
                    "the mass matrix is not positive definite: its diagonal entry " +
                        std::to_string(i + 1) + " of " + std::to_string(n_) + " is " +
                        ConstraintLabError::number(w.mDiag[i]),
                    "give every coordinate a positive mass");
            w.invD[i] = 1.0 / w.mDiag[i];
        }
    } else {
        if (w.mPattern.changedTo(M))
            w.mLdlt.analyzePattern(M);
        w.mLdlt.factorize(M);
        const int k = firstVanishingPivot(w.mLdlt, w.mDiag, tol_);
        if (k >= 0)
            throw ConstraintLabError(
                Kind::SingularMass,
                "the mass matrix is not positive definite: pivot of coordinate " +
                    std::to_string(originalIndex(w.mLdlt, k) + 1) + " of " + std::to_string(n_) +
                    " vanishes in its sparse LDLᵀ factorization",
                "the sparse path needs inertia in every coordinate");
    }
}

void SparseFundamentalEquation::factorK(const SparseMatrix& A)
{
    Workspace& w = *ws_;
    // K = A M⁻¹ Aᵀ, with a structural diagonal.
    if (w.diagonalM) {
        w.AD = A * w.invD.asDiagonal();
        w.K = w.AD * A.transpose();
    } else {
        w.Y = w.mLdlt.solve(SparseMatrix(A.transpose()));
        w.K = A * w.Y;
    }
    w.K += w.zeroDiagonal;
    w.K.makeCompressed();
    w.kDiag = w.K.diagonal();
    w.Kw = w.K;
    if (w.kPattern.changedTo(w.Kw)) {
        w.kLdlt.analyzePattern(w.Kw);
        ++analyses_;
    }
    // Set aside rows whose pivot vanishes until the rest is positive definite.
    for (;;) {
        w.kLdlt.factorize(w.Kw);
        const int k = firstVanishingPivot(w.kLdlt, w.kDiag, tol_);
        if (k < 0)
            break;
        const int j = originalIndex(w.kLdlt, k);
        w.dropped.push_back(j);
        // Row and column j become those of the identity (same pattern: Kw is symmetric).
        for (SparseMatrix::InnerIterator it(w.Kw, j); it; ++it)
            it.valueRef() = it.row() == j ? 1.0 : 0.0;
        for (int col = 0; col < m_; ++col)
            for (SparseMatrix::InnerIterator it(w.Kw, col); it; ++it)
                if (it.row() == j && col != j)
                    it.valueRef() = 0.0;
        if (static_cast<int>(w.dropped.size()) > m_)
            throw ConstraintLabError(Kind::InconsistentConstraints,
                                     "SparseFundamentalEquation::solveIdeal: the rank decision "
                                     "on K did not end");
    }
    if (!w.dropped.empty()) {
        method_ = Method::NullSpaceProjected;
        // n_j = e_j − Kw⁻¹ K(:, j) restricted to the kept rows: K n_j = 0.
        const auto d = static_cast<Eigen::Index>(w.dropped.size());
        w.N.setZero(m_, d);
        for (Eigen::Index c = 0; c < d; ++c) {
            const int j = w.dropped[static_cast<std::size_t>(c)];
            w.column.setZero(m_);
            for (SparseMatrix::InnerIterator it(w.K, j); it; ++it)
                w.column[it.row()] = it.value();
            for (int dj : w.dropped)
                w.column[dj] = 0.0;
            w.N.col(c) = -w.kLdlt.solve(w.column);
            w.N(j, c) = 1.0;
        }
        w.gram.compute(w.N.transpose() * w.N);
    }
}

void SparseFundamentalEquation::requireConsistent(const Eigen::VectorXd& b)
{
    Workspace& w = *ws_;
    // b must lie in the range of A: a least-squares λ would silently violate A q̈ = b.
    w.residual = w.rhs;
    w.residual.noalias() -= w.K * w.lambda;
    const double residual = w.residual.norm();
    const double scale = b.norm() + w.Aa.norm() + w.K.norm() * w.lambda.norm();
    if (solver::inconsistent(residual, scale, sqrtTol_, rhsRounding_, m_)) {
        std::ostringstream msg;
        msg << "the constraints are inconsistent: b is not in the range of A (residual "
            << "‖K λ − (b − A a)‖ = " << ConstraintLabError::number(residual)
            << " against a scale of " << ConstraintLabError::number(scale)
            << "; rank of K = " << m_ - static_cast<int>(w.dropped.size()) << " of " << m_ << ")";
        throw ConstraintLabError(Kind::InconsistentConstraints, msg.str(),
                                 "the constraints contradict each other in this state; check "
                                 "the parameters and the initial conditions");
    }
}

void SparseFundamentalEquation::addNonIdeal(const Eigen::VectorXd& C, ConstrainedAcceleration& out)
{
    const char* where = "SparseFundamentalEquation::addNonIdeal";
    if (!idealSolved_)
        throw ConstraintLabError(Kind::InvalidParameter,
                                 std::string(where) + ": called without a successful solveIdeal");
    requireSize(C.rows(), C.cols(), n_, 1, "the non-ideal force C", where);
    requireFinite(C.data(), C.size(), "the non-ideal force C");
    if (C.isZero(0.0))
        return;
    Workspace& w = *ws_;
    // Qᶜₙᵢ = C − Aᵀ μ with μ = K⁺ A M⁻¹ C, and its acceleration M⁻¹ Qᶜₙᵢ.
    w.force = C;
    if (m_ > 0) {
        w.vn = C;
        w.massSolve(w.vn);
        w.vm.noalias() = w.A * w.vn;
        w.solveK(w.vm, w.lambda);
        w.force.noalias() -= w.A.transpose() * w.lambda;
    }
    out.Qcni += w.force;
    w.vn = w.force;
    w.massSolve(w.vn);
    out.qdd += w.vn;
    requireFinite(out.qdd.data(), out.qdd.size(), "the computed acceleration q̈");
}

void SparseFundamentalEquation::solve(const SparseMatrix& M, const Eigen::VectorXd& Q,
                                      const SparseMatrix& A, const Eigen::VectorXd& b,
                                      const Eigen::VectorXd& C, ConstrainedAcceleration& out)
{
    solveIdeal(M, Q, A, b, out);
    addNonIdeal(C, out);
}

} // namespace clab
