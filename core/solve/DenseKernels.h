#pragma once
// Loops of the fundamental equation over column-major storage, shared by the general solver
// (FundamentalEquation, sizes known at run time: N = 0) and its fixed-size fast path
// (FixedSizeFundamentalEquation, N and Mc known at compile time, so that the compiler unrolls
// them). Both paths run the same operations in the same order and therefore agree bit for bit.
// Notation as in docs/MATH.md §2 and §4: M = L Lᵀ, W = L⁻¹ Aᵀ, K = Wᵀ W.

#include <cmath>

namespace clab::dense {

/// The compile-time size when there is one (N > 0), else the run-time one.
template <int N> constexpr int size(int runtime)
{
    return N > 0 ? N : runtime;
}

template <int N> double dot(const double* x, const double* y, int sizeAtRunTime)
{
    const int n = size<N>(sizeAtRunTime);
    double s = 0.0;
    for (int i = 0; i < n; ++i) {
        s += x[i] * y[i];
    }
    return s;
}

/// True when the n×n matrix s has no non-zero entry off its diagonal.
template <int N> bool isDiagonal(const double* s, int nAtRunTime)
{
    const int n = size<N>(nAtRunTime);
    for (int j = 0; j < n; ++j) {
        for (int i = 0; i < n; ++i) {
            if (i != j && s[i + j * n] != 0.0) {
                return false;
            }
        }
    }
    return true;
}

/// invL = 1/√dᵢ of a diagonal matrix. The Cholesky pivot of a diagonal matrix is its entry: the
/// pivot test of cholesky() reduces to dᵢ > 0. Returns the failing index, or −1.
template <int N> int diagonalFactor(const double* s, double* invL, int nAtRunTime)
{
    const int n = size<N>(nAtRunTime);
    for (int i = 0; i < n; ++i) {
        const double di = s[i + i * n];
        if (!(di > 0.0) || !std::isfinite(di)) {
            return i;
        }
        invL[i] = 1.0 / std::sqrt(di);
    }
    return -1;
}

/// Cholesky factor L of the lower triangle of S, with the reciprocals of its diagonal in invL.
/// LLᵀ "succeeding" is not enough: a semi-definite matrix can factorize with a pivot that is pure
/// rounding noise. Each pivot L_jj² is compared with its own diagonal entry, which keeps the test
/// independent of the units of the coordinates (diagonal scaling). Returns the failing pivot, or
/// −1.
template <int N>
int cholesky(const double* s, double* __restrict l, double* __restrict invL, double tol,
             int nAtRunTime)
{
    const int n = size<N>(nAtRunTime);
    for (int j = 0; j < n; ++j) {
        double pivot = s[j + j * n];
        for (int k = 0; k < j; ++k) {
            pivot -= l[j + k * n] * l[j + k * n];
        }
        if (!(pivot > 0.0) || !(pivot > tol * s[j + j * n]) || !std::isfinite(pivot)) {
            return j;
        }
        const double ljj = std::sqrt(pivot);
        const double inv = 1.0 / ljj;
        l[j + j * n] = ljj;
        invL[j] = inv;
        for (int i = j + 1; i < n; ++i) {
            double t = s[i + j * n];
            for (int k = 0; k < j; ++k) {
                t -= l[i + k * n] * l[j + k * n];
            }
            l[i + j * n] = t * inv;
        }
    }
    return -1;
}

// v ← D v for a diagonal D = diag(d): L⁻¹ and L⁻ᵀ of a diagonal M.
template <int N> void scale(const double* __restrict d, double* __restrict v, int nAtRunTime)
{
    const int n = size<N>(nAtRunTime);
    for (int i = 0; i < n; ++i) {
        v[i] *= d[i];
    }
}

// v ← L⁻¹ v (column-oriented, contiguous). Multiplying by the stored reciprocals keeps the
// divisions, whose latency would chain, out of the substitutions.
template <int N>
void forward(const double* __restrict l, const double* __restrict invL, bool diagonal,
             double* __restrict v, int nAtRunTime)
{
    const int n = size<N>(nAtRunTime);
    if (diagonal) {
        scale<N>(invL, v, n);
        return;
    }
    for (int j = 0; j < n; ++j) {
        const double vj = v[j] * invL[j];
        v[j] = vj;
        for (int i = j + 1; i < n; ++i) {
            v[i] -= l[i + j * n] * vj;
        }
    }
}

// v ← L⁻ᵀ v
template <int N>
void backward(const double* __restrict l, const double* __restrict invL, bool diagonal,
              double* __restrict v, int nAtRunTime)
{
    const int n = size<N>(nAtRunTime);
    if (diagonal) {
        scale<N>(invL, v, n);
        return;
    }
    for (int i = n - 1; i >= 0; --i) {
        double s = v[i];
        for (int k = i + 1; k < n; ++k) {
            s -= l[k + i * n] * v[k];
        }
        v[i] = s * invL[i];
    }
}

/// W = L⁻¹ Aᵀ (n×m) and K = Wᵀ W (m×m), symmetric by construction (one triangle, mirrored).
template <int N, int Mc>
void constraintBlocks(const double* a, const double* l, const double* invL, bool diagonal,
                      double* w, double* k, int nAtRunTime, int mAtRunTime)
{
    const int n = size<N>(nAtRunTime);
    const int m = size<Mc>(mAtRunTime);
    for (int j = 0; j < m; ++j) {
        for (int i = 0; i < n; ++i) {
            w[i + j * n] = a[j + i * m];
        }
        forward<N>(l, invL, diagonal, w + j * n, n);
    }
    for (int j = 0; j < m; ++j) {
        for (int i = 0; i <= j; ++i) {
            const double s = dot<N>(w + i * n, w + j * n, n);
            k[i + j * m] = s;
            k[j + i * m] = s;
        }
    }
}

/// y ← y + Aᵀ x (A m×n, x m-vector, y n-vector).
template <int N, int Mc>
void addTransposedProduct(const double* a, const double* x, double* y, int nAtRunTime,
                          int mAtRunTime)
{
    const int n = size<N>(nAtRunTime);
    const int m = size<Mc>(mAtRunTime);
    for (int j = 0; j < n; ++j) {
        double s = 0.0;
        for (int i = 0; i < m; ++i) {
            s += a[i + j * m] * x[i];
        }
        y[j] += s;
    }
}

/// y ← y + W x (W n×m, x m-vector, y n-vector), column by column.
template <int N, int Mc>
void addProduct(const double* w, const double* x, double* y, int nAtRunTime, int mAtRunTime)
{
    const int n = size<N>(nAtRunTime);
    const int m = size<Mc>(mAtRunTime);
    for (int i = 0; i < m; ++i) {
        const double xi = x[i];
        for (int j = 0; j < n; ++j) {
            y[j] += w[j + i * n] * xi;
        }
    }
}

/// Lower triangle of M_a = M + α² Aᵀ (G A), written into ma (which holds a copy of M).
template <int N, int Mc>
void addAuxiliaryMass(const double* a, const double* ga, double alpha2, double* ma, int nAtRunTime,
                      int mAtRunTime)
{
    const int n = size<N>(nAtRunTime);
    const int m = size<Mc>(mAtRunTime);
    for (int j = 0; j < n; ++j) {
        for (int i = j; i < n; ++i) {
            double s = 0.0;
            for (int k = 0; k < m; ++k) {
                s += a[k + i * m] * ga[k + j * m];
            }
            ma[i + j * n] += alpha2 * s;
        }
    }
}

/// y ← y + S x for a square n×n S.
template <int N> void addSquareProduct(const double* s, const double* x, double* y, int nAtRunTime)
{
    const int n = size<N>(nAtRunTime);
    for (int j = 0; j < n; ++j) {
        const double xj = x[j];
        for (int i = 0; i < n; ++i) {
            y[i] += s[i + j * n] * xj;
        }
    }
}

/// force = M q̈ − Q, the constraint force of the true system whatever the auxiliary one was.
template <int N>
void trueForce(const double* mass, const double* Q, const double* qdd, double* force,
               int nAtRunTime)
{
    const int n = size<N>(nAtRunTime);
    for (int i = 0; i < n; ++i) {
        force[i] = -Q[i];
    }
    addSquareProduct<N>(mass, qdd, force, n);
}

/// ‖A q̈ − b‖ ≤ √tol (‖b‖ + ‖A‖ (‖q̈‖ + ‖Q‖/‖M‖)) for a finite q̈, compared in squares (see
/// FundamentalEquation for why ‖Q‖/‖M‖ is the scale); plus √m · rounding when b is known only
/// to within `rounding` per entry (FundamentalEquation::setRightHandSideRounding).
template <int N, int Mc>
bool constraintsHold(const double* mass, const double* Q, const double* a, const double* b,
                     const double* qdd, double tol, int nAtRunTime, int mAtRunTime,
                     double rounding = 0.0)
{
    const int n = size<N>(nAtRunTime);
    const int m = size<Mc>(mAtRunTime);
    double residual2 = 0.0, b2 = 0.0, A2 = 0.0;
    for (int i = 0; i < m; ++i) {
        double r = -b[i];
        for (int j = 0; j < n; ++j) {
            r += a[i + j * m] * qdd[j];
            A2 += a[i + j * m] * a[i + j * m];
        }
        residual2 += r * r;
        b2 += b[i] * b[i];
    }
    double qdd2 = 0.0, Q2 = 0.0, M2 = 0.0;
    for (int j = 0; j < n; ++j) {
        qdd2 += qdd[j] * qdd[j];
        Q2 += Q[j] * Q[j];
    }
    for (int j = 0; j < n * n; ++j) {
        M2 += mass[j] * mass[j];
    }
    const double given2 = M2 > 0.0 ? Q2 / M2 : 0.0;
    if (rounding > 0.0)
        return std::sqrt(residual2) <=
               std::sqrt(tol * (b2 + A2 * (qdd2 + given2))) + std::sqrt(double(m)) * rounding;
    return residual2 <= tol * (b2 + A2 * (qdd2 + given2));
}

/// True when every entry is finite: x − x is 0 for a finite x and NaN otherwise, so one
/// branch-free sum screens a whole array.
template <int N> bool allFinite(const double* x, int sizeAtRunTime)
{
    const int n = size<N>(sizeAtRunTime);
    double sum = 0.0;
    for (int i = 0; i < n; ++i) {
        sum += x[i] - x[i];
    }
    return sum == 0.0;
}

} // namespace clab::dense
