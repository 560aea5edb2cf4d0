#pragma once

#include <Eigen/Core>

#include <vector>

namespace clab {

class ExpressionTape;
class SymbolicModel;

/// \brief What a format-2 system must satisfy where its motion starts, checked when a system is
/// made and blamed on the key that breaks it (issue 34 item 7).
///
/// Each expression of the description is evaluated at t = 0 and the initial state: one that is
/// not finite there (log(x), 1/x or sin(x)/x at x = 0) is refused under its own key, quoting
/// what the author wrote. A negative mass, a mass matrix or kinetic energy that is not positive
/// semidefinite (T < 0 for some velocity), and a negative friction coefficient or drag are
/// refused as such, instead of as a singular mass matrix or a non-finite force during the run.
///
/// The expressions are compiled once, when the model is derived (compile()); making a system
/// only evaluates a copy of that tape. That keeps GiNaC, which is not thread-safe, out of the
/// systems that sweeps make on several threads at once.
class SystemStartCheck {
public:
    /// The tape of (t, q, q̇) → every expression the check reads, in its order.
    static ExpressionTape compile(const SymbolicModel& model);
    /// Throws ConstraintLabError (InvalidParameter) whose message starts with the key.
    /// `M` is the mass matrix at the start.
    static void check(const SymbolicModel& model, const std::vector<double>& parameters,
                      const Eigen::VectorXd& q0, const Eigen::VectorXd& qd0,
                      const Eigen::MatrixXd& M);
};

} // namespace clab
