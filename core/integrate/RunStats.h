#pragma once

#include <cstddef>
#include <cstdio>
#include <string>

namespace clab {

/// \brief What a run cost: the integrator's work, its events and projections, and its time.
struct RunStats {
    std::size_t acceptedSteps = 0;  ///< integrator steps kept
    std::size_t rejectedSteps = 0;  ///< trial steps the error control refused (Dormand–Prince)
    std::size_t rhsEvaluations = 0; ///< evaluations of the right-hand side (q̈ and the powers)
    std::size_t events = 0;         ///< stick, slip and reversal events located
    std::size_t restarts = 0;       ///< integrator restarts: after events and after projections
    std::size_t projections = 0;    ///< projections of the integrated state onto the constraints
    double wallSeconds = 0.0;       ///< wall-clock time of the run

    /// One line for the CLI's --stats and the GUI's status bar, e.g. "6 steps (0 rejected),
    /// 37 evaluations, 1 event, 0 restarts (0 projections), 0.41 ms".
    std::string summary() const
    {
        char text[256];
        std::snprintf(text, sizeof text,
                      "%zu steps (%zu rejected), %zu evaluations, %zu event%s, %zu restarts (%zu "
                      "projections), %.3g ms",
                      acceptedSteps, rejectedSteps, rhsEvaluations, events, events == 1 ? "" : "s",
                      restarts, projections, wallSeconds * 1e3);
        return text;
    }
};

} // namespace clab
