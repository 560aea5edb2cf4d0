#pragma once
// Checks of their input that the dense (FundamentalEquation) and the sparse
// (SparseFundamentalEquation) solvers share, so that both refuse the same input with the same
// words.

#include "model/ConstraintLabError.h"

#include <Eigen/Core>

#include <cmath>
#include <limits>
#include <sstream>
#include <string>

namespace clab::solver {

[[noreturn, gnu::noinline]] inline void throwWrongSize(Eigen::Index rows, Eigen::Index cols,
                                                       Eigen::Index wantRows, Eigen::Index wantCols,
                                                       const char* what, const char* where)
{
    std::ostringstream msg;
    msg << where << ": " << what << " is " << rows << "×" << cols << ", expected " << wantRows
        << "×" << wantCols;
    throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter, msg.str());
}

/// Throws InvalidParameter naming `what` and `where` unless it is wantRows × wantCols. Inline,
/// with the message out of line: the dense solver runs it four times per solve.
inline void requireSize(Eigen::Index rows, Eigen::Index cols, Eigen::Index wantRows,
                        Eigen::Index wantCols, const char* what, const char* where)
{
    if (rows != wantRows || cols != wantCols) [[unlikely]] {
        throwWrongSize(rows, cols, wantRows, wantCols, what, where);
    }
}

/// `tol` when it is a relative tolerance in (0, 1); else throws InvalidParameter from `where`.
inline double checkedTolerance(double tol, const char* where)
{
    if (!(tol > 0.0 && tol < 1.0)) {
        throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter,
                                 std::string(where) +
                                     ": the relative tolerance must lie in (0, 1), got " +
                                     ConstraintLabError::number(tol));
    }
    return tol;
}

/// `rounding` for setRightHandSideRounding: finite and not negative.
inline double checkedRounding(double rounding, const char* where)
{
    if (!(rounding >= 0.0 && rounding < std::numeric_limits<double>::infinity())) {
        throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter,
                                 std::string(where) +
                                     ": the rounding of b must be finite and not negative, got " +
                                     ConstraintLabError::number(rounding));
    }
    return rounding;
}

/// Whether the residual ‖K λ − r‖ of m rows says that b is not in the range of A: more than
/// √tol of the scale of its terms, plus the rounding b came with (up to `rounding` in each of
/// its m entries, so √m · rounding in the 2-norm).
inline bool inconsistent(double residual, double scale, double sqrtTol, double rounding, int m)
{
    return residual > sqrtTol * scale + std::sqrt(double(m)) * rounding;
}

} // namespace clab::solver
