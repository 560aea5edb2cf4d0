#pragma once

#include <ginac/ginac.h>

#include <cstdint>
#include <vector>

namespace clab {

/// \brief Expressions compiled to a flat list of arithmetic instructions, for fast evaluation.
///
/// GiNaC evaluates an expression by substitution in ~19 µs; a step of the fundamental equation
/// needs tens of them. The tape turns a set of expressions into one instruction list in which
/// every common subexpression (shared by any of the outputs) is computed once, and splits it
/// in two: the part that depends only on the fixed inputs (parameters) runs once in setFixed,
/// the rest on every evaluate. Integer powers become multiplications, x^(1/2) a square root.
///
/// Evaluation allocates nothing. The tape keeps its registers, so one tape must not be
/// evaluated from two threads at once (each run builds its own system, and so its own tapes).
class ExpressionTape {
public:
    ExpressionTape() = default;
    /// Throws std::invalid_argument for what it cannot evaluate (a symbol that is neither fixed
    /// nor varying, an unevaluated derivative, a complex number), naming it.
    ExpressionTape(const std::vector<GiNaC::ex>& fixedSymbols,
                   const std::vector<GiNaC::ex>& varyingSymbols,
                   const std::vector<GiNaC::ex>& outputs);

    /// Sets the fixed inputs (in the order of fixedSymbols) and computes what depends on them
    /// alone. Must precede evaluate().
    void setFixed(const double* values);
    /// Computes every output from the varying inputs (in the order of varyingSymbols).
    void evaluate(const double* varying, double* outputs) const;

    int outputCount() const { return static_cast<int>(outputs_.size()); }
    /// Instructions run by evaluate() (those of setFixed not counted).
    int instructionCount() const { return static_cast<int>(varyingCode_.size()); }

private:
    enum class Op : std::uint8_t {
        Add,
        Sub,
        Mul,
        Div,
        Neg,
        Square,
        Recip,
        Sqrt,
        Pow,
        Sin,
        Cos,
        Tan,
        Asin,
        Acos,
        Atan,
        Atan2,
        Sinh,
        Cosh,
        Tanh,
        Exp,
        Log,
        Abs,
        Sign
    };
    struct Instruction {
        Op op;
        int dst, a, b;
    };
    class Compiler;

    static void run(const std::vector<Instruction>& code, double* r);

    int fixedCount_ = 0;
    int varyingCount_ = 0;
    std::vector<Instruction> fixedCode_;
    std::vector<Instruction> varyingCode_;
    std::vector<int> outputs_; ///< register of each output
    mutable std::vector<double>
        registers_; ///< fixed inputs, varying inputs, constants, temporaries
};

} // namespace clab
