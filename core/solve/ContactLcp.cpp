#include "solve/ContactLcp.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace clab {

namespace {

// The row leaving the basis when column `entering` enters: the least ratio rhs/entry over the
// rows with a positive entry, ties broken lexicographically on the rows of the inverse basis
// (columns 0..k−1 of the tableau, which start as the identity), so no basis repeats.
int leavingRow(const Eigen::MatrixXd& T, int entering, int k, double eps)
{
    const int rhs = static_cast<int>(T.cols()) - 1;
    int best = -1;
    for (int i = 0; i < k; ++i) {
        if (!(T(i, entering) > eps))
            continue;
        if (best < 0) {
            best = i;
            continue;
        }
        const double a = T(i, entering), b = T(best, entering);
        double diff = T(i, rhs) / a - T(best, rhs) / b;
        for (int j = 0; j < k && std::abs(diff) <= eps; ++j)
            diff = T(i, j) / a - T(best, j) / b;
        if (diff < 0.0)
            best = i;
    }
    return best;
}

} // namespace

ContactLcp::Result ContactLcp::solve(const Eigen::MatrixXd& W, const Eigen::VectorXd& c)
{
    const int k = static_cast<int>(c.size());
    Result result;
    result.z = Eigen::VectorXd::Zero(k);
    result.w = c;
    if (k == 0 || c.minCoeff() >= 0.0) {
        result.solved = true; // z = 0 is complementary: nothing needs a force
        return result;
    }
    // Tableau [I | −W | −1 | c] over the variables w (0..k−1), z (k..2k−1) and z0 (2k).
    const int z0 = 2 * k, rhs = 2 * k + 1;
    Eigen::MatrixXd T = Eigen::MatrixXd::Zero(k, 2 * k + 2);
    T.leftCols(k).setIdentity();
    T.middleCols(k, k) = -W;
    T.col(z0).setConstant(-1.0);
    T.col(rhs) = c;
    std::vector<int> basis(static_cast<std::size_t>(k));
    for (int i = 0; i < k; ++i)
        basis[static_cast<std::size_t>(i)] = i;
    const double eps = 1e-12 * (1.0 + W.lpNorm<Eigen::Infinity>());

    const auto pivot = [&](int row, int column) {
        T.row(row) /= T(row, column);
        for (int i = 0; i < k; ++i)
            if (i != row && T(i, column) != 0.0)
                T.row(i) -= T(i, column) * T.row(row);
        const int left = basis[static_cast<std::size_t>(row)];
        basis[static_cast<std::size_t>(row)] = column;
        return left;
    };
    // z0 enters where c is most negative; then each leaving variable's complement enters.
    int row = 0;
    c.minCoeff(&row);
    int left = pivot(row, z0);
    const int limit = 50 * (k + 1) * (k + 1);
    while (result.pivots++ < limit) {
        const int entering = left < k ? left + k : left - k;
        row = leavingRow(T, entering, k, eps);
        if (row < 0)
            return result; // a ray: no solution is reachable
        // z0 leaves as soon as it can: that is the solution.
        for (int i = 0; i < k; ++i)
            if (basis[static_cast<std::size_t>(i)] == z0 && T(i, entering) > eps &&
                std::abs(T(i, rhs) / T(i, entering) - T(row, rhs) / T(row, entering)) <= eps)
                row = i;
        left = pivot(row, entering);
        if (left == z0) {
            for (int i = 0; i < k; ++i) {
                const int v = basis[static_cast<std::size_t>(i)];
                if (v >= k && v < 2 * k)
                    result.z[v - k] = std::max(0.0, T(i, rhs));
            }
            result.w = W * result.z + c;
            result.solved = true;
            return result;
        }
    }
    return result;
}

} // namespace clab
