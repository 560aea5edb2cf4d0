#include "panels/FitResultView.h"

#include <FitReport.h>

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

namespace clab {

FitResultView::FitResultView(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    table_ = new QTableWidget(this);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->hide();
    table_->setMinimumHeight(120);
    // A header is never elided: its column is as wide as it (the table scrolls instead).
    table_->horizontalHeader()->setTextElideMode(Qt::ElideNone);
    table_->setTextElideMode(Qt::ElideNone);
    layout->addWidget(table_, 1);
    summary_ = new QLabel(this);
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(summary_);
}

void FitResultView::show(const FitResult& result, const FitReport& report,
                         const std::function<QString(const std::string&)>& labelOf)
{
    const int n = static_cast<int>(result.parameters.size());
    table_->clear();
    // Four columns that fit a narrow dock; the correlations are lines under the table.
    table_->setColumnCount(4);
    table_->setRowCount(n);
    table_->setHorizontalHeaderLabels({tr("Parameter"), tr("Value"), tr("± SE"), tr("Unit")});
    for (int i = 0; i < n; ++i) {
        const auto u = static_cast<std::size_t>(i);
        auto* name = new QTableWidgetItem(labelOf(result.parameters[u]));
        name->setToolTip(tr("Parameter key: %1").arg(QString::fromStdString(result.parameters[u])));
        table_->setItem(i, 0, name);
        auto* value = new QTableWidgetItem(report.valueText(u));
        value->setToolTip(tr("Fitted value: %1").arg(result.values[u], 0, 'g', 17));
        table_->setItem(i, 1, value);
        table_->setItem(i, 2, new QTableWidgetItem(report.errorText(u)));
        table_->setItem(i, 3, new QTableWidgetItem(report.parameterUnit(u)));
    }
    table_->resizeColumnsToContents();
    QStringList lines;
    for (std::size_t i = 0; i < result.parameters.size(); ++i)
        for (std::size_t j = i + 1; j < result.parameters.size(); ++j)
            lines << tr("Correlation of %1 and %2: %3")
                         .arg(labelOf(result.parameters[i]), labelOf(result.parameters[j]),
                              report.correlationText(i, j));
    lines << report.summaryLines();
    for (const std::string& warning : result.warnings)
        lines << tr("Warning: %1").arg(QString::fromStdString(warning));
    if (result.failed())
        lines << tr("Fit failed: %1").arg(QString::fromStdString(result.failure));
    summary_->setText(lines.join(QLatin1Char('\n')));
}

void FitResultView::clearSummary()
{
    summary_->clear();
}

} // namespace clab
