#pragma once

#include <array>
#include <string>
#include <vector>

namespace clab {

/// \brief The names of the expression notation: its functions and constants, and what makes a
/// valid name.
///
/// Apart from ExpressionParser (which reads the notation with GiNaC) so that the System
/// editor's completion and the model's name checks need no GiNaC.
class Notation {
public:
    struct Function {
        const char* name;
        int arguments; ///< 0 for a constant (pi)
    };
    /// Every function and constant, in the order the docs list them.
    static const std::array<Function, 16>& functions();

    /// True when `name` is a function or constant of the notation (sin, pi, ...) or the time
    /// t: such names cannot be used for coordinates or parameters.
    static bool isReserved(const std::string& name);
    /// The functions and constants of the notation, in the order the docs list them (for
    /// completion in the System editor).
    static std::vector<std::string> functionNames();
    /// True for a letter or underscore followed by letters, digits and underscores.
    static bool isIdentifier(const std::string& name);
};

} // namespace clab
