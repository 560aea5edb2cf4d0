#pragma once

#include <Eigen/Dense>

namespace clab {

/// \brief The linear complementarity problem of one-sided contacts, solved by Lemke's method.
///
/// Find z with w = W z + c, w ≥ 0, z ≥ 0, wᵀz = 0 (docs/MATH.md §11). For contacts at one
/// instant W is the Delassus matrix J N Jᵀ of the contacts (N the inverse mass of the system
/// with its other constraints), symmetric and positive semi-definite, and c the contacts'
/// acceleration (or velocity) without them; z is then the contacts' forces (or impulses).
/// Lemke's complementary pivoting with the covering vector (1, …, 1) finds a solution of such
/// a problem whenever one exists and otherwise ends on a ray; ties in the ratio test are
/// broken lexicographically, so degenerate problems (contacts that need no force) do not cycle.
class ContactLcp {
public:
    struct Result {
        bool solved = false; ///< false: Lemke ended on a ray (no solution for a PSD W)
        Eigen::VectorXd z;   ///< the forces or impulses, ≥ 0
        Eigen::VectorXd w;   ///< W z + c, ≥ 0, zero where z > 0
        int pivots = 0;
    };

    /// Solves the problem; W is k×k and c has k entries (k may be 0).
    static Result solve(const Eigen::MatrixXd& W, const Eigen::VectorXd& c);
};

} // namespace clab
