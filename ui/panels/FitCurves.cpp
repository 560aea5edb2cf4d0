#include "panels/FitCurves.h"

#include <QCoreApplication>

namespace clab {

std::vector<std::pair<std::string, PlotCurve>>
FitCurves::residuals(const Measurements& measured,
                     const std::vector<std::vector<double>>& residuals)
{
    std::vector<std::pair<std::string, PlotCurve>> curves;
    for (std::size_t c = 0; c < residuals.size() && c < measured.columns.size(); ++c) {
        const Measurements::Column& column = measured.columns[c];
        PlotCurve curve;
        curve.label = QCoreApplication::translate("clab::FitPanel", "%1 − simulated %2")
                          .arg(QString::fromStdString(column.name()),
                               QString::fromStdString(column.quantity));
        curve.x = measured.times;
        curve.y = residuals[c];
        curve.width = 1.0;
        curve.markers = true;
        curves.emplace_back(column.quantity, std::move(curve));
    }
    return curves;
}

std::vector<std::pair<std::string, PlotCurve>> FitCurves::measured(const Measurements& measured)
{
    std::vector<std::pair<std::string, PlotCurve>> curves;
    for (const Measurements::Column& column : measured.columns) {
        PlotCurve curve;
        curve.label = QCoreApplication::translate("clab::FitPanel", "%1 (measured)")
                          .arg(QString::fromStdString(column.name()));
        curve.x = measured.times;
        curve.y = column.values;
        curve.color = QColor(0x20, 0x20, 0x20);
        curve.width = 1.0;
        curve.markers = true;
        curves.emplace_back(column.quantity, std::move(curve));
    }
    return curves;
}

} // namespace clab
