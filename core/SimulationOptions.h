#pragma once

#include <cstddef>
#include <functional>

namespace clab {

enum class IntegratorKind {
    Dopri5, ///< adaptive Dormand–Prince 5(4) with dense output (default)
    Rk4     ///< classic Runge–Kutta 4 with fixed step dt
};

/// How the drift of the constraints under integration is kept in check (MATH.md §6).
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
    /// Accepted integrator steps after which the run fails with IntegrationFailure.
    std::size_t maxSteps = 10'000'000;
    /// Called after each accepted step with the current time; return false to cancel
    /// (the run then returns the samples so far with Trace::cancelled set).
    std::function<bool(double)> keepGoing;
};

} // namespace clab
