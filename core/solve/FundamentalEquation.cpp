#include "solve/FundamentalEquation.h"

#include "model/ConstraintLabError.h"
#include "solve/DenseKernels.h"
#include "solve/SolverChecks.h"

#include <cmath>
#include <sstream>
#include <string>
#include <utility>

namespace clab {

namespace {

using Kind = ConstraintLabError::Kind;

template <typename Derived>
void requireFinite(const Eigen::DenseBase<Derived>& x, const char* what, const char* where)
{
    for (Eigen::Index j = 0; j < x.cols(); ++j) {
        for (Eigen::Index i = 0; i < x.rows(); ++i) {
            if (!std::isfinite(x(i, j))) {
                std::ostringstream msg;
                // `where` names an internal step; the user sees the quantity and its entry.
                (void)where;
                msg << what << " has a non-finite entry (" << x(i, j) << ") at ";
                if (x.cols() == 1) {
                    msg << "index " << i;
                } else {
                    msg << "row " << i << ", column " << j;
                }
                throw ConstraintLabError(Kind::NonFinite, msg.str(),
                                         "a value overflowed or is not a number: the parameters "
                                         "or the state are probably of extreme size");
            }
        }
    }
}

// dense::allFinite screens a whole array; requireFinite then names the culprit.
template <typename Plain> void checkFinite(const Plain& x, const char* what, const char* where)
{
    if (!dense::allFinite<0>(x.data(), int(x.size()))) {
        requireFinite(x, what, where);
    }
}

using solver::requireSize;

} // namespace

// The problems are small (n, m ≲ 10), where Eigen's dynamic-size kernels spend more time on
// dispatch than on arithmetic, so the hot path is written as plain loops over column-major
// storage. Only the rank-revealing factorization of K for m > 1 is left to Eigen.
//
// With M = L Lᵀ (L = diag(√dᵢ) for a diagonal M), W = L⁻¹ Aᵀ and K = Wᵀ W:
//   a = M⁻¹ Q = L⁻ᵀ (L⁻¹ Q),   A a = Wᵀ (L⁻¹ Q),   q̈ = L⁻ᵀ (L⁻¹ Q + W λ),
// so one solve with L per right-hand side and one with Lᵀ per result suffice.
struct FundamentalEquation::Workspace {
    Workspace(int n, int m)
        : n(n), m(m), M(n, n), A(m, n), Ma(n, n), L(n, n), invL(n), W(n, m), K(m, m), cod(m, m),
          G(Eigen::MatrixXd::Identity(m, m)), GA(m, n), Qa(n), a(n), Aa(m), rhs(m), lambda(m),
          residual(m), z(m), Gz(m), vn(n), vm(m), codC(m), codY(m)
    {
    }

    /// Factorizes M: entry by entry when diagonal, else by Cholesky. False when M is not
    /// (numerically) positive definite.
    bool factorizeMass(const Eigen::MatrixXd& S, double tol)
    {
        if (!dense::isDiagonal<0>(S.data(), int(n))) {
            return factorizeCholesky(S, tol);
        }
        failedPivot = dense::diagonalFactor<0>(S.data(), invL.data(), int(n));
        diagonal = failedPivot < 0;
        return diagonal;
    }

    /// Cholesky factor L of the lower triangle of S with the pivot test of dense::cholesky.
    bool factorizeCholesky(const Eigen::MatrixXd& S, double tol)
    {
        diagonal = false;
        failedPivot = dense::cholesky<0>(S.data(), L.data(), invL.data(), tol, int(n));
        return failedPivot < 0;
    }

    void forward(double* v) const { dense::forward<0>(L.data(), invL.data(), diagonal, v, int(n)); }
    void backward(double* v) const
    {
        dense::backward<0>(L.data(), invL.data(), diagonal, v, int(n));
    }

    /// W = L⁻¹ Aᵀ and K = Wᵀ W.
    void formConstraintBlocks()
    {
        dense::constraintBlocks<0, 0>(A.data(), L.data(), invL.data(), diagonal, W.data(), K.data(),
                                      int(n), int(m));
    }

    /// Rank decision on K. For m = 1 this is what the complete orthogonal decomposition decides
    /// for a 1×1 matrix (|K| > tol·|K|, i.e. K ≠ 0) without computing it.
    void factorizeK()
    {
        if (m == 1) {
            kRank = K(0, 0) > 0.0 ? 1 : 0;
        } else {
            cod.compute(K);
            kRank = cod.rank();
        }
    }

    /// Minimum-norm solution of K x = rhs.
    void solveK(const Eigen::VectorXd& rhs, Eigen::VectorXd& x)
    {
        if (m == 1) {
            x[0] = kRank == 1 ? rhs[0] / K(0, 0) : 0.0;
        } else {
            minimumNormSolve(rhs, x);
        }
    }

    // From the complete orthogonal decomposition K P = Q [T 0; 0 0] Z, written out because
    // COD::solve allocates its temporaries.
    void minimumNormSolve(const Eigen::VectorXd& rhs, Eigen::VectorXd& x)
    {
        const Eigen::MatrixXd& qtz = cod.matrixQTZ();
        const Eigen::Index r = kRank;
        if (r == 0) {
            x.setZero();
            return;
        }
        // c = Qᵀ rhs (only the first r reflectors touch the rows that are used)
        codC = rhs;
        for (Eigen::Index k = 0; k < r; ++k) {
            codC.tail(m - k).applyHouseholderOnTheLeft(qtz.col(k).tail(m - k - 1), cod.hCoeffs()(k),
                                                       &householder);
        }
        // y = Zᵀ [T⁻¹ c₁; 0]
        codY.head(r) = codC.head(r);
        qtz.topLeftCorner(r, r).triangularView<Eigen::Upper>().solveInPlace(codY.head(r));
        if (r < m) {
            codY.tail(m - r).setZero();
            for (Eigen::Index k = 0; k < r; ++k) {
                if (k != r - 1) {
                    std::swap(codY(k), codY(r - 1));
                }
                codY.segment(r - 1, m - r + 1)
                    .applyHouseholderOnTheLeft(qtz.row(k).tail(m - r).transpose(), cod.zCoeffs()(k),
                                               &householder);
                if (k != r - 1) {
                    std::swap(codY(k), codY(r - 1));
                }
            }
        }
        // x = P y
        const auto& perm = cod.colsPermutation().indices();
        for (Eigen::Index i = 0; i < m; ++i) {
            x(perm(i)) = codY(i);
        }
    }

    Eigen::Index n, m;
    Eigen::MatrixXd M, A; // copies of the last inputs; addNonIdeal and true forces need them
    Eigen::MatrixXd Ma;   // auxiliary mass matrix M + α² Aᵀ G A (lower triangle)
    Eigen::MatrixXd L;    // Cholesky factor of M, or of Ma on the auxiliary path
    Eigen::VectorXd invL; // 1 / L_jj (1 / √dᵢ for a diagonal M, whose L is not stored)
    Eigen::MatrixXd W;    // L⁻¹ Aᵀ
    Eigen::MatrixXd K;    // A M⁻¹ Aᵀ
    Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod; // of K, m > 1 only
    Eigen::MatrixXd G, GA;
    Eigen::VectorXd Qa, a, Aa, rhs, lambda, residual, z, Gz, vn, vm, codC, codY;
    double householder = 0.0; // one-column workspace of a Householder reflection
    bool diagonal = false;    // L is diagonal: invL is all of it
    bool identityG = true;    // G = I, so that Aᵀ G A needs no product with G
    Eigen::Index kRank = 0;
    Eigen::Index failedPivot = 0;
};

void FundamentalEquation::WorkspaceDeleter::operator()(Workspace* w) const
{
    delete w;
}

FundamentalEquation::FundamentalEquation(int n, int m) : n_(n), m_(m)
{
    if (n < 1 || m < 0) {
        throw ConstraintLabError(Kind::InvalidParameter,
                                 "FundamentalEquation: need n ≥ 1 coordinates and m ≥ 0 "
                                 "constraints, got n = " +
                                     std::to_string(n) + ", m = " + std::to_string(m));
    }
    ws_.reset(new Workspace(n, m));
    ws_->cod.setThreshold(tol_);
    fixed_ = FixedSizeFundamentalEquation::create(n, m);
}

void FundamentalEquation::setTolerance(double tol)
{
    tol_ = solver::checkedTolerance(tol, "FundamentalEquation::setTolerance");
    sqrtTol_ = std::sqrt(tol);
    ws_->cod.setThreshold(tol_);
}

void FundamentalEquation::setRightHandSideRounding(double rounding)
{
    rhsRounding_ =
        solver::checkedRounding(rounding, "FundamentalEquation::setRightHandSideRounding");
}

void FundamentalEquation::setAuxiliary(const AuxiliarySettings& settings)
{
    const char* where = "FundamentalEquation::setAuxiliary";
    if (!std::isfinite(settings.alpha) || settings.alpha == 0.0) {
        throw ConstraintLabError(Kind::InvalidParameter,
                                 std::string(where) + ": α must be finite and non-zero, got " +
                                     ConstraintLabError::number(settings.alpha));
    }
    Eigen::MatrixXd G = Eigen::MatrixXd::Identity(m_, m_);
    if (settings.G) {
        G = *settings.G;
        if (G.rows() != m_ || G.cols() != m_) {
            throw ConstraintLabError(Kind::InvalidParameter,
                                     std::string(where) + ": G must be " + std::to_string(m_) +
                                         "×" + std::to_string(m_) + ", got " +
                                         std::to_string(G.rows()) + "×" + std::to_string(G.cols()));
        }
        if (!G.allFinite()) {
            throw ConstraintLabError(Kind::InvalidParameter,
                                     std::string(where) + ": G has a non-finite entry");
        }
        const double scale = G.cwiseAbs().maxCoeff();
        if ((G - G.transpose()).cwiseAbs().maxCoeff() > 1e-12 * scale) {
            throw ConstraintLabError(Kind::InvalidParameter,
                                     std::string(where) + ": G must be symmetric");
        }
        Eigen::LLT<Eigen::MatrixXd> gLlt(G);
        if (gLlt.info() != Eigen::Success) {
            throw ConstraintLabError(Kind::InvalidParameter,
                                     std::string(where) + ": G must be positive definite");
        }
    }
    if (settings.z) {
        if (settings.z->size() != m_) {
            throw ConstraintLabError(Kind::InvalidParameter,
                                     std::string(where) + ": z must have " + std::to_string(m_) +
                                         " entries, got " + std::to_string(settings.z->size()));
        }
        if (!settings.z->allFinite()) {
            throw ConstraintLabError(Kind::InvalidParameter,
                                     std::string(where) + ": z has a non-finite entry");
        }
    }
    aux_ = settings;
    ws_->G = G;
    ws_->identityG = !settings.G.has_value();
    if (fixed_) {
        fixed_->setAuxiliary(settings.alpha, settings.G ? G.data() : nullptr,
                             settings.z ? settings.z->data() : nullptr);
    }
    forceAux_ = true;
}

// M_a = M + α² Aᵀ G A (lower triangle, which is all the Cholesky factorization reads) and
// Q_a = Q + Aᵀ G z of docs/MATH.md §4.
void FundamentalEquation::formAuxiliary(const Eigen::MatrixXd& M, const Eigen::VectorXd& Q,
                                        const Eigen::MatrixXd& A, const Eigen::VectorXd& b)
{
    Workspace& w = *ws_;
    const double alpha2 = aux_.alpha * aux_.alpha;
    w.Ma = M;
    w.Qa = Q;
    if (m_ == 0) {
        return;
    }
    if (w.identityG) {
        w.GA = A;
    } else {
        w.GA.noalias() = w.G * A;
    }
    dense::addAuxiliaryMass<0, 0>(A.data(), w.GA.data(), alpha2, w.Ma.data(), n_, m_);
    if (aux_.z) {
        w.z = *aux_.z;
    } else {
        w.z = alpha2 * b;
    }
    if (w.identityG) {
        w.Gz = w.z;
    } else {
        w.Gz.noalias() = w.G * w.z;
    }
    dense::addTransposedProduct<0, 0>(A.data(), w.Gz.data(), w.Qa.data(), n_, m_);
}

// q̈, Qᶜᵢ = Aᵀ λ and λ for the factorized mass matrix (of the auxiliary system when it is
// used) and the given force Qeff.
void FundamentalEquation::idealPhase(const Eigen::VectorXd& Qeff, const Eigen::MatrixXd& A,
                                     const Eigen::VectorXd& b, ConstrainedAcceleration& out)
{
    Workspace& w = *ws_;
    // L⁻¹ Q; the unconstrained acceleration is a = L⁻ᵀ L⁻¹ Q
    w.a = Qeff;
    w.forward(w.a.data());
    out.qdd = w.a;

    if (m_ > 0) {
        w.formConstraintBlocks();
        const double* W = w.W.data();
        for (int i = 0; i < m_; ++i) {
            const double Aa = dense::dot<0>(W + i * n_, w.a.data(), n_); // A a = Wᵀ L⁻¹ Q
            w.Aa[i] = Aa;
            w.rhs[i] = b[i] - Aa;
        }
        w.factorizeK();
        w.solveK(w.rhs, w.lambda);

        // b must lie in the range of A: a least-squares λ would silently violate A q̈ = b.
        double residual, scale;
        if (m_ == 1) {
            const double k = w.K(0, 0), lambda = w.lambda[0];
            residual = std::abs(w.rhs[0] - k * lambda);
            scale = std::abs(b[0]) + std::abs(w.Aa[0]) + k * std::abs(lambda);
        } else {
            for (int i = 0; i < m_; ++i) {
                w.residual[i] = w.rhs[i] - dense::dot<0>(w.K.data() + i * m_, w.lambda.data(), m_);
            }
            residual = w.residual.norm();
            scale = b.norm() + w.Aa.norm() + w.K.norm() * w.lambda.norm();
        }
        if (solver::inconsistent(residual, scale, sqrtTol_, rhsRounding_, m_)) {
            std::ostringstream msg;
            msg << "the constraints are inconsistent: b is not in the range of A (residual "
                << "‖K λ − (b − A a)‖ = " << ConstraintLabError::number(residual)
                << " against a scale of " << ConstraintLabError::number(scale)
                << "; rank of K = " << w.kRank << " of " << m_ << ")";
            throw ConstraintLabError(Kind::InconsistentConstraints, msg.str(),
                                     "the constraints contradict each other in this state; check "
                                     "the parameters and the initial conditions");
        }
        out.lambda = w.lambda;
        // Qᶜᵢ = Aᵀ λ, and q̈ = L⁻ᵀ (L⁻¹ Q + W λ)
        out.Qci.setZero();
        dense::addTransposedProduct<0, 0>(A.data(), w.lambda.data(), out.Qci.data(), n_, m_);
        dense::addProduct<0, 0>(W, w.lambda.data(), out.qdd.data(), n_, m_);
    }
    w.backward(out.qdd.data());
}

// ‖A q̈ − b‖ ≤ √tol (‖b‖ + ‖A‖ (‖q̈‖ + ‖Q‖/‖M‖)) for a finite q̈, compared in squares.
// ‖Q‖/‖M‖ is an acceleration scale of the given force that no factorization enters: where the
// constraint takes up the given force exactly (a body at rest on it: q̈ = 0, b = 0), A q̈ is the
// rounding of A M⁻¹ Q + A M⁻¹ Qᶜ, whose terms are of that size. A factor spoiled by a vanishing
// pivot inflates M⁻¹ Q, so the scale must not be taken from it. A trustworthy factorization
// meets the test by many orders of magnitude even for an ill-conditioned M.
bool FundamentalEquation::constraintsHold(const Eigen::MatrixXd& M, const Eigen::VectorXd& Q,
                                          const Eigen::MatrixXd& A, const Eigen::VectorXd& b,
                                          const Eigen::VectorXd& qdd) const
{
    return dense::constraintsHold<0, 0>(M.data(), Q.data(), A.data(), b.data(), qdd.data(), tol_,
                                        n_, m_, rhsRounding_);
}

// The sizes and finiteness of the ideal phase's inputs.
void FundamentalEquation::checkIdealInputs(const Eigen::MatrixXd& M, const Eigen::VectorXd& Q,
                                           const Eigen::MatrixXd& A, const Eigen::VectorXd& b,
                                           const char* where) const
{
    requireSize(M.rows(), M.cols(), n_, n_, "the mass matrix M", where);
    requireSize(Q.rows(), Q.cols(), n_, 1, "the given force Q", where);
    requireSize(A.rows(), A.cols(), m_, n_, "the constraint matrix A", where);
    requireSize(b.rows(), b.cols(), m_, 1, "the constraint right-hand side b", where);
    checkFinite(M, "the mass matrix M", where);
    checkFinite(Q, "the given force Q", where);
    checkFinite(A, "the constraint matrix A", where);
    checkFinite(b, "the constraint right-hand side b", where);
}

// The ideal phase through the auxiliary system M + α² Aᵀ G A, for a singular M or when the
// regular path missed the constraints; massRegular says whether M passed its pivot test.
void FundamentalEquation::solveAuxiliary(const Eigen::MatrixXd& M, const Eigen::VectorXd& Q,
                                         const Eigen::MatrixXd& A, const Eigen::VectorXd& b,
                                         bool massRegular, ConstrainedAcceleration& out,
                                         const char* where)
{
    Workspace& w = *ws_;
    w.M = M;
    formAuxiliary(M, Q, A, b);
    // For M ≥ 0 and G > 0, xᵀ M_a x = xᵀ M x + α² (Ax)ᵀ G (Ax) vanishes only when M x = 0
    // and A x = 0: M_a is positive definite exactly when rank [M; A] = n, the condition for
    // a unique acceleration (docs/MATH.md §4). Its Cholesky factorization is the rank test.
    if (!w.factorizeCholesky(w.Ma, tol_)) {
        std::ostringstream msg;
        msg << "the mass matrix is singular and the constraints do not determine "
            << "the acceleration: M + α² Aᵀ G A is not positive definite (pivot "
            << w.failedPivot + 1 << " of " << n_ << " vanishes), so rank [M; A] < " << n_
            << " with " << m_ << " constraint(s); the model is missing inertia or "
            << "constraints (or α and G are so badly scaled that the sum loses A)";
        throw ConstraintLabError(Kind::SingularMass, msg.str(),
                                 "some motion has neither inertia nor a constraint; give "
                                 "every coordinate a mass or constrain it");
    }
    usedAux_ = true;
    idealPhase(w.Qa, A, b, out);
    checkFinite(out.qdd, "the computed acceleration q̈ (is M + α² Aᵀ G A nearly singular?)", where);
    if (!constraintsHold(M, Q, A, b, out.qdd)) {
        // Both factorizations were accepted and both miss the constraints. With a regular M
        // that points at constraints whose inconsistency the rank decision on K missed.
        std::ostringstream msg;
        msg << "the constraints cannot hold: the acceleration misses A q̈ = b, so the " << m_
            << " constraint(s) are inconsistent, or they do not determine the "
            << "acceleration together with M (rank [M; A] numerically below " << n_ << ")";
        throw ConstraintLabError(
            massRegular ? Kind::InconsistentConstraints : Kind::SingularMass, msg.str(),
            "check the parameters and the initial conditions; nearly parallel constraints "
            "or an almost massless coordinate make the equations ill-conditioned");
    }
    // The auxiliary force differs from the true one unless z = α² b; M q̈ − Q never does.
    dense::trueForce<0>(M.data(), Q.data(), out.qdd.data(), out.Qci.data(), n_);
}

// One chain of fallbacks: the fixed-size path, the Cholesky factor of M, then the auxiliary
// system, each checked against A q̈ = b; the loops are in DenseKernels.h.
void FundamentalEquation::solveIdeal(const Eigen::MatrixXd& M, const Eigen::VectorXd& Q,
                                     const Eigen::MatrixXd& A, const Eigen::VectorXd& b,
                                     ConstrainedAcceleration& out)
{
    const char* where = "FundamentalEquation::solveIdeal";
    idealSolved_ = false;
    usedAux_ = false;
    checkIdealInputs(M, Q, A, b, where);

    Workspace& w = *ws_;
    if (out.qdd.size() != n_ || out.Qci.size() != n_ || out.Qcni.size() != n_ ||
        out.lambda.size() != m_) {
        out.resize(n_, m_);
    } else {
        out.Qcni.setZero();
        if (m_ == 0) {
            out.Qci.setZero();
        }
    }
    fixedSolved_ = fixed_ && useFixed_ &&
                   fixed_->solveIdeal(M.data(), Q.data(), A.data(), b.data(),
                                      forceAux_ || singularMass_, tol_, out);
    if (fixedSolved_) {
        usedAux_ = fixed_->usedAuxiliary();
        idealSolved_ = true;
        return;
    }
    w.A = A;

    bool aux = forceAux_ || singularMass_;
    bool massRegular = false; // M passed the pivot test
    if (!aux) {
        massRegular = w.factorizeMass(M, tol_);
        aux = !massRegular;
    }
    if (!aux) {
        idealPhase(Q, A, b, out);
        // A semi-definite M can pass the pivot test when an earlier small pivot has amplified
        // the rounding of a vanishing one (its error grows like ε / pivot); the factor is then
        // meaningless and q̈ misses the constraints by O(1). Rounding in K can likewise hide an
        // inconsistent b from the rank decision. Either way q̈ violates A q̈ = b: retry with the
        // auxiliary system, whose own checks tell which it was.
        aux = !dense::allFinite<0>(out.qdd.data(), n_) || !constraintsHold(M, Q, A, b, out.qdd);
    }
    if (aux) {
        solveAuxiliary(M, Q, A, b, massRegular, out, where);
    }
    checkFinite(out.qdd, "the computed acceleration q̈ (is M nearly singular?)", where);
    idealSolved_ = true;
}

void FundamentalEquation::addNonIdeal(const Eigen::VectorXd& C, ConstrainedAcceleration& out)
{
    const char* where = "FundamentalEquation::addNonIdeal";
    if (!idealSolved_) {
        throw ConstraintLabError(Kind::InvalidParameter,
                                 std::string(where) + ": called without a successful solveIdeal");
    }
    requireSize(C.rows(), C.cols(), n_, 1, "the non-ideal force C", where);
    checkFinite(C, "the non-ideal force C", where);
    if (out.qdd.size() != n_ || out.Qcni.size() != n_) {
        throw ConstraintLabError(Kind::InvalidParameter,
                                 std::string(where) + ": the output was not filled by solveIdeal");
    }

    // Nothing to add without a non-ideal force (ideal constraints, or friction at rest).
    bool zero = true;
    for (int i = 0; i < n_; ++i) {
        zero = zero && C[i] == 0.0;
    }
    if (zero) {
        return;
    }

    if (fixedSolved_) {
        fixed_->addNonIdeal(C.data(), out);
        checkFinite(out.qdd, "the computed acceleration q̈", where);
        return;
    }
    Workspace& w = *ws_;
    // Qᶜₙᵢ = C − Aᵀ μ with μ = K⁺ A M⁻¹ C = K⁺ Wᵀ L⁻¹ C, and its acceleration
    // M⁻¹ Qᶜₙᵢ = L⁻ᵀ (L⁻¹ C − W μ) (of the auxiliary system when M is singular).
    w.vn = C;
    w.forward(w.vn.data());
    w.a = C; // w.a is free again after solveIdeal
    if (m_ > 0) {
        const double* W = w.W.data();
        for (int i = 0; i < m_; ++i) {
            w.vm[i] = dense::dot<0>(W + i * n_, w.vn.data(), n_);
        }
        w.solveK(w.vm, w.lambda);
        w.lambda = -w.lambda; // −μ, so that the products below subtract
        dense::addTransposedProduct<0, 0>(w.A.data(), w.lambda.data(), w.a.data(), n_, m_);
        dense::addProduct<0, 0>(W, w.lambda.data(), w.vn.data(), n_, m_);
    }
    w.backward(w.vn.data());
    out.qdd += w.vn;
    if (usedAux_) {
        // True-system force M Δq̈. It equals the auxiliary C − Aᵀμ since A Δq̈ = 0, but M Δq̈ is
        // the definition that holds whatever the auxiliary system is.
        dense::addSquareProduct<0>(w.M.data(), w.vn.data(), out.Qcni.data(), n_);
    } else {
        out.Qcni += w.a;
    }
    checkFinite(out.qdd, "the computed acceleration q̈", where);
}

void FundamentalEquation::solve(const Eigen::MatrixXd& M, const Eigen::VectorXd& Q,
                                const Eigen::MatrixXd& A, const Eigen::VectorXd& b,
                                const Eigen::VectorXd& C, ConstrainedAcceleration& out)
{
    solveIdeal(M, Q, A, b, out);
    addNonIdeal(C, out);
}

} // namespace clab
