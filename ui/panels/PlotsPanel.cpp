#include "panels/PlotsPanel.h"

#include "export/PlotExportDialog.h"
#include "plots/PlotBuilder.h"
#include "plots/PlotChart.h"
#include "widgets/DialogFolders.h"
#include "widgets/VtkOpenGLWidget.h"

#include <trace/PlotCatalog.h>
#include <trace/TraceSeries.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QIcon>
#include <QLabel>
#include <QListWidget>
#include <QSignalBlocker>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <vtkCommand.h>
#include <vtkContextInteractorStyle.h>
#include <vtkContextView.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkGenericRenderWindowInteractor.h>
#include <vtkNew.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <utility>

namespace clab {

namespace {

constexpr double noCursor = std::numeric_limits<double>::quiet_NaN();

QIcon themed(const char* themeName, const char* resource)
{
    return QIcon::fromTheme(QLatin1String(themeName), QIcon(QLatin1String(resource)));
}

// "ẋ [m/s]": the label of a quantity with its unit, as on the axes.
QString quantityText(const Trace& trace, const std::string& name)
{
    const QString label = QString::fromStdString(TraceSeries::label(trace, name));
    const std::string unit = TraceSeries::unit(trace, name);
    return unit.empty() ? label
                        : QStringLiteral("%1 [%2]").arg(label, QString::fromStdString(unit));
}

} // namespace

PlotsPanel::PlotsPanel(QWidget* parent)
    : QWidget(parent), time_(noCursor), chart_(std::make_unique<PlotChart>()),
      presetCombo_(new QComboBox(this)), compareCombo_(new QComboBox(this)),
      compareRow_(new QWidget(this)), resetZoomButton_(new QToolButton(this)),
      exportButton_(new QToolButton(this)), customBox_(new QWidget(this)),
      xCombo_(new QComboBox(customBox_)), yList_(new QListWidget(customBox_)),
      logY_(new QCheckBox(tr("&log y"), customBox_)), stack_(new QStackedWidget(this)),
      messageLabel_(new QLabel(stack_)), widget_(new VtkOpenGLWidget(stack_)),
      vtkTimer_(new QTimer(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(buildTopRow());
    buildCompareRow();
    layout->addWidget(compareRow_);
    buildCustomBox();
    layout->addWidget(customBox_);
    buildStack();
    layout->addWidget(stack_, 1);
    attachChart();

    connect(widget_, &VtkOpenGLWidget::frameRendered, this, &PlotsPanel::frameRendered);
    connect(presetCombo_, &QComboBox::activated, this, &PlotsPanel::onPresetActivated);
    connect(xCombo_, &QComboBox::activated, this, &PlotsPanel::onCustomEdited);
    connect(yList_, &QListWidget::itemChanged, this, &PlotsPanel::onCustomEdited);
    connect(logY_, &QCheckBox::toggled, this, &PlotsPanel::onCustomEdited);
    connect(resetZoomButton_, &QToolButton::clicked, this, &PlotsPanel::resetZoom);
    connect(widget_, &VtkOpenGLWidget::interacted, this, [this] { userZoom_ = true; });
    connect(exportButton_, &QToolButton::clicked, this, &PlotsPanel::showExportDialog);

    clear();
}

QHBoxLayout* PlotsPanel::buildTopRow()
{
    presetCombo_->setObjectName(QStringLiteral("presetCombo"));
    presetCombo_->setToolTip(tr("A ready-made plot of the current run, or Custom to choose the "
                                "quantities"));

    resetZoomButton_->setObjectName(QStringLiteral("resetZoomButton"));
    resetZoomButton_->setIcon(themed("zoom-fit-best", ":/icons/camera-reset.svg"));
    resetZoomButton_->setText(tr("Reset &zoom"));
    resetZoomButton_->setToolTip(tr("Show all data again after zooming or panning"));
    exportButton_->setObjectName(QStringLiteral("exportButton"));
    exportButton_->setIcon(themed("document-save-as", ":/icons/export-image.svg"));
    exportButton_->setText(tr("&Export…"));
    exportButton_->setToolTip(tr("Save this plot as PNG, SVG or PDF"));
    // Icons only: the plot's name needs the row's width ("Energy a…" beside the buttons' text
    // on a projector); the buttons' names are in their tooltips.
    for (QToolButton* button : {resetZoomButton_, exportButton_}) {
        button->setToolButtonStyle(Qt::ToolButtonIconOnly);
        button->setAutoRaise(true);
        button->setAccessibleName(button->text().remove(QLatin1Char('&')));
        button->setToolTip(button->accessibleName() + QStringLiteral(": ") + button->toolTip());
    }
    presetCombo_->setSizeAdjustPolicy(QComboBox::AdjustToContents);

    auto* top = new QHBoxLayout;
    auto* presetLabel = new QLabel(tr("&Plot:"), this);
    presetLabel->setBuddy(presetCombo_);
    top->addWidget(presetLabel);
    top->addWidget(presetCombo_, 1);
    top->addWidget(resetZoomButton_);
    top->addWidget(exportButton_);
    return top;
}

void PlotsPanel::buildCompareRow()
{

    // Compare mode: one quantity of every run by default; fifteen curves in one plot are noise.
    compareCombo_->setObjectName(QStringLiteral("compareCombo"));
    compareCombo_->setToolTip(tr("Which quantity to draw for every compared run"));
    auto* compareLayout = new QHBoxLayout(compareRow_);
    compareLayout->setContentsMargins(0, 0, 0, 0);
    auto* compareLabel = new QLabel(tr("&Compare:"), compareRow_);
    compareLabel->setBuddy(compareCombo_);
    compareLayout->addWidget(compareLabel);
    compareLayout->addWidget(compareCombo_, 1);
    compareRow_->hide();
    connect(compareCombo_, &QComboBox::activated, this, [this](int index) {
        compareQuantity_ = compareCombo_->itemData(index).toString().toStdString();
        rebuild();
    });
}

void PlotsPanel::buildCustomBox()
{
    // Custom plots: one x quantity, any number of y quantities.
    xCombo_->setObjectName(QStringLiteral("xCombo"));
    xCombo_->setToolTip(tr("The quantity on the horizontal axis; t for time plots, a coordinate "
                           "for phase plots"));
    yList_->setObjectName(QStringLiteral("yList"));
    yList_->setToolTip(tr("Tick the quantities to plot"));
    // The quantities flow in rows, so a scene's forty columns fit in a few lines.
    yList_->setFlow(QListView::LeftToRight);
    yList_->setWrapping(true);
    yList_->setResizeMode(QListView::Adjust);
    yList_->setUniformItemSizes(true);
    yList_->setSpacing(1);
    yList_->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    yList_->setMaximumHeight(110);
    logY_->setObjectName(QStringLiteral("logY"));
    logY_->setToolTip(tr("Logarithmic y axis (absolute values)"));
    auto* xLabel = new QLabel(tr("&x:"), customBox_);
    xLabel->setBuddy(xCombo_);
    auto* yLabel = new QLabel(tr("&y:"), customBox_);
    yLabel->setBuddy(yList_);
    auto* customLayout = new QGridLayout(customBox_);
    customLayout->setContentsMargins(0, 0, 0, 0);
    customLayout->addWidget(xLabel, 0, 0);
    customLayout->addWidget(xCombo_, 0, 1);
    customLayout->addWidget(logY_, 0, 2);
    customLayout->addWidget(yLabel, 1, 0, Qt::AlignTop);
    customLayout->addWidget(yList_, 1, 1, 1, 2);
    customLayout->setColumnStretch(1, 1);
    customBox_->hide();
}

void PlotsPanel::buildStack()
{
    messageLabel_->setObjectName(QStringLiteral("message"));
    messageLabel_->setAlignment(Qt::AlignCenter);
    messageLabel_->setWordWrap(true);
    messageLabel_->setMargin(12);
    messageLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    widget_->setObjectName(QStringLiteral("plotWidget"));
    widget_->setMinimumSize(240, 160);
    widget_->setToolTip(tr("Wheel: zoom · Left drag: pan · Middle drag: zoom into a box · "
                           "Reset zoom shows all data"));
    stack_->addWidget(widget_);
    stack_->addWidget(messageLabel_);
}

void PlotsPanel::attachChart()
{
    // The chart draws into the widget's render window; the widget's interactor gets the
    // context style (wheel zoom, drag pan) instead of the 3-D trackball.
    vtkContextView* view = chart_->view();
    view->SetRenderWindow(widget_->renderWindow());
    widget_->renderWindow()->SetInteractor(widget_->interactor());
    vtkNew<vtkContextInteractorStyle> style;
    style->SetScene(view->GetScene());
    widget_->interactor()->SetInteractorStyle(style);
    // The context style repaints through a one-shot interactor timer after each interaction;
    // the generic interactor has no timers of its own, so a QTimer stands in.
    vtkTimer_->setSingleShot(true);
    connect(vtkTimer_, &QTimer::timeout, this, [this] {
        int id = vtkTimerId_;
        widget_->interactor()->InvokeEvent(vtkCommand::TimerEvent, &id);
    });
    widget_->interactor()->AddObserver(vtkCommand::CreateTimerEvent, this,
                                       &PlotsPanel::onInteractorTimer);
    widget_->interactor()->AddObserver(vtkCommand::DestroyTimerEvent, this,
                                       &PlotsPanel::onInteractorTimer);
}

PlotsPanel::~PlotsPanel()
{
    // The widget goes first: it frees the chart's GL objects while its context still exists;
    // the chart (and its view) are destroyed after, with nothing left to free.
    vtkTimer_->stop();
    widget_->interactor()->RemoveObservers(vtkCommand::CreateTimerEvent);
    widget_->interactor()->RemoveObservers(vtkCommand::DestroyTimerEvent);
    widget_->interactor()->SetInteractorStyle(nullptr);
    delete widget_;
    widget_ = nullptr;
}

void PlotsPanel::onInteractorTimer(vtkObject* caller, unsigned long eventId, void* callData)
{
    (void)caller, (void)callData;
    vtkGenericRenderWindowInteractor* interactor = widget_->interactor();
    if (eventId == vtkCommand::CreateTimerEvent) {
        vtkTimerId_ = interactor->GetTimerEventPlatformId();
        vtkTimer_->start(static_cast<int>(interactor->GetTimerEventDuration()));
    } else {
        vtkTimer_->stop();
    }
}

void PlotsPanel::setMeasured(std::vector<std::pair<std::string, PlotCurve>> measured)
{
    measured_ = std::move(measured);
    if (!runs_.empty())
        rebuild();
}

void PlotsPanel::setResiduals(std::vector<std::pair<std::string, PlotCurve>> residuals)
{
    const bool offered = !residuals_.empty();
    residuals_ = std::move(residuals);
    if (runs_.empty())
        return;
    if (offered != !residuals_.empty()) {
        updatePresets();
        populateControls();
        syncControlsToSpec();
    }
    if (spec_.id != residualPresetId)
        return;
    if (residuals_.empty())
        applySpec(fallbackSpec()); // the residual plot is no longer offered
    else
        rebuild();
}

QColor PlotsPanel::measuredColor(const std::string& quantity) const
{
    if (shown_.x == "t" && shown_.id != residualPresetId) {
        const QColor color = PlotBuilder::seriesColor(shown_, quantity);
        if (color.isValid())
            return color;
    }
    PlotSpec all;
    for (const auto& [measured, curve] : measured_)
        if (std::find(all.y.begin(), all.y.end(), measured) == all.y.end())
            all.y.push_back(measured);
    return PlotBuilder::seriesColor(all, quantity);
}

void PlotsPanel::updatePresets()
{
    presets_.clear();
    if (runs_.empty())
        return;
    presets_ = PlotCatalog::presets(*runs_.back().trace);
    if (!residuals_.empty()) {
        PlotSpec residual;
        residual.id = residualPresetId;
        residual.title = tr("Fit residuals (measured − simulated)").toStdString();
        for (const auto& [quantity, curve] : residuals_)
            residual.y.push_back(quantity);
        presets_.push_back(std::move(residual));
    }
}

PlotData PlotsPanel::residualPlot() const
{
    PlotData data;
    data.title = tr("Fit residuals (measured − simulated)");
    data.xTitle = QStringLiteral("t [s]");
    const Trace& current = *runs_.back().trace;
    std::string unit;
    bool sharedUnit = true;
    double t0 = std::numeric_limits<double>::infinity(), t1 = -t0;
    for (const auto& [quantity, curve] : residuals_) {
        const std::string u =
            TraceSeries::contains(current, quantity) ? TraceSeries::unit(current, quantity) : "";
        sharedUnit = sharedUnit && (unit.empty() || u == unit);
        unit = u;
        if (!curve.x.empty()) {
            t0 = std::min(t0, curve.x.front());
            t1 = std::max(t1, curve.x.back());
        }
    }
    data.yTitle = sharedUnit && !unit.empty()
                      ? tr("measured − simulated [%1]").arg(QString::fromStdString(unit))
                      : tr("measured − simulated (SI units)");
    // The zero line first, so that the points are drawn over it.
    PlotCurve zero;
    zero.label = tr("zero");
    zero.x = {t0, t1};
    zero.y = {0.0, 0.0};
    zero.color = QColor(0x55, 0x55, 0x55);
    zero.width = 1.0;
    if (t0 <= t1)
        data.curves.push_back(std::move(zero));
    for (const auto& [quantity, curve] : residuals_) {
        data.curves.push_back(curve);
        data.curves.back().color = measuredColor(quantity);
    }
    return data;
}

void PlotsPanel::setRuns(std::vector<LabelledTrace> runs)
{
    const bool valid = !runs.empty() && std::all_of(runs.begin(), runs.end(), [](const auto& r) {
        return r.trace != nullptr;
    });
    if (!valid) {
        clear();
        return;
    }
    runs_ = std::move(runs);
    updatePresets();

    // Keep the user's choice (live tuning); fall back when the new trace cannot show it.
    PlotSpec next = spec_;
    if (!specChosen_) {
        next = fallbackSpec();
    } else if (const PlotSpec* preset =
                   next.id.empty() ? nullptr : PlotCatalog::find(presets_, next.id)) {
        next = *preset;
    } else if (!specFitsTrace(next) || next.id == residualPresetId) {
        next = fallbackSpec();
    }
    const bool changed = !specChosen_ || next != spec_;
    if (changed) {
        userZoom_ = false;
    }
    spec_ = std::move(next);
    specChosen_ = true;

    populateControls();
    syncControlsToSpec();
    rebuild();
    if (changed) {
        emit specChanged();
    }
}

void PlotsPanel::clear()
{
    userZoom_ = false;
    runs_.clear();
    updatePresets();
    populateControls();
    syncControlsToSpec();
    rebuild();
}

void PlotsPanel::setTime(double t)
{
    time_ = t;
    const double x = (spec_.x == "t" && !data_.curves.empty()) ? t : noCursor;
    const double old = chart_->cursor();
    if (x == old || (std::isnan(x) && std::isnan(old))) {
        return;
    }
    chart_->setCursor(x);
    widget_->update();
}

void PlotsPanel::setSpec(const PlotSpec& spec)
{
    applySpec(spec);
}

bool PlotsPanel::selectPreset(const std::string& id)
{
    const PlotSpec* preset = PlotCatalog::find(presets_, id);
    if (preset == nullptr) {
        return false;
    }
    applySpec(*preset);
    return true;
}

double PlotsPanel::cursor() const
{
    return chart_->cursor();
}

void PlotsPanel::resetZoom()
{
    userZoom_ = false;
    chart_->resetZoom();
    widget_->update();
}

void PlotsPanel::setCompareQuantity(const std::string& name)
{
    compareQuantity_ = name;
    rebuild();
}

std::string PlotsPanel::compareQuantity() const
{
    return compareCombo_->currentData().toString().toStdString();
}

void PlotsPanel::setTextScale(double scale)
{
    if (scale == chart_->scale())
        return;
    // A new scale rebuilds the chart: a zoom the user chose survives it.
    const std::array<double, 4> range = chart_->viewRange();
    chart_->setScale(scale);
    if (userZoom_)
        chart_->setViewRange(range);
    widget_->update();
}

double PlotsPanel::textScale() const
{
    return chart_->scale();
}

PlotExporter::Options PlotsPanel::defaultExportOptions() const
{
    PlotExporter::Options options;
    options.size = QSize(1200, 800);
    options.scale = 2.0;
    // The file shows what the screen shows, without the playback cursor (the export dialog
    // offers it).
    options.range = chart_->viewRange();
    return options;
}

QString PlotsPanel::exportPlot(const QString& path, const PlotExporter::Options& options) const
{
    if (data_.curves.empty()) {
        return message_.isEmpty() ? tr("There is no plot to export.")
                                  : tr("There is no plot to export: %1").arg(message_);
    }
    QString error;
    if (!PlotExporter::write(data_, path, options, &error)) {
        return error.isEmpty() ? tr("Cannot write the plot to %1.").arg(path) : error;
    }
    return {};
}

void PlotsPanel::showExportDialog()
{
    // The last export's folder and format, named after the plot shown now.
    const QString name =
        spec_.id.empty() ? QStringLiteral("plot") : QString::fromStdString(spec_.id);
    const QString suffix =
        lastExportPath_.isEmpty() ? QStringLiteral("png") : QFileInfo(lastExportPath_).suffix();
    const QString path =
        DialogFolders::suggestedPath(QStringLiteral("plot"), name + QLatin1Char('.') + suffix);
    PlotExporter::Options options = defaultExportOptions();
    options.cursor = chart_->cursor();
    PlotExportDialog dialog(data_, options, path, this);
    if (dialog.exec() == QDialog::Accepted) {
        lastExportPath_ = dialog.path();
        DialogFolders::remember(QStringLiteral("plot"), lastExportPath_);
    }
}

void PlotsPanel::applySpec(const PlotSpec& spec)
{
    const bool changed = !specChosen_ || spec != spec_;
    if (changed) {
        userZoom_ = false;
    }
    spec_ = spec;
    specChosen_ = true;
    syncControlsToSpec();
    rebuild();
    if (changed) {
        emit specChanged();
    }
}

void PlotsPanel::rebuild()
{
    data_ = PlotData{};
    if (runs_.empty()) {
        showMessage(tr("No trajectory yet: run the scene to see its plots."));
        return;
    }
    shown_ = spec_;
    if (spec_.id == residualPresetId) {
        compareRow_->setVisible(false);
        if (residuals_.empty()) {
            showMessage(tr("No fit residuals: load measurements in the Fit dock and map a "
                           "column to a quantity."));
            return;
        }
        data_ = residualPlot();
        showChart();
        return;
    }
    if (spec_.y.empty()) {
        showMessage(tr("Tick one or more quantities to plot."));
        return;
    }
    // Compare mode draws one quantity per run unless the user asks for all.
    PlotSpec shown = spec_;
    const bool comparing = runs_.size() > 1 && spec_.y.size() > 1;
    compareRow_->setVisible(comparing);
    if (comparing) {
        const auto has = [&](const std::string& name) {
            return std::find(spec_.y.begin(), spec_.y.end(), name) != spec_.y.end();
        };
        // E tells most about friction; otherwise the plot's first quantity.
        const std::string pick = compareQuantity_ == "*" || has(compareQuantity_)
                                     ? compareQuantity_
                                     : (has("E") ? std::string("E") : spec_.y.front());
        const QSignalBlocker block(compareCombo_);
        compareCombo_->clear();
        const Trace& current = *runs_.back().trace;
        for (const std::string& name : spec_.y)
            compareCombo_->addItem(quantityText(current, name), QString::fromStdString(name));
        compareCombo_->addItem(tr("All quantities"), QStringLiteral("*"));
        compareCombo_->setCurrentIndex(compareCombo_->findData(QString::fromStdString(pick)));
        if (pick != "*")
            shown.y = {pick};
    }
    shown_ = shown;
    try {
        data_ = PlotBuilder::build(shown, runs_);
        if (shown.x == "t")
            for (const auto& [quantity, curve] : measured_)
                if (std::find(shown.y.begin(), shown.y.end(), quantity) != shown.y.end()) {
                    data_.curves.push_back(curve);
                    data_.curves.back().color = measuredColor(quantity);
                }
    } catch (const std::exception& e) {
        data_ = PlotData{};
        showMessage(tr("Cannot draw this plot: %1").arg(QString::fromStdString(e.what())));
        return;
    }
    showChart();
}

void PlotsPanel::showChart()
{
    message_.clear();
    messageLabel_->clear();
    stack_->setCurrentWidget(widget_);
    resetZoomButton_->setEnabled(true);
    exportButton_->setEnabled(true);
    // A new run of the plot the user zoomed into keeps that view (tuning μ while watching a
    // detail); anything else is shown whole.
    const std::array<double, 4> view = chart_->viewRange();
    chart_->setData(data_);
    chart_->resetZoom();
    if (userZoom_) {
        chart_->setViewRange(view);
    }
    chart_->setCursor(spec_.x == "t" ? time_ : noCursor);
    widget_->update();
}

void PlotsPanel::showMessage(const QString& message)
{
    message_ = message;
    messageLabel_->setText(message);
    stack_->setCurrentWidget(messageLabel_);
    resetZoomButton_->setEnabled(false);
    exportButton_->setEnabled(false);
    chart_->setData(data_);
    chart_->setCursor(noCursor);
}

void PlotsPanel::populateControls()
{
    // What the controls should list; unchanged lists are left alone (live tuning sends a new
    // trace of the same scene many times a second, and the user may be scrolling the list).
    QList<QPair<QString, QString>> presetItems;
    for (const PlotSpec& preset : presets_) {
        presetItems.append(
            {QString::fromStdString(preset.title), QString::fromStdString(preset.id)});
    }
    presetItems.append({tr("Custom"), QString()});
    QList<QPair<QString, QString>> quantityItems;
    if (!runs_.empty()) {
        const Trace& trace = *runs_.back().trace;
        for (const std::string& name : TraceSeries::names(trace)) {
            quantityItems.append({quantityText(trace, name), QString::fromStdString(name)});
        }
    }

    syncing_ = true;
    if (presetItems != presetItems_) {
        presetItems_ = presetItems;
        presetCombo_->clear();
        for (const auto& [text, id] : presetItems) {
            presetCombo_->addItem(text, id);
        }
    }
    if (quantityItems != quantityItems_) {
        quantityItems_ = quantityItems;
        xCombo_->clear();
        yList_->clear();
        for (const auto& [text, id] : quantityItems) {
            xCombo_->addItem(text, id);
            auto* item = new QListWidgetItem(text, yList_);
            item->setData(Qt::UserRole, id);
            item->setToolTip(text);
            item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
            item->setCheckState(Qt::Unchecked);
        }
    }
    const bool haveRuns = !runs_.empty();
    presetCombo_->setEnabled(haveRuns);
    customBox_->setEnabled(haveRuns);
    syncing_ = false;
}

void PlotsPanel::syncControlsToSpec()
{
    syncing_ = true;
    int presetIndex = presetCombo_->count() - 1; // Custom
    if (!spec_.id.empty()) {
        const int found = presetCombo_->findData(QString::fromStdString(spec_.id));
        if (found >= 0) {
            presetIndex = found;
        }
    }
    presetCombo_->setCurrentIndex(presetIndex);
    const bool custom = presetIndex == presetCombo_->count() - 1;
    // The custom controls always show the plotted quantities, so Custom starts from the preset.
    const int x = xCombo_->findData(QString::fromStdString(spec_.x));
    if (x >= 0) {
        xCombo_->setCurrentIndex(x);
    }
    for (int row = 0; row < yList_->count(); ++row) {
        QListWidgetItem* item = yList_->item(row);
        const std::string name = item->data(Qt::UserRole).toString().toStdString();
        const bool checked = std::find(spec_.y.begin(), spec_.y.end(), name) != spec_.y.end();
        item->setCheckState(checked ? Qt::Checked : Qt::Unchecked);
    }
    logY_->setChecked(spec_.logY);
    customBox_->setVisible(custom);
    syncing_ = false;
}

void PlotsPanel::onPresetActivated(int index)
{
    if (syncing_ || index < 0) {
        return;
    }
    const std::string id = presetCombo_->itemData(index).toString().toStdString();
    if (!id.empty()) {
        selectPreset(id);
        return;
    }
    // Custom starts from what is plotted now.
    PlotSpec custom = spec_;
    custom.id.clear();
    custom.title = customTitle(custom).toStdString();
    applySpec(custom);
    customBox_->setVisible(true);
}

void PlotsPanel::onCustomEdited()
{
    if (syncing_) {
        return;
    }
    PlotSpec custom;
    custom.x = xCombo_->currentData().toString().toStdString();
    for (int row = 0; row < yList_->count(); ++row) {
        const QListWidgetItem* item = yList_->item(row);
        if (item->checkState() == Qt::Checked) {
            custom.y.push_back(item->data(Qt::UserRole).toString().toStdString());
        }
    }
    custom.logY = logY_->isChecked();
    custom.title = customTitle(custom).toStdString();
    applySpec(custom);
}

bool PlotsPanel::specFitsTrace(const PlotSpec& spec) const
{
    if (runs_.empty()) {
        return false;
    }
    const Trace& trace = *runs_.back().trace;
    return TraceSeries::contains(trace, spec.x) &&
           std::all_of(spec.y.begin(), spec.y.end(),
                       [&](const std::string& y) { return TraceSeries::contains(trace, y); });
}

PlotSpec PlotsPanel::fallbackSpec() const
{
    if (!presets_.empty()) {
        return presets_.front();
    }
    // Every trace has presets; this only guards against an empty catalogue.
    PlotSpec spec;
    if (!runs_.empty()) {
        const std::vector<std::string> names = TraceSeries::names(*runs_.back().trace);
        if (names.size() > 1) {
            spec.y = {names[1]};
        }
    }
    spec.title = customTitle(spec).toStdString();
    return spec;
}

QString PlotsPanel::customTitle(const PlotSpec& spec) const
{
    if (runs_.empty() || spec.y.empty()) {
        return tr("Custom");
    }
    const Trace& trace = *runs_.back().trace;
    QStringList labels;
    for (const std::string& y : spec.y) {
        labels << (TraceSeries::contains(trace, y)
                       ? QString::fromStdString(TraceSeries::label(trace, y))
                       : QString::fromStdString(y));
    }
    const QString x = TraceSeries::contains(trace, spec.x)
                          ? QString::fromStdString(TraceSeries::label(trace, spec.x))
                          : QString::fromStdString(spec.x);
    return tr("%1 against %2").arg(labels.join(QStringLiteral(", ")), x);
}

} // namespace clab
