#pragma once

#include <functional>

namespace clab {

/// \brief How a caller steers a run while it goes: not a setting of the run, so it is neither
/// saved in a scene file nor part of a document's comparison (SimulationOptions is).
struct RunControl {
    /// Called after each accepted step with the current time; return false to cancel (the run
    /// then returns the samples so far with Trace::cancelled set). Empty: run to the end.
    std::function<bool(double)> keepGoing;
};

} // namespace clab
