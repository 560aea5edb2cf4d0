#pragma once

#include <string>
#include <utility>
#include <vector>

namespace clab {

/// \brief A SymbolicModel's derivation as a list of blocks "symbol = matrix", for the
/// derivation panel and for `derive`.
///
/// Each block holds its entries printed in Unicode for the panel and its own lines of the
/// text and LaTeX derivations: text() and latex() join those lines, and they are what
/// SymbolicModel::derivationText prints, so the panel and `derive` cannot drift apart.
/// SymbolicModel::derivationSheet makes it (through DerivationSheetWriter): the sheet knows
/// nothing of the model.
class DerivationSheet {
public:
    struct Block {
        std::string title;  ///< "Mass matrix", "rod1 (holonomic)", "slip velocity of table"
        std::string symbol; ///< the left-hand side in Unicode: "M", "φ₁", "A₁", "v_table"
        /// Entries in Unicode, rows × columns: a scalar 1×1, a vector n×1, M n×n, a row of A 1×n.
        std::vector<std::vector<std::string>> cells;
        std::string suffix; ///< after the matrix: " = 0" for a constraint φ or ψ
        std::string latex;  ///< this block's lines of the LaTeX derivation
        std::string text;   ///< this block's lines of the text derivation
        /// The constraint's row of A for its three blocks (φ or ψ, its row of A, its b); -1 else.
        int constraint = -1;
        std::string constraintName; ///< the constraint's name, "" when it has none
    };

    explicit DerivationSheet(std::vector<Block> blocks) : blocks_(std::move(blocks)) {}

    /// Coordinates, T, V, M, Q, three blocks per constraint, the slip velocities, then C.
    const std::vector<Block>& blocks() const { return blocks_; }
    /// SymbolicModel::derivationText(Format::Text): every block's text lines.
    std::string text() const;
    /// SymbolicModel::derivationText(Format::Latex): every block's LaTeX lines.
    std::string latex() const;

private:
    std::vector<Block> blocks_;
};

} // namespace clab
