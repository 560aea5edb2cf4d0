#include "SceneHandle.h"

#include "ErrorTranslation.h"
#include "Interruptible.h"
#include "KeywordRequest.h"
#include "TraceArrays.h"

#include "FileError.h"
#include "SceneLoading.h"
#include "integrate/SimulationSetting.h"
#include "integrate/Simulator.h"
#include "symbolic/SymbolicModel.h"

#include <pybind11/stl.h>

namespace py = pybind11;

namespace clab::python {

namespace {

// A scalar parameter as a float, a vector as a list.
py::object valueObject(const std::vector<double>& values)
{
    if (values.size() == 1)
        return py::float_(values.front());
    return py::cast(values);
}

} // namespace

SceneHandle::SceneHandle(const QString& argument)
    : argument_(argument), document_(loadScene(argument))
{
}

SceneRequest::Prepared SceneHandle::prepared() const
{
    return prepared(py::dict());
}

SceneRequest::Prepared SceneHandle::prepared(const py::dict& settings) const
{
    return keywordRequest(argument_, settings).prepare(document_);
}

py::dict SceneHandle::parameters() const
{
    const SceneRequest::Prepared scene = prepared();
    py::dict out;
    for (const ParameterSpec& spec : scene.definition->parameters)
        out[py::str(spec.name)] = py::dict(
            py::arg("value") = valueObject(scene.document.parameters.at(spec.name)),
            py::arg("unit") = spec.unit, py::arg("default") = valueObject(spec.defaultValue),
            py::arg("min") = spec.lowest(), py::arg("max") = spec.highest(),
            py::arg("min_exclusive") = !spec.lowestIncluded(),
            py::arg("description") = spec.description, py::arg("label") = spec.displayLabel());
    return out;
}

py::dict SceneHandle::settings() const
{
    const SimulationOptions options = prepared().document.simulation;
    py::dict out;
    for (const SimulationSetting& setting : SimulationSetting::all()) {
        const double value = setting.get(options);
        if (setting.kind == SimulationSetting::Kind::Choice)
            out[py::str(setting.key)] = setting.nameIn(options);
        else if (setting.kind == SimulationSetting::Kind::Flag)
            out[py::str(setting.key)] = value != 0.0;
        else
            out[py::str(setting.key)] = value;
    }
    return out;
}

py::dict SceneHandle::derive() const
{
    const SymbolicModel& model = derivableSystem(document_, argument_);
    const py::object json = py::module_::import("json").attr("loads");
    return py::dict(py::arg("text") = model.derivationText(SymbolicModel::Format::Text),
                    py::arg("latex") = model.derivationText(SymbolicModel::Format::Latex),
                    py::arg("json") = json(model.derivationText(SymbolicModel::Format::Json)));
}

py::dict SceneHandle::run(const py::dict& settings) const
{
    const SceneRequest::Prepared scene = prepared(settings);
    std::unique_ptr<MechanicalSystem> system;
    const Trace trace = namingSource(scene.source, [&] {
        return interruptible([&](const std::atomic<bool>& cancel) {
            system = scene.definition->create(scene.document.parameters);
            const RunControl control{[&cancel](double) {
                return !cancel;
            }};
            return Simulator(*system).run(scene.document.simulation, {}, control);
        });
    });
    return traceDict(trace, *system);
}

} // namespace clab::python
