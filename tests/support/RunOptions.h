#pragma once
// Simulation options of the simulator's tests: an integrator, a span and an output interval at
// tight tolerances (rtol 1e-11, atol 1e-13), so that closed forms can be compared to ~1e-9.

#include "integrate/SimulationOptions.h"

#include <QMetaType>

Q_DECLARE_METATYPE(clab::IntegratorKind)

namespace clab::testing {

inline SimulationOptions runOptions(IntegratorKind kind, double tEnd, double dt)
{
    SimulationOptions o;
    o.integrator = kind;
    o.tEnd = tEnd;
    o.dt = dt;
    o.rtol = 1e-11;
    o.atol = 1e-13;
    return o;
}

} // namespace clab::testing
