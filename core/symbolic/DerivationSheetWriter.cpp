#include "DerivationSheetWriter.h"

namespace clab {

namespace {

std::string unicodeName(const std::string& name)
{
    return ExpressionPrinter::symbolName(name, ExpressionPrinter::Style::Unicode);
}

} // namespace

std::string DerivationSheetWriter::vector(const Row& v, Style style)
{
    const bool tex = style == Style::Latex;
    std::string s = tex ? "\\begin{pmatrix}" : "(";
    for (std::size_t i = 0; i < v.size(); ++i)
        s += (i ? (tex ? " \\\\ " : ", ") : "") + print(v[i], style);
    return s + (tex ? "\\end{pmatrix}" : ")");
}

std::string DerivationSheetWriter::texLine(const std::string& lhs, const std::string& rhs)
{
    return "\\[ " + lhs + " = " + rhs + " \\]\n";
}

std::string DerivationSheetWriter::textLine(const std::string& lhs, const std::string& rhs)
{
    return lhs + " = " + rhs + "\n";
}

std::vector<std::vector<std::string>> DerivationSheetWriter::cells(const std::vector<Row>& rows)
{
    std::vector<std::vector<std::string>> out;
    for (const Row& row : rows) {
        out.emplace_back();
        for (const GiNaC::ex& e : row)
            out.back().push_back(print(e, Style::Unicode));
    }
    return out;
}

std::vector<std::vector<std::string>> DerivationSheetWriter::column(const Row& v)
{
    std::vector<Row> rows;
    for (const GiNaC::ex& e : v)
        rows.push_back({e});
    return cells(rows);
}

DerivationSheet::Block DerivationSheetWriter::vectorBlock(const std::string& title,
                                                          const std::string& symbol,
                                                          const std::string& lhs,
                                                          const std::string& texLhs, const Row& v)
{
    Block b;
    b.title = title;
    b.symbol = symbol;
    b.cells = column(v);
    b.text = textLine(lhs, vector(v, Style::Text));
    b.latex = texLine(texLhs, vector(v, Style::Latex));
    return b;
}

DerivationSheet::Block DerivationSheetWriter::scalarBlock(const std::string& title,
                                                          const std::string& symbol,
                                                          const GiNaC::ex& e)
{
    Block b;
    b.title = title;
    b.symbol = symbol;
    b.cells = cells({{e}});
    b.text = textLine(symbol, print(e, Style::Text));
    b.latex = texLine(symbol, print(e, Style::Latex));
    return b;
}

std::string DerivationSheetWriter::print(const GiNaC::ex& e, Style style)
{
    return style == Style::Latex     ? latex_.print(e)
           : style == Style::Unicode ? unicode_.print(e)
                                     : text_.print(e);
}

DerivationSheet::Block DerivationSheetWriter::massBlock(const GiNaC::matrix& M, int n)
{
    Block mass;
    mass.title = "Mass matrix";
    mass.symbol = "M";
    std::vector<Row> rows(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            rows[i].push_back(M(i, j));
    mass.cells = cells(rows);
    mass.text = "M =\n";
    std::string tex = "\\begin{pmatrix}";
    for (int i = 0; i < n; ++i) {
        mass.text += "  " + vector(rows[i], Style::Text) + "\n";
        for (int j = 0; j < n; ++j)
            tex += (j ? " & " : "") + print(rows[i][j], Style::Latex);
        tex += i + 1 < n ? " \\\\ " : "";
    }
    mass.latex = texLine("M", tex + "\\end{pmatrix}");
    return mass;
}

void DerivationSheetWriter::addConstraintBlocks(std::vector<Block>& blocks,
                                                const SymbolicDerivation& d, int r, bool holonomic,
                                                const std::string& name)
{
    const std::string label = name.empty() ? "constraint " + std::to_string(r + 1) : name;
    const std::string number = std::to_string(r + 1);

    Block function;
    function.title = label + (holonomic ? " (holonomic)" : " (velocity)");
    function.symbol = unicodeName((holonomic ? "phi" : "psi") + number);
    function.cells = cells({{d.constraint[r]}});
    function.suffix = " = 0";
    function.text = function.title + ": " + (holonomic ? "phi" : "psi") + " = " +
                    print(d.constraint[r], Style::Text) + " = 0\n";
    function.latex = "% " + label + "\n" +
                     texLine(std::string(holonomic ? "\\varphi" : "\\psi") + "_{" + number + "}",
                             print(d.constraint[r], Style::Latex) + " = 0");

    Block row;
    row.title = label + ": row of A";
    row.symbol = unicodeName("A" + number);
    row.cells = cells({d.A[r]});
    row.text = textLine("  A row", vector(d.A[r], Style::Text));
    row.latex = texLine("A_{" + number + "}", vector(d.A[r], Style::Latex) + "^{T}");

    Block rhs;
    rhs.title = label + ": right-hand side b";
    rhs.symbol = unicodeName("b" + number);
    rhs.cells = cells({{d.b[r]}});
    rhs.text = textLine("  b", print(d.b[r], Style::Text));
    rhs.latex = texLine("b_{" + number + "}", print(d.b[r], Style::Latex));

    for (Block* b : {&function, &row, &rhs}) {
        b->constraint = r;
        b->constraintName = name;
        blocks.push_back(std::move(*b));
    }
}

DerivationSheet DerivationSheetWriter::write(const SymbolicDerivation& d, int holonomic,
                                             const std::vector<std::string>& rowNames,
                                             const std::vector<std::string>& contactNames)
{
    DerivationSheetWriter w;
    std::vector<Block> blocks;
    blocks.push_back(w.vectorBlock("Coordinates", "q", "q", "q", d.q));
    blocks.push_back(w.scalarBlock("Kinetic energy", "T", d.T));
    blocks.push_back(w.scalarBlock("Potential energy", "V", d.V));
    blocks.push_back(w.massBlock(d.M, static_cast<int>(d.q.size())));
    blocks.push_back(w.vectorBlock("Given force", "Q", "Q", "Q", d.Q));
    for (std::size_t r = 0; r < rowNames.size(); ++r)
        w.addConstraintBlocks(blocks, d, static_cast<int>(r), static_cast<int>(r) < holonomic,
                              rowNames[r]);
    for (std::size_t c = 0; c < contactNames.size(); ++c) {
        const std::string& name = contactNames[c];
        blocks.push_back(w.vectorBlock("slip velocity of " + name, unicodeName("v_" + name),
                                       "slip velocity of " + name, "v_{\\mathrm{" + name + "}}",
                                       d.slip[c]));
    }
    if (!d.C.empty())
        blocks.push_back(w.vectorBlock("Non-ideal force", "C", "C", "C", d.C));
    return DerivationSheet(std::move(blocks));
}

} // namespace clab
