#include "solve/FixedSizeFundamentalEquation.h"

#include "solve/DenseKernels.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>

namespace clab {

namespace {

// One instantiation per size. Plain arrays: Eigen's fixed-size types would add nothing the
// unrolled loops need, and arrays keep the storage layout the kernels share with the general
// path. With M = L Lᵀ, W = L⁻¹ Aᵀ, K = Wᵀ W = Lk Lkᵀ (docs/MATH.md §2):
//   q̈ = L⁻ᵀ (L⁻¹ Q + W λ),  K λ = b − Wᵀ L⁻¹ Q.
template <int N, int Mc> class FixedSize final : public FixedSizeFundamentalEquation {
public:
    void setAuxiliary(double alpha, const double* G, const double* z) override
    {
        alpha2_ = alpha * alpha;
        identityG_ = G == nullptr;
        if (G) {
            std::copy(G, G + Mc * Mc, G_);
        }
        givenZ_ = z != nullptr;
        if (z) {
            std::copy(z, z + Mc, z_);
        }
        cached_ = false; // M_a depends on α and G
    }

    bool solveIdeal(const double* M, const double* Q, const double* A, const double* b,
                    bool auxiliary, double tol, ConstrainedAcceleration& out) override
    {
        // The factors of M (of M_a, which also depends on A) and the blocks W, K are kept while
        // M and A repeat bit for bit, as they do for constant masses and straight constraints:
        // the same inputs give the same factors, so reusing them changes no result.
        const bool sameM =
            cached_ && auxiliary == auxiliary_ && tol == tol_ && sameBits(M, M_, N * N);
        const bool sameA = cached_ && sameBits(A, A_, Mc * N);
        if (!sameM || (auxiliary && !sameA)) {
            cached_ = false;
            std::copy(M, M + N * N, M_);
            std::copy(A, A + Mc * N, A_);
            if (!factorize(auxiliary, tol)) {
                return false; // the general path retries with M_a, or reports rank [M; A] < n
            }
            formBlocks(tol);
            auxiliary_ = auxiliary;
            tol_ = tol;
            cached_ = true;
        } else if (!sameA) {
            std::copy(A, A + Mc * N, A_);
            formBlocks(tol);
        }
        if (!kRegular_) {
            return false; // K singular or ill-conditioned: the general path's rank decision
        }
        const double* Qeff = Q;
        if (auxiliary) {
            auxiliaryForce(Q, b);
            Qeff = Qa_;
        }
        idealPhase(Qeff, b, out);
        double* qdd = out.qdd.data();
        if (!dense::allFinite<N>(qdd, N) ||
            !dense::constraintsHold<N, Mc>(M, Q, A, b, qdd, tol, N, Mc)) {
            return false;
        }
        if (auxiliary) {
            dense::trueForce<N>(M, Q, qdd, out.Qci.data(), N);
        }
        return true;
    }

    void addNonIdeal(const double* C, ConstrainedAcceleration& out) override
    {
        // Qᶜₙᵢ = C − Aᵀ μ with K μ = Wᵀ L⁻¹ C, and M⁻¹ Qᶜₙᵢ = L⁻ᵀ (L⁻¹ C − W μ).
        double vn[N], force[N], mu[Mc];
        std::copy(C, C + N, vn);
        std::copy(C, C + N, force);
        forward(vn);
        for (int i = 0; i < Mc; ++i) {
            mu[i] = dense::dot<N>(W_ + i * N, vn, N);
        }
        solveK(mu);
        for (double& x : mu) {
            x = -x; // −μ, so that the products below subtract
        }
        dense::addTransposedProduct<N, Mc>(A_, mu, force, N, Mc);
        dense::addProduct<N, Mc>(W_, mu, vn, N, Mc);
        dense::backward<N>(L_, invL_, diagonal_, vn, N);
        double* qdd = out.qdd.data();
        double* Qcni = out.Qcni.data();
        for (int i = 0; i < N; ++i) {
            qdd[i] += vn[i];
        }
        if (auxiliary_) {
            dense::addSquareProduct<N>(M_, vn, Qcni, N); // true-system force M Δq̈
        } else {
            for (int i = 0; i < N; ++i) {
                Qcni[i] += force[i];
            }
        }
    }

    bool usedAuxiliary() const override { return auxiliary_; }

private:
    void forward(double* v) const { dense::forward<N>(L_, invL_, diagonal_, v, N); }

    static bool sameBits(const double* x, const double* y, int size)
    {
        return std::memcmp(x, y, sizeof(double) * static_cast<std::size_t>(size)) == 0;
    }

    // L Lᵀ = M, or M_a = M + α² Aᵀ G A (lower triangle, docs/MATH.md §4), from M_ and A_.
    bool factorize(bool auxiliary, double tol)
    {
        if (!auxiliary) {
            diagonal_ = dense::isDiagonal<N>(M_, N);
            return (diagonal_ ? dense::diagonalFactor<N>(M_, invL_, N)
                              : dense::cholesky<N>(M_, L_, invL_, tol, N)) < 0;
        }
        double Ma[N * N], GA[Mc * N];
        std::copy(M_, M_ + N * N, Ma);
        const double* ga = A_;
        if (!identityG_) {
            for (int j = 0; j < N; ++j) {
                for (int i = 0; i < Mc; ++i) {
                    GA[i + j * Mc] = dense::dot<Mc>(G_ + i * Mc, A_ + j * Mc, Mc); // G = Gᵀ
                }
            }
            ga = GA;
        }
        dense::addAuxiliaryMass<N, Mc>(A_, ga, alpha2_, Ma, N, Mc);
        diagonal_ = false;
        return dense::cholesky<N>(Ma, L_, invL_, tol, N) < 0;
    }

    // W = L⁻¹ Aᵀ, K = Wᵀ W and, for m > 1, K = Lk Lkᵀ. A K that is singular or loses more than
    // half the digits is left to the general path's rank-revealing solve (redundant
    // constraints, zero rows, inconsistent b).
    void formBlocks(double tol)
    {
        dense::constraintBlocks<N, Mc>(A_, L_, invL_, diagonal_, W_, K_, N, Mc);
        if constexpr (Mc == 1) {
            kRegular_ = K_[0] > 0.0;
        } else {
            kRegular_ = dense::cholesky<Mc>(K_, Lk_, invLk_, std::sqrt(tol), Mc) < 0;
        }
    }

    // Q_a = Q + Aᵀ G z with z = α² b unless given.
    void auxiliaryForce(const double* Q, const double* b)
    {
        double z[Mc], Gz[Mc];
        for (int i = 0; i < Mc; ++i) {
            z[i] = givenZ_ ? z_[i] : alpha2_ * b[i];
        }
        const double* gz = z;
        if (!identityG_) {
            for (int i = 0; i < Mc; ++i) {
                Gz[i] = dense::dot<Mc>(G_ + i * Mc, z, Mc); // G = Gᵀ
            }
            gz = Gz;
        }
        std::copy(Q, Q + N, Qa_);
        dense::addTransposedProduct<N, Mc>(A_, gz, Qa_, N, Mc);
    }

    void idealPhase(const double* Qeff, const double* b, ConstrainedAcceleration& out)
    {
        double a[N], rhs[Mc];
        std::copy(Qeff, Qeff + N, a);
        forward(a);
        for (int i = 0; i < Mc; ++i) {
            rhs[i] = b[i] - dense::dot<N>(W_ + i * N, a, N);
        }
        solveK(rhs);
        double* lambda = out.lambda.data();
        double* Qci = out.Qci.data();
        double* qdd = out.qdd.data();
        for (int i = 0; i < Mc; ++i) {
            lambda[i] = rhs[i];
        }
        for (int i = 0; i < N; ++i) {
            Qci[i] = 0.0;
            qdd[i] = a[i];
        }
        dense::addTransposedProduct<N, Mc>(A_, rhs, Qci, N, Mc);
        dense::addProduct<N, Mc>(W_, rhs, qdd, N, Mc);
        dense::backward<N>(L_, invL_, diagonal_, qdd, N);
    }

    // x ← K⁻¹ x
    void solveK(double* x) const
    {
        if constexpr (Mc == 1) {
            x[0] = x[0] / K_[0];
        } else {
            dense::forward<Mc>(Lk_, invLk_, false, x, Mc);
            dense::backward<Mc>(Lk_, invLk_, false, x, Mc);
        }
    }

    double A_[Mc * N] = {}, M_[N * N] = {}, L_[N * N] = {}, invL_[N] = {}, W_[N * Mc] = {};
    double K_[Mc * Mc] = {}, Lk_[Mc * Mc] = {}, invLk_[Mc] = {};
    double Qa_[N] = {}, G_[Mc * Mc] = {}, z_[Mc] = {};
    double alpha2_ = 1.0, tol_ = 0.0;
    bool identityG_ = true, givenZ_ = false, diagonal_ = false, auxiliary_ = false;
    bool cached_ = false;   // M_, A_ and the factors below belong together
    bool kRegular_ = false; // K passed its pivot test
};

template <int N, int Mc> std::unique_ptr<FixedSizeFundamentalEquation> make(int n, int m)
{
    if (n == N && m == Mc) {
        return std::make_unique<FixedSize<N, Mc>>();
    }
    if constexpr (Mc < FixedSizeFundamentalEquation::kMaxConstraints) {
        return make<N, Mc + 1>(n, m);
    } else if constexpr (N < FixedSizeFundamentalEquation::kMaxDof) {
        return make<N + 1, 1>(n, m);
    } else {
        return nullptr;
    }
}

} // namespace

std::unique_ptr<FixedSizeFundamentalEquation> FixedSizeFundamentalEquation::create(int n, int m)
{
    return make<1, 1>(n, m);
}

} // namespace clab
