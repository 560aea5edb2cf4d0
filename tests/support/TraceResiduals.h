#pragma once
// The largest constraint residual over a trace (|φ|, |φ̇|, |ψ| of every sample).

#include "trace/Trace.h"

#include <algorithm>

namespace clab::testing {

inline double maxResidual(const Trace& trace)
{
    double r = 0.0;
    for (const TraceSample& s : trace.samples)
        r = std::max(r, s.residualMax);
    return r;
}

} // namespace clab::testing
