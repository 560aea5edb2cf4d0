#include "panels/ResidualPlot.h"

#include <QPainter>
#include <QPalette>

#include <algorithm>
#include <cmath>

namespace clab {

ResidualPlot::ResidualPlot(QWidget* parent) : QWidget(parent)
{
    setMinimumHeight(100);
    setToolTip(tr("Measured − simulated at the measured times, in SI units"));
}

void ResidualPlot::setResiduals(std::vector<double> times,
                                std::vector<std::vector<double>> residuals,
                                std::vector<QString> names)
{
    times_ = std::move(times);
    residuals_ = std::move(residuals);
    names_ = std::move(names);
    update();
}

void ResidualPlot::setColors(std::vector<QColor> colors)
{
    colors_ = std::move(colors);
    update();
}

void ResidualPlot::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.fillRect(rect(), palette().base());
    painter.setPen(palette().color(QPalette::Text));
    const QFontMetrics metrics(font());
    if (times_.empty() || residuals_.empty()) {
        painter.drawText(rect(), Qt::AlignCenter, tr("No residuals: map a measured column"));
        return;
    }
    // Symmetric about zero, so that a bias shows as points on one side.
    double reach = 0.0;
    for (const std::vector<double>& column : residuals_)
        for (double r : column)
            if (std::isfinite(r))
                reach = std::max(reach, std::abs(r));
    if (reach == 0.0)
        reach = 1.0;
    const QString top = QString::number(reach, 'g', 3);
    const int left = metrics.horizontalAdvance(QStringLiteral("−") + top) + 8;
    const QRectF area(left, metrics.height(), width() - left - 8,
                      height() - 2.5 * metrics.height());
    const double t0 = times_.front(), t1 = std::max(times_.back(), t0 + 1e-12);
    const auto at = [&](double t, double r) {
        return QPointF(area.left() + (t - t0) / (t1 - t0) * area.width(),
                       area.center().y() - r / reach * area.height() / 2.0);
    };
    painter.drawRect(area);
    painter.drawLine(at(t0, 0.0), at(t1, 0.0));
    painter.drawText(QRectF(0, area.top() - metrics.height() / 2.0, left - 4, metrics.height()),
                     Qt::AlignRight, top);
    painter.drawText(QRectF(0, area.bottom() - metrics.height() / 2.0, left - 4, metrics.height()),
                     Qt::AlignRight, QStringLiteral("−") + top);
    painter.drawText(QRectF(area.left(), area.bottom() + 2, area.width(), metrics.height()),
                     Qt::AlignLeft, QString::number(t0, 'g', 4));
    painter.drawText(QRectF(area.left(), area.bottom() + 2, area.width(), metrics.height()),
                     Qt::AlignRight, tr("t = %1 s").arg(QString::number(t1, 'g', 4)));

    static const QColor colours[] = {QColor(0x1f, 0x77, 0xb4), QColor(0xd6, 0x27, 0x28),
                                     QColor(0x2c, 0xa0, 0x2c), QColor(0x94, 0x67, 0xbd)};
    painter.setRenderHint(QPainter::Antialiasing);
    double x = area.left() + 4;
    for (std::size_t c = 0; c < residuals_.size(); ++c) {
        const QColor colour = c < colors_.size() && colors_[c].isValid()
                                  ? colors_[c]
                                  : colours[c % std::size(colours)];
        painter.setPen(Qt::NoPen);
        painter.setBrush(colour);
        const std::size_t n = std::min(times_.size(), residuals_[c].size());
        for (std::size_t i = 0; i < n; ++i)
            if (std::isfinite(residuals_[c][i]))
                painter.drawEllipse(at(times_[i], residuals_[c][i]), 1.6, 1.6);
        // The legend: each column's name in its colour, along the top.
        const QString name = c < names_.size() ? names_[c] : QString();
        painter.setPen(colour);
        painter.drawText(QPointF(x, metrics.ascent()), name);
        x += metrics.horizontalAdvance(name) + 12;
    }
}

} // namespace clab
