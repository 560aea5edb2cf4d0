#pragma once
// Runs of the built-in scenes for tests: one place for "defaults with a few changes" and "run it
// for so many seconds at the usual output interval".

#include <integrate/SimulationOptions.h>
#include <integrate/Simulator.h>
#include <model/ParameterSpec.h>
#include <scenes/SceneDocument.h>
#include <scenes/SceneRegistry.h>
#include <trace/Trace.h>

#include <memory>
#include <stdexcept>
#include <string>

namespace clab::testing {

/// The built-in scene `scene`; throws std::runtime_error when there is none.
inline const SceneDefinition& builtInScene(const std::string& scene)
{
    const SceneDefinition* definition = SceneRegistry::find(scene);
    if (definition == nullptr)
        throw std::runtime_error("no built-in scene " + scene);
    return *definition;
}

/// `scene`'s default values with `overrides` put over them. A follower keeps its default value
/// (mu_s stays 0.2 when only mu changes), as in a file that names every parameter.
inline ParameterValues defaultsWith(const std::string& scene, const ParameterValues& overrides = {})
{
    ParameterValues values = builtInScene(scene).defaults();
    for (const auto& [name, value] : overrides)
        values[name] = value;
    return values;
}

/// Runs `scene` with complete `values` for `seconds` from its initial time, a sample every
/// 0.01 s, at the default tolerances (and stopping at the end of its track when asked).
inline Trace runScene(const std::string& scene, const ParameterValues& values, double seconds,
                      bool stopAtEnd = false)
{
    const std::unique_ptr<MechanicalSystem> system = builtInScene(scene).create(values);
    Simulator simulator(*system);
    SimulationOptions options;
    options.tEnd = system->initialTime() + seconds;
    options.dt = 0.01;
    options.stopAtEnd = stopAtEnd;
    return simulator.run(options);
}

/// A scene file's system and its trace, kept together so that the trace's columns can be read by
/// the system's names.
struct DocumentRun {
    std::unique_ptr<MechanicalSystem> system;
    Trace trace;
};

/// The file's system with the given parameter values, run with the file's own settings (only
/// t_end changed when tEnd > 0).
inline DocumentRun runDocument(const SceneDocument& document, const ParameterValues& values,
                               double tEnd = 0.0)
{
    DocumentRun r;
    r.system = document.definition()->create(values);
    SimulationOptions options = document.simulation;
    if (tEnd > 0.0)
        options.tEnd = tEnd;
    r.trace = Simulator(*r.system).run(options);
    return r;
}

} // namespace clab::testing
