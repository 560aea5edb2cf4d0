#pragma once

#include <QColor>
#include <QString>

#include <vector>

namespace clab {

/// \brief One curve of a plot, ready to draw.
struct PlotCurve {
    QString label; ///< legend entry
    std::vector<double> x;
    std::vector<double> y;
    QColor color;
    Qt::PenStyle style = Qt::SolidLine;
    double width = 2.0;   ///< pen width in pixels at scale 1
    bool markers = false; ///< measured points: a marker at each point, not joined
};

/// \brief A legend entry drawn as a short line that is not itself a curve of the plot.
struct PlotLegendEntry {
    QString label;
    QColor color;
    Qt::PenStyle style = Qt::SolidLine;
    double width = 2.0; ///< pen width in pixels at scale 1
};

/// \brief Everything a plot shows, independent of how it is drawn (screen, PNG, SVG, PDF).
struct PlotData {
    QString title;
    QString xTitle; ///< axis title with unit, e.g. "t [s]"
    QString yTitle;
    bool logY = false;
    std::vector<PlotCurve> curves;
    /// When not empty, the legend shows these entries instead of one per curve (compare mode:
    /// one per quantity in its colour, one per run in its line style).
    std::vector<PlotLegendEntry> legend;
    /// Where a one-sided contact of the current run left, touched or took an impact: the x
    /// (time) of a vertical marker line each, on plots against t (docs/MATH.md §11).
    std::vector<double> eventX;
    /// On plots against another quantity (a phase portrait): where each of the current run's
    /// curves is at each of those moments, a marker each (eventPointX[i], eventPointY[i]).
    std::vector<double> eventPointX;
    std::vector<double> eventPointY;
};

} // namespace clab
