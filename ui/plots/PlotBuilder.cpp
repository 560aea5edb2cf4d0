#include "plots/PlotBuilder.h"

#include "plots/ForceKind.h"
#include "plots/RunColors.h"

#include <model/ConstraintLabError.h>
#include <trace/Trace.h>
#include <trace/TraceSeries.h>

#include <QStringList>

#include <algorithm>
#include <cmath>
#include <optional>

namespace clab {

namespace {

/// The force a series shows: its norm ("|Qci|") or one of its components ("Qci_x").
std::optional<ForceKind> forceOf(const std::string& name)
{
    const auto is = [&](const char* norm, const char* prefix) {
        return name == norm || name.rfind(prefix, 0) == 0;
    };
    // Longest prefixes first: "Qcni_" also starts with "Q".
    if (is("|Qcni|", "Qcni_")) {
        return ForceKind::NonIdealConstraint;
    }
    if (is("|Qci|", "Qci_")) {
        return ForceKind::IdealConstraint;
    }
    if (is("|Q|", "Q_")) {
        return ForceKind::Given;
    }
    return std::nullopt;
}

/// Okabe–Ito (colour-blind safe), darkest first so that the first series read well on white.
QColor paletteColor(std::size_t index)
{
    static const QColor palette[] = {QColor(0x00, 0x72, 0xB2), QColor(0xE6, 0x9F, 0x00),
                                     QColor(0x00, 0x9E, 0x73), QColor(0xCC, 0x79, 0xA7),
                                     QColor(0x00, 0x00, 0x00), QColor(0x56, 0xB4, 0xE9),
                                     QColor(0xD5, 0x5E, 0x00)};
    return palette[index % std::size(palette)];
}

/// A word for the quantity a unit measures, for the y title of several series sharing it.
QString quantityOfUnit(const std::string& unit)
{
    if (unit == "J") {
        return QStringLiteral("energy");
    }
    if (unit == "N") {
        return QStringLiteral("force");
    }
    if (unit == "N·m") {
        return QStringLiteral("torque");
    }
    if (unit == "m") {
        return QStringLiteral("position");
    }
    if (unit == "m/s") {
        return QStringLiteral("velocity");
    }
    if (unit == "m/s²") {
        return QStringLiteral("acceleration");
    }
    if (unit == "1/s") {
        return QStringLiteral("angular velocity");
    }
    return {};
}

QString withUnit(const QString& label, const std::string& unit)
{
    return unit.empty() ? label
                        : QStringLiteral("%1 [%2]").arg(label, QString::fromStdString(unit));
}

/// |y| with zeros (and anything not positive) raised to the smallest positive value.
void clipForLog(std::vector<double>& y)
{
    double smallest = std::numeric_limits<double>::infinity();
    for (double& v : y) {
        v = std::abs(v);
        if (v > 0.0 && std::isfinite(v)) {
            smallest = std::min(smallest, v);
        }
    }
    if (!std::isfinite(smallest)) {
        smallest = 1e-300;
    }
    for (double& v : y) {
        if (!(v > 0.0)) { // also NaN
            v = smallest;
        }
    }
}

/// Throws when there is nothing to plot: no run, a run without a trace, no y quantity.
void checkPlottable(const PlotSpec& spec, const std::vector<LabelledTrace>& runs)
{
    if (runs.empty()) {
        throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter,
                                 "plot \"" + spec.title + "\": no run to plot");
    }
    for (const LabelledTrace& run : runs) {
        if (!run.trace) {
            throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter,
                                     "plot \"" + spec.title + "\": run \"" + run.label +
                                         "\" has no trace");
        }
    }
    if (spec.y.empty()) {
        throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter,
                                 "plot \"" + spec.title + "\": no quantity to plot on the y axis");
    }
}

/// The y axis's title: one series' label and unit, the quantity of a shared unit, or each
/// label with its unit.
QString yTitleOf(const QStringList& labels, const std::vector<std::string>& units)
{
    const bool sharedUnit =
        std::all_of(units.begin(), units.end(), [&](const auto& u) { return u == units[0]; });
    if (labels.size() == 1) {
        return withUnit(labels.front(), units.front());
    }
    if (sharedUnit) {
        const QString quantity = quantityOfUnit(units.front());
        return withUnit(quantity.isEmpty() ? labels.join(QStringLiteral(", ")) : quantity,
                        units.front());
    }
    QStringList parts;
    for (qsizetype i = 0; i < labels.size(); ++i) {
        parts << withUnit(labels[i], units[static_cast<std::size_t>(i)]);
    }
    return parts.join(QStringLiteral(", "));
}

/// The line style of run `r` of `count`: each earlier run has one of its own besides its
/// colour (runColor, as its ghost in the 3D view); the current (last) one is solid.
Qt::PenStyle runStyle(std::size_t r, std::size_t count)
{
    static const Qt::PenStyle earlier[] = {Qt::DashLine, Qt::DotLine, Qt::DashDotLine,
                                           Qt::DashDotDotLine};
    return r + 1 == count ? Qt::SolidLine : earlier[r % std::size(earlier)];
}

/// Several quantities of several runs: a legend of series × runs entries would cover the
/// plot. Instead one entry per quantity (its colour, as the current run draws it) and one per
/// run (its line style, and an earlier run's colour).
void addCompareLegend(PlotData& data, const QStringList& labels, const std::vector<QColor>& colors,
                      const std::vector<LabelledTrace>& runs)
{
    for (qsizetype i = 0; i < labels.size(); ++i) {
        data.legend.push_back({labels[i], colors[static_cast<std::size_t>(i)]});
    }
    for (std::size_t r = 0; r < runs.size(); ++r) {
        const QString label = runs[r].label.empty() ? QStringLiteral("run %1").arg(r + 1)
                                                    : QString::fromStdString(runs[r].label);
        const bool isCurrent = r + 1 == runs.size();
        data.legend.push_back(
            {label, isCurrent ? QColor(0x55, 0x55, 0x55) : runColor(r), runStyle(r, runs.size())});
    }
}

/// The moments the current run's one-sided contacts let go, touch or are struck (several at one
/// instant, an impact that ends in a touch, count once): against t a vertical line each;
/// against another quantity a mark on each of the run's curves (the last spec.y.size() of
/// data.curves) where it is then, on the segment drawn across that instant.
void addContactEvents(PlotData& data, const PlotSpec& spec, const Trace& current)
{
    std::vector<double> times;
    for (const ContactEvent& e : current.events)
        if (ContactEvent::oneSided(e.kind) && (times.empty() || times.back() != e.t))
            times.push_back(e.t);
    if (spec.x == "t") {
        data.eventX = std::move(times);
        return;
    }
    const std::vector<TraceSample>& samples = current.samples;
    const std::size_t first = data.curves.size() - spec.y.size();
    for (const double t : times) {
        const std::size_t i = current.sampleIndexAt(t);
        const std::size_t j = std::min(i + 1, samples.size() - 1);
        const double span = samples[j].t - samples[i].t;
        const double f = span > 0.0 ? std::clamp((t - samples[i].t) / span, 0.0, 1.0) : 0.0;
        for (std::size_t c = first; c < data.curves.size(); ++c) {
            const PlotCurve& curve = data.curves[c];
            if (j >= curve.x.size() || j >= curve.y.size())
                continue;
            const double x = curve.x[i] + f * (curve.x[j] - curve.x[i]);
            const double y = curve.y[i] + f * (curve.y[j] - curve.y[i]);
            if (std::isfinite(x) && std::isfinite(y)) {
                data.eventPointX.push_back(x);
                data.eventPointY.push_back(y);
            }
        }
    }
}

} // namespace

QColor PlotBuilder::seriesColor(const PlotSpec& spec, const std::string& name)
{
    // Forces keep their arrow colours; other series take the palette in the order of spec.y.
    std::size_t paletteIndex = 0;
    for (const std::string& y : spec.y) {
        const std::optional<ForceKind> force = forceOf(y);
        const QColor color = force ? forceColor(*force) : paletteColor(paletteIndex++);
        if (y == name)
            return color;
    }
    return {};
}

PlotData PlotBuilder::build(const PlotSpec& spec, const std::vector<LabelledTrace>& runs)
{
    checkPlottable(spec, runs);

    // Labels and units come from the current (last) run; TraceSeries throws, naming the
    // quantity, when a name is unknown.
    const Trace& current = *runs.back().trace;
    PlotData data;
    data.title = QString::fromStdString(spec.title);
    data.logY = spec.logY;
    data.xTitle = withUnit(QString::fromStdString(TraceSeries::label(current, spec.x)),
                           TraceSeries::unit(current, spec.x));

    QStringList yLabels;
    std::vector<std::string> yUnits;
    std::vector<QColor> colors;
    for (const std::string& name : spec.y) {
        yLabels << QString::fromStdString(TraceSeries::label(current, name));
        yUnits.push_back(TraceSeries::unit(current, name));
        colors.push_back(seriesColor(spec, name));
    }
    data.yTitle = yTitleOf(yLabels, yUnits);

    const bool compare = runs.size() > 1;
    for (std::size_t r = 0; r < runs.size(); ++r) {
        const Trace& trace = *runs[r].trace;
        const bool isCurrent = r + 1 == runs.size();
        const std::vector<double> x = TraceSeries::values(trace, spec.x);
        for (std::size_t i = 0; i < spec.y.size(); ++i) {
            PlotCurve curve;
            curve.label = yLabels[static_cast<qsizetype>(i)];
            if (compare && !runs[r].label.empty()) {
                curve.label += QStringLiteral(" (%1)").arg(QString::fromStdString(runs[r].label));
            }
            curve.x = x;
            curve.y = TraceSeries::values(trace, spec.y[i]);
            if (spec.logY) {
                clipForLog(curve.y);
            }
            // An earlier run in its own colour, the one its ghost has in the 3D view.
            curve.color = isCurrent ? colors[i] : runColor(r);
            curve.style = runStyle(r, runs.size());
            data.curves.push_back(std::move(curve));
        }
    }
    if (compare && spec.y.size() > 1) {
        addCompareLegend(data, yLabels, colors, runs);
    }
    addContactEvents(data, spec, current);
    return data;
}

} // namespace clab
