#include "FitBinding.h"

#include "ErrorTranslation.h"
#include "Interruptible.h"
#include "SceneHandle.h"

#include "CsvWriter.h"
#include "MeasurementFile.h"
#include "integrate/Simulator.h"
#include "study/FitOptions.h"
#include "study/ParameterFit.h"

#include <pybind11/eigen.h>
#include <pybind11/stl.h>

namespace py = pybind11;

namespace clab::python {

namespace {

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

// Named columns of numbers as the CSV text MeasurementFile reads.
QByteArray csvOf(const std::vector<std::string>& names, const py::array_t<double>& values)
{
    const auto v = values.unchecked<2>();
    if (static_cast<std::size_t>(v.shape(1)) != names.size())
        throw py::value_error("data: the columns' names and values differ in number");
    std::string csv;
    for (std::size_t c = 0; c < names.size(); ++c)
        csv += (c ? "," : "") + CsvWriter::quote(names[c]);
    csv += "\r\n";
    for (py::ssize_t r = 0; r < v.shape(0); ++r) {
        for (py::ssize_t c = 0; c < v.shape(1); ++c)
            csv += (c ? "," : "") + CsvWriter::formatNumber(v(r, c));
        csv += "\r\n";
    }
    return QByteArray::fromStdString(csv);
}

// map={"pos": "s*0.01"}: the CLI's --map COLUMN=QUANTITY[*SCALE].
std::vector<MeasurementFile::Mapping> mappingsOf(const py::dict& map)
{
    std::vector<MeasurementFile::Mapping> mappings;
    for (const auto& [column, target] : map) {
        const QString text = qs(target.cast<std::string>());
        const QString quantity = text.section(QLatin1Char('*'), 0, 0).trimmed();
        double scale = 1.0;
        if (text.contains(QLatin1Char('*'))) {
            bool ok = false;
            scale = text.section(QLatin1Char('*'), 1).trimmed().toDouble(&ok);
            if (!ok)
                throw py::value_error(
                    ("map: " + text + ": the scale is not a number").toStdString());
        }
        mappings.push_back({qs(column.cast<std::string>()), quantity.toStdString(), scale, 0.0});
    }
    return mappings;
}

void applySigma(std::vector<MeasurementFile::Mapping>& mappings, const py::object& sigma)
{
    if (sigma.is_none())
        return;
    const bool each = py::isinstance<py::dict>(sigma);
    for (MeasurementFile::Mapping& m : mappings) {
        const py::dict perColumn = each ? sigma.cast<py::dict>() : py::dict();
        const py::str key(m.column.toStdString());
        if (each && !perColumn.contains(key))
            continue;
        const double value = each ? perColumn[key].cast<double>() : sigma.cast<double>();
        if (!(value > 0.0))
            throw py::value_error(("sigma " + m.column.toStdString() +
                                   ": a standard deviation must be greater than 0"));
        m.sigma = value;
    }
}

Measurements measurementsFor(const SceneHandle& scene, const FitArguments& a,
                             const SceneDocument& document)
{
    const bool file = !a.path.is_none();
    const QString name = file ? qs(py::str(a.path).cast<std::string>()) : QStringLiteral("data");
    const QByteArray text = file ? MeasurementFile::read(name) : csvOf(a.names, a.values);
    MeasurementFile::Time time;
    if (!a.timeColumn.is_none())
        time.column = qs(a.timeColumn.cast<std::string>());
    time.scale = a.timeScale;
    time.offset = a.timeOffset;
    std::vector<MeasurementFile::Mapping> mappings = mappingsOf(a.map);
    if (mappings.empty()) {
        const SceneDefinition* definition = document.definition();
        const std::vector<std::string> quantities =
            Simulator::emptyTrace(*definition->create(document.parameters)).columnNames();
        mappings = MeasurementFile::mappingsByName(MeasurementFile::columns(text), time.column,
                                                   quantities);
        if (mappings.empty())
            throw py::value_error((name +
                                   QStringLiteral(": no map, and no column is named like a "
                                                  "trace quantity of ") +
                                   scene.argument())
                                      .toStdString());
    }
    applySigma(mappings, a.sigma);
    return MeasurementFile::parse(text, name, mappings, time);
}

FitOptions fitOptions(const FitArguments& a)
{
    FitOptions options;
    options.parameters = a.parameters;
    options.maxIterations = a.maxIterations;
    for (const auto& [name, range] : a.bounds) {
        const auto pair = range.cast<py::tuple>();
        options.bounds[name.cast<std::string>()] = {
            pair[0].is_none() ? -FitOptions::unbounded : pair[0].cast<double>(),
            pair[1].is_none() ? FitOptions::unbounded : pair[1].cast<double>()};
    }
    return options;
}

py::dict resultDict(const FitResult& r, const Measurements& measurements)
{
    py::dict columnRms;
    for (std::size_t c = 0; c < r.columns.size(); ++c)
        columnRms[py::str(r.columns[c])] = r.columnRms[c];
    py::dict measured;
    for (const Measurements::Column& column : measurements.columns)
        measured[py::str(column.quantity)] = column.values;
    return py::dict(py::arg("parameters") = r.parameters, py::arg("start") = r.start,
                    py::arg("values") = r.values, py::arg("standard_errors") = r.standardErrors,
                    py::arg("determined") = r.determined, py::arg("at_bound") = r.atBound,
                    py::arg("covariance") = r.covariance, py::arg("correlation") = r.correlation,
                    py::arg("column_rms") = columnRms, py::arg("chi_square") = r.chiSquare,
                    py::arg("degrees_of_freedom") = r.degreesOfFreedom,
                    py::arg("residual_variance") = r.residualVariance,
                    py::arg("iterations") = r.iterations, py::arg("runs") = r.runs,
                    py::arg("converged") = r.converged, py::arg("stop_reason") = r.stopReason,
                    py::arg("warnings") = r.warnings, py::arg("failure") = r.failure,
                    py::arg("times") = measurements.times, py::arg("measured") = measured);
}

} // namespace

py::dict fitScene(const SceneHandle& scene, const FitArguments& a)
{
    for (const char* key : {"t_end", "dt"})
        if (a.settings.contains(key))
            throw py::value_error(std::string(key) + ": the measured times set the end and the "
                                                     "output times of the runs");
    const SceneRequest::Prepared prepared = scene.prepared(a.settings);
    const Measurements measurements = measurementsFor(scene, a, prepared.document);
    const FitOptions options = fitOptions(a);
    const FitResult result = namingSource(prepared.source, [&] {
        return interruptible([&](const std::atomic<bool>& cancel) {
            FitControl control;
            control.keepGoing = [&cancel] {
                return !cancel;
            };
            return ParameterFit::run(prepared.document, measurements, options, control);
        });
    });
    return resultDict(result, measurements);
}

} // namespace clab::python
