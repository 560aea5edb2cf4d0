#include "ParameterSweep.h"

#include "ConstraintLabError.h"
#include "ParallelRuns.h"
#include "SceneRegistry.h"
#include "Simulator.h"

#include <charconv>
#include <exception>
#include <memory>
#include <new>

namespace clab {

namespace {

[[noreturn]] void invalid(const std::string& message)
{
    throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter, message);
}

// The error of one run, its message prefixed with the run's label.
[[noreturn]] void rethrowLabelled(const std::exception_ptr& error, const std::string& label)
{
    try {
        std::rethrow_exception(error);
    } catch (const ConstraintLabError& e) {
        throw ConstraintLabError(e.kind(), label + ": " + e.what(), e.hint());
    } catch (const std::bad_alloc&) {
        throw;
    } catch (const std::exception& e) {
        // odeint's own errors (e.g. step size underflow) are integration failures.
        throw ConstraintLabError(ConstraintLabError::Kind::IntegrationFailure,
                                 label + ": " + e.what());
    }
}

} // namespace

std::string ParameterSweep::label(const std::string& parameter, double value)
{
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    return parameter + "=" + std::string(buffer, result.ptr);
}

std::vector<LabelledTrace> ParameterSweep::run(const SceneDocument& base,
                                               const std::string& parameter,
                                               const std::vector<double>& values, int threads,
                                               const RunControl& control)
{
    // --- Validate everything before any run starts ---
    const SceneDefinition* definition = base.definition();
    if (!definition) {
        std::string names;
        for (const SceneDefinition& d : SceneRegistry::builtIn())
            names += (names.empty() ? "" : ", ") + d.name;
        invalid("sweep: unknown scene '" + base.scene + "' (built-in scenes: " + names + ")");
    }
    const ParameterSpec* spec = definition->parameter(parameter);
    if (!spec) {
        std::string names;
        for (const ParameterSpec& p : definition->parameters)
            names += (names.empty() ? "" : ", ") + p.name;
        invalid("sweep: scene '" + base.scene + "' has no parameter '" + parameter +
                "' (its parameters: " + names + ")");
    }
    if (spec->size() != 1)
        invalid("sweep: parameter '" + parameter + "' has " + std::to_string(spec->size()) +
                " components; only scalar parameters can be swept");
    if (values.empty())
        invalid("sweep: no values given for parameter '" + parameter + "'");
    if (threads < 0)
        invalid("sweep: the number of threads must not be negative, got " +
                std::to_string(threads));

    // Followers of the swept parameter that follow it in the base document follow the sweep.
    const ParameterValues given = definition->untieFollowers(base.parameters, {parameter});

    // Building the systems validates each value (range, notBelow, initial state).
    std::vector<std::string> labels;
    std::vector<std::unique_ptr<MechanicalSystem>> systems;
    labels.reserve(values.size());
    systems.reserve(values.size());
    for (double value : values) {
        labels.push_back(label(parameter, value));
        ParameterValues runValues = given;
        runValues[parameter] = {value};
        try {
            systems.push_back(definition->create(runValues));
        } catch (...) {
            rethrowLabelled(std::current_exception(), labels.back());
        }
    }

    // --- Run: a failure stops the runs after it ---
    const std::size_t count = values.size();
    std::vector<std::shared_ptr<const Trace>> traces(count);
    const std::vector<std::exception_ptr> errors =
        ParallelRuns::run(count, threads, [&](std::size_t i) {
            Simulator simulator(*systems[i]);
            traces[i] = std::make_shared<const Trace>(simulator.run(base.simulation, {}, control));
        });

    for (std::size_t i = 0; i < count; ++i)
        if (errors[i])
            rethrowLabelled(errors[i], labels[i]);

    std::vector<LabelledTrace> result;
    result.reserve(count);
    for (std::size_t i = 0; i < count; ++i)
        result.push_back({labels[i], traces[i]});
    return result;
}

} // namespace clab
