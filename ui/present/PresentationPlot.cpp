#include "present/PresentationPlot.h"

#include "plots/PlotChart.h"
#include "widgets/VtkOpenGLWidget.h"

#include <QLabel>
#include <QVBoxLayout>

#include <vtkChartXY.h>
#include <vtkContextView.h>
#include <vtkGenericOpenGLRenderWindow.h>

namespace clab {

namespace {

// The chart's label font at scale 1 (PlotChart's kLabelFont).
constexpr double kChartLabelPixels = 14.0;

QString legendHtml(const PlotData& data)
{
    QStringList items;
    const auto add = [&items](const QString& label, const QColor& color, Qt::PenStyle style) {
        // A dashed run (compare mode) shows as a dashed stroke before its name.
        const QString stroke =
            style == Qt::SolidLine ? QStringLiteral("\u2501") : QStringLiteral("\u2505");
        items << QStringLiteral("<span style=\"color:%1\">%2</span>&nbsp;%3")
                     .arg(color.name(), stroke, label.toHtmlEscaped());
    };
    if (!data.legend.empty()) {
        for (const PlotLegendEntry& entry : data.legend)
            add(entry.label, entry.color, entry.style);
    } else {
        for (const PlotCurve& curve : data.curves)
            if (!curve.label.isEmpty())
                add(curve.label, curve.color, curve.style);
    }
    return items.join(QStringLiteral(" &nbsp; "));
}

} // namespace

PresentationPlot::PresentationPlot(QWidget* parent)
    : QWidget(parent), chart_(std::make_unique<PlotChart>()), widget_(new VtkOpenGLWidget(this)),
      legend_(new QLabel(this))
{
    setObjectName(QStringLiteral("presentationPlot"));
    widget_->setObjectName(QStringLiteral("presentationPlotChart"));
    // Shown, not explored: the clicker's keys and the mouse stay with the presentation.
    widget_->setAttribute(Qt::WA_TransparentForMouseEvents);
    widget_->setFocusPolicy(Qt::NoFocus);
    legend_->setObjectName(QStringLiteral("presentationPlotLegend"));
    legend_->setWordWrap(true);
    legend_->setTextFormat(Qt::RichText);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(widget_, 1);
    layout->addWidget(legend_);
    chart_->chart()->SetShowLegend(false);
    chart_->view()->SetRenderWindow(widget_->renderWindow());
}

PresentationPlot::~PresentationPlot()
{
    // The widget first: it frees the chart's GL objects while its context exists.
    delete widget_;
    widget_ = nullptr;
}

void PresentationPlot::setData(const PlotData& data, double cursor)
{
    chart_->setData(data);
    chart_->chart()->SetShowLegend(false);
    chart_->setCursor(cursor);
    legend_->setText(legendHtml(data));
    widget_->update();
}

const PlotData& PresentationPlot::data() const
{
    return chart_->data();
}

void PresentationPlot::setCursor(double x)
{
    chart_->setCursor(x);
    widget_->update();
}

void PresentationPlot::setTextPixels(int pixels)
{
    QFont font = legend_->font();
    font.setPixelSize(pixels);
    legend_->setFont(font);
    const double scale = pixels / kChartLabelPixels;
    if (scale != chart_->scale()) {
        chart_->setScale(scale);
        chart_->chart()->SetShowLegend(false);
        widget_->update();
    }
}

} // namespace clab
