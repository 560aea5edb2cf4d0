#include "DerivationSheet.h"

#include "ExpressionPrinter.h"
#include "SymbolicModel.h"

namespace clab {

namespace {

using Style = ExpressionPrinter::Style;
using Row = std::vector<GiNaC::ex>;

/// Prints one block's entries in the three styles and makes its lines.
class BlockWriter {
public:
    /// A column vector: (a, b) in text, a pmatrix in LaTeX.
    std::string vector(const Row& v, Style style)
    {
        const bool tex = style == Style::Latex;
        std::string s = tex ? "\\begin{pmatrix}" : "(";
        for (std::size_t i = 0; i < v.size(); ++i)
            s += (i ? (tex ? " \\\\ " : ", ") : "") + print(v[i], style);
        return s + (tex ? "\\end{pmatrix}" : ")");
    }

    static std::string texLine(const std::string& lhs, const std::string& rhs)
    {
        return "\\[ " + lhs + " = " + rhs + " \\]\n";
    }

    static std::string textLine(const std::string& lhs, const std::string& rhs)
    {
        return lhs + " = " + rhs + "\n";
    }

    std::vector<std::vector<std::string>> cells(const std::vector<Row>& rows)
    {
        std::vector<std::vector<std::string>> out;
        for (const Row& row : rows) {
            out.emplace_back();
            for (const GiNaC::ex& e : row)
                out.back().push_back(print(e, Style::Unicode));
        }
        return out;
    }

    std::vector<std::vector<std::string>> column(const Row& v)
    {
        std::vector<Row> rows;
        for (const GiNaC::ex& e : v)
            rows.push_back({e});
        return cells(rows);
    }

    /// A block "lhs = (v)" in every style; `symbol` is its Unicode left-hand side.
    DerivationSheet::Block vectorBlock(const std::string& title, const std::string& symbol,
                                       const std::string& lhs, const std::string& texLhs,
                                       const Row& v)
    {
        DerivationSheet::Block b;
        b.title = title;
        b.symbol = symbol;
        b.cells = column(v);
        b.text = textLine(lhs, vector(v, Style::Text));
        b.latex = texLine(texLhs, vector(v, Style::Latex));
        return b;
    }

    DerivationSheet::Block scalarBlock(const std::string& title, const std::string& symbol,
                                       const GiNaC::ex& e)
    {
        DerivationSheet::Block b;
        b.title = title;
        b.symbol = symbol;
        b.cells = cells({{e}});
        b.text = textLine(symbol, print(e, Style::Text));
        b.latex = texLine(symbol, print(e, Style::Latex));
        return b;
    }

    std::string print(const GiNaC::ex& e, Style style)
    {
        return style == Style::Latex     ? latex_.print(e)
               : style == Style::Unicode ? unicode_.print(e)
                                         : text_.print(e);
    }

private:
    // One printer per style, kept for its memo of canonical forms.
    ExpressionPrinter text_{Style::Text}, latex_{Style::Latex}, unicode_{Style::Unicode};
};

std::string unicodeName(const std::string& name)
{
    return ExpressionPrinter::symbolName(name, Style::Unicode);
}

} // namespace

DerivationSheet::DerivationSheet(const SymbolicModel& model)
{
    const SymbolicModel::Derivation& d = model.derivation();
    const int n = model.dof();
    BlockWriter w;

    blocks_.push_back(w.vectorBlock("Coordinates", "q", "q", "q", model.coordinates()));
    blocks_.push_back(w.scalarBlock("Kinetic energy", "T", d.T));
    blocks_.push_back(w.scalarBlock("Potential energy", "V", d.V));

    Block mass;
    mass.title = "Mass matrix";
    mass.symbol = "M";
    std::vector<Row> rows(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            rows[i].push_back(d.M(i, j));
    mass.cells = w.cells(rows);
    mass.text = "M =\n";
    std::string tex = "\\begin{pmatrix}";
    for (int i = 0; i < n; ++i) {
        mass.text += "  " + w.vector(rows[i], Style::Text) + "\n";
        for (int j = 0; j < n; ++j)
            tex += (j ? " & " : "") + w.print(rows[i][j], Style::Latex);
        tex += i + 1 < n ? " \\\\ " : "";
    }
    mass.latex = BlockWriter::texLine("M", tex + "\\end{pmatrix}");
    blocks_.push_back(std::move(mass));

    blocks_.push_back(w.vectorBlock("Given force", "Q", "Q", "Q", d.Q));

    for (int r = 0; r < model.constraintCount(); ++r) {
        const bool holonomic = r < model.holonomicCount();
        const std::string& name = model.rowNames()[r];
        const std::string label = name.empty() ? "constraint " + std::to_string(r + 1) : name;
        const std::string number = std::to_string(r + 1);

        Block function;
        function.title = label + (holonomic ? " (holonomic)" : " (velocity)");
        function.symbol = unicodeName((holonomic ? "phi" : "psi") + number);
        function.cells = w.cells({{d.constraint[r]}});
        function.suffix = " = 0";
        function.text = function.title + ": " + (holonomic ? "phi" : "psi") + " = " +
                        w.print(d.constraint[r], Style::Text) + " = 0\n";
        function.latex = "% " + label + "\n" +
                         BlockWriter::texLine(std::string(holonomic ? "\\varphi" : "\\psi") + "_{" +
                                                  number + "}",
                                              w.print(d.constraint[r], Style::Latex) + " = 0");

        Block row;
        row.title = label + ": row of A";
        row.symbol = unicodeName("A" + number);
        row.cells = w.cells({d.A[r]});
        row.text = BlockWriter::textLine("  A row", w.vector(d.A[r], Style::Text));
        row.latex =
            BlockWriter::texLine("A_{" + number + "}", w.vector(d.A[r], Style::Latex) + "^{T}");

        Block rhs;
        rhs.title = label + ": right-hand side b";
        rhs.symbol = unicodeName("b" + number);
        rhs.cells = w.cells({{d.b[r]}});
        rhs.text = BlockWriter::textLine("  b", w.print(d.b[r], Style::Text));
        rhs.latex = BlockWriter::texLine("b_{" + number + "}", w.print(d.b[r], Style::Latex));

        for (Block* b : {&function, &row, &rhs}) {
            b->constraint = r;
            b->constraintName = name;
            blocks_.push_back(std::move(*b));
        }
    }

    const std::vector<SymbolicModel::Contact>& contacts = model.contacts();
    for (std::size_t c = 0; c < contacts.size(); ++c) {
        const std::string& name = contacts[c].name;
        blocks_.push_back(w.vectorBlock("slip velocity of " + name, unicodeName("v_" + name),
                                        "slip velocity of " + name, "v_{\\mathrm{" + name + "}}",
                                        d.slip[c]));
    }
    if (model.hasNonIdeal())
        blocks_.push_back(w.vectorBlock("Non-ideal force", "C", "C", "C", d.C));
}

std::string DerivationSheet::text() const
{
    std::string out;
    for (const Block& b : blocks_)
        out += b.text;
    return out;
}

std::string DerivationSheet::latex() const
{
    std::string out;
    for (const Block& b : blocks_)
        out += b.latex;
    return out;
}

} // namespace clab
