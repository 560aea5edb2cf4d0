#pragma once
// Plot data for the plot tests.

#include <plots/PlotData.h>

#include <QColor>
#include <QString>

#include <cmath>
#include <numbers>

namespace clab::testing {

/// `count` fast sines with different phases: every part of the plot area has curve points.
inline PlotData sinesEverywhere(int count)
{
    PlotData data;
    data.title = QStringLiteral("Busy");
    data.xTitle = QStringLiteral("t [s]");
    data.yTitle = QStringLiteral("y [m]");
    for (int k = 0; k < count; ++k) {
        PlotCurve curve{
            QStringLiteral("curve %1").arg(k + 1), {}, {}, QColor::fromHsv(36 * k, 255, 200)};
        for (int i = 0; i <= 4000; ++i) {
            const double t = 0.005 * i;
            curve.x.push_back(t);
            curve.y.push_back(std::sin(2.0 * std::numbers::pi * t + 0.6 * k));
        }
        data.curves.push_back(curve);
    }
    return data;
}

} // namespace clab::testing
