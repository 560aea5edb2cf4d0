#pragma once
// Random but valid-looking variations of a scene, shared by the soak programs: each parameter
// moved within ±50 % of its value and kept in its declared range, and the simulation settings
// varied over their choices.

#include <model/ParameterSpec.h>
#include <scenes/SceneDocument.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

namespace clab::soak {

/// `value` moved by a factor in [0.5, 1.5] (or by ±0.5 when it is zero), inside the spec's range.
inline std::vector<double> varied(const ParameterSpec& spec, std::vector<double> value,
                                  std::mt19937_64& random)
{
    std::uniform_real_distribution<double> factor(0.5, 1.5);
    std::uniform_real_distribution<double> offset(-0.5, 0.5);
    for (double& v : value) {
        v = v == 0.0 ? offset(random) : v * factor(random);
        const double low = spec.minExclusive ? std::nextafter(spec.min, INFINITY) : spec.min;
        v = std::clamp(v, low, spec.max);
    }
    return value;
}

/// Short runs with every integrator and stabilization, so a soak covers their code paths.
inline void varySimulation(SimulationOptions& options, std::mt19937_64& random)
{
    std::uniform_int_distribution<int> pick(0, 2);
    std::uniform_real_distribution<double> tEnd(0.2, 3.0);
    options.tEnd = tEnd(random);
    options.dt = 0.01;
    options.integrator = pick(random) == 0 ? IntegratorKind::Rk4 : IntegratorKind::Dopri5;
    options.dt = options.integrator == IntegratorKind::Rk4 ? 0.001 : 0.01;
    const int stabilization = pick(random);
    options.stabilization = stabilization == 0   ? Stabilization::None
                            : stabilization == 1 ? Stabilization::Baumgarte
                                                 : Stabilization::Projection;
}

} // namespace clab::soak
