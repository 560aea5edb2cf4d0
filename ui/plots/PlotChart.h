#pragma once

#include "plots/PlotData.h"

#include <vtkSmartPointer.h>

#include <array>
#include <limits>

class vtkChartXY;
class vtkContextView;
class vtkPlot;
class vtkObject;
class vtkTable;

namespace clab {

/// \brief A VTK 2-D chart (vtkChartXY in a vtkContextView) drawing PlotData: curves, legend,
/// axis titles, optional log y axis and a vertical cursor line (the current time).
///
/// The same class draws on screen (PlotsPanel puts the view into a VtkOpenGLWidget's render
/// window) and into files (PlotExporter renders it into an OffscreenRenderWindow), so exported
/// plots look like the screen. Fonts are sized for a projector.
class PlotChart {
public:
    PlotChart();
    ~PlotChart();
    PlotChart(const PlotChart&) = delete;
    PlotChart& operator=(const PlotChart&) = delete;

    void setData(const PlotData& data);
    /// The label of the plot that draws data().eventX's lines (not in the legend).
    static constexpr const char* kEventLinesLabel = "contact events";
    /// The label of the plot that draws data().eventPointX/Y's marks (not in the legend).
    static constexpr const char* kEventPointsLabel = "contact event points";
    const PlotData& data() const { return data_; }

    /// Vertical cursor at x (NaN hides it).
    void setCursor(double x);
    double cursor() const { return cursor_; }

    /// Multiplies font sizes and line widths (PNG export with a scale factor for print).
    void setScale(double scale);
    double scale() const { return scale_; }

    /// Lays the chart out for VTK's PDF device, which sets Helvetica lower than FreeType measured
    /// the text: the x title moves up by a quarter of its size to keep its descenders on the page.
    void setForPdfDevice(bool on);

    /// Shows all data again after zooming or panning.
    void resetZoom();
    /// The share of the plot's height the y axis leaves free above the data for the legend
    /// (0 when the legend has a free corner or stands beside the plot).
    double legendHeadroom() const { return headroom_; }

    /// The visible ranges of the bottom and left axes: {x min, x max, y min, y max}.
    std::array<double, 4> viewRange() const;
    /// Fixes the bottom and left axes to a range from viewRange() (until resetZoom()).
    void setViewRange(const std::array<double, 4>& range);

    /// The view: give it a render window (SetRenderWindow) and, on screen, an interactor.
    vtkContextView* view() const;
    vtkChartXY* chart() const;

private:
    /// The legend's box in plot-area fractions.
    struct LegendBox {
        double width = 0.0;
        double height = 0.0;
    };

    void rebuild();
    /// Title and axes: texts, fonts and pens at the current scale.
    void styleTitleAndAxes();
    /// A curve's plot; widens the data ranges (xLow_ ... yHigh_) to cover it.
    void addCurve(const PlotCurve& curve);
    /// The entries of data_.legend, as lines that draw nothing.
    void addLegendEntries();
    /// The cursor line, at cursor_.
    void addCursor();
    /// A mark at each of data_.eventPointX/Y (the contacts' events on a phase portrait).
    void addEventPoints();
    /// A vertical line at each of data_.eventX (the contacts' events).
    void addEventLines();
    void setPen(vtkPlot* plot, const QColor& color, double width, Qt::PenStyle style) const;
    /// Places the legend for the render window's current size where it covers no curve.
    void placeLegend();
    /// Raises the y axis's top so that the data leaves `share` of the height free above it.
    void addHeadroom(double share);
    /// Sizes the legend's text, symbols and padding at `factor` times their size at this scale.
    void sizeLegend(double factor);
    /// The legend's box for the window's size, in plot-area fractions.
    LegendBox fitLegendBox();
    /// Puts the point (x, y) into plot-area fractions (u, v); false for a point not drawn.
    bool plotFraction(double x, double y, double& u, double& v) const;
    void onRenderStart(vtkObject* caller, unsigned long eventId, void* callData);

    vtkSmartPointer<vtkContextView> view_;
    vtkSmartPointer<vtkChartXY> chart_;
    PlotData data_;
    double cursor_ = std::numeric_limits<double>::quiet_NaN();
    double scale_ = 1.0;
    bool forPdfDevice_ = false;
    // The cursor line and its two points, owned by the chart; updated in place by setCursor.
    vtkPlot* cursorPlot_ = nullptr;
    vtkSmartPointer<vtkTable> cursorTable_;
    // The y range of the data (positive values only on a log axis), spanned by the cursor.
    double yLow_ = 0.0;
    double yHigh_ = 0.0;
    double xLow_ = 0.0;
    double xHigh_ = 0.0;
    // The render window's size the legend was placed for.
    std::array<int, 2> legendWindow_{0, 0};
    unsigned long renderObserver_ = 0;
    /// The share of the height left free above the data for the legend (0: none).
    double headroom_ = 0.0;
};

} // namespace clab
