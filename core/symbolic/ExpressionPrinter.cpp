#include "ExpressionPrinter.h"

#include "SymbolNames.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <sstream>
#include <vector>

namespace clab {

namespace {

/// An integer in superscript characters: ², ⁻¹.
std::string superscript(const GiNaC::numeric& k)
{
    static const char* const digits[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
    std::ostringstream plain;
    plain << k;
    std::string out;
    for (char c : plain.str())
        out += c == '-' ? std::string("⁻") : std::string(digits[c - '0']);
    return out;
}

} // namespace

std::string ExpressionPrinter::symbolName(const std::string& name, Style style)
{
    switch (style) {
    case Style::Latex:
        return SymbolNames::latex(name);
    case Style::Unicode:
        return SymbolNames::unicode(name);
    case Style::Text:
        break;
    }
    return name;
}

std::string ExpressionPrinter::print(const GiNaC::ex& e)
{
    return print(e, Sum);
}

std::string ExpressionPrinter::print(const GiNaC::ex& e, Binding context)
{
    std::string text;
    if (GiNaC::is_exactly_a<GiNaC::add>(e))
        text = sum(e);
    else if (GiNaC::is_exactly_a<GiNaC::mul>(e))
        text = product(e);
    else if (GiNaC::is_exactly_a<GiNaC::power>(e)) {
        const auto [sign, form] = canonicalSign(e);
        const bool reciprocal = GiNaC::is_exactly_a<GiNaC::numeric>(e.op(1)) &&
                                GiNaC::ex_to<GiNaC::numeric>(e.op(1)).is_negative();
        text = reciprocal ? product(e) : (sign < 0 ? minus() : "") + power(form.op(0), form.op(1));
    } else if (GiNaC::is_exactly_a<GiNaC::function>(e))
        text = function(e);
    else if (GiNaC::is_exactly_a<GiNaC::numeric>(e))
        text = number(GiNaC::ex_to<GiNaC::numeric>(e));
    else if (GiNaC::is_a<GiNaC::constant>(e))
        text = style_ == Style::Latex ? "\\pi" : style_ == Style::Unicode ? "π" : "pi";
    else if (style_ == Style::Unicode && GiNaC::is_a<GiNaC::symbol>(e))
        text = symbolName(GiNaC::ex_to<GiNaC::symbol>(e).get_name(), style_);
    else {
        std::ostringstream out; // a symbol: its name, or the TeX name it was made with
        if (style_ == Style::Latex)
            out << GiNaC::latex;
        out << e;
        text = out.str();
    }
    if (binding(e) >= context)
        return text;
    return style_ == Style::Latex ? "\\left(" + text + "\\right)" : "(" + text + ")";
}

bool ExpressionPrinter::isNegative(const GiNaC::ex& e)
{
    // The sign the printout shows: a product's coefficient times the canonical signs of its
    // factored-out sums (CanonicalOrder), not GiNaC's coefficient alone.
    return !GiNaC::is_exactly_a<GiNaC::add>(e) && order_.canonical(e).sign < 0;
}

ExpressionPrinter::Binding ExpressionPrinter::binding(const GiNaC::ex& e)
{
    if (GiNaC::is_exactly_a<GiNaC::add>(e) || isNegative(e))
        return Sum;
    if (GiNaC::is_exactly_a<GiNaC::mul>(e))
        return Product;
    if (GiNaC::is_exactly_a<GiNaC::power>(e)) {
        const GiNaC::ex& k = e.op(1);
        const bool reciprocal =
            GiNaC::is_exactly_a<GiNaC::numeric>(k) && GiNaC::ex_to<GiNaC::numeric>(k).is_negative();
        const bool root = k.is_equal(GiNaC::numeric(1, 2));
        return reciprocal ? Product : root ? Atom : Power;
    }
    if (GiNaC::is_exactly_a<GiNaC::numeric>(e) && !GiNaC::ex_to<GiNaC::numeric>(e).is_integer())
        return GiNaC::ex_to<GiNaC::numeric>(e).is_rational() ? Product : Atom;
    return Atom;
}

std::string ExpressionPrinter::number(const GiNaC::numeric& v) const
{
    if (style_ == Style::Latex && v.is_rational() && !v.is_integer()) {
        const std::string sign = v.is_negative() ? "-" : "";
        std::ostringstream p, q;
        p << abs(v.numer());
        q << v.denom();
        return sign + "\\frac{" + p.str() + "}{" + q.str() + "}";
    }
    std::ostringstream out;
    out << v;
    if (style_ != Style::Unicode)
        return out.str();
    std::string text;
    for (char c : out.str())
        text += c == '-' ? minus() : std::string(1, c);
    return text;
}

std::string ExpressionPrinter::minus() const
{
    return style_ == Style::Unicode ? "−" : "-";
}

std::string ExpressionPrinter::sum(const GiNaC::ex& e)
{
    // Added terms first, then the subtracted ones: x1 - x2 rather than -x2 + x1.
    std::vector<GiNaC::ex> terms = order_.ordered(e);
    std::stable_partition(terms.begin(), terms.end(),
                          [this](const GiNaC::ex& t) { return !isNegative(t); });
    std::string out;
    for (const GiNaC::ex& term : terms) {
        if (out.empty())
            out = print(term, Sum);
        else if (isNegative(term))
            out += " " + minus() + " " + print(-term, Product);
        else
            out += " + " + print(term, Product);
    }
    return out;
}

std::string ExpressionPrinter::product(const GiNaC::ex& e)
{
    GiNaC::numeric coefficient = 1;
    std::vector<GiNaC::ex> numerator, denominator;
    const std::vector<GiNaC::ex> factors =
        GiNaC::is_exactly_a<GiNaC::mul>(e) ? order_.ordered(e) : std::vector<GiNaC::ex>{e};
    for (const GiNaC::ex& factor : factors) {
        // A factored-out sum in the sign CanonicalOrder prefers, whichever GiNaC chose.
        const auto [sign, f] = canonicalSign(factor);
        if (sign < 0)
            coefficient = -coefficient;
        if (GiNaC::is_exactly_a<GiNaC::numeric>(f))
            coefficient *= GiNaC::ex_to<GiNaC::numeric>(f);
        else if (GiNaC::is_exactly_a<GiNaC::power>(f) &&
                 GiNaC::is_exactly_a<GiNaC::numeric>(f.op(1)) &&
                 GiNaC::ex_to<GiNaC::numeric>(f.op(1)).is_negative())
            denominator.push_back(GiNaC::pow(f.op(0), -f.op(1)));
        else
            numerator.push_back(f);
    }
    const bool negative = coefficient.is_negative();
    const GiNaC::numeric size = abs(coefficient);
    if (size.is_rational() && !size.is_integer()) {
        if (!size.numer().is_equal(1))
            numerator.insert(numerator.begin(), size.numer());
        denominator.insert(denominator.begin(), size.denom());
    } else if (!size.is_equal(1) || (numerator.empty() && denominator.empty())) {
        numerator.insert(numerator.begin(), size);
    }
    const bool latex = style_ == Style::Latex;
    const std::string times = latex ? " " : style_ == Style::Unicode ? "·" : "*";
    const auto join = [&](const std::vector<GiNaC::ex>& list, Binding context) {
        std::string out;
        for (const GiNaC::ex& f : list)
            out += (out.empty() ? "" : times) + print(f, context);
        return out;
    };
    std::string out;
    if (latex && !denominator.empty())
        out = "\\frac{" + (numerator.empty() ? std::string("1") : join(numerator, Product)) + "}{" +
              join(denominator, Product) + "}";
    else if (!denominator.empty())
        out = (numerator.empty() ? std::string("1") : join(numerator, Power)) + "/" +
              (denominator.size() == 1 ? print(denominator.front(), Power)
                                       : "(" + join(denominator, Power) + ")");
    else
        out = join(numerator, Power);
    return (negative ? minus() : "") + out;
}

std::pair<int, GiNaC::ex> ExpressionPrinter::canonicalSign(const GiNaC::ex& e)
{
    if (GiNaC::is_exactly_a<GiNaC::add>(e) && order_.canonical(e).sign < 0)
        return {-1, -e};
    if (GiNaC::is_exactly_a<GiNaC::power>(e) && GiNaC::is_exactly_a<GiNaC::add>(e.op(0)) &&
        GiNaC::is_exactly_a<GiNaC::numeric>(e.op(1)) &&
        GiNaC::ex_to<GiNaC::numeric>(e.op(1)).is_integer() && order_.canonical(e.op(0)).sign < 0) {
        // (−b)^k = ±b^k; the power keeps its form so that no evaluation merges it back.
        const int sign = GiNaC::ex_to<GiNaC::numeric>(e.op(1)).is_odd() ? -1 : 1;
        return {sign, GiNaC::power(-e.op(0), e.op(1)).hold()};
    }
    return {1, e};
}

std::string ExpressionPrinter::power(const GiNaC::ex& rawBase, const GiNaC::ex& exponent)
{
    // An even power of a sum shows the sum in its canonical sign: (x1 - x2)^2 in every run.
    const bool even = GiNaC::is_exactly_a<GiNaC::numeric>(exponent) &&
                      GiNaC::ex_to<GiNaC::numeric>(exponent).is_even();
    const GiNaC::ex base =
        even && GiNaC::is_exactly_a<GiNaC::add>(rawBase) && order_.canonical(rawBase).sign < 0
            ? GiNaC::ex(-rawBase)
            : rawBase;
    const bool latex = style_ == Style::Latex;
    const bool unicode = style_ == Style::Unicode;
    if (exponent.is_equal(GiNaC::numeric(1, 2))) {
        if (unicode) {
            // √x for a name or a whole number; anything longer needs the parentheses.
            const bool single = GiNaC::is_a<GiNaC::symbol>(base) ||
                                GiNaC::is_a<GiNaC::constant>(base) ||
                                (GiNaC::is_exactly_a<GiNaC::numeric>(base) &&
                                 GiNaC::ex_to<GiNaC::numeric>(base).is_nonneg_integer());
            return single ? "√" + print(base, Atom) : "√(" + print(base, Sum) + ")";
        }
        return latex ? "\\sqrt{" + print(base, Sum) + "}" : "sqrt(" + print(base, Sum) + ")";
    }
    const std::string b = print(base, Atom);
    if (latex)
        return b + "^{" + print(exponent, Sum) + "}";
    if (unicode && GiNaC::is_exactly_a<GiNaC::numeric>(exponent) &&
        GiNaC::ex_to<GiNaC::numeric>(exponent).is_integer())
        return b + superscript(GiNaC::ex_to<GiNaC::numeric>(exponent));
    const bool plain = (GiNaC::is_exactly_a<GiNaC::numeric>(exponent) &&
                        GiNaC::ex_to<GiNaC::numeric>(exponent).is_nonneg_integer()) ||
                       GiNaC::is_a<GiNaC::symbol>(exponent);
    return b + "^" + (plain ? print(exponent, Atom) : "(" + print(exponent, Sum) + ")");
}

std::string ExpressionPrinter::function(const GiNaC::ex& e)
{
    const std::string name = GiNaC::ex_to<GiNaC::function>(e).get_name();
    std::string arguments;
    for (std::size_t i = 0; i < e.nops(); ++i)
        arguments += (i ? ", " : "") + print(e.op(i), Sum);
    if (style_ == Style::Text)
        return (name == "clab_sign" ? std::string("sign") : name) + "(" + arguments + ")";
    if (style_ == Style::Unicode) {
        // The names of the LaTeX style, for the same reader.
        static const std::map<std::string, std::string> shown{{"asin", "arcsin"},
                                                              {"acos", "arccos"},
                                                              {"atan", "arctan"},
                                                              {"log", "ln"},
                                                              {"clab_sign", "sign"}};
        if (name == "abs")
            return "|" + arguments + "|";
        const auto it = shown.find(name);
        return (it != shown.end() ? it->second : name) + "(" + arguments + ")";
    }
    static const std::map<std::string, std::string> tex{
        {"sin", "\\sin"},     {"cos", "\\cos"},     {"tan", "\\tan"},   {"asin", "\\arcsin"},
        {"acos", "\\arccos"}, {"atan", "\\arctan"}, {"sinh", "\\sinh"}, {"cosh", "\\cosh"},
        {"tanh", "\\tanh"},   {"exp", "\\exp"},     {"log", "\\ln"}};
    if (name == "abs")
        return "\\left|" + arguments + "\\right|";
    const auto it = tex.find(name);
    const std::string head =
        it != tex.end()
            ? it->second
            : "\\operatorname{" + (name == "clab_sign" ? std::string("sign") : name) + "}";
    return head + "\\left(" + arguments + "\\right)";
}

} // namespace clab
