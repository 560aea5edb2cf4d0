#include "KeywordRequest.h"

#include "integrate/SimulationSetting.h"

#include <pybind11/stl.h>

#include <string>
#include <vector>

namespace py = pybind11;

namespace clab::python {

namespace {

// "name=value" as Python shows the value: how messages name what was given.
QString givenText(const std::string& name, const py::handle& value)
{
    return QString::fromStdString(name + "=" + py::repr(value).cast<std::string>());
}

double numberOf(const QString& given, const py::handle& value)
{
    if (py::isinstance<py::str>(value) || py::isinstance<py::bool_>(value))
        throw py::type_error((given + QStringLiteral(": not a number")).toStdString());
    try {
        return py::cast<double>(py::float_(py::reinterpret_borrow<py::object>(value)));
    } catch (const py::error_already_set&) {
        throw py::type_error((given + QStringLiteral(": not a number")).toStdString());
    }
}

double settingValue(const SimulationSetting& setting, const QString& given, const py::handle& value)
{
    switch (setting.kind) {
    case SimulationSetting::Kind::Number:
        return numberOf(given, value);
    case SimulationSetting::Kind::Choice: {
        const auto named = py::isinstance<py::str>(value)
                               ? setting.valueNamed(value.cast<std::string>())
                               : std::nullopt;
        if (!named)
            throw py::value_error(QStringLiteral("%1: unknown %2 (use %3)")
                                      .arg(given, QString::fromStdString(setting.key),
                                           QString::fromStdString(setting.nameList()))
                                      .toStdString());
        return *named;
    }
    case SimulationSetting::Kind::Flag:
        if (!py::isinstance<py::bool_>(value))
            throw py::type_error(
                (given + QStringLiteral(": expected True or False")).toStdString());
        return value.cast<bool>() ? 1.0 : 0.0;
    }
    return 0.0;
}

std::vector<double> parameterValues(const QString& given, const py::handle& value)
{
    std::vector<double> values;
    // A NumPy array in any shape gives its values in order; a 0-d one or a scalar is one number.
    if (py::hasattr(value, "ndim") && py::hasattr(value, "ravel")) {
        for (const py::handle item : value.attr("ravel")())
            values.push_back(numberOf(given, item));
    } else if (py::isinstance<py::str>(value) || !py::isinstance<py::sequence>(value)) {
        values.push_back(numberOf(given, value));
    } else {
        for (const py::handle item : value.cast<py::sequence>())
            values.push_back(numberOf(given, item));
    }
    return values;
}

} // namespace

SceneRequest keywordRequest(const QString& scene, const py::dict& keywords)
{
    SceneRequest request;
    request.scene = scene;
    request.setsName = QStringLiteral("the given parameters");
    for (const auto& [key, value] : keywords) {
        const std::string name = key.cast<std::string>();
        const QString given = givenText(name, value);
        if (const SimulationSetting* setting = SimulationSetting::find(name)) {
            request.simulation[setting->key] = {settingValue(*setting, given, value), given};
            continue;
        }
        request.sets.emplace_back(QString::fromStdString(name), parameterValues(given, value));
        request.setText[QString::fromStdString(name)] = given;
    }
    return request;
}

} // namespace clab::python
