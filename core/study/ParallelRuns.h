#pragma once

#include <cstddef>
#include <exception>
#include <functional>
#include <string>
#include <vector>

namespace clab {

/// \brief Runs independent jobs 0..count−1 on worker threads (ParameterSweep's runs, the
/// finite-difference runs of ParameterFit).
///
/// Workers take the next index until none is left. A job that throws stops the jobs after it
/// (in index order) from starting, unless asked otherwise; its exception is kept, not
/// rethrown, so that the caller can report it with its own label.
class ParallelRuns {
public:
    /// Calls `job(i)` for every i < count, at most `threads` at a time (0: one per hardware
    /// thread; fewer when the system refuses more threads). Returns one exception per index,
    /// empty for the jobs that succeeded or did not start because an earlier one failed (with
    /// `stopAfterFailure` false every job runs whatever fails).
    static std::vector<std::exception_ptr> run(std::size_t count, int threads,
                                               const std::function<void(std::size_t)>& job,
                                               bool stopAfterFailure = true);

    /// Throws the error of one run with its message prefixed "LABEL: ": a ConstraintLabError
    /// keeps its kind, std::bad_alloc passes as it is, any other std::exception (odeint's own,
    /// e.g. a step size underflow) becomes IntegrationFailure; what is not a std::exception
    /// passes unchanged.
    [[noreturn]] static void rethrowLabelled(const std::exception_ptr& error,
                                             const std::string& label);
};

} // namespace clab
