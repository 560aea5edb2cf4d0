#pragma once

#include "solve/ConstrainedAcceleration.h"

#include <memory>

namespace clab {

/// \brief The fundamental equation for small sizes known at compile time (n ≤ 6, 1 ≤ m ≤ 3).
///
/// FundamentalEquation's fast path: the same square-root-free algorithm and the same loops
/// (DenseKernels.h), instantiated for each size so that they are unrolled and work on fixed
/// arrays, with no dynamic-size dispatch and no allocation. It covers the regular cases only
/// and says so by returning false, after which the general path decides (and reports errors):
/// a mass matrix that fails its pivot test, a K = A M⁻¹ Aᵀ that is singular or ill-conditioned
/// (redundant constraints, the zero rows of sliding contacts), a q̈ that misses A q̈ = b, or a
/// non-finite result. Singular M goes through the auxiliary system of docs/MATH.md §4 here too.
///
/// For m = 1 the results equal the general path's bit for bit; for m > 1 K is factorized by
/// Cholesky instead of a complete orthogonal decomposition, which agrees to rounding.
class FixedSizeFundamentalEquation {
public:
    static constexpr int kMaxDof = 6;
    static constexpr int kMaxConstraints = 3;

    /// The instantiation for n coordinates and m constraints; null outside the covered sizes.
    static std::unique_ptr<FixedSizeFundamentalEquation> create(int n, int m);

    virtual ~FixedSizeFundamentalEquation() = default;

    /// Auxiliary-system settings, already validated by FundamentalEquation::setAuxiliary: α, G
    /// (m×m, column-major; null for the identity) and z (m; null for α² b).
    virtual void setAuxiliary(double alpha, const double* G, const double* z) = 0;

    /// Phase 1 on column-major M (n×n), Q (n), A (m×n), b (m) into `out` (already sized;
    /// Qᶜₙᵢ is left alone). `auxiliary` forces the auxiliary system (singular M). Returns false,
    /// leaving `out` partly written, when the general path must take over.
    virtual bool solveIdeal(const double* M, const double* Q, const double* A, const double* b,
                            bool auxiliary, double tol, ConstrainedAcceleration& out) = 0;

    /// Phase 2 with a non-zero C (n) after a successful solveIdeal.
    virtual void addNonIdeal(const double* C, ConstrainedAcceleration& out) = 0;

    /// True when the last successful solveIdeal used the auxiliary system.
    virtual bool usedAuxiliary() const = 0;
};

} // namespace clab
