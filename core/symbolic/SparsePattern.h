#pragma once

#include <Eigen/Dense>
#include <Eigen/SparseCore>

#include <vector>

namespace clab {

/// \brief Where the structural non-zeros of a matrix lie, column by column (Eigen's order), so
/// that a tape computes only those entries and its outputs fill a dense matrix or, in place, a
/// sparse one whose pattern stays the same over a run (docs/MATH.md §10).
///
/// A private header of core/symbolic (CLAB_CORE_PRIVATE_HEADERS).
class SparsePattern {
public:
    SparsePattern() = default;
    /// From the non-zero columns of each row (any order within a row).
    SparsePattern(int rows, int cols, const std::vector<std::vector<int>>& columnsOfRow);

    int rows() const { return rows_; }
    int cols() const { return cols_; }
    int nonZeros() const { return static_cast<int>(row_.size()); }
    /// Row and column of the k-th entry.
    int row(int k) const { return row_[static_cast<std::size_t>(k)]; }
    int col(int k) const { return col_[static_cast<std::size_t>(k)]; }

    /// dense = 0 but for the entries, values[k] at (row(k), col(k)).
    void scatter(const double* values, Eigen::Ref<Eigen::MatrixXd> dense) const;
    /// The same into a sparse matrix: its pattern is built on the first call (or when it was
    /// changed), later calls only copy the values.
    void fill(const double* values, Eigen::SparseMatrix<double>& sparse) const;

private:
    int rows_ = 0, cols_ = 0;
    std::vector<int> row_, col_;
    std::vector<int> columnStart_; ///< cols + 1 offsets into row_, as Eigen's outer index
};

} // namespace clab
