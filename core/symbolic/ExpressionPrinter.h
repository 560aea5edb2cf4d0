#pragma once

#include "CanonicalOrder.h"

#include <ginac/ginac.h>

#include <string>
#include <utility>

namespace clab {

/// \brief Prints derived expressions the same way in every run, as text our parser reads back,
/// as LaTeX, or as Unicode for a screen.
///
/// GiNaC's own printer follows its hash order, which changes from run to run (CanonicalOrder),
/// so `derive` would print x1^2+y1^2 once and y1^2+x1^2 the next time. Here operands come in
/// the canonical order, a negative term is subtracted, and a product shows its denominator as a
/// fraction: "m*g*y - k*(x - l)^2/2", \frac{k (x - l)^{2}}{2} in LaTeX, or "m·g·y − k·(x − l)²/2"
/// in Unicode (UTF-8, for reading only: the parser does not read it back).
class ExpressionPrinter {
public:
    enum class Style { Text, Latex, Unicode };
    explicit ExpressionPrinter(Style style) : style_(style) {}

    std::string print(const GiNaC::ex& e);

    /// A coordinate's, velocity's or parameter's name as a reader sees it: trailing digits and
    /// the part after the first '_' are subscripts, Greek names are letters and NAME_dot is a
    /// dotted NAME. "theta1_dot" is \dot{\theta_{1}} in LaTeX and "θ̇₁" in Unicode; Text keeps
    /// the name.
    static std::string symbolName(const std::string& name, Style style);

private:
    // How tightly an expression binds; a context wraps anything looser in parentheses.
    enum Binding { Sum = 1, Product = 2, Power = 3, Atom = 4 };

    std::string print(const GiNaC::ex& e, Binding context);
    Binding binding(const GiNaC::ex& e);
    std::string sum(const GiNaC::ex& e);
    std::string product(const GiNaC::ex& e);
    std::string power(const GiNaC::ex& base, const GiNaC::ex& exponent);
    std::string function(const GiNaC::ex& e);
    std::string number(const GiNaC::numeric& v) const;
    std::string minus() const;
    bool isNegative(const GiNaC::ex& e);
    /// A sum (or an integer power of one) in CanonicalOrder's sign: {±1, the form to print}.
    std::pair<int, GiNaC::ex> canonicalSign(const GiNaC::ex& e);

    Style style_;
    CanonicalOrder order_;
};

} // namespace clab
