#include "FundamentalEquation.h"

#include "ConstraintLabError.h"

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

// x − x is 0 for a finite x and NaN otherwise, so one branch-free sum screens a whole array;
// requireFinite then names the culprit.
bool allFinite(const double* x, Eigen::Index size)
{
    double sum = 0.0;
    for (Eigen::Index i = 0; i < size; ++i) {
        sum += x[i] - x[i];
    }
    return sum == 0.0;
}

template <typename Plain> void checkFinite(const Plain& x, const char* what, const char* where)
{
    if (!allFinite(x.data(), x.size())) {
        requireFinite(x, what, where);
    }
}

void requireSize(Eigen::Index rows, Eigen::Index cols, Eigen::Index wantRows, Eigen::Index wantCols,
                 const char* what, const char* where)
{
    if (rows != wantRows || cols != wantCols) {
        std::ostringstream msg;
        msg << where << ": " << what << " is " << rows << "×" << cols << ", expected " << wantRows
            << "×" << wantCols;
        throw ConstraintLabError(Kind::InvalidParameter, msg.str());
    }
}

double dot(const double* x, const double* y, Eigen::Index size)
{
    double s = 0.0;
    for (Eigen::Index i = 0; i < size; ++i) {
        s += x[i] * y[i];
    }
    return s;
}

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
        const double* s = S.data();
        bool isDiagonal = true;
        for (Eigen::Index j = 0; j < n && isDiagonal; ++j) {
            for (Eigen::Index i = 0; i < n; ++i) {
                if (i != j && s[i + j * n] != 0.0) {
                    isDiagonal = false;
                    break;
                }
            }
        }
        if (!isDiagonal) {
            return factorizeCholesky(S, tol);
        }
        // The Cholesky pivot of a diagonal matrix is its entry: the pivot test of
        // factorizeCholesky reduces to dᵢ > 0.
        for (Eigen::Index i = 0; i < n; ++i) {
            const double di = s[i + i * n];
            if (!(di > 0.0) || !std::isfinite(di)) {
                failedPivot = i;
                return false;
            }
            invL[i] = 1.0 / std::sqrt(di);
        }
        diagonal = true;
        return true;
    }

    /// Cholesky factor L of the lower triangle of S. LLᵀ "succeeding" is not enough: a
    /// semi-definite matrix can factorize with a pivot that is pure rounding noise. Each pivot
    /// L_jj² is compared with its own diagonal entry, which keeps the test independent of the
    /// units of the coordinates (diagonal scaling).
    bool factorizeCholesky(const Eigen::MatrixXd& S, double tol)
    {
        diagonal = false;
        const double* s = S.data();
        double* __restrict l = L.data();
        for (Eigen::Index j = 0; j < n; ++j) {
            double pivot = s[j + j * n];
            for (Eigen::Index k = 0; k < j; ++k) {
                pivot -= l[j + k * n] * l[j + k * n];
            }
            if (!(pivot > 0.0) || !(pivot > tol * s[j + j * n]) || !std::isfinite(pivot)) {
                failedPivot = j;
                return false;
            }
            const double ljj = std::sqrt(pivot);
            const double inv = 1.0 / ljj;
            l[j + j * n] = ljj;
            invL[j] = inv;
            for (Eigen::Index i = j + 1; i < n; ++i) {
                double t = s[i + j * n];
                for (Eigen::Index k = 0; k < j; ++k) {
                    t -= l[i + k * n] * l[j + k * n];
                }
                l[i + j * n] = t * inv;
            }
        }
        return true;
    }

    // v ← L⁻¹ v (column-oriented, contiguous). Multiplying by the stored reciprocals keeps the
    // divisions, whose latency would chain, out of the substitutions.
    void forward(double* __restrict v) const
    {
        const double* __restrict d = invL.data();
        if (diagonal) {
            for (Eigen::Index i = 0; i < n; ++i) {
                v[i] *= d[i];
            }
            return;
        }
        const double* __restrict l = L.data();
        for (Eigen::Index j = 0; j < n; ++j) {
            const double vj = v[j] * d[j];
            v[j] = vj;
            for (Eigen::Index i = j + 1; i < n; ++i) {
                v[i] -= l[i + j * n] * vj;
            }
        }
    }

    // v ← L⁻ᵀ v
    void backward(double* __restrict v) const
    {
        const double* __restrict d = invL.data();
        if (diagonal) {
            for (Eigen::Index i = 0; i < n; ++i) {
                v[i] *= d[i];
            }
            return;
        }
        const double* __restrict l = L.data();
        for (Eigen::Index i = n - 1; i >= 0; --i) {
            double s = v[i];
            for (Eigen::Index k = i + 1; k < n; ++k) {
                s -= l[k + i * n] * v[k];
            }
            v[i] = s * d[i];
        }
    }

    /// W = L⁻¹ Aᵀ and K = Wᵀ W, symmetric by construction (one triangle, mirrored).
    void formConstraintBlocks()
    {
        const double* a = A.data();
        double* w = W.data();
        double* k = K.data();
        for (Eigen::Index j = 0; j < m; ++j) {
            for (Eigen::Index i = 0; i < n; ++i) {
                w[i + j * n] = a[j + i * m];
            }
            forward(w + j * n);
        }
        for (Eigen::Index j = 0; j < m; ++j) {
            for (Eigen::Index i = 0; i <= j; ++i) {
                const double s = dot(w + i * n, w + j * n, n);
                k[i + j * m] = s;
                k[j + i * m] = s;
            }
        }
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
}

void FundamentalEquation::setTolerance(double tol)
{
    if (!(tol > 0.0 && tol < 1.0)) {
        throw ConstraintLabError(Kind::InvalidParameter,
                                 "FundamentalEquation::setTolerance: the relative tolerance "
                                 "must lie in (0, 1), got " +
                                     ConstraintLabError::number(tol));
    }
    tol_ = tol;
    sqrtTol_ = std::sqrt(tol);
    ws_->cod.setThreshold(tol_);
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
    const double* a = A.data();
    const double* ga = w.GA.data();
    double* ma = w.Ma.data();
    for (int j = 0; j < n_; ++j) {
        for (int i = j; i < n_; ++i) {
            double s = 0.0;
            for (int k = 0; k < m_; ++k) {
                s += a[k + i * m_] * ga[k + j * m_];
            }
            ma[i + j * n_] += alpha2 * s;
        }
    }
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
    for (int i = 0; i < n_; ++i) {
        w.Qa[i] += dot(a + i * m_, w.Gz.data(), m_);
    }
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
            const double Aa = dot(W + i * n_, w.a.data(), n_); // A a = Wᵀ L⁻¹ Q
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
                w.residual[i] = w.rhs[i] - dot(w.K.data() + i * m_, w.lambda.data(), m_);
            }
            residual = w.residual.norm();
            scale = b.norm() + w.Aa.norm() + w.K.norm() * w.lambda.norm();
        }
        if (residual > sqrtTol_ * scale) {
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
        const double* a = A.data();
        for (int j = 0; j < n_; ++j) {
            double force = 0.0;
            for (int i = 0; i < m_; ++i) {
                force += a[i + j * m_] * w.lambda[i];
            }
            out.Qci[j] = force;
        }
        for (int i = 0; i < m_; ++i) {
            const double li = w.lambda[i];
            for (int j = 0; j < n_; ++j) {
                out.qdd[j] += W[j + i * n_] * li;
            }
        }
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
    const double* a = A.data();
    double residual2 = 0.0, b2 = 0.0, A2 = 0.0;
    for (int i = 0; i < m_; ++i) {
        double r = -b[i];
        for (int j = 0; j < n_; ++j) {
            r += a[i + j * m_] * qdd[j];
            A2 += a[i + j * m_] * a[i + j * m_];
        }
        residual2 += r * r;
        b2 += b[i] * b[i];
    }
    double qdd2 = 0.0, Q2 = 0.0;
    for (int j = 0; j < n_; ++j) {
        qdd2 += qdd[j] * qdd[j];
        Q2 += Q[j] * Q[j];
    }
    const double M2 = M.squaredNorm();
    const double given2 = M2 > 0.0 ? Q2 / M2 : 0.0;
    return residual2 <= tol_ * (b2 + A2 * (qdd2 + given2));
}

void FundamentalEquation::solveIdeal(const Eigen::MatrixXd& M, const Eigen::VectorXd& Q,
                                     const Eigen::MatrixXd& A, const Eigen::VectorXd& b,
                                     ConstrainedAcceleration& out)
{
    const char* where = "FundamentalEquation::solveIdeal";
    idealSolved_ = false;
    usedAux_ = false;
    requireSize(M.rows(), M.cols(), n_, n_, "the mass matrix M", where);
    requireSize(Q.rows(), Q.cols(), n_, 1, "the given force Q", where);
    requireSize(A.rows(), A.cols(), m_, n_, "the constraint matrix A", where);
    requireSize(b.rows(), b.cols(), m_, 1, "the constraint right-hand side b", where);
    checkFinite(M, "the mass matrix M", where);
    checkFinite(Q, "the given force Q", where);
    checkFinite(A, "the constraint matrix A", where);
    checkFinite(b, "the constraint right-hand side b", where);

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
        aux = !allFinite(out.qdd.data(), n_) || !constraintsHold(M, Q, A, b, out.qdd);
    }
    if (aux) {
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
        checkFinite(out.qdd, "the computed acceleration q̈ (is M + α² Aᵀ G A nearly singular?)",
                    where);
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
        const double* mass = M.data();
        for (int i = 0; i < n_; ++i) {
            out.Qci[i] = -Q[i];
        }
        for (int j = 0; j < n_; ++j) {
            const double qddj = out.qdd[j];
            for (int i = 0; i < n_; ++i) {
                out.Qci[i] += mass[i + j * n_] * qddj;
            }
        }
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

    Workspace& w = *ws_;
    // Qᶜₙᵢ = C − Aᵀ μ with μ = K⁺ A M⁻¹ C = K⁺ Wᵀ L⁻¹ C, and its acceleration
    // M⁻¹ Qᶜₙᵢ = L⁻ᵀ (L⁻¹ C − W μ) (of the auxiliary system when M is singular).
    w.vn = C;
    w.forward(w.vn.data());
    w.a = C; // w.a is free again after solveIdeal
    if (m_ > 0) {
        const double* W = w.W.data();
        for (int i = 0; i < m_; ++i) {
            w.vm[i] = dot(W + i * n_, w.vn.data(), n_);
        }
        w.solveK(w.vm, w.lambda);
        const double* a = w.A.data();
        for (int j = 0; j < n_; ++j) {
            double force = 0.0;
            for (int i = 0; i < m_; ++i) {
                force += a[i + j * m_] * w.lambda[i];
            }
            w.a[j] -= force;
        }
        for (int i = 0; i < m_; ++i) {
            const double mu = w.lambda[i];
            for (int j = 0; j < n_; ++j) {
                w.vn[j] -= W[j + i * n_] * mu;
            }
        }
    }
    w.backward(w.vn.data());
    out.qdd += w.vn;
    if (usedAux_) {
        // True-system force M Δq̈. It equals the auxiliary C − Aᵀμ since A Δq̈ = 0, but M Δq̈ is
        // the definition that holds whatever the auxiliary system is.
        const double* mass = w.M.data();
        for (int j = 0; j < n_; ++j) {
            const double vj = w.vn[j];
            for (int i = 0; i < n_; ++i) {
                out.Qcni[i] += mass[i + j * n_] * vj;
            }
        }
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
