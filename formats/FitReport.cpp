#include "FitReport.h"

#include "integrate/Simulator.h"
#include "trace/TraceSeries.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>
#include <memory>

namespace clab {

namespace {

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

// Six significant digits for the table; "-" for what is not a number.
QString cell(double v, int digits = 6)
{
    return std::isfinite(v) ? QString::number(v, 'g', digits) : QStringLiteral("-");
}

QJsonValue jsonNumber(double v)
{
    return std::isfinite(v) ? QJsonValue(v) : QJsonValue(QJsonValue::Null);
}

QJsonArray jsonMatrix(const Eigen::MatrixXd& m)
{
    QJsonArray rows;
    for (Eigen::Index i = 0; i < m.rows(); ++i) {
        QJsonArray row;
        for (Eigen::Index j = 0; j < m.cols(); ++j)
            row.append(jsonNumber(m(i, j)));
        rows.append(row);
    }
    return rows;
}

} // namespace

FitReport::FitReport(const FitResult& result, const SceneDocument& document,
                     const Measurements& measurements, QString scene, QString data,
                     QStringList commandLine)
    : result_(result), scene_(std::move(scene)), data_(std::move(data)),
      commandLine_(std::move(commandLine)), values_(measurements.valueCount())
{
    const SceneDefinition* definition = document.definition();
    for (const std::string& name : result_.parameters) {
        const ParameterSpec* spec = definition ? definition->parameter(name) : nullptr;
        parameterUnits_.push_back(spec ? spec->unit : std::string());
    }
    Trace shape;
    if (definition) {
        const std::unique_ptr<MechanicalSystem> system =
            definition->create(definition->complete(document.parameters));
        shape = Simulator::emptyTrace(*system);
    }
    for (const Measurements::Column& column : measurements.columns) {
        quantities_.push_back(column.quantity);
        quantityUnits_.push_back(TraceSeries::contains(shape, column.quantity)
                                     ? TraceSeries::unit(shape, column.quantity)
                                     : std::string());
    }
}

QString FitReport::table() const
{
    const FitResult& r = result_;
    QString out;
    out += QStringLiteral("fit of %1 to %2 (%3 values in %4 column%5; %6)\n")
               .arg(scene_, data_)
               .arg(values_)
               .arg(r.columns.size())
               .arg(r.columns.size() == 1 ? "" : "s")
               .arg(r.sigmaGiven ? QStringLiteral("sigma given")
                                 : QStringLiteral("sigma estimated from the residuals"));
    int width = 11;
    for (const std::string& name : r.parameters)
        width = std::max(width, static_cast<int>(name.size()) + 2);
    out += QStringLiteral("parameter").leftJustified(width) +
           QStringLiteral("start").leftJustified(14) + QStringLiteral("value").leftJustified(22) +
           QStringLiteral("std. error").leftJustified(14) + QStringLiteral("unit\n");
    for (std::size_t i = 0; i < r.parameters.size(); ++i) {
        const bool known = i < r.standardErrors.size() && r.determined[i];
        out += qs(r.parameters[i]).leftJustified(width) + cell(r.start[i]).leftJustified(14) +
               cell(r.values[i], 12).leftJustified(22) +
               (known ? cell(r.standardErrors[i], 3) : QStringLiteral("not determined"))
                   .leftJustified(14) +
               qs(parameterUnits_[i]) + QLatin1Char('\n');
    }
    if (r.cancelled) {
        out += QStringLiteral("cancelled after %1 iterations (%2 runs)\n")
                   .arg(r.iterations)
                   .arg(r.runs);
        return out;
    }
    if (r.parameters.size() > 1) {
        out += QStringLiteral("correlation:\n") + QString().leftJustified(width);
        for (const std::string& name : r.parameters)
            out += qs(name).rightJustified(width);
        out += QLatin1Char('\n');
        for (std::size_t i = 0; i < r.parameters.size(); ++i) {
            out += qs(r.parameters[i]).leftJustified(width);
            for (std::size_t j = 0; j < r.parameters.size(); ++j)
                out +=
                    cell(r.correlation(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)),
                         3)
                        .rightJustified(width);
            out += QLatin1Char('\n');
        }
    }
    for (std::size_t c = 0; c < r.columns.size(); ++c)
        out += QStringLiteral("residual RMS of %1 (%2): %3 %4\n")
                   .arg(qs(r.columns[c]), qs(quantities_[c]), cell(r.columnRms[c], 4),
                        qs(quantityUnits_[c]))
                   .trimmed() +
               QLatin1Char('\n');
    out += QStringLiteral("chi^2/dof: %1 (%2 degrees of freedom)\n")
               .arg(cell(r.residualVariance, 4))
               .arg(r.degreesOfFreedom);
    out += QStringLiteral("iterations: %1, runs: %2, %3: %4\n")
               .arg(r.iterations)
               .arg(r.runs)
               .arg(r.converged ? QStringLiteral("converged") : QStringLiteral("not converged"),
                    qs(r.stopReason));
    for (const std::string& warning : r.warnings)
        out += QStringLiteral("warning: ") + qs(warning) + QLatin1Char('\n');
    return out;
}

QByteArray FitReport::json() const
{
    const FitResult& r = result_;
    QJsonObject root;
    root[QStringLiteral("scene")] = scene_;
    root[QStringLiteral("data")] = data_;
    root[QStringLiteral("command_line")] = QJsonArray::fromStringList(commandLine_);
    QJsonArray parameters;
    for (std::size_t i = 0; i < r.parameters.size(); ++i) {
        QJsonObject p;
        p[QStringLiteral("name")] = qs(r.parameters[i]);
        p[QStringLiteral("unit")] = qs(parameterUnits_[i]);
        p[QStringLiteral("start")] = r.start[i];
        p[QStringLiteral("value")] = r.values[i];
        const bool done = i < r.standardErrors.size();
        p[QStringLiteral("standard_error")] = jsonNumber(done ? r.standardErrors[i] : NAN);
        p[QStringLiteral("determined")] = done && r.determined[i];
        p[QStringLiteral("at_bound")] = done && r.atBound[i];
        parameters.append(p);
    }
    root[QStringLiteral("parameters")] = parameters;
    root[QStringLiteral("covariance")] = jsonMatrix(r.covariance);
    root[QStringLiteral("correlation")] = jsonMatrix(r.correlation);
    QJsonArray columns;
    for (std::size_t c = 0; c < r.columns.size(); ++c) {
        QJsonObject column;
        column[QStringLiteral("column")] = qs(r.columns[c]);
        column[QStringLiteral("quantity")] = qs(quantities_[c]);
        column[QStringLiteral("unit")] = qs(quantityUnits_[c]);
        column[QStringLiteral("rms")] = jsonNumber(c < r.columnRms.size() ? r.columnRms[c] : NAN);
        columns.append(column);
    }
    root[QStringLiteral("columns")] = columns;
    root[QStringLiteral("chi_square")] = jsonNumber(r.chiSquare);
    root[QStringLiteral("degrees_of_freedom")] = r.degreesOfFreedom;
    root[QStringLiteral("residual_variance")] = jsonNumber(r.residualVariance);
    root[QStringLiteral("sigma_given")] = r.sigmaGiven;
    root[QStringLiteral("iterations")] = r.iterations;
    root[QStringLiteral("runs")] = r.runs;
    root[QStringLiteral("converged")] = r.converged;
    root[QStringLiteral("cancelled")] = r.cancelled;
    root[QStringLiteral("stop_reason")] = qs(r.stopReason);
    QJsonArray warnings;
    for (const std::string& w : r.warnings)
        warnings.append(qs(w));
    root[QStringLiteral("warnings")] = warnings;
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

} // namespace clab
