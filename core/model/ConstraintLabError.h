#pragma once

#include <cstdio>
#include <stdexcept>
#include <string>

namespace clab {

/// \brief Error raised by the engine; the message says what failed and why.
///
/// `kind` lets front ends map errors to exit codes and messages without parsing text. The
/// message is in the user's terms (no internal class names); `hint`, when given, says what is
/// the likely cause and what to try, in words that both the CLI and the GUI can show.
class ConstraintLabError : public std::runtime_error {
public:
    enum class Kind {
        InvalidParameter,        ///< a parameter is out of range, non-finite or unknown
        InvalidInitialState,     ///< initial conditions violate the constraints
        InconsistentConstraints, ///< b is not in the range of A
        SingularMass,            ///< M is not positive definite and [M; A] has not full rank
        NonFinite,               ///< a NaN or infinity appeared in M, Q, A, b, C or the state
        IntegrationFailure       ///< the integrator could not continue
    };

    ConstraintLabError(Kind kind, const std::string& message, std::string hint = {})
        : std::runtime_error(message), kind_(kind), hint_(std::move(hint))
    {
    }

    Kind kind() const { return kind_; }
    /// Likely cause and what to try; empty when there is nothing useful to add.
    const std::string& hint() const { return hint_; }

    /// A number for a message: "%g" style, six significant digits (never "0.000000").
    static std::string number(double value)
    {
        char buffer[32];
        std::snprintf(buffer, sizeof buffer, "%g", value);
        return buffer;
    }

    /// The hint for a value that overflowed during a run (the simulator and its contacts).
    static constexpr const char* overflowHint =
        "a value overflowed: the parameters, the initial state or the time span are probably of "
        "extreme size; try values of ordinary size or a shorter t_end";

private:
    Kind kind_;
    std::string hint_;
};

} // namespace clab
