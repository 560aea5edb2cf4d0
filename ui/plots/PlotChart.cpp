#include "plots/PlotChart.h"

#include "plots/PlotAxis.h"
#include "render/VtkLog.h"

#include <vtkAxis.h>
#include <vtkBrush.h>
#include <vtkChartLegend.h>
#include <vtkChartXY.h>
#include <vtkCommand.h>
#include <vtkContextScene.h>
#include <vtkContextView.h>
#include <vtkDoubleArray.h>
#include <vtkPen.h>
#include <vtkPlot.h>
#include <vtkPlotLine.h>
#include <vtkPlotPoints.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkTable.h>
#include <vtkTextProperty.h>

#include <QFileInfo>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace clab {

namespace {

// Sizes in pixels at scale 1, chosen to stay readable on a projector.
constexpr double kTitleFont = 18.0;
constexpr double kAxisTitleFont = 16.0;
constexpr double kLabelFont = 14.0;
constexpr double kCursorWidth = 1.5;
// The most of the plot's height the y axis leaves free above the data for the legend.
constexpr double kMostHeadroom = 0.4;
// The most of the plot's width a legend beside it may take; a wider one goes on top, in a band
// of at most this share of the height.
constexpr double kMostBeside = 0.35;
constexpr double kDeepestHeadroom = 0.6;

// VTK's embedded Arial has no combining or sub/superscript letters ("Qᶜᵢ", "‖u‖ − 1"):
// DejaVu Sans, present on every Debian desktop, has them.
const char* unicodeFontFile()
{
    static const QByteArray file = [] {
        for (const char* candidate :
             {"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
              "/usr/share/fonts/TTF/DejaVuSans.ttf", "/usr/share/fonts/dejavu/DejaVuSans.ttf"}) {
            if (QFileInfo::exists(QString::fromLatin1(candidate))) {
                return QByteArray(candidate);
            }
        }
        return QByteArray();
    }();
    return file.isEmpty() ? nullptr : file.constData();
}

void styleText(vtkTextProperty* text, double size, bool bold = false)
{
    text->SetFontSize(std::max(1, static_cast<int>(std::lround(size))));
    text->SetColor(0.1, 0.1, 0.1);
    text->SetBold(bold);
    if (const char* file = unicodeFontFile()) {
        text->SetFontFamily(VTK_FONT_FILE);
        text->SetFontFile(file);
    }
}

int penStyle(Qt::PenStyle style)
{
    switch (style) {
    case Qt::NoPen:
        return vtkPen::NO_PEN;
    case Qt::DashLine:
        return vtkPen::DASH_LINE;
    case Qt::DotLine:
        return vtkPen::DOT_LINE;
    case Qt::DashDotLine:
        return vtkPen::DASH_DOT_LINE;
    case Qt::DashDotDotLine:
        return vtkPen::DASH_DOT_DOT_LINE;
    default:
        return vtkPen::SOLID_LINE;
    }
}

vtkSmartPointer<vtkTable> twoColumnTable(const char* xName, const char* yName)
{
    auto table = vtkSmartPointer<vtkTable>::New();
    vtkNew<vtkDoubleArray> x;
    x->SetName(xName);
    vtkNew<vtkDoubleArray> y;
    y->SetName(yName);
    table->AddColumn(x);
    table->AddColumn(y);
    return table;
}

/// The legend's longest label (in characters) and its number of entries.
std::pair<std::size_t, std::size_t> legendExtent(const PlotData& data)
{
    std::size_t longest = 1;
    for (const PlotLegendEntry& entry : data.legend) {
        longest = std::max<std::size_t>(longest, static_cast<std::size_t>(entry.label.size()));
    }
    if (!data.legend.empty()) {
        return {longest, data.legend.size()};
    }
    for (const PlotCurve& curve : data.curves) {
        longest = std::max<std::size_t>(longest, static_cast<std::size_t>(curve.label.size()));
    }
    return {longest, data.curves.size()};
}

/// A place for the legend: its alignment, its box's lower-left corner in plot-area fractions
/// and how many curve points the box covers.
struct LegendSpot {
    int horizontal;
    int vertical;
    double u0, v0;
    int count = 0;
};

/// Of nine spots for a legend box `width` × `height` (plot-area fractions: corners, edge
/// middles, centre), the one covering fewest curve points; on ties top right first, the centre
/// last. `position(x, y, u, v)` puts a point into plot-area fractions, false for one not drawn.
/// Curves are sampled evenly in time, so counting points is a fair measure of covered ink.
template <typename Position>
LegendSpot leastCoveredSpot(const std::vector<PlotCurve>& curves, double width, double height,
                            const Position& position)
{
    std::vector<LegendSpot> spots;
    const int hs[] = {vtkChartLegend::RIGHT, vtkChartLegend::LEFT, vtkChartLegend::CENTER};
    const int vs[] = {vtkChartLegend::TOP, vtkChartLegend::BOTTOM, vtkChartLegend::CENTER};
    for (int v : vs) {
        for (int h : hs) {
            const double u0 = h == vtkChartLegend::LEFT    ? 0.0
                              : h == vtkChartLegend::RIGHT ? 1.0 - width
                                                           : 0.5 - width / 2;
            const double v0 = v == vtkChartLegend::BOTTOM ? 0.0
                              : v == vtkChartLegend::TOP  ? 1.0 - height
                                                          : 0.5 - height / 2;
            spots.push_back({h, v, u0, v0});
        }
    }
    // A margin around the box: a line just outside it still looks crowded.
    const double margin = 0.03;
    for (const PlotCurve& curve : curves) {
        const std::size_t n = std::min(curve.x.size(), curve.y.size());
        for (std::size_t i = 0; i < n; ++i) {
            double u = 0.0;
            double v = 0.0;
            if (!position(curve.x[i], curve.y[i], u, v)) {
                continue;
            }
            for (LegendSpot& spot : spots) {
                if (u >= spot.u0 - margin && u <= spot.u0 + width + margin &&
                    v >= spot.v0 - margin && v <= spot.v0 + height + margin) {
                    ++spot.count;
                }
            }
        }
    }
    return *std::min_element(
        spots.begin(), spots.end(),
        [](const LegendSpot& a, const LegendSpot& b) { return a.count < b.count; });
}

} // namespace

PlotChart::PlotChart()
    : view_((VtkLog::install(), vtkSmartPointer<vtkContextView>::New())),
      chart_(vtkSmartPointer<vtkChartXY>::New())
{
    view_->GetRenderer()->SetBackground(1.0, 1.0, 1.0);
    view_->GetScene()->AddItem(chart_);
    // Axes whose tick spacing follows the label size (VTK's are a fixed 45 px apart). The chart
    // owns its axes and SetAxis does not release the one it replaces: release it here.
    for (int position : {vtkAxis::BOTTOM, vtkAxis::LEFT}) {
        vtkAxis* old = chart_->GetAxis(position);
        chart_->SetAxis(position, PlotAxis::New());
        old->Delete();
    }
    chart_->SetShowLegend(true);
    chart_->SetAutoSize(true);
    renderObserver_ =
        view_->GetRenderer()->AddObserver(vtkCommand::StartEvent, this, &PlotChart::onRenderStart);
    rebuild();
}

PlotChart::~PlotChart()
{
    // The renderer can outlive the chart (a render window still holds it).
    view_->GetRenderer()->RemoveObserver(renderObserver_);
}

vtkContextView* PlotChart::view() const
{
    return view_;
}

vtkChartXY* PlotChart::chart() const
{
    return chart_;
}

void PlotChart::setData(const PlotData& data)
{
    data_ = data;
    rebuild();
}

void PlotChart::setScale(double scale)
{
    scale_ = scale > 0.0 && std::isfinite(scale) ? scale : 1.0;
    rebuild();
}

void PlotChart::setForPdfDevice(bool on)
{
    forPdfDevice_ = on;
    rebuild();
}

void PlotChart::resetZoom()
{
    for (int axis = 0; axis < 4; ++axis) {
        chart_->GetAxis(axis)->SetBehavior(vtkAxis::AUTO);
    }
    chart_->RecalculateBounds();
    view_->GetScene()->SetDirty(true);
}

std::array<double, 4> PlotChart::viewRange() const
{
    vtkAxis* x = chart_->GetAxis(vtkAxis::BOTTOM);
    vtkAxis* y = chart_->GetAxis(vtkAxis::LEFT);
    return {x->GetMinimum(), x->GetMaximum(), y->GetMinimum(), y->GetMaximum()};
}

void PlotChart::setViewRange(const std::array<double, 4>& range)
{
    const auto fix = [](vtkAxis* axis, double low, double high) {
        if (std::isfinite(low) && std::isfinite(high) && high > low) {
            axis->SetBehavior(vtkAxis::FIXED);
            axis->SetRange(low, high);
        }
    };
    fix(chart_->GetAxis(vtkAxis::BOTTOM), range[0], range[1]);
    fix(chart_->GetAxis(vtkAxis::LEFT), range[2], range[3]);
    view_->GetScene()->SetDirty(true);
}

void PlotChart::setCursor(double x)
{
    cursor_ = x;
    // Only the cursor's two points change: the curves stay as they are.
    if (cursorTable_ == nullptr || cursorPlot_ == nullptr) {
        return;
    }
    const bool shown = std::isfinite(x) && std::isfinite(yLow_) && std::isfinite(yHigh_);
    cursorTable_->SetNumberOfRows(2);
    cursorTable_->SetValue(0, 0, vtkVariant(shown ? x : 0.0));
    cursorTable_->SetValue(1, 0, vtkVariant(shown ? x : 0.0));
    cursorTable_->SetValue(0, 1, vtkVariant(shown ? yLow_ : 0.0));
    cursorTable_->SetValue(1, 1, vtkVariant(shown ? yHigh_ : 0.0));
    cursorTable_->Modified();
    cursorPlot_->SetVisible(shown);
    view_->GetScene()->SetDirty(true);
}

void PlotChart::rebuild()
{
    chart_->ClearPlots();
    headroom_ = 0.0;
    cursorPlot_ = nullptr;
    cursorTable_ = nullptr;
    styleTitleAndAxes();

    yLow_ = std::numeric_limits<double>::infinity();
    yHigh_ = -std::numeric_limits<double>::infinity();
    xLow_ = std::numeric_limits<double>::infinity();
    xHigh_ = -std::numeric_limits<double>::infinity();
    for (const PlotCurve& curve : data_.curves) {
        addCurve(curve);
    }
    addLegendEntries();

    // A flat curve still gets a visible cursor.
    if (std::isfinite(yLow_) && yLow_ == yHigh_) {
        const double pad = yLow_ == 0.0 ? 1.0 : std::abs(yLow_) * 0.1;
        yHigh_ = yLow_ + pad;
        yLow_ = data_.logY ? yLow_ : yLow_ - pad;
    }

    placeLegend();
    addEventLines();
    addEventPoints();
    addCursor();

    // Plots cache their (log-transformed) points in Update, which needs the axis ranges, which
    // RecalculateBounds takes from the cached points: update, fit, update again, so that a log
    // axis is right in the very first frame.
    chart_->Update();
    chart_->RecalculateBounds();
    chart_->Update();
    view_->GetScene()->SetDirty(true);
}

void PlotChart::styleTitleAndAxes()
{
    chart_->SetTitle(data_.title.toStdString());
    styleText(chart_->GetTitleProperties(), kTitleFont * scale_, true);

    vtkAxis* xAxis = chart_->GetAxis(vtkAxis::BOTTOM);
    vtkAxis* yAxis = chart_->GetAxis(vtkAxis::LEFT);
    xAxis->SetTitle(data_.xTitle.toStdString());
    yAxis->SetTitle(data_.yTitle.toStdString());
    yAxis->SetLogScale(data_.logY);
    for (vtkAxis* axis : {xAxis, yAxis}) {
        styleText(axis->GetTitleProperties(), kAxisTitleFont * scale_);
        styleText(axis->GetLabelProperties(), kLabelFont * scale_);
        axis->GetPen()->SetWidth(static_cast<float>(scale_));
        axis->GetGridPen()->SetWidth(static_cast<float>(scale_));
        axis->GetGridPen()->SetColor(220, 220, 220);
        axis->SetBehavior(vtkAxis::AUTO);
        axis->SetTickLength(static_cast<float>(5 * scale_));
        axis->SetLabelOffset(static_cast<float>(7 * scale_));
        // Room around labels and titles: VTK's default margins clip the title's descenders.
        axis->SetMargins(static_cast<int>(std::lround(15 * scale_)),
                         static_cast<int>(std::lround(12 * scale_)));
    }
    // VTK 9.1 sets the bottom title flush with the scene's edge and clips its descenders
    // ("[s]"): lift it a little into the margin above it.
    xAxis->GetTitleProperties()->SetLineOffset(std::round(5 * scale_));
    if (auto* bottom = PlotAxis::SafeDownCast(xAxis)) {
        bottom->setTitleLift(
            forPdfDevice_ ? static_cast<float>(std::round(kAxisTitleFont * scale_ / 4.0)) : 0.0f);
    }
    // The hidden right axis leaves 20 pixels whatever the fonts: the last x label needs more
    // when the plot is scaled up for print.
    chart_->SetHiddenAxisBorder(static_cast<int>(std::lround(20 * scale_)));
}

void PlotChart::setPen(vtkPlot* plot, const QColor& color, double width, Qt::PenStyle style) const
{
    const QColor c = color.isValid() ? color : QColor(Qt::black);
    plot->GetPen()->SetColor(
        static_cast<unsigned char>(c.red()), static_cast<unsigned char>(c.green()),
        static_cast<unsigned char>(c.blue()), static_cast<unsigned char>(c.alpha()));
    plot->GetPen()->SetWidth(static_cast<float>(width * scale_));
    plot->GetPen()->SetLineType(penStyle(style));
}

void PlotChart::addCurve(const PlotCurve& curve)
{
    const std::size_t n = std::min(curve.x.size(), curve.y.size());
    if (n == 0) {
        return;
    }
    vtkSmartPointer<vtkTable> table = twoColumnTable("x", "y");
    table->SetNumberOfRows(static_cast<vtkIdType>(n));
    for (std::size_t i = 0; i < n; ++i) {
        table->SetValue(static_cast<vtkIdType>(i), 0, vtkVariant(curve.x[i]));
        table->SetValue(static_cast<vtkIdType>(i), 1, vtkVariant(curve.y[i]));
        if (std::isfinite(curve.y[i]) && (!data_.logY || curve.y[i] > 0.0)) {
            yLow_ = std::min(yLow_, curve.y[i]);
            yHigh_ = std::max(yHigh_, curve.y[i]);
        }
        if (std::isfinite(curve.x[i])) {
            xLow_ = std::min(xLow_, curve.x[i]);
            xHigh_ = std::max(xHigh_, curve.x[i]);
        }
    }
    vtkPlot* plot = chart_->AddPlot(curve.markers ? vtkChart::POINTS : vtkChart::LINE);
    // (vtkPlotLine is a vtkPlotPoints too: only measured points get markers.)
    if (auto* points = curve.markers ? vtkPlotPoints::SafeDownCast(plot) : nullptr) {
        points->SetMarkerStyle(vtkPlotPoints::CIRCLE);
        points->SetMarkerSize(static_cast<float>(5.0 * scale_));
    }
    plot->SetInputData(table, 0, 1);
    plot->SetLabel(curve.label.toStdString());
    setPen(plot, curve.color, curve.width, curve.style);
    plot->SetLegendVisibility(data_.legend.empty());
}

void PlotChart::addLegendEntries()
{
    // Legend-only entries: lines of zero length (which draw nothing) on a point the curves
    // already cover, so that the axis ranges do not change. Two points, not one: VTK reports
    // every frame of a one-point line as an error.
    if (data_.legend.empty() || !std::isfinite(xLow_) || !std::isfinite(yLow_)) {
        return;
    }
    for (const PlotLegendEntry& entry : data_.legend) {
        vtkSmartPointer<vtkTable> table = twoColumnTable("x", "y");
        table->SetNumberOfRows(2);
        for (vtkIdType row = 0; row < 2; ++row) {
            table->SetValue(row, 0, vtkVariant(xLow_));
            table->SetValue(row, 1, vtkVariant(yLow_));
        }
        vtkPlot* plot = chart_->AddPlot(vtkChart::LINE);
        plot->SetInputData(table, 0, 1);
        plot->SetLabel(entry.label.toStdString());
        setPen(plot, entry.color, entry.width, entry.style);
    }
}

void PlotChart::addCursor()
{
    // The cursor: a grey two-point line without a legend entry.
    cursorTable_ = twoColumnTable("cursor x", "cursor y");
    cursorTable_->SetNumberOfRows(2);
    vtkPlot* cursor = chart_->AddPlot(vtkChart::LINE);
    cursor->SetInputData(cursorTable_, 0, 1);
    cursor->SetLabel("");
    cursor->SetLegendVisibility(false);
    cursor->GetPen()->SetColor(110, 110, 110, 255);
    cursor->GetPen()->SetWidth(static_cast<float>(kCursorWidth * scale_));
    cursorPlot_ = cursor;
    setCursor(cursor_);
}

void PlotChart::addEventLines()
{
    // A contact's events: thin dashed orange lines across the data's height, drawn as pairs
    // of points (PolyLine off), without a legend entry.
    if (data_.eventX.empty() || !std::isfinite(yLow_) || !std::isfinite(yHigh_))
        return;
    vtkSmartPointer<vtkTable> table = twoColumnTable("event t", "event y");
    table->SetNumberOfRows(static_cast<vtkIdType>(2 * data_.eventX.size()));
    for (std::size_t i = 0; i < data_.eventX.size(); ++i) {
        const auto row = static_cast<vtkIdType>(2 * i);
        table->SetValue(row, 0, vtkVariant(data_.eventX[i]));
        table->SetValue(row, 1, vtkVariant(yLow_));
        table->SetValue(row + 1, 0, vtkVariant(data_.eventX[i]));
        table->SetValue(row + 1, 1, vtkVariant(yHigh_));
    }
    auto* lines = vtkPlotLine::SafeDownCast(chart_->AddPlot(vtkChart::LINE));
    lines->SetPolyLine(false);
    lines->SetInputData(table, 0, 1);
    lines->SetLabel(kEventLinesLabel);
    lines->SetLegendVisibility(false);
    setPen(lines, QColor(0xE6, 0x9F, 0x00), 1.0, Qt::DashLine);
}

void PlotChart::addEventPoints()
{
    // The same orange as the event lines and the trail's marks: a ring at each event.
    if (data_.eventPointX.empty())
        return;
    vtkSmartPointer<vtkTable> table = twoColumnTable("event x", "event y");
    table->SetNumberOfRows(static_cast<vtkIdType>(data_.eventPointX.size()));
    for (std::size_t i = 0; i < data_.eventPointX.size(); ++i) {
        table->SetValue(static_cast<vtkIdType>(i), 0, vtkVariant(data_.eventPointX[i]));
        table->SetValue(static_cast<vtkIdType>(i), 1, vtkVariant(data_.eventPointY[i]));
    }
    auto* points = vtkPlotPoints::SafeDownCast(chart_->AddPlot(vtkChart::POINTS));
    points->SetInputData(table, 0, 1);
    points->SetLabel(kEventPointsLabel);
    points->SetLegendVisibility(false);
    points->SetMarkerStyle(vtkPlotPoints::CIRCLE);
    points->SetMarkerSize(static_cast<float>(9.0 * scale_));
    setPen(points, QColor(0xE6, 0x9F, 0x00), 1.0, Qt::SolidLine);
}

void PlotChart::sizeLegend(double factor)
{
    vtkChartLegend* legend = chart_->GetLegend();
    const double font = kLabelFont * scale_ * factor;
    legend->SetLabelSize(std::max(1, static_cast<int>(std::lround(font))));
    styleText(legend->GetLabelProperties(), font);
    legend->SetSymbolWidth(static_cast<int>(std::lround(28 * scale_ * factor)));
    legend->SetPadding(static_cast<int>(std::lround(6 * scale_ * factor)));
}

void PlotChart::placeLegend()
{
    vtkRenderWindow* renderWindow = view_->GetRenderWindow();
    const int* size = renderWindow ? renderWindow->GetSize() : nullptr;
    legendWindow_ = size ? std::array<int, 2>{size[0], size[1]} : std::array<int, 2>{0, 0};

    vtkChartLegend* legend = chart_->GetLegend();
    sizeLegend(1.0);
    legend->GetBrush()->SetColor(255, 255, 255, 230);
    legend->GetPen()->SetColor(160, 160, 160);
    legend->GetPen()->SetWidth(static_cast<float>(scale_));

    // The legend never covers a curve: it goes to the spot of nine (corners, edge middles,
    // centre) that no curve point comes near (leastCoveredSpot); where there is none, the y
    // axis reaches higher than the data by the legend's height, so that a band across the top
    // is free for it; a legend too tall for that stands beside the plot area.
    int horizontal = vtkChartLegend::RIGHT;
    int vertical = vtkChartLegend::TOP;
    bool outside = false;
    if (chart_->GetShowLegend() && std::isfinite(xLow_) && std::isfinite(yLow_) && xHigh_ > xLow_ &&
        yHigh_ > yLow_) {
        const LegendBox box = fitLegendBox();
        const auto position = [this](double x, double y, double& u, double& v) {
            return plotFraction(x, y, u, v);
        };
        const LegendSpot best = leastCoveredSpot(data_.curves, box.width, box.height, position);
        if (best.count == 0) {
            horizontal = best.horizontal;
            vertical = best.vertical;
        } else if (box.height <= kMostHeadroom || box.width > kMostBeside) {
            // A narrow plot (a dock beside the view) keeps its width for the curves: the band
            // on top, even a deep one.
            addHeadroom(std::min(box.height, kDeepestHeadroom) + 0.05);
        } else {
            outside = true;
        }
    }
    legend->SetInline(!outside);
    legend->SetHorizontalAlignment(horizontal);
    legend->SetVerticalAlignment(vertical);
}

void PlotChart::addHeadroom(double share)
{
    // An invisible line from the data's top to where the data takes 1 − share of the height:
    // the axis (which may round further up, never down) then leaves the top band empty.
    const double top =
        data_.logY ? std::pow(10.0, std::log10(yHigh_) + (std::log10(yHigh_) - std::log10(yLow_)) *
                                                             share / (1.0 - share))
                   : yHigh_ + (yHigh_ - yLow_) * share / (1.0 - share);
    vtkSmartPointer<vtkTable> table = twoColumnTable("headroom x", "headroom y");
    table->SetNumberOfRows(2);
    table->SetValue(0, 0, vtkVariant(xLow_));
    table->SetValue(1, 0, vtkVariant(xLow_));
    table->SetValue(0, 1, vtkVariant(yHigh_));
    table->SetValue(1, 1, vtkVariant(top));
    vtkPlot* plot = chart_->AddPlot(vtkChart::LINE);
    plot->SetInputData(table, 0, 1);
    plot->SetLabel("");
    plot->SetLegendVisibility(false);
    plot->GetPen()->SetLineType(vtkPen::NO_PEN);
    headroom_ = share;
}

PlotChart::LegendBox PlotChart::fitLegendBox()
{
    const auto [longest, entries] = legendExtent(data_);
    // The legend's size as a fraction of the plot area: from its pixels when the chart knows
    // its window's size (text scaled for print or large text is larger), else rough shares.
    LegendBox box;
    box.width = std::min(0.6, 0.08 + 0.012 * static_cast<double>(longest));
    box.height = std::min(0.9, 0.04 + 0.075 * static_cast<double>(entries));
    const int* window = legendWindow_.data();
    if (window[0] > 100 && window[1] > 100) {
        const double font = kLabelFont * scale_;
        const double width = (28.0 + 18.0) * scale_ + 0.62 * font * static_cast<double>(longest);
        const double height = 14.0 * scale_ + 1.35 * font * static_cast<double>(entries);
        // The plot area is the window less the title, the axes' labels and titles and the
        // margins around them (estimated generously: a legend taken too small would overlap).
        const double across = window[0] - (kLabelFont * 4.0 + kAxisTitleFont * 1.6 + 40.0) * scale_;
        const double down =
            window[1] -
            (kTitleFont * 1.7 + kLabelFont * 1.6 + kAxisTitleFont * 1.7 + 45.0) * scale_;
        box.width = std::min(1.0, width / std::max(across, 1.0));
        box.height = std::min(1.0, height / std::max(down, 1.0));
    }
    return box;
}

bool PlotChart::plotFraction(double x, double y, double& u, double& v) const
{
    if (!std::isfinite(x) || !std::isfinite(y) || (data_.logY && y <= 0.0)) {
        return false;
    }
    u = (x - xLow_) / (xHigh_ - xLow_);
    v = data_.logY ? (std::log10(y) - std::log10(yLow_)) / (std::log10(yHigh_) - std::log10(yLow_))
                   : (y - yLow_) / (yHigh_ - yLow_);
    return true;
}

void PlotChart::onRenderStart(vtkObject*, unsigned long, void*)
{
    // Where the legend fits depends on the window's size (a resized dock, an export's size):
    // place it again before a frame at a new size is drawn.
    vtkRenderWindow* renderWindow = view_->GetRenderWindow();
    const int* size = renderWindow ? renderWindow->GetSize() : nullptr;
    if (size && (size[0] != legendWindow_[0] || size[1] != legendWindow_[1])) {
        // The headroom the legend needs depends on the size too: build anew, keeping a zoom.
        const bool zoomed = chart_->GetAxis(vtkAxis::BOTTOM)->GetBehavior() == vtkAxis::FIXED;
        const std::array<double, 4> range = viewRange();
        rebuild();
        if (zoomed)
            setViewRange(range);
    }
}

} // namespace clab
