#pragma once

#include "integrate/StartState.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>

namespace clab {

enum class IntegratorKind {
    Dopri5, ///< adaptive Dormand–Prince 5(4) with dense output (default)
    Rk4     ///< classic Runge–Kutta 4 with fixed step dt
};

/// How the drift of the constraints under integration is kept in check (docs/MATH.md §6).
enum class Stabilization {
    None, ///< integrate A q̈ = b as it is; φ, φ̇ and ψ drift
    Baumgarte, ///< b ← b − 2α φ̇ − β² φ (holonomic rows), b ← b − α ψ (nonholonomic rows)
    Projection ///< after each accepted step, q onto φ = 0 and q̇ onto the velocity constraints
};

/// \brief How to integrate a scene: time span, output spacing, integrator, tolerances.
struct SimulationOptions {
    double tEnd = 10.0; ///< end time (absolute; the run starts at the system's initial time)
    double dt = 0.01;   ///< output interval; also the fixed step of RK4
    IntegratorKind integrator = IntegratorKind::Dopri5;
    double rtol = 1e-9;
    double atol = 1e-12;
    Stabilization stabilization = Stabilization::Projection;
    double baumgarteAlpha = 5.0; ///< α in 1/s (≥ 0), used with Stabilization::Baumgarte
    double baumgarteBeta = 5.0;  ///< β in 1/s (≥ 0); α = β damps the drift critically
    /// End the run where the body reaches the end of its track (MechanicalSystem::endFunction;
    /// the bead at the foot of its wire) when that comes before tEnd; no effect on scenes
    /// without an end.
    bool stopAtEnd = false;
    /// Accepted integrator steps after which the run fails with IntegrationFailure; 0 means
    /// automatic: 20 per output sample, at least 1e7, so that a run the sample limit accepts
    /// is never cut short by the step limit (a step is at most dt where contacts need it).
    std::size_t maxSteps = 0;
    /// A stored start that replaces the system's initial time and state (a dragged chain, the
    /// state a pull was let go at); checked against the system when the run starts.
    std::optional<StartState> start;

    /// When a run of a system whose own initial time is `systemT0` starts.
    double startTime(double systemT0) const { return start ? start->t0 : systemT0; }

    /// Most output intervals one run may have ((t_end − t0) / dt; one more sample than that): a
    /// stored trace takes about 0.5 kB per sample, and a file of more rows is almost certainly
    /// a typo in dt or t_end.
    static constexpr double maxIntervals = 1e7;
    /// Smallest relative tolerance: below about 1e-15 double precision cannot meet it (the
    /// step size control then shrinks the step until it fails, which takes long).
    static constexpr double minRtol = 1e-15;
    /// Number of output intervals from t0 to tEnd every dt, at least 1 (a last interval shorter
    /// than 1e-9 dt merges with the one before, so that it is never a sliver).
    static double outputIntervals(double t0, double tEnd, double dt)
    {
        return std::max(1.0, std::ceil((tEnd - t0) / dt - 1e-9));
    }
    /// The accepted steps a run from t0 may take: maxSteps, or when it is 0, 20 per output
    /// interval and at least 1e7.
    double stepLimit(double t0) const
    {
        return maxSteps > 0 ? static_cast<double>(maxSteps)
                            : std::max(1e7, 20.0 * outputIntervals(t0, tEnd, dt));
    }

    /// Settings equal field by field (a run's cancel callback is a RunControl, not a setting).
    friend bool operator==(const SimulationOptions&, const SimulationOptions&) = default;
};

} // namespace clab
