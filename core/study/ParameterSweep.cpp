#include "study/ParameterSweep.h"

#include "integrate/Simulator.h"
#include "model/ConstraintLabError.h"
#include "scenes/SceneRegistry.h"
#include "study/ParallelRuns.h"

#include <algorithm>
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
    return runGrid(base, {{parameter, values}}, 0, values.size(), threads, control);
}

std::size_t ParameterSweep::gridSize(const std::vector<SweepAxis>& axes)
{
    std::size_t size = 1;
    for (const SweepAxis& axis : axes)
        size *= axis.values.size();
    return axes.empty() ? 0 : size;
}

std::vector<double> ParameterSweep::gridPoint(const std::vector<SweepAxis>& axes, std::size_t index)
{
    std::vector<double> values(axes.size());
    for (std::size_t a = axes.size(); a-- > 0;) {
        values[a] = axes[a].values[index % axes[a].values.size()];
        index /= axes[a].values.size();
    }
    return values;
}

std::pair<std::size_t, std::size_t> ParameterSweep::shard(std::size_t points, int k, int n)
{
    if (n < 1 || k < 1 || k > n)
        invalid("sweep: shard " + std::to_string(k) + "/" + std::to_string(n) +
                " does not exist (K/N needs 1 <= K <= N)");
    if (static_cast<std::size_t>(n) > points)
        invalid("sweep: " + std::to_string(n) + " shards for " + std::to_string(points) +
                " grid points would leave some empty");
    const auto edge = [&](int i) {
        return points * static_cast<std::size_t>(i) / static_cast<std::size_t>(n);
    };
    return {edge(k - 1), edge(k)};
}

namespace {

// The scene's definition, after checking the axes (known scalar parameters, each swept once,
// with values), the number of threads and the range [first, last) of grid points.
const SceneDefinition& checkedSweep(const SceneDocument& base, const std::vector<SweepAxis>& axes,
                                    std::size_t first, std::size_t last, int threads)
{
    const SceneDefinition* definition = base.definition();
    if (!definition) {
        invalid("sweep: unknown scene '" + base.scene +
                "' (built-in scenes: " + SceneRegistry::nameList() + ")");
    }
    if (axes.empty())
        invalid("sweep: no parameter to sweep");
    std::vector<std::string> swept;
    for (const SweepAxis& axis : axes) {
        const std::string& parameter = axis.parameter;
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
        if (axis.values.empty())
            invalid("sweep: no values given for parameter '" + parameter + "'");
        if (std::find(swept.begin(), swept.end(), parameter) != swept.end())
            invalid("sweep: parameter '" + parameter + "' is swept twice");
        swept.push_back(parameter);
    }
    if (threads < 0)
        invalid("sweep: the number of threads must not be negative, got " +
                std::to_string(threads));
    const std::size_t points = ParameterSweep::gridSize(axes);
    if (first > last || last > points)
        invalid("sweep: grid points " + std::to_string(first) + " to " + std::to_string(last) +
                " are not within the " + std::to_string(points) + " points of the grid");
    return *definition;
}

} // namespace

// Two phases: every grid point is validated (its system built) before any run starts; then
// the runs go to the workers, and a failure stops the runs after it.
std::vector<LabelledTrace> ParameterSweep::runGrid(const SceneDocument& base,
                                                   const std::vector<SweepAxis>& axes,
                                                   std::size_t first, std::size_t last, int threads,
                                                   const RunControl& control)
{
    const SceneDefinition& definition = checkedSweep(base, axes, first, last, threads);
    std::vector<std::string> swept;
    for (const SweepAxis& axis : axes)
        swept.push_back(axis.parameter);
    // Followers of a swept parameter that follow it in the base document follow the sweep.
    const ParameterValues given = definition.untieFollowers(base.parameters, swept);

    // Building the systems validates each value (range, notBelow, initial state). Point i of
    // the grid: the last axis varies fastest.
    std::vector<std::string> labels;
    std::vector<std::unique_ptr<MechanicalSystem>> systems;
    labels.reserve(last - first);
    systems.reserve(last - first);
    for (std::size_t point = first; point < last; ++point) {
        ParameterValues runValues = given;
        std::string text;
        const std::vector<double> values = gridPoint(axes, point);
        for (std::size_t a = 0; a < axes.size(); ++a) {
            runValues[axes[a].parameter] = {values[a]};
            text += (a ? " " : "") + label(axes[a].parameter, values[a]);
        }
        labels.push_back(text);
        try {
            systems.push_back(definition.create(runValues));
        } catch (...) {
            ParallelRuns::rethrowLabelled(std::current_exception(), labels.back());
        }
    }

    const std::size_t count = last - first;
    std::vector<std::shared_ptr<const Trace>> traces(count);
    const std::vector<std::exception_ptr> errors =
        ParallelRuns::run(count, threads, [&](std::size_t i) {
            Simulator simulator(*systems[i]);
            traces[i] = std::make_shared<const Trace>(simulator.run(base.simulation, {}, control));
        });

    for (std::size_t i = 0; i < count; ++i)
        if (errors[i])
            ParallelRuns::rethrowLabelled(errors[i], labels[i]);

    std::vector<LabelledTrace> result;
    result.reserve(count);
    for (std::size_t i = 0; i < count; ++i)
        result.push_back({labels[i], traces[i]});
    return result;
}

} // namespace clab
