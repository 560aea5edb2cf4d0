#include "panels/FitPanel.h"

#include "panels/FitCurves.h"
#include "panels/FitResultView.h"
#include "panels/ResidualPlot.h"
#include "session/SceneSession.h"
#include "widgets/DialogFolders.h"
#include "widgets/ScientificSpinBox.h"

#include <FileError.h>
#include <FitReport.h>
#include <MeasurementFile.h>
#include <RoundedValue.h>
#include <model/ConstraintLabError.h>
#include <study/ParameterFit.h>
#include <trace/TraceSeries.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QTableWidget>
#include <QThread>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>

namespace clab {

namespace {

// A bound typed by the user: empty for none.
double boundOf(const QLineEdit* edit, double none, const QString& what)
{
    const QString text = edit->text().trimmed();
    if (text.isEmpty())
        return none;
    bool ok = false;
    const double value = text.toDouble(&ok);
    if (!ok || !std::isfinite(value))
        throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter,
                                 (what + QStringLiteral(": not a number: ") + text).toStdString());
    return value;
}

bool sameMeasurements(const Measurements& a, const Measurements& b)
{
    if (a.times != b.times || a.columns.size() != b.columns.size())
        return false;
    for (std::size_t c = 0; c < a.columns.size(); ++c) {
        const Measurements::Column &x = a.columns[c], &y = b.columns[c];
        if (x.quantity != y.quantity || x.values != y.values || x.sigma != y.sigma ||
            x.label != y.label)
            return false;
    }
    return true;
}

} // namespace

FitPanel::FitPanel(SceneSession* session, QWidget* parent) : QWidget(parent), session_(session)
{
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(buildFileRow());
    message_ = new QLabel(this);
    message_->setWordWrap(true);
    message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    message_->hide();
    layout->addWidget(message_);
    layout->addWidget(buildColumnsBox());
    parameterBox_ = new QGroupBox(tr("Parameters to fit"), this);
    parameterGrid_ = new QGridLayout(parameterBox_);
    // Narrow margins and gaps: with large text the dock must leave the 3D view a third of a
    // 1024-pixel screen.
    layout->setContentsMargins(2, layout->contentsMargins().top(), 2,
                               layout->contentsMargins().bottom());
    parameterGrid_->setHorizontalSpacing(4);
    layout->addWidget(parameterBox_);
    buildFitButtons(layout);
    buildResults(layout);

    connect(fitButton_, &QPushButton::clicked, this, &FitPanel::startFit);
    connect(cancelButton_, &QPushButton::clicked, this, &FitPanel::cancelFit);
    connect(applyButton_, &QPushButton::clicked, this, &FitPanel::applyResult);
    connect(fitStartButton_, &QPushButton::clicked, this, &FitPanel::fitStartToo);
    connect(timeColumn_, &QComboBox::currentIndexChanged, this, &FitPanel::timeColumnChosen);
    connect(timeScale_, &QDoubleSpinBox::valueChanged, this, &FitPanel::updateMapping);
    connect(timeOffset_, &QDoubleSpinBox::valueChanged, this, &FitPanel::updateMapping);
    connect(session_, &SceneSession::documentReset, this, &FitPanel::rebuildParameters);
    connect(session_, &SceneSession::systemChanged, this, &FitPanel::rebuildParameters);
    // Any change of the scene may make the last result stale.
    connect(session_, &SceneSession::documentReset, this, &FitPanel::updateApply);
    connect(session_, &SceneSession::systemChanged, this, &FitPanel::updateApply);
    connect(session_, &SceneSession::valueChanged, this, &FitPanel::updateApply);
    rebuildParameters();
}

QVBoxLayout* FitPanel::buildFileRow()
{
    auto* fileRow = new QVBoxLayout; // the name under the button: beside it, it widens the dock
    auto* loadButton = new QPushButton(tr("Load measurements…"), this);
    loadButton->setObjectName(QStringLiteral("fitLoad"));
    fileLabel_ = new QLabel(tr("No measurements loaded"), this);
    fileLabel_->setWordWrap(true);
    fileRow->addWidget(loadButton, 0, Qt::AlignLeft);
    fileRow->addWidget(fileLabel_);
    connect(loadButton, &QPushButton::clicked, this, &FitPanel::chooseFile);
    return fileRow;
}

QGroupBox* FitPanel::buildColumnsBox()
{
    auto* columnsBox = new QGroupBox(tr("Measured columns"), this);
    auto* columnsLayout = new QVBoxLayout(columnsBox);
    auto* timeForm = new QFormLayout;
    timeForm->setRowWrapPolicy(QFormLayout::WrapLongRows); // narrow docks: fields under labels
    timeColumn_ = new QComboBox(columnsBox);
    timeColumn_->setObjectName(QStringLiteral("fitTimeColumn"));
    timeColumn_->setToolTip(tr("The column that holds the time of each row"));
    timeScale_ = new ScientificSpinBox(columnsBox);
    timeScale_->setObjectName(QStringLiteral("fitTimeScale"));
    timeScale_->setRange(1e-12, 1e12);
    timeScale_->setValue(1.0);
    timeScale_->setToolTip(tr("Factor to seconds (0.001 for milliseconds)"));
    timeOffset_ = new QDoubleSpinBox(columnsBox);
    timeOffset_->setObjectName(QStringLiteral("fitTimeOffset"));
    timeOffset_->setRange(-1e6, 1e6);
    timeOffset_->setDecimals(4);
    timeOffset_->setSuffix(tr(" s"));
    timeOffset_->setToolTip(tr("Seconds added to the scaled time: the simulation time of the "
                               "file's time 0"));
    for (QWidget* field : {static_cast<QWidget*>(timeColumn_), static_cast<QWidget*>(timeScale_),
                           static_cast<QWidget*>(timeOffset_)}) {
        field->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
        field->setMinimumWidth(56);
        field->setEnabled(false);
    }
    // t = scale · value + offset on one line, so that a short dock keeps room for the rest.
    auto* timeMap = new QHBoxLayout;
    timeMap->addWidget(new QLabel(tr("×"), columnsBox));
    timeMap->addWidget(timeScale_, 1);
    timeMap->addWidget(new QLabel(tr("+"), columnsBox));
    timeMap->addWidget(timeOffset_, 1);
    timeForm->addRow(tr("Time column:"), timeColumn_);
    timeForm->addRow(tr("Time:"), timeMap);
    columnsLayout->addLayout(timeForm);
    columnGrid_ = new QGridLayout;
    columnsLayout->addLayout(columnGrid_);
    return columnsBox;
}

void FitPanel::buildFitButtons(QVBoxLayout* layout)
{
    auto* buttons = new QHBoxLayout;
    fitButton_ = new QPushButton(tr("Fit"), this);
    cancelButton_ = new QPushButton(tr("Cancel"), this);
    applyButton_ = new QPushButton(tr("Apply"), this);
    cancelButton_->setEnabled(false);
    applyButton_->setEnabled(false);
    applyButton_->setToolTip(tr("Put the fitted values into the scene (one undo step)"));
    buttons->addWidget(fitButton_);
    buttons->addWidget(cancelButton_);
    buttons->addStretch();
    layout->addLayout(buttons);
    // Apply on a row of its own: three buttons in a row are too wide for large text at 1024.
    layout->addWidget(applyButton_, 0, Qt::AlignLeft);
    // Apply takes the values to the digits their errors allow, unless asked for all.
    fullPrecision_ = new QCheckBox(tr("Apply full precision"), this);
    fullPrecision_->setToolTip(tr("Apply the fitted values with all their digits instead of "
                                  "rounded to their standard errors"));
    layout->addWidget(fullPrecision_);
    // Offered when the model could not reach the data from the start it was given.
    fitStartButton_ = new QPushButton(this);
    fitStartButton_->setObjectName(QStringLiteral("fitStartToo"));
    fitStartButton_->hide();
    layout->addWidget(fitStartButton_);
    applyNote_ = new QLabel(this);
    applyNote_->setObjectName(QStringLiteral("fitApplyNote"));
    applyNote_->setWordWrap(true);
    applyNote_->hide();
    layout->addWidget(applyNote_);
}

void FitPanel::buildResults(QVBoxLayout* layout)
{
    progress_ = new QLabel(this);
    progress_->setWordWrap(true);
    rms_ = new QLabel(this);
    rms_->setWordWrap(true);
    rms_->setToolTip(tr("RMS of simulated − measured at the measured times, for the trajectory "
                        "on screen"));
    layout->addWidget(progress_);
    layout->addWidget(rms_);
    residualPlot_ = new ResidualPlot(this);
    layout->addWidget(residualPlot_);

    resultView_ = new FitResultView(this);
    layout->addWidget(resultView_, 1);
}

FitPanel::~FitPanel()
{
    // The fit reads only its own copies; it must end before the panel it reports to goes.
    if (thread_) {
        keepGoing_->store(false);
        thread_->wait();
    }
}

void FitPanel::setMessage(const QString& text, bool error)
{
    message_->setText(text);
    message_->setStyleSheet(error ? QStringLiteral("color: #b00020;") : QString());
    message_->setVisible(!text.isEmpty());
}

void FitPanel::chooseFile()
{
    QString path;
    if (openProvider_) {
        path = openProvider_();
    } else {
        path = QFileDialog::getOpenFileName(this, tr("Load Measurements"),
                                            DialogFolders::folder(QStringLiteral("measurements")),
                                            tr("Measurements (*.csv *.txt *.dat);;All files (*)"));
        if (!path.isEmpty())
            DialogFolders::remember(QStringLiteral("measurements"), path);
    }
    if (!path.isEmpty())
        loadFile(path);
}

bool FitPanel::loadFile(const QString& path)
{
    QStringList all;
    QString time;
    try {
        const QByteArray text = MeasurementFile::read(path);
        all = MeasurementFile::columns(text);
        time = MeasurementFile::readableTimeColumn(text, path);
    } catch (const std::exception& e) {
        setMessage(tr("Could not load %1: %2")
                       .arg(QFileInfo(path).fileName(), QString::fromUtf8(e.what())),
                   true);
        return false;
    }
    path_ = path;
    allColumns_ = all;
    ++loadSerial_;
    fileLabel_->setText(QFileInfo(path).fileName());
    fileLabel_->setToolTip(path);
    setMessage(QString(), false);
    {
        // A new file starts unscaled, from its time column; the rows are rebuilt once, below.
        const QSignalBlocker block(timeColumn_), blockScale(timeScale_), blockOffset(timeOffset_);
        timeScale_->setValue(1.0);
        timeOffset_->setValue(0.0);
        timeColumn_->clear();
        timeColumn_->addItems(allColumns_);
        timeColumn_->setCurrentIndex(static_cast<int>(allColumns_.indexOf(time)));
        for (QWidget* field :
             {static_cast<QWidget*>(timeColumn_), static_cast<QWidget*>(timeScale_),
              static_cast<QWidget*>(timeOffset_)})
            field->setEnabled(true);
    }
    timeColumnChosen();
    return true;
}

void FitPanel::timeColumnChosen()
{
    columns_ = allColumns_;
    columns_.removeAll(timeColumn_->currentText());
    rebuildColumns();
}

bool FitPanel::setTimeColumn(const QString& column, double scale, double offset)
{
    const int index = timeColumn_->findText(column);
    if (index < 0)
        return false;
    {
        const QSignalBlocker blockScale(timeScale_), blockOffset(timeOffset_);
        timeScale_->setValue(scale);
        timeOffset_->setValue(offset);
    }
    if (index == timeColumn_->currentIndex())
        updateMapping();
    else
        timeColumn_->setCurrentIndex(index); // rebuilds the rows, then updateMapping
    return true;
}

void FitPanel::rebuildColumns()
{
    // A column that stays keeps its mapping (choosing another time column rebuilds the rows).
    struct Kept {
        QString quantity;
        double scale, sigma;
    };
    std::vector<std::pair<QString, Kept>> kept;
    for (const ColumnRow& row : columnRows_)
        kept.push_back(
            {row.name,
             {row.quantity->currentData().toString(), row.scale->value(), row.sigma->value()}});
    while (QLayoutItem* item = columnGrid_->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    columnRows_.clear();
    if (columns_.isEmpty())
        return;
    columnGrid_->addWidget(new QLabel(tr("Column")), 0, 0);
    columnGrid_->addWidget(new QLabel(tr("Quantity")), 0, 1);
    columnGrid_->addWidget(new QLabel(tr("× scale")), 0, 2);
    columnGrid_->addWidget(new QLabel(tr("σ (SI)")), 0, 3);
    int r = 1;
    for (const QString& column : columns_) {
        // Scientific fields: a factor or σ can be 1e-5 as well as 100.
        ColumnRow row{column, new QComboBox(this), new ScientificSpinBox(this),
                      new ScientificSpinBox(this)};
        row.quantity->setToolTip(tr("The trace quantity column %1 measures").arg(column));
        row.quantity->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        row.quantity->setMinimumContentsLength(6);
        // Their size hints count 300 decimals: let the grid share the dock's width instead.
        for (QWidget* field :
             {static_cast<QWidget*>(row.scale), static_cast<QWidget*>(row.sigma)}) {
            field->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
            field->setMinimumWidth(60);
        }
        row.scale->setRange(-1e12, 1e12);
        row.scale->setValue(1.0);
        row.scale->setToolTip(tr("Factor to the quantity's SI unit (0.01 for cm)"));
        row.sigma->setRange(0.0, 1e12);
        row.sigma->setValue(0.0);
        // "auto" where "unknown" would be cut off in a narrow dock.
        row.sigma->setSpecialValueText(tr("auto"));
        row.sigma->setToolTip(tr("Standard deviation of one value after scaling; auto: "
                                 "unknown, estimated from the residuals"));
        columnGrid_->addWidget(new QLabel(column), r, 0);
        columnGrid_->addWidget(row.quantity, r, 1);
        columnGrid_->addWidget(row.scale, r, 2);
        columnGrid_->addWidget(row.sigma, r, 3);
        connect(row.quantity, &QComboBox::currentIndexChanged, this, &FitPanel::updateMapping);
        connect(row.scale, &QDoubleSpinBox::valueChanged, this, &FitPanel::updateMapping);
        connect(row.sigma, &QDoubleSpinBox::valueChanged, this, &FitPanel::updateMapping);
        columnRows_.push_back(row);
        ++r;
    }
    updateQuantities();
    for (const ColumnRow& row : columnRows_)
        for (const auto& [name, was] : kept)
            if (name == row.name) {
                const QSignalBlocker b1(row.quantity), b2(row.scale), b3(row.sigma);
                row.quantity->setCurrentIndex(std::max(0, row.quantity->findData(was.quantity)));
                row.scale->setValue(was.scale);
                row.sigma->setValue(was.sigma);
            }
    mapColumnsByName();
    updateMapping();
}

void FitPanel::mapColumnsByName()
{
    if (!trace_)
        return;
    QStringList said;
    for (const MeasurementFile::Mapping& m : MeasurementFile::mappingsByName(
             columns_, timeColumn_->currentText(), trace_->columnNames()))
        for (const ColumnRow& row : columnRows_)
            if (row.name == m.column && row.quantity->currentData().toString().isEmpty()) {
                const QSignalBlocker block(row.quantity);
                row.quantity->setCurrentIndex(
                    row.quantity->findData(QString::fromStdString(m.quantity)));
                said << tr("%1 → %2").arg(m.column, QString::fromStdString(m.quantity));
            }
    if (!said.isEmpty()) // never silently: the rows show it, and so does this line
        setMessage(tr("Columns mapped by their names: %1").arg(said.join(QStringLiteral(", "))),
                   false);
}

void FitPanel::updateQuantities()
{
    QStringList quantities;
    if (trace_)
        for (const std::string& name : trace_->columnNames())
            if (name != "t")
                quantities << QString::fromStdString(name);
    for (const ColumnRow& row : columnRows_) {
        const QString current = row.quantity->currentData().toString();
        const QSignalBlocker block(row.quantity);
        row.quantity->clear();
        row.quantity->addItem(tr("(not used)"), QString());
        for (const QString& q : quantities)
            row.quantity->addItem(q, q);
        const int index = row.quantity->findData(current);
        row.quantity->setCurrentIndex(index < 0 ? 0 : index);
    }
}

void FitPanel::rebuildParameters()
{
    while (QLayoutItem* item = parameterGrid_->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    parameterRows_.clear();
    if (!session_->definition())
        return;
    parameterGrid_->addWidget(new QLabel(tr("Fit")), 0, 0);
    parameterGrid_->addWidget(new QLabel(tr("lower")), 0, 1);
    parameterGrid_->addWidget(new QLabel(tr("upper")), 0, 2);
    int r = 1;
    for (const ParameterSpec& spec : session_->definition()->parameters) {
        if (spec.size() != 1 || spec.wholeNumber)
            continue; // only continuous scalars can be fitted (ParameterFit refuses counts)
        const QString name = QString::fromStdString(spec.name);
        // The label as the Scene dock shows it; the key (what the CLI's --fit takes) on hover.
        ParameterRow row{name, new QCheckBox(QString::fromStdString(spec.displayLabel()), this),
                         new QLineEdit(this), new QLineEdit(this)};
        row.fitted->setToolTip(tr("Parameter key: %1").arg(name));
        row.lower->setPlaceholderText(tr("none"));
        row.lower->setMinimumWidth(50);
        row.upper->setMinimumWidth(50);
        row.upper->setPlaceholderText(tr("none"));
        parameterGrid_->addWidget(row.fitted, r, 0);
        parameterGrid_->addWidget(row.lower, r, 1);
        parameterGrid_->addWidget(row.upper, r, 2);
        parameterRows_.push_back(row);
        ++r;
    }
}

bool FitPanel::mapColumn(const QString& column, const QString& quantity, double scale, double sigma)
{
    for (const ColumnRow& row : columnRows_) {
        if (row.name != column)
            continue;
        const int index = row.quantity->findData(quantity);
        if (index < 0)
            return false;
        row.scale->setValue(scale);
        row.sigma->setValue(sigma);
        row.quantity->setCurrentIndex(index);
        updateMapping();
        return true;
    }
    return false;
}

bool FitPanel::setFitted(const QString& parameter, bool fitted)
{
    for (const ParameterRow& row : parameterRows_)
        if (row.name == parameter) {
            row.fitted->setChecked(fitted);
            return true;
        }
    return false;
}

Measurements FitPanel::measurements() const
{
    std::vector<MeasurementFile::Mapping> mappings;
    for (const ColumnRow& row : columnRows_) {
        const QString quantity = row.quantity->currentData().toString();
        if (!quantity.isEmpty())
            mappings.push_back(
                {row.name, quantity.toStdString(), row.scale->value(), row.sigma->value()});
    }
    const MeasurementFile::Time time{timeColumn_->currentText(), timeScale_->value(),
                                     timeOffset_->value()};
    return MeasurementFile::load(path_, mappings, time);
}

QString FitPanel::labelOf(const std::string& key) const
{
    if (const SceneDefinition* definition = session_->definition())
        for (const ParameterSpec& spec : definition->parameters)
            if (spec.name == key)
                return QString::fromStdString(spec.displayLabel());
    return QString::fromStdString(key);
}

void FitPanel::setTrace(std::shared_ptr<const Trace> trace)
{
    const bool newColumns = !trace_ || !trace || trace_->columnNames() != trace->columnNames();
    trace_ = std::move(trace);
    if (newColumns) {
        updateQuantities(); // a mapped quantity the new trace lacks is unmapped
        updateMapping();
    } else {
        updateRms();
    }
}

void FitPanel::updateMapping()
{
    measured_ = Measurements{};
    mappingError_.clear();
    if (!path_.isEmpty()) {
        try {
            measured_ = measurements();
        } catch (const FileError& e) {
            // Nothing mapped yet is no error; anything else is said where the RMS would be.
            if (std::any_of(columnRows_.begin(), columnRows_.end(), [](const ColumnRow& row) {
                    return !row.quantity->currentData().toString().isEmpty();
                }))
                mappingError_ = QString::fromUtf8(e.what());
        }
    }
    updateRms();
    updateApply();
    emit measurementsChanged();
}

void FitPanel::setColumnColors(std::vector<QColor> colors)
{
    residualPlot_->setColors(std::move(colors));
}

std::vector<std::pair<std::string, PlotCurve>> FitPanel::residualCurves() const
{
    return FitCurves::residuals(measured_, residuals_);
}

std::vector<std::pair<std::string, PlotCurve>> FitPanel::measuredCurves() const
{
    return FitCurves::measured(measured_);
}

void FitPanel::updateRms()
{
    showRms();
    emit residualsChanged();
}

void FitPanel::showRms()
{
    residuals_.clear();
    rms_->setText(mappingError_);
    if (measured_.columns.empty() || !trace_ || trace_->samples.empty()) {
        residualPlot_->setResiduals({}, {}, {});
        return;
    }
    try {
        const std::vector<double> simulated = ParameterFit::simulatedAt(*trace_, measured_);
        QStringList parts;
        std::vector<QString> names;
        std::size_t k = 0;
        for (const Measurements::Column& column : measured_.columns) {
            std::vector<double> residual;
            double sum = 0.0;
            for (double value : column.values) {
                residual.push_back(value - simulated[k++]);
                sum += residual.back() * residual.back();
            }
            const double rms = std::sqrt(sum / static_cast<double>(residual.size()));
            names.push_back(QString::fromStdString(column.name()));
            parts << tr("%1 → %2: %3 %4")
                         .arg(names.back(), QString::fromStdString(column.quantity),
                              QString::number(rms, 'g', 4),
                              QString::fromStdString(TraceSeries::unit(*trace_, column.quantity)))
                         .trimmed();
            residuals_.push_back(std::move(residual));
        }
        rms_->setText(
            tr("Residual RMS (measured − simulated): %1").arg(parts.join(QStringLiteral("; "))));
        residualPlot_->setResiduals(measured_.times, residuals_, names);
    } catch (const std::exception& e) {
        rms_->setText(QString::fromUtf8(e.what()));
        residualPlot_->setResiduals({}, {}, {});
    }
}

bool FitPanel::startFit()
{
    if (thread_)
        return false;
    Measurements measured;
    FitOptions options;
    try {
        if (path_.isEmpty())
            throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter,
                                     "load measurements first");
        measured = measurements();
        for (const ParameterRow& row : parameterRows_) {
            if (!row.fitted->isChecked())
                continue;
            const std::string name = row.name.toStdString();
            options.parameters.push_back(name);
            options.bounds[name] = {
                boundOf(row.lower, -FitOptions::unbounded, row.name + tr(" lower bound")),
                boundOf(row.upper, FitOptions::unbounded, row.name + tr(" upper bound"))};
        }
        if (options.parameters.empty())
            throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter,
                                     "tick at least one parameter to fit");
    } catch (const std::exception& e) {
        setMessage(QString::fromUtf8(e.what()), true);
        return false;
    }
    setMessage(QString(), false);

    const SceneDocument document = session_->document();
    fitDocument_ = document;
    fitMeasured_ = measured;
    fitLoadSerial_ = loadSerial_;
    appliedDocument_.reset();
    keepGoing_ = std::make_shared<std::atomic<bool>>(true);
    const std::shared_ptr<std::atomic<bool>> keepGoing = keepGoing_;
    FitControl control;
    control.keepGoing = [keepGoing] {
        return keepGoing->load();
    };
    control.progress = [this, keepGoing](const FitProgress& p) {
        // The panel outlives the thread (the destructor waits), so `this` is safe to queue to.
        const QString text = tr("Iteration %1, %2 runs, weighted RMS %3")
                                 .arg(p.iteration)
                                 .arg(p.runs)
                                 .arg(p.weightedRms, 0, 'g', 5);
        QMetaObject::invokeMethod(progress_, "setText", Qt::QueuedConnection, Q_ARG(QString, text));
    };
    thread_ = QThread::create([this, document, measured, options, control] {
        FitResult result;
        QString error;
        try {
            result = ParameterFit::run(document, measured, options, control);
        } catch (const std::exception& e) {
            error = QString::fromUtf8(e.what());
        }
        QMetaObject::invokeMethod(
            this, [this, result, error] { fitDone(result, error); }, Qt::QueuedConnection);
    });
    progress_->setText(tr("Fitting…"));
    resultView_->clearSummary(); // the last result stays in the table until this one replaces it
    fitButton_->setEnabled(false);
    cancelButton_->setEnabled(true);
    thread_->start();
    updateApply();
    return true;
}

void FitPanel::cancelFit()
{
    if (keepGoing_)
        keepGoing_->store(false);
}

void FitPanel::fitDone(const FitResult& result, const QString& error)
{
    thread_->wait();
    delete thread_;
    thread_ = nullptr;
    fitButton_->setEnabled(true);
    cancelButton_->setEnabled(false);
    if (!error.isEmpty()) {
        progress_->setText(tr("Fit failed"));
        setMessage(error, true);
    } else if (result.cancelled) {
        progress_->setText(
            tr("Cancelled after %1 iterations; the scene is unchanged").arg(result.iterations));
    } else {
        result_ = result;
        progress_->setText(tr("%1 after %2 iterations, %3 runs")
                               .arg(QString::fromStdString(result.stopReason))
                               .arg(result.iterations)
                               .arg(result.runs));
        showResult();
    }
    updateApply();
    emit fitFinished();
}

void FitPanel::showResult()
{
    const FitReport report(result_, fitDocument_, fitMeasured_, QString(), path_, {});
    resultView_->show(result_, report, [this](const std::string& key) { return labelOf(key); });
    // The fitted model's residuals, until the next trajectory replaces them.
    residuals_.clear();
    for (const std::vector<double>& column : result_.residuals) {
        residuals_.emplace_back();
        for (double r : column)
            residuals_.back().push_back(-r);
    }
    std::vector<QString> names;
    for (const Measurements::Column& column : fitMeasured_.columns)
        names.push_back(tr("%1 (fitted model)").arg(QString::fromStdString(column.name())));
    residualPlot_->setResiduals(fitMeasured_.times, residuals_, names);
    QStringList rms = report.summaryLines();
    rms.removeLast(); // χ²/dof is under the table
    rms_->setText(tr("Fitted model: %1").arg(rms.join(QStringLiteral("; "))));
    emit residualsChanged();
    // Warnings (a parameter the data do not fix, a value on its bound) and a failure also at
    // the top; a failure offers to fit the start too.
    QStringList warnings;
    for (const std::string& warning : result_.warnings)
        warnings << QString::fromStdString(warning);
    if (result_.failed())
        warnings.prepend(tr("The fit failed: %1").arg(QString::fromStdString(result_.failure)));
    setMessage(warnings.join(QLatin1Char('\n')), true);
    QStringList starts;
    for (const std::string& name : result_.startParameters)
        starts << labelOf(name);
    fitStartButton_->setText(tr("Fit %1 too").arg(starts.join(tr(" and "))));
    fitStartButton_->setVisible(result_.failed() && !starts.isEmpty());
}

void FitPanel::fitStartToo()
{
    for (const std::string& name : result_.startParameters)
        setFitted(QString::fromStdString(name), true);
    fitStartButton_->hide();
    startFit();
}

void FitPanel::updateApply()
{
    QString reason;
    if (!result_.parameters.empty() && !thread_) {
        if (result_.failed())
            reason = tr("Not applicable: the fit failed (%1).")
                         .arg(QString::fromStdString(result_.failure));
        else if (loadSerial_ != fitLoadSerial_)
            reason = tr("Not applicable: the measurements were loaded again after this fit. "
                        "Fit again.");
        else if (!sameMeasurements(measured_, fitMeasured_))
            reason = tr("Not applicable: the column mapping or the time settings changed after "
                        "this fit. Fit again.");
        else if (appliedDocument_ && session_->document() == *appliedDocument_)
            reason = tr("The fitted values are in the scene (Undo takes them back).");
        else if (!(session_->document() == fitDocument_))
            reason = tr("Not applicable: the scene changed after this fit. Fit again, or undo "
                        "the change.");
    }
    applyReason_ = reason;
    const bool can = !result_.parameters.empty() && !thread_ && reason.isEmpty();
    applyButton_->setEnabled(can);
    applyButton_->setToolTip(can ? tr("Put the fitted values into the scene (one undo step)")
                                 : (reason.isEmpty() ? tr("Nothing to apply: fit first") : reason));
    applyNote_->setText(reason);
    applyNote_->setVisible(!reason.isEmpty());
}

QTableWidget* FitPanel::resultTable() const
{
    return resultView_->table();
}

QLabel* FitPanel::summaryLabel() const
{
    return resultView_->summary();
}

double FitPanel::appliedValue(std::size_t i) const
{
    const bool known = result_.determined[i] && std::isfinite(result_.standardErrors[i]);
    if (fullPrecision_->isChecked() || !known)
        return result_.values[i];
    return RoundedValue(result_.values[i], result_.standardErrors[i]).value();
}

bool FitPanel::applyResult()
{
    if (result_.parameters.empty() || thread_ || !applyReason_.isEmpty())
        return false;
    QUndoStack* undo = session_->undoStack();
    undo->beginMacro(tr("Apply fit"));
    for (std::size_t i = 0; i < result_.parameters.size(); ++i) {
        const QString key = QString::fromStdString(result_.parameters[i]);
        if (session_->hasKey(key))
            session_->edit(key, {appliedValue(i)});
    }
    undo->endMacro();
    appliedDocument_ = session_->document();
    updateApply();
    return true;
}

} // namespace clab
