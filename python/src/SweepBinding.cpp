#include "SweepBinding.h"

#include "ErrorTranslation.h"
#include "Interruptible.h"
#include "SceneHandle.h"
#include "TraceArrays.h"

#include "study/ParameterSweep.h"

#include <pybind11/stl.h>

namespace py = pybind11;

namespace clab::python {

py::dict sweepShard(const SceneHandle& scene,
                    const std::vector<std::pair<std::string, std::vector<double>>>& axisList, int k,
                    int n, int threads, const py::dict& settings)
{
    const SceneRequest::Prepared prepared = scene.prepared(settings);
    std::vector<SweepAxis> axes;
    for (const auto& [parameter, values] : axisList)
        axes.push_back({parameter, values});
    const auto [first, last] = namingSource(prepared.source, [&] {
        return ParameterSweep::shard(ParameterSweep::gridSize(axes), k, n);
    });
    const std::vector<LabelledTrace> runs = namingSource(prepared.source, [&] {
        return interruptible([&](const std::atomic<bool>& cancel) {
            const RunControl control{[&cancel](double) {
                return !cancel;
            }};
            return ParameterSweep::runGrid(prepared.document, axes, first, last, threads, control);
        });
    });

    std::vector<std::string> columns{"point"};
    for (const SweepAxis& axis : axes)
        columns.push_back(axis.parameter);
    std::vector<const Trace*> traces;
    std::vector<std::vector<double>> leading;
    std::vector<std::string> labels;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        traces.push_back(runs[i].trace.get());
        labels.push_back(runs[i].label);
        std::vector<double> lead{static_cast<double>(first + i)};
        for (double value : ParameterSweep::gridPoint(axes, first + i))
            lead.push_back(value);
        leading.push_back(lead);
    }
    if (!runs.empty())
        for (const std::string& name : runs.front().trace->columnNames())
            columns.push_back(name);
    return py::dict(py::arg("columns") = columns, py::arg("data") = stackedRows(traces, leading),
                    py::arg("labels") = labels, py::arg("first") = first, py::arg("last") = last);
}

} // namespace clab::python
