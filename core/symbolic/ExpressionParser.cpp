#include "ExpressionParser.h"

#include "DerivationBudget.h"
#include "Notation.h"
#include "SystemError.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <tuple>
#include <vector>

namespace clab {

namespace {

GiNaC::ex signEval(const GiNaC::ex& x)
{
    if (GiNaC::is_exactly_a<GiNaC::numeric>(x)) {
        const GiNaC::numeric& v = GiNaC::ex_to<GiNaC::numeric>(x);
        if (v.is_real())
            return v.is_zero() ? 0 : (v.is_positive() ? 1 : -1);
    }
    return clab_sign(x).hold();
}

GiNaC::ex signDerivative(const GiNaC::ex&, unsigned)
{
    return 0;
}

void signPrint(const GiNaC::ex& x, const GiNaC::print_context& c)
{
    c.s << "sign(";
    x.print(c);
    c.s << ")";
}

void signPrintLatex(const GiNaC::ex& x, const GiNaC::print_context& c)
{
    c.s << "\\operatorname{sign}(";
    x.print(c);
    c.s << ")";
}

} // namespace

REGISTER_FUNCTION(clab_sign, eval_func(signEval)
                                 .derivative_func(signDerivative)
                                 .print_func<GiNaC::print_dflt>(signPrint)
                                 .print_func<GiNaC::print_latex>(signPrintLatex))

namespace {

using Function = Notation::Function;

const Function* findFunction(const std::string& name)
{
    for (const Function& f : Notation::functions())
        if (name == f.name && f.arguments > 0)
            return &f;
    return nullptr;
}

GiNaC::ex applyFunction(const std::string& name, const std::vector<GiNaC::ex>& a)
{
    if (name == "sin")
        return GiNaC::sin(a[0]);
    if (name == "cos")
        return GiNaC::cos(a[0]);
    if (name == "tan")
        return GiNaC::tan(a[0]);
    if (name == "asin")
        return GiNaC::asin(a[0]);
    if (name == "acos")
        return GiNaC::acos(a[0]);
    if (name == "atan")
        return GiNaC::atan(a[0]);
    if (name == "atan2")
        return GiNaC::atan2(a[0], a[1]);
    if (name == "sinh")
        return GiNaC::sinh(a[0]);
    if (name == "cosh")
        return GiNaC::cosh(a[0]);
    if (name == "tanh")
        return GiNaC::tanh(a[0]);
    if (name == "exp")
        return GiNaC::exp(a[0]);
    if (name == "log")
        return GiNaC::log(a[0]);
    if (name == "sqrt")
        return GiNaC::sqrt(a[0]);
    if (name == "abs")
        return GiNaC::abs(a[0]);
    return clab_sign(a[0]);
}

// The optimal-string-alignment (restricted Damerau–Levenshtein) distance: insertions,
// deletions, substitutions and transpositions of neighbours count one each, so the typo `cx`
// is one edit from `xc` (Levenshtein counts two).
int editDistance(const std::string& a, const std::string& b)
{
    const std::size_t n = a.size(), m = b.size();
    std::vector<std::vector<int>> d(n + 1, std::vector<int>(m + 1, 0));
    for (std::size_t i = 0; i <= n; ++i)
        d[i][0] = static_cast<int>(i);
    for (std::size_t j = 0; j <= m; ++j)
        d[0][j] = static_cast<int>(j);
    for (std::size_t i = 1; i <= n; ++i)
        for (std::size_t j = 1; j <= m; ++j) {
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1,
                                d[i - 1][j - 1] + (a[i - 1] != b[j - 1] ? 1 : 0)});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    return d[n][m];
}

/// Recursive descent over the text; positions are 1-based columns counted in characters.
class Parser {
public:
    Parser(const std::string& text, const ExpressionParser::SymbolTable& symbols,
           const std::string& key)
        : text_(text), symbols_(symbols), key_(key)
    {
    }

    GiNaC::ex run()
    {
        skipSpace();
        if (pos_ == text_.size())
            fail("the expression is empty", 1);
        GiNaC::ex e = sum();
        skipSpace();
        if (pos_ != text_.size())
            fail(std::string("unexpected ") + describeHere() +
                     (text_[pos_] == ')' ? " (no '(' to close)" : " after a complete expression"),
                 column(pos_));
        return e;
    }

private:
    // Deep nesting ("((((...", "x^x^x^...") would otherwise exhaust the stack: at most this
    // many parentheses (a function's included) open at once, and as many powers in a chain.
    static constexpr int kMaxDepth = 100;

    [[noreturn]] void fail(const std::string& reason, int at) const
    {
        throw SystemError(key_, reason, at);
    }

    int column(std::size_t byte) const
    {
        int c = 1;
        for (std::size_t i = 0; i < byte && i < text_.size(); ++i)
            if ((static_cast<unsigned char>(text_[i]) & 0xC0) != 0x80)
                ++c;
        return c;
    }

    std::string describeHere() const
    {
        if (pos_ >= text_.size())
            return "end of the expression";
        const unsigned char c = static_cast<unsigned char>(text_[pos_]);
        if (c < 0x20 || c == 0x7F)
            return "control character";
        std::size_t length = 1;
        if (c >= 0x80) // the whole UTF-8 sequence, so that "θ" is quoted as itself
            while (pos_ + length < text_.size() &&
                   (static_cast<unsigned char>(text_[pos_ + length]) & 0xC0) == 0x80)
                ++length;
        return "'" + text_.substr(pos_, length) + "'";
    }

    void skipSpace()
    {
        while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t'))
            ++pos_;
    }

    bool accept(char c)
    {
        skipSpace();
        if (pos_ < text_.size() && text_[pos_] == c) {
            ++pos_;
            return true;
        }
        return false;
    }

    bool acceptPower()
    {
        skipSpace();
        if (pos_ < text_.size() && text_[pos_] == '^') {
            ++pos_;
            return true;
        }
        if (pos_ + 1 < text_.size() && text_[pos_] == '*' && text_[pos_ + 1] == '*') {
            pos_ += 2;
            return true;
        }
        return false;
    }

    /// One more parenthesis (`powers` false) or power in a chain (true) open while it lives.
    struct Depth {
        Depth(Parser& p, bool powers) : p_(p), count_(powers ? p.powers_ : p.depth_)
        {
            if (++count_ > kMaxDepth)
                p_.fail(powers ? "more than " + std::to_string(kMaxDepth) + " powers in a chain"
                               : "the expression is nested too deeply (more than " +
                                     std::to_string(kMaxDepth) + " parentheses open at once)",
                        p_.column(p_.pos_));
        }
        ~Depth() { --count_; }
        Parser& p_;
        int& count_;
    };

    // A number must be a finite real double: 9^9^9 is refused, not computed. `constant`: also
    // a constant that is not a number yet (exp(1000), sqrt(-1)), evaluated.
    GiNaC::ex checked(const GiNaC::ex& e, std::size_t start, bool constant = false) const
    {
        GiNaC::ex value = e;
        if (!GiNaC::is_exactly_a<GiNaC::numeric>(value) &&
            !(constant && GiNaC::is_exactly_a<GiNaC::numeric>(value = GiNaC::evalf(e))))
            return e;
        const std::string why = DerivationBudget::outOfRange(GiNaC::ex_to<GiNaC::numeric>(value));
        if (!why.empty())
            fail(DerivationBudget::shortened(written(start)) + " " + why, column(start));
        return e;
    }

    std::string written(std::size_t start) const
    {
        std::string text = text_.substr(start, pos_ - start);
        while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
            text.pop_back();
        return text;
    }

    GiNaC::ex sum()
    {
        skipSpace();
        const std::size_t start = pos_;
        // The terms are added once at the end: a sum built term by term is rebuilt at every
        // term, and a 10 000-term polynomial took 2.3 s (exact numbers need no partial checks).
        GiNaC::exvector terms{product()};
        for (;;) {
            if (accept('+'))
                terms.push_back(product());
            else if (accept('-'))
                terms.push_back(-product());
            else
                break;
        }
        return terms.size() == 1 ? terms.front() : checked(GiNaC::add(terms), start);
    }

    GiNaC::ex product()
    {
        skipSpace();
        const std::size_t start = pos_;
        GiNaC::ex e = unary();
        for (;;) {
            skipSpace();
            if (pos_ + 1 < text_.size() && text_[pos_] == '*' && text_[pos_ + 1] == '*')
                return e; // a power, taken by unary()'s power()
            if (accept('*'))
                e = checked(e * unary(), start);
            else if (accept('/')) {
                skipSpace();
                const std::size_t at = pos_;
                const GiNaC::ex d = unary();
                if (GiNaC::is_exactly_a<GiNaC::numeric>(d) && d.is_zero())
                    fail("division by zero", column(at));
                e = checked(e / d, start);
            } else
                return e;
        }
    }

    // Signs in a row are counted, not recursed into ("------x" would exhaust the stack).
    GiNaC::ex unary()
    {
        bool negative = false;
        for (;;) {
            if (accept('-'))
                negative = !negative;
            else if (!accept('+'))
                break;
        }
        const GiNaC::ex e = power();
        return negative ? -e : e;
    }

    GiNaC::ex power()
    {
        skipSpace();
        const std::size_t start = pos_;
        const GiNaC::ex base = primary();
        if (acceptPower()) {
            Depth guard(*this, true);
            skipSpace();
            const std::size_t at = pos_;
            const GiNaC::ex exponent = unary();
            if (GiNaC::is_exactly_a<GiNaC::numeric>(base) &&
                GiNaC::is_exactly_a<GiNaC::numeric>(exponent))
                return numericPower(GiNaC::ex_to<GiNaC::numeric>(base),
                                    GiNaC::ex_to<GiNaC::numeric>(exponent), start, at);
            // 0^x is 0 or undefined, never smooth: its derivative has log(0), on which GiNaC
            // throws from inside diff() (and leaks what it had made).
            if (base.is_zero())
                fail("zero to a power that is not a number (0^x has no derivative; write 0)",
                     column(start));
            if (GiNaC::is_exactly_a<GiNaC::numeric>(exponent))
                checkNumberFactors(base, GiNaC::ex_to<GiNaC::numeric>(exponent), start);
            return GiNaC::pow(base, exponent);
        }
        return base;
    }

    // GiNaC raises a product's numbers to the power at once: (2*x)^(8019^9) computes
    // 2^(8019^9), as sqrt(2)^N computes 2^(N/2). Each is sized as numericPower sizes a number.
    void checkNumberFactors(const GiNaC::ex& base, const GiNaC::numeric& exponent,
                            std::size_t start) const
    {
        if (!exponent.is_real())
            return;
        static constexpr const char* kFactor = " has a number factor of about 10^";
        auto check = [&](const GiNaC::ex& factor) {
            if (!GiNaC::is_exactly_a<GiNaC::power>(factor))
                return;
            const GiNaC::ex b = factor.op(0), e = factor.op(1);
            if (GiNaC::is_exactly_a<GiNaC::numeric>(b) && GiNaC::is_exactly_a<GiNaC::numeric>(e))
                sizeOfPower(GiNaC::ex_to<GiNaC::numeric>(b),
                            GiNaC::ex_to<GiNaC::numeric>(e) * exponent, start, kFactor);
        };
        check(base);
        if (!GiNaC::is_exactly_a<GiNaC::mul>(base))
            return;
        for (std::size_t i = 0; i != base.nops(); ++i)
            check(base.op(i));
        // A mul's numeric coefficient is its last operand.
        const GiNaC::ex last = base.op(base.nops() - 1);
        if (GiNaC::is_exactly_a<GiNaC::numeric>(last))
            sizeOfPower(GiNaC::ex_to<GiNaC::numeric>(last), exponent, start, kFactor);
    }

    // Sized in doubles first: 2^100000000 has 30 million digits, and GiNaC would write them all.
    GiNaC::ex numericPower(const GiNaC::numeric& base, const GiNaC::numeric& exponent,
                           std::size_t start, std::size_t at) const
    {
        if (base.is_zero()) {
            if (!exponent.is_positive())
                fail("zero to a power that is not positive", column(at));
            return 0;
        }
        sizeOfPower(base, exponent, start);
        return checked(GiNaC::pow(base, exponent), start);
    }

    // `what`: how the number relates to the text from `start` (it is it, or a factor of it).
    void sizeOfPower(const GiNaC::numeric& base, const GiNaC::numeric& exponent, std::size_t start,
                     const char* what = " is about 10^") const
    {
        if (base.is_real() && exponent.is_real() && !base.is_zero()) {
            const double digits = exponent.to_double() * std::log10(GiNaC::abs(base).to_double());
            if (!(std::abs(digits) <= 400))
                fail(DerivationBudget::shortened(written(start)) + what +
                         DerivationBudget::shortened(formatDouble(digits), 12) +
                         (digits > 0 ? ", beyond the largest number a run can hold (about 1.8e308)"
                                     : ", closer to zero than the smallest number a run can "
                                       "hold (about 2.2e-308)"),
                     column(start));
        }
    }

    static std::string formatDouble(double x)
    {
        std::ostringstream s;
        s.precision(3);
        s << x;
        return s.str();
    }

    GiNaC::ex primary()
    {
        skipSpace();
        if (pos_ == text_.size())
            fail("the expression ends where a value was expected", column(pos_));
        const char c = text_[pos_];
        if (c == '(') {
            Depth guard(*this, false);
            ++pos_;
            GiNaC::ex e = sum();
            if (!accept(')'))
                fail("missing ')' (found " + describeHere() + ")", column(pos_));
            return e;
        }
        if ((c >= '0' && c <= '9') || c == '.')
            return numberHere();
        if (std::isalpha(static_cast<unsigned char>(c)) || c == '_')
            return nameHere();
        fail("unexpected " + describeHere() + " where a value was expected", column(pos_));
    }

    GiNaC::ex numberHere()
    {
        const std::size_t start = pos_;
        auto digits = [&] {
            std::size_t n = 0;
            while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9')
                ++pos_, ++n;
            return n;
        };
        std::size_t count = digits();
        if (pos_ < text_.size() && text_[pos_] == '.') {
            ++pos_;
            count += digits();
        }
        if (count == 0)
            fail("a number needs digits", column(start));
        if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
            const std::size_t e = pos_++;
            if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-'))
                ++pos_;
            if (digits() == 0)
                fail("an exponent needs digits after 'e'", column(e));
        }
        const std::string literal = text_.substr(start, pos_ - start);
        const double value = std::strtod(literal.c_str(), nullptr);
        if (!std::isfinite(value))
            fail("the number " + DerivationBudget::shortened(literal) +
                     " is beyond the largest number a run can hold (about 1.8e308)",
                 column(start));
        // Whole numbers stay exact, so that x^2 differentiates to 2*x, not 2.0*x.
        if (literal.find_first_of(".eE") == std::string::npos && literal.size() <= 15)
            return GiNaC::numeric(std::strtoll(literal.c_str(), nullptr, 10));
        return GiNaC::numeric(value);
    }

    // GiNaC's own messages ("log_eval(): log(0)") name its internals: say it in the user's
    // words, with what they wrote.
    GiNaC::ex applied(const std::string& name, const std::vector<GiNaC::ex>& arguments,
                      std::size_t start) const
    {
        GiNaC::ex e;
        try {
            e = applyFunction(name, arguments);
        } catch (const std::exception&) {
            fail(DerivationBudget::shortened(written(start)) + " is undefined (" + name +
                     " has a pole or is not defined there)",
                 column(start));
        }
        return checked(e, start, true);
    }

    GiNaC::ex nameHere()
    {
        const std::size_t start = pos_;
        while (pos_ < text_.size() &&
               (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
            ++pos_;
        const std::string name = text_.substr(start, pos_ - start);
        skipSpace();
        const bool call = pos_ < text_.size() && text_[pos_] == '(';
        if (const Function* f = findFunction(name)) {
            if (!call)
                fail("'" + name + "' is a function: write " + name + "(...)", column(start));
            Depth guard(*this, false);
            ++pos_;
            std::vector<GiNaC::ex> arguments;
            arguments.push_back(sum());
            while (accept(','))
                arguments.push_back(sum());
            if (!accept(')'))
                fail("missing ')' after the arguments of " + name + " (found " + describeHere() +
                         ")",
                     column(pos_));
            if (static_cast<int>(arguments.size()) != f->arguments)
                fail(name + " takes " + std::to_string(f->arguments) + " argument" +
                         (f->arguments == 1 ? "" : "s") + ", got " +
                         std::to_string(arguments.size()),
                     column(start));
            return applied(name, arguments, start);
        }
        if (name == "pi") {
            if (call)
                fail("pi is a constant, not a function", column(start));
            return GiNaC::Pi;
        }
        const auto it = symbols_.find(name);
        if (it == symbols_.end()) {
            const std::string near = ExpressionParser::suggestions(name, symbols_);
            fail("unknown symbol '" + name + "'" +
                     (near.empty() ? std::string() : " (did you mean " + near + "?)"),
                 column(start));
        }
        if (call)
            fail("'" + name + "' is not a function (write " + name + "*(...) to multiply)",
                 column(pos_));
        return it->second;
    }

    const std::string& text_;
    const ExpressionParser::SymbolTable& symbols_;
    const std::string& key_;
    std::size_t pos_ = 0;
    int depth_ = 0;  ///< parentheses open
    int powers_ = 0; ///< powers in the chain being read
};

} // namespace

GiNaC::ex ExpressionParser::parse(const std::string& text, const SymbolTable& symbols,
                                  const std::string& key)
{
    return Parser(text, symbols, key).run();
}

std::string ExpressionParser::suggestions(const std::string& name, const SymbolTable& symbols)
{
    // Nearest first; at the same distance the same letters in another order (a swap) first.
    std::vector<std::tuple<int, bool, std::string>> ranked;
    const int limit = std::max(1, static_cast<int>(name.size()) / 3 + 1);
    std::string letters = name;
    std::sort(letters.begin(), letters.end());
    const auto consider = [&](const std::string& candidate) {
        const int d = editDistance(name, candidate);
        if (d > limit)
            return;
        std::string theirs = candidate;
        std::sort(theirs.begin(), theirs.end());
        ranked.emplace_back(d, theirs != letters, candidate);
    };
    for (const auto& entry : symbols)
        consider(entry.first);
    for (const Function& f : Notation::functions())
        consider(f.name);
    std::sort(ranked.begin(), ranked.end());
    std::string out;
    for (std::size_t i = 0; i < ranked.size() && i < 3; ++i)
        out += (i == 0                                             ? ""
                : i + 1 == std::min<std::size_t>(ranked.size(), 3) ? " or "
                                                                   : ", ") +
               std::get<2>(ranked[i]);
    return out;
}

} // namespace clab
