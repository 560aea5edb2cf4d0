#pragma once

#include "DerivationSheet.h"
#include "ExpressionPrinter.h"
#include "SymbolicDerivation.h"

#include <string>
#include <vector>

namespace clab {

/// \brief Prints a derivation's expressions into a DerivationSheet: each block's entries in
/// Unicode and its lines of the text and LaTeX derivations.
///
/// Takes the expressions and the few names it needs, not the SymbolicModel, so that the model
/// uses the sheet and the sheet does not call the model back.
class DerivationSheetWriter {
public:
    /// Coordinates, T, V, M, Q, three blocks per constraint (rows of A in order, the first
    /// `holonomic` holonomic), the slip velocities of each contact, then C when there is one.
    static DerivationSheet write(const SymbolicDerivation& d, int holonomic,
                                 const std::vector<std::string>& rowNames,
                                 const std::vector<std::string>& contactNames);

private:
    using Style = ExpressionPrinter::Style;
    using Row = std::vector<GiNaC::ex>;
    using Block = DerivationSheet::Block;

    /// A column vector: (a, b) in text, a pmatrix in LaTeX.
    std::string vector(const Row& v, Style style);
    static std::string texLine(const std::string& lhs, const std::string& rhs);
    static std::string textLine(const std::string& lhs, const std::string& rhs);
    std::vector<std::vector<std::string>> cells(const std::vector<Row>& rows);
    std::vector<std::vector<std::string>> column(const Row& v);
    /// A block "lhs = (v)" in every style; `symbol` is its Unicode left-hand side.
    Block vectorBlock(const std::string& title, const std::string& symbol, const std::string& lhs,
                      const std::string& texLhs, const Row& v);
    Block scalarBlock(const std::string& title, const std::string& symbol, const GiNaC::ex& e);
    Block massBlock(const GiNaC::matrix& M, int n);
    /// φ or ψ, the row of A and b of constraint row r.
    void addConstraintBlocks(std::vector<Block>& blocks, const SymbolicDerivation& d, int r,
                             bool holonomic, const std::string& name);
    std::string print(const GiNaC::ex& e, Style style);

    // One printer per style, kept for its memo of canonical forms.
    ExpressionPrinter text_{Style::Text}, latex_{Style::Latex}, unicode_{Style::Unicode};
};

} // namespace clab
