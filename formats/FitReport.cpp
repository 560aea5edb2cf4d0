#include "FitReport.h"

#include "RoundedValue.h"

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
    out += parameterTable();
    if (r.cancelled) {
        out += QStringLiteral("cancelled after %1 iterations (%2 runs)\n")
                   .arg(r.iterations)
                   .arg(r.runs);
        return out;
    }
    out += correlationTable();
    for (const QString& line : summaryLines())
        out += line + QLatin1Char('\n');
    out += QStringLiteral("iterations: %1, runs: %2, %3: %4\n")
               .arg(r.iterations)
               .arg(r.runs)
               .arg(r.converged ? QStringLiteral("converged") : QStringLiteral("not converged"),
                    qs(r.stopReason));
    for (const std::string& warning : r.warnings)
        out += QStringLiteral("warning: ") + qs(warning) + QLatin1Char('\n');
    if (r.failed())
        out += QStringLiteral("fit failed: ") + qs(r.failure) + QLatin1Char('\n');
    return out;
}

QString FitReport::valueText(std::size_t i) const
{
    const FitResult& r = result_;
    const bool known = i < r.standardErrors.size() && r.determined[i];
    return known ? RoundedValue(r.values[i], r.standardErrors[i]).valueText() : cell(r.values[i]);
}

QString FitReport::errorText(std::size_t i) const
{
    const FitResult& r = result_;
    const bool known = i < r.standardErrors.size() && r.determined[i];
    return known ? RoundedValue(r.values[i], r.standardErrors[i]).errorText()
                 : QStringLiteral("not determined");
}

QString FitReport::parameterUnit(std::size_t i) const
{
    return qs(parameterUnits_[i]);
}

QString FitReport::parameterTable() const
{
    const FitResult& r = result_;
    // Each column as wide as its widest entry, and two blanks apart.
    std::vector<QStringList> rows{{QStringLiteral("parameter"), QStringLiteral("start"),
                                   QStringLiteral("value"), QStringLiteral("std. error"),
                                   QStringLiteral("unit")}};
    for (std::size_t i = 0; i < r.parameters.size(); ++i)
        rows.push_back(
            {qs(r.parameters[i]), cell(r.start[i]), valueText(i), errorText(i), parameterUnit(i)});
    std::vector<qsizetype> widths(5, 0);
    for (const QStringList& row : rows)
        for (qsizetype k = 0; k < row.size(); ++k)
            widths[static_cast<std::size_t>(k)] =
                std::max(widths[static_cast<std::size_t>(k)], row[k].size() + 2);
    QString out;
    for (const QStringList& row : rows) {
        QString line;
        for (qsizetype k = 0; k < row.size(); ++k)
            line += row[k].leftJustified(widths[static_cast<std::size_t>(k)]);
        out += line.trimmed() + QLatin1Char('\n');
    }
    return out;
}

QString FitReport::correlationTable() const
{
    const FitResult& r = result_;
    if (r.parameters.size() < 2)
        return {};
    int width = 11;
    for (const std::string& name : r.parameters)
        width = std::max(width, static_cast<int>(name.size()) + 2);
    QString out = QStringLiteral("correlation:\n") + QString().leftJustified(width);
    for (const std::string& name : r.parameters)
        out += qs(name).rightJustified(width);
    out += QLatin1Char('\n');
    for (std::size_t i = 0; i < r.parameters.size(); ++i) {
        out += qs(r.parameters[i]).leftJustified(width);
        for (std::size_t j = 0; j < r.parameters.size(); ++j)
            out += correlationText(i, j).rightJustified(width);
        out += QLatin1Char('\n');
    }
    return out;
}

QString FitReport::correlationText(std::size_t i, std::size_t j) const
{
    const Eigen::MatrixXd& c = result_.correlation;
    const auto a = static_cast<Eigen::Index>(i), b = static_cast<Eigen::Index>(j);
    if (a >= c.rows() || b >= c.cols() || !std::isfinite(c(a, b)))
        return QStringLiteral("-");
    return QString::number(c(a, b), 'f', 3);
}

QStringList FitReport::summaryLines() const
{
    const FitResult& r = result_;
    QStringList lines;
    for (std::size_t c = 0; c < r.columns.size() && c < r.columnRms.size(); ++c)
        lines << QStringLiteral("residual RMS of %1 (%2): %3 %4")
                     .arg(qs(r.columns[c]), qs(quantities_[c]), cell(r.columnRms[c], 4),
                          qs(quantityUnits_[c]))
                     .trimmed();
    lines << chiSquareLine();
    return lines;
}

QString FitReport::chiSquareLine() const
{
    const FitResult& r = result_;
    const QString dof = QStringLiteral("%1 degrees of freedom").arg(r.degreesOfFreedom);
    if (r.sigmaGiven)
        return QStringLiteral("chi^2/dof: %1 (%2; near 1 when the model and sigma fit the data)")
            .arg(cell(r.residualVariance, 4), dof);
    // Without σ the misfit sets σ: χ²/dof is then 1 by construction, and what it measures is
    // the noise s = √(χ²/(m − n)) in the columns' unit.
    QString unit = quantityUnits_.empty() ? QString() : qs(quantityUnits_.front());
    for (const std::string& u : quantityUnits_)
        if (qs(u) != unit)
            unit = QStringLiteral("(each column's unit)");
    return QStringLiteral("chi^2/dof: 1 by construction (%1): sigma was estimated from the "
                          "residuals as s = %2 %3")
        .arg(dof, cell(std::sqrt(r.residualVariance), 4), unit)
        .trimmed();
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
    root[QStringLiteral("failure")] =
        r.failed() ? QJsonValue(qs(r.failure)) : QJsonValue(QJsonValue::Null);
    QJsonArray warnings;
    for (const std::string& w : r.warnings)
        warnings.append(qs(w));
    root[QStringLiteral("warnings")] = warnings;
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

} // namespace clab
