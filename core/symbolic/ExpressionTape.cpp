#include "ExpressionTape.h"

#include "CanonicalOrder.h"
#include "ExpressionParser.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

namespace clab {

/// Turns GiNaC trees into instructions, one register per distinct subexpression.
class ExpressionTape::Compiler {
public:
    Compiler(ExpressionTape& tape, std::vector<double>& constants)
        : tape_(tape), constants_(constants)
    {
    }

    void input(const GiNaC::ex& symbol, int reg, bool varying)
    {
        memo_.emplace(symbol, reg);
        setVarying(reg, varying);
    }

    int node(const GiNaC::ex& e)
    {
        if (const auto it = memo_.find(e); it != memo_.end())
            return it->second;
        const int reg = build(e);
        memo_.emplace(e, reg);
        return reg;
    }

    int registerCount() const { return next_; }

private:
    void setVarying(int reg, bool varying)
    {
        if (static_cast<int>(varying_.size()) <= reg)
            varying_.resize(static_cast<std::size_t>(reg) + 1, false);
        varying_[static_cast<std::size_t>(reg)] = varying;
        next_ = std::max(next_, reg + 1);
    }

    bool varying(int reg) const { return varying_[static_cast<std::size_t>(reg)]; }

    int constant(double value)
    {
        if (const auto it = constantRegs_.find(value); it != constantRegs_.end())
            return it->second;
        const int reg = next_;
        setVarying(reg, false);
        constants_.resize(static_cast<std::size_t>(reg) + 1, 0.0);
        constants_[static_cast<std::size_t>(reg)] = value;
        constantRegs_.emplace(value, reg);
        return reg;
    }

    int emit(Op op, int a, int b = -1)
    {
        const int reg = next_;
        const bool v = varying(a) || (b >= 0 && varying(b));
        setVarying(reg, v);
        (v ? tape_.varyingCode_ : tape_.fixedCode_).push_back({op, reg, a, b});
        return reg;
    }

    [[noreturn]] static void unsupported(const GiNaC::ex& e, const char* what)
    {
        std::ostringstream text;
        text << what << " '" << e << "'";
        throw std::invalid_argument(text.str());
    }

    int build(const GiNaC::ex& e)
    {
        if (GiNaC::is_exactly_a<GiNaC::numeric>(e)) {
            const GiNaC::numeric& v = GiNaC::ex_to<GiNaC::numeric>(e);
            if (!v.is_real())
                unsupported(e, "cannot evaluate the complex number");
            return constant(v.to_double());
        }
        if (GiNaC::is_a<GiNaC::constant>(e))
            return constant(GiNaC::ex_to<GiNaC::numeric>(e.evalf()).to_double());
        if (GiNaC::is_a<GiNaC::symbol>(e))
            unsupported(e, "no value for the symbol");
        if (GiNaC::is_exactly_a<GiNaC::add>(e)) {
            // The sign its text prefers; the check on −e only guards against a loop.
            const GiNaC::ex negated = -e;
            if (order_.canonical(e).sign < 0 && order_.canonical(negated).sign > 0)
                return emit(Op::Neg, node(negated));
            return sum(e);
        }
        if (GiNaC::is_exactly_a<GiNaC::mul>(e))
            return product(e);
        if (GiNaC::is_exactly_a<GiNaC::power>(e))
            return power(node(e.op(0)), e.op(1));
        if (GiNaC::is_exactly_a<GiNaC::function>(e))
            return function(e);
        unsupported(e, "cannot evaluate");
    }

    int sum(const GiNaC::ex& e)
    {
        int acc = -1;
        for (const GiNaC::ex& term : order_.ordered(e)) {
            // A term with a negative coefficient is subtracted: x - y, not x + (-1*y).
            const bool negative =
                acc >= 0 && GiNaC::is_exactly_a<GiNaC::mul>(term) &&
                GiNaC::is_exactly_a<GiNaC::numeric>(term.op(term.nops() - 1)) &&
                GiNaC::ex_to<GiNaC::numeric>(term.op(term.nops() - 1)).is_negative();
            if (negative)
                acc = emit(Op::Sub, acc, node(-term));
            else
                acc = acc < 0 ? node(term) : emit(Op::Add, acc, node(term));
        }
        return acc;
    }

    int product(const GiNaC::ex& e)
    {
        GiNaC::numeric coefficient = 1;
        std::vector<int> numerators, denominators;
        for (const GiNaC::ex& factor : order_.ordered(e)) {
            if (GiNaC::is_exactly_a<GiNaC::numeric>(factor))
                coefficient *= GiNaC::ex_to<GiNaC::numeric>(factor);
            else if (GiNaC::is_exactly_a<GiNaC::power>(factor) &&
                     GiNaC::is_exactly_a<GiNaC::numeric>(factor.op(1)) &&
                     GiNaC::ex_to<GiNaC::numeric>(factor.op(1)).is_negative())
                denominators.push_back(node(GiNaC::pow(factor.op(0), -factor.op(1))));
            else
                numerators.push_back(node(factor));
        }
        // A rational coefficient p/q multiplies by p and divides by q, both exact in double.
        const GiNaC::numeric p = coefficient.numer(), q = coefficient.denom();
        if (coefficient.is_rational() && !q.is_equal(1) && std::abs(q.to_double()) < 1e15 &&
            std::abs(p.to_double()) < 1e15) {
            denominators.push_back(constant(q.to_double()));
            coefficient = p;
        }
        const bool negate = coefficient.is_equal(-1);
        if (!negate && !coefficient.is_equal(1))
            numerators.push_back(node(coefficient));
        // Factors that depend on fixed inputs only are combined first, so that their product
        // (and quotient) is computed once in setFixed, not on every evaluation.
        const auto multiply = [&](const std::vector<int>& regs, bool varyingOnes) {
            int acc = -1;
            for (int reg : regs)
                if (varying(reg) == varyingOnes)
                    acc = acc < 0 ? reg : emit(Op::Mul, acc, reg);
            return acc;
        };
        const auto divide = [&](int a, int b) {
            return b < 0 ? a : (a < 0 ? emit(Op::Recip, b) : emit(Op::Div, a, b));
        };
        const int fixedPart = divide(multiply(numerators, false), multiply(denominators, false));
        const int varyingNumerator = multiply(numerators, true);
        int result = fixedPart < 0          ? varyingNumerator
                     : varyingNumerator < 0 ? fixedPart
                                            : emit(Op::Mul, varyingNumerator, fixedPart);
        result = divide(result, multiply(denominators, true));
        if (result < 0)
            result = constant(1.0);
        return negate ? emit(Op::Neg, result) : result;
    }

    int power(int base, const GiNaC::ex& exponent)
    {
        if (GiNaC::is_exactly_a<GiNaC::numeric>(exponent)) {
            const GiNaC::numeric k = GiNaC::ex_to<GiNaC::numeric>(exponent);
            if (k.is_integer() && k.to_double() >= -64 && k.to_double() <= 64) {
                const int n = static_cast<int>(k.to_int());
                if (n == 0)
                    return constant(1.0);
                const int positive = integerPower(base, n < 0 ? -n : n);
                return n < 0 ? emit(Op::Recip, positive) : positive;
            }
            if ((2 * k).is_integer() && k.to_double() >= -64 && k.to_double() <= 64) {
                // x^(j/2) for odd j: √x times x^((j-1)/2)
                const int j = static_cast<int>((2 * k).to_int());
                const int root = emit(Op::Sqrt, base);
                const int whole = (j > 0 ? j - 1 : -j - 1) / 2;
                const int magnitude =
                    whole == 0 ? root : emit(Op::Mul, integerPower(base, whole), root);
                return j < 0 ? emit(Op::Recip, magnitude) : magnitude;
            }
        }
        return emit(Op::Pow, base, node(exponent));
    }

    int integerPower(int base, int n)
    {
        if (n == 1)
            return base;
        if (n == 2)
            return emit(Op::Square, base);
        const int half = integerPower(base, n / 2);
        const int squared = emit(Op::Square, half);
        return n % 2 ? emit(Op::Mul, squared, base) : squared;
    }

    int function(const GiNaC::ex& e)
    {
        const std::string name = GiNaC::ex_to<GiNaC::function>(e).get_name();
        static const std::unordered_map<std::string, Op> unary{
            {"sin", Op::Sin},       {"cos", Op::Cos},   {"tan", Op::Tan},   {"asin", Op::Asin},
            {"acos", Op::Acos},     {"atan", Op::Atan}, {"sinh", Op::Sinh}, {"cosh", Op::Cosh},
            {"tanh", Op::Tanh},     {"exp", Op::Exp},   {"log", Op::Log},   {"abs", Op::Abs},
            {"clab_sign", Op::Sign}};
        if (const auto it = unary.find(name); it != unary.end() && e.nops() == 1)
            return emit(it->second, node(e.op(0)));
        if (name == "atan2" && e.nops() == 2)
            return emit(Op::Atan2, node(e.op(0)), node(e.op(1)));
        unsupported(e, "cannot evaluate the function");
    }

    ExpressionTape& tape_;
    std::vector<double>& constants_;
    GiNaC::exhashmap<int> memo_;
    CanonicalOrder order_;
    std::unordered_map<double, int> constantRegs_;
    std::vector<bool> varying_;
    int next_ = 0;
};

ExpressionTape::ExpressionTape(const std::vector<GiNaC::ex>& fixedSymbols,
                               const std::vector<GiNaC::ex>& varyingSymbols,
                               const std::vector<GiNaC::ex>& outputs)
    : fixedCount_(static_cast<int>(fixedSymbols.size())),
      varyingCount_(static_cast<int>(varyingSymbols.size()))
{
    std::vector<double> constants;
    Compiler compiler(*this, constants);
    int reg = 0;
    for (const GiNaC::ex& s : fixedSymbols)
        compiler.input(s, reg++, false);
    for (const GiNaC::ex& s : varyingSymbols)
        compiler.input(s, reg++, true);
    outputs_.reserve(outputs.size());
    for (const GiNaC::ex& e : outputs)
        outputs_.push_back(compiler.node(e));
    registers_.assign(static_cast<std::size_t>(compiler.registerCount()), 0.0);
    for (std::size_t i = 0; i < constants.size(); ++i)
        if (static_cast<int>(i) >= fixedCount_ + varyingCount_)
            registers_[i] = constants[i];
}

void ExpressionTape::setFixed(const double* values)
{
    for (int i = 0; i < fixedCount_; ++i)
        registers_[static_cast<std::size_t>(i)] = values[i];
    run(fixedCode_, registers_.data());
}

void ExpressionTape::evaluate(const double* varying, double* outputs) const
{
    double* r = registers_.data();
    for (int i = 0; i < varyingCount_; ++i)
        r[fixedCount_ + i] = varying[i];
    run(varyingCode_, r);
    for (std::size_t i = 0; i < outputs_.size(); ++i)
        outputs[i] = r[outputs_[i]];
}

void ExpressionTape::run(const std::vector<Instruction>& code, double* r)
{
    for (const Instruction& in : code) {
        const double a = r[in.a];
        double& out = r[in.dst];
        switch (in.op) {
        case Op::Add:
            out = a + r[in.b];
            break;
        case Op::Sub:
            out = a - r[in.b];
            break;
        case Op::Mul:
            out = a * r[in.b];
            break;
        case Op::Div:
            out = a / r[in.b];
            break;
        case Op::Neg:
            out = -a;
            break;
        case Op::Square:
            out = a * a;
            break;
        case Op::Recip:
            out = 1.0 / a;
            break;
        case Op::Sqrt:
            out = std::sqrt(a);
            break;
        case Op::Pow:
            out = std::pow(a, r[in.b]);
            break;
        case Op::Sin:
            out = std::sin(a);
            break;
        case Op::Cos:
            out = std::cos(a);
            break;
        case Op::Tan:
            out = std::tan(a);
            break;
        case Op::Asin:
            out = std::asin(a);
            break;
        case Op::Acos:
            out = std::acos(a);
            break;
        case Op::Atan:
            out = std::atan(a);
            break;
        case Op::Atan2:
            out = std::atan2(a, r[in.b]);
            break;
        case Op::Sinh:
            out = std::sinh(a);
            break;
        case Op::Cosh:
            out = std::cosh(a);
            break;
        case Op::Tanh:
            out = std::tanh(a);
            break;
        case Op::Exp:
            out = std::exp(a);
            break;
        case Op::Log:
            out = std::log(a);
            break;
        case Op::Abs:
            out = std::abs(a);
            break;
        case Op::Sign:
            out = a > 0.0 ? 1.0 : (a < 0.0 ? -1.0 : 0.0);
            break;
        }
    }
}

} // namespace clab
