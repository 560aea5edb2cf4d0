#pragma once

#include "plots/PlotData.h"

#include <QWidget>

#include <memory>

class QLabel;

namespace clab {

class PlotChart;
class VtkOpenGLWidget;

/// \brief Presentation mode's one plot: the Plots dock's plot in type legible from the back of a
/// room, its legend a line of coloured names under it rather than a box over the curves.
class PresentationPlot : public QWidget {
    Q_OBJECT
public:
    explicit PresentationPlot(QWidget* parent = nullptr);
    ~PresentationPlot() override;

    /// Draws `data` (the Plots dock's plot), with the cursor at x (NaN: none).
    void setData(const PlotData& data, double cursor);
    const PlotData& data() const;
    void setCursor(double x);
    /// The legend's and the axes' text height in pixels.
    void setTextPixels(int pixels);
    /// The legend under the chart: each entry's name in its colour.
    QLabel* legend() const { return legend_; }
    PlotChart& chart() const { return *chart_; }

private:
    std::unique_ptr<PlotChart> chart_;
    VtkOpenGLWidget* widget_;
    QLabel* legend_;
};

} // namespace clab
