#include "SparsePattern.h"

#include <algorithm>

namespace clab {

SparsePattern::SparsePattern(int rows, int cols, const std::vector<std::vector<int>>& columnsOfRow)
    : rows_(rows), cols_(cols), columnStart_(static_cast<std::size_t>(cols) + 1, 0)
{
    for (const std::vector<int>& columns : columnsOfRow)
        for (int c : columns)
            ++columnStart_[static_cast<std::size_t>(c) + 1];
    for (int c = 0; c < cols; ++c)
        columnStart_[static_cast<std::size_t>(c) + 1] += columnStart_[static_cast<std::size_t>(c)];
    const auto size = static_cast<std::size_t>(columnStart_.back());
    row_.resize(size);
    col_.resize(size);
    std::vector<int> next(columnStart_.begin(), columnStart_.end() - 1);
    // Rows in ascending order, so each column's rows come out sorted.
    for (int r = 0; r < static_cast<int>(columnsOfRow.size()); ++r)
        for (int c : columnsOfRow[static_cast<std::size_t>(r)]) {
            const auto k = static_cast<std::size_t>(next[static_cast<std::size_t>(c)]++);
            row_[k] = r;
            col_[k] = c;
        }
}

void SparsePattern::scatter(const double* values, Eigen::Ref<Eigen::MatrixXd> dense) const
{
    dense.setZero();
    for (std::size_t k = 0; k < row_.size(); ++k)
        dense(row_[k], col_[k]) = values[k];
}

void SparsePattern::fill(const double* values, Eigen::SparseMatrix<double>& sparse) const
{
    const bool same =
        sparse.rows() == rows_ && sparse.cols() == cols_ && sparse.isCompressed() &&
        sparse.nonZeros() == nonZeros() &&
        std::equal(columnStart_.begin(), columnStart_.end(), sparse.outerIndexPtr()) &&
        std::equal(row_.begin(), row_.end(), sparse.innerIndexPtr());
    if (!same) {
        std::vector<Eigen::Triplet<double>> entries;
        entries.reserve(row_.size());
        for (std::size_t k = 0; k < row_.size(); ++k)
            entries.emplace_back(row_[k], col_[k], 0.0);
        sparse.resize(rows_, cols_);
        sparse.setFromTriplets(entries.begin(), entries.end());
        sparse.makeCompressed();
    }
    // Column-major with ascending rows: the values are stored in the pattern's order.
    std::copy(values, values + row_.size(), sparse.valuePtr());
}

} // namespace clab
