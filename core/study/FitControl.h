#pragma once

#include "study/FitProgress.h"

#include <functional>

namespace clab {

/// \brief How a caller (a GUI dock, the CLI) follows and stops a running fit; not a setting
/// of the fit (FitOptions is).
struct FitControl {
    /// Called on the fitting thread after each iteration.
    std::function<void(const FitProgress&)> progress;
    /// Polled between iterations and, during the runs, from the worker threads after each
    /// integrator step; return false to cancel (the fit then returns with
    /// FitResult::cancelled set). Empty: run to the end.
    std::function<bool()> keepGoing;
};

} // namespace clab
