#include "ParameterSweep.h"

#include "ConstraintLabError.h"
#include "SceneRegistry.h"
#include "Simulator.h"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <exception>
#include <memory>
#include <new>
#include <thread>

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
    ParameterValues given = base.parameters;
    const ParameterValues completedBase = definition->complete(base.parameters);
    for (const ParameterSpec& p : definition->parameters)
        if (p.defaultsTo == parameter && definition->tiedToLeader(completedBase, p.name))
            given.erase(p.name);

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

    // --- Run: workers take the next index; a failure stops the runs after it ---
    const std::size_t count = values.size();
    std::vector<std::shared_ptr<const Trace>> traces(count);
    std::vector<std::exception_ptr> errors(count);
    std::atomic<std::size_t> next{0};
    std::atomic<std::size_t> firstFailure{count};
    const auto work = [&]() {
        for (std::size_t i = next++; i < count; i = next++) {
            if (i > firstFailure.load())
                continue; // an earlier value already failed; this result would not be used
            try {
                Simulator simulator(*systems[i]);
                traces[i] =
                    std::make_shared<const Trace>(simulator.run(base.simulation, {}, control));
            } catch (...) {
                errors[i] = std::current_exception();
                std::size_t seen = firstFailure.load();
                while (i < seen && !firstFailure.compare_exchange_weak(seen, i)) {
                }
            }
        }
    };

    unsigned workers = threads > 0 ? static_cast<unsigned>(threads)
                                   : std::max(1u, std::thread::hardware_concurrency());
    workers = static_cast<unsigned>(std::min<std::size_t>(workers, count));
    if (workers <= 1) {
        work();
    } else {
        std::vector<std::jthread> pool;
        pool.reserve(workers - 1);
        try {
            for (unsigned w = 1; w < workers; ++w)
                pool.emplace_back(work);
        } catch (const std::system_error&) {
            // Fewer threads than asked for: the ones running (and this one) do all the work.
        }
        work();
    } // jthreads join here

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
