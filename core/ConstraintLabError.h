#pragma once

#include <stdexcept>
#include <string>

namespace clab {

/// \brief Error raised by the engine; the message says what failed and why.
///
/// `kind` lets front ends map errors to exit codes and messages without parsing text.
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

    ConstraintLabError(Kind kind, const std::string& message)
        : std::runtime_error(message), kind_(kind)
    {
    }

    Kind kind() const { return kind_; }

private:
    Kind kind_;
};

} // namespace clab
