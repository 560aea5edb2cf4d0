#include "MainWindow.h"

#include "HelpDialog.h"
#include "MainWindowActions.h"
#include "MainWindowDrag.h"
#include "MainWindowFiles.h"
#include "panels/ContactReadouts.h"
#include "panels/DerivationPanel.h"
#include "panels/FitPanel.h"
#include "panels/ForcesPanel.h"
#include "panels/ParameterEditor.h"
#include "panels/PlotsPanel.h"
#include "panels/SystemEditor.h"
#include "panels/TimeControls.h"
#include "plots/ForceKind.h"
#include "present/PresentationMode.h"
#include "present/PresentationPanel.h"
#include "render/VtkOpenGLWindow.h"
#include "session/PlaybackClock.h"
#include "session/SceneSession.h"
#include "session/SceneStore.h"
#include "session/SimulationWorker.h"
#include "view3d/SceneView.h"
#include "widgets/ElidingStatusBar.h"
#include "widgets/MessageBanner.h"
#include "widgets/WheelGuard.h"

#include <scenes/SceneRegistry.h>

#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>

// Resources of a static library must be registered by hand; outside any namespace.
static void initConstraintLabResources()
{
    Q_INIT_RESOURCE(constraintlab);
}

namespace clab {

namespace {

// The local scene file a drag carries, if any.
QString droppedSceneFile(const QMimeData* mime)
{
    if (!mime || !mime->hasUrls())
        return {};
    const QList<QUrl> urls = mime->urls();
    if (urls.size() != 1 || !urls.front().isLocalFile())
        return {};
    const QString path = urls.front().toLocalFile();
    return path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive) ? path : QString();
}

} // namespace

MainWindow::MainWindow(std::shared_ptr<SceneStore> store, QWidget* parent)
    : QMainWindow(parent), store_(std::move(store)), session_(new SceneSession(this)),
      clock_(new PlaybackClock(this)), worker_(new SimulationWorker(this)),
      runs_(new RunModel(this))
{
    initConstraintLabResources();
    setObjectName(QStringLiteral("MainWindow"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/constraintlab.svg")));
    setAcceptDrops(true);
    setDockOptions(AnimatedDocks | AllowTabbedDocks);

    createCentralWidget();
    // Before the docks: they put widgets of their own in it, which a later setStatusBar deletes.
    setStatusBar(new ElidingStatusBar(this));
    actions_ = new MainWindowActions(this, session_, *store_);
    docks_ = new MainWindowDocks(this, session_, clock_, runs_, view_, *actions_);
    actions_->createMenus(docks_->timeControls());
    files_ = new MainWindowFiles(this, session_, *store_, *actions_, docks_->systemEditor());
    exports_ = new MainWindowExports(this, session_, *store_, runs_, view_, clock_,
                                     docks_->parameterEditor(), files_->saveFileProvider());
    qApp->installEventFilter(this);
    // The wheel changes no value in a control without the focus, here or in any dialog.
    WheelGuard::install();
    createStatusBar();
    new MainWindowDrag(statusBar(), session_, clock_, view_, actions_->resetStart, this);
    connectActions();
    connectSession();
    connectPresentation();

    readSettings();
    updateExportActions();
    updateTitle();
    view_->setFocus();
}

MainWindow::~MainWindow()
{
    // ~QWidget destroys the children after this object has stopped being a MainWindow; a signal
    // they emit on the way out (visibility, focus, undo state) must not reach a slot of ours,
    // nor one of the parts that hold pointers to them.
    delete exports_;
    delete files_;
    delete docks_;
    delete actions_;
    for (QObject* child : findChildren<QObject*>()) {
        disconnect(child, nullptr, this, nullptr);
    }
}

void MainWindow::createCentralWidget()
{
    auto* central = new QWidget(this);
    auto* centralLayout = new QVBoxLayout(central);
    centralLayout->setContentsMargins(0, 0, 0, 0);
    centralLayout->setSpacing(0);
    banner_ = new MessageBanner(central);
    auto* bannerRow = new QHBoxLayout;
    bannerRow->setContentsMargins(8, 8, 8, 4);
    bannerRow->addWidget(banner_);
    centralLayout->addLayout(bannerRow);
    view_ = new SceneView(central);
    view_->setObjectName(QStringLiteral("sceneView"));
    view_->setMinimumSize(240, 180);
    // The view takes the keyboard focus first, so Space and the arrows drive playback.
    view_->setFocusPolicy(Qt::StrongFocus);
    // Presentation mode's column stands beside the view (hidden until then).
    auto* viewRow = new QHBoxLayout;
    viewRow->setSpacing(0);
    viewRow->addWidget(view_, 1);
    presentPanel_ = new PresentationPanel(central);
    viewRow->addWidget(presentPanel_);
    centralLayout->addLayout(viewRow, 1);
    centralLayout->addWidget(presentPanel_->captionLabel());
    setCentralWidget(central);
}

void MainWindow::createStatusBar()
{
    // The bar itself (an ElidingStatusBar: a message too long for a narrow window ends in "…",
    // the whole of it in the tooltip) is made before the docks.
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 1000);
    progress_->setMaximumWidth(180);
    progress_->setTextVisible(false);
    progress_->hide();
    statusReadout_ = new QLabel(this);
    statusReadout_->setObjectName(QStringLiteral("statusReadout"));
    statusBar()->addPermanentWidget(progress_);
    statusBar()->addPermanentWidget(statusReadout_);
}

void MainWindow::connectActions()
{
    const MainWindowActions& a = *actions_;
    connect(a.open, &QAction::triggered, files_, &MainWindowFiles::openDialog);
    connect(a.save, &QAction::triggered, files_, &MainWindowFiles::save);
    connect(a.saveAs, &QAction::triggered, files_, &MainWindowFiles::saveAsDialog);
    connect(a.exportImage, &QAction::triggered, exports_, &MainWindowExports::exportImageDialog);
    connect(a.exportCsv, &QAction::triggered, exports_, &MainWindowExports::exportCsvDialog);
    connect(a.exportPlot, &QAction::triggered, this,
            [this] { docks_->plotsPanel()->showExportDialog(); });
    connect(a.exportVideo, &QAction::triggered, exports_, &MainWindowExports::exportVideoDialog);
    connect(a.defaults, &QAction::triggered, this, &MainWindow::restoreDefaults);
    connect(a.duplicate, &QAction::triggered, files_, &MainWindowFiles::duplicateAsSystem);
    connect(a.compare, &QAction::toggled, this, [this](bool on) {
        if (!on)
            clearGhosts();
        statusBar()->showMessage(
            on ? tr("Compare: every change leaves a ghost trail of the previous run")
               : tr("Compare off"),
            4000);
    });
    connect(a.clearGhosts, &QAction::triggered, this, &MainWindow::clearGhosts);
    connect(a.resetCamera, &QAction::triggered, view_, &SceneView::resetCamera);
    connect(a.largeText, &QAction::toggled, this, [this](bool on) {
        MainWindowActions::applyLargeText(on);
        setLargeTextScale(on);
    });
    connect(a.help, &QAction::triggered, this, &MainWindow::showHelp);
    connect(a.about, &QAction::triggered, this, &MainWindow::showAbout);
    connect(actions_, &MainWindowActions::newSceneRequested, files_,
            &MainWindowFiles::newFromBuiltIn);
    connect(actions_, &MainWindowActions::newSystemRequested, files_,
            &MainWindowFiles::newFromSystem);
    connect(actions_, &MainWindowActions::newTemplateRequested, this, [this](const QString& path) {
        if (files_->newFromSystem(path))
            docks_->showSystemEditor();
    });
    connect(actions_, &MainWindowActions::recentFileRequested, files_,
            &MainWindowFiles::openFileInBackground);
    connect(exports_, &MainWindowExports::failed, this, &MainWindow::showFileError);
    connect(files_, &MainWindowFiles::failed, this, &MainWindow::showFileError);
    connect(files_, &MainWindowFiles::saved, this, [this] {
        if (!bannerShowsSimulation_) {
            banner_->clearMessage();
            bannerShowsFileError_ = false;
        }
    });
    connect(files_, &MainWindowFiles::warning, this, [this](const QString& message) {
        banner_->showMessage(MessageBanner::Kind::Warning, message);
        bannerShowsFileError_ = true;
        fileErrorSerial_ = session_->editSerial();
    });
    connect(files_, &MainWindowFiles::systemEditorWanted, docks_,
            &MainWindowDocks::showSystemEditor);
    connect(exports_, &MainWindowExports::videoDialogClosed, this, &MainWindow::showTime);
}

void MainWindow::connectSession()
{
    connect(session_, &SceneSession::documentReset, this, &MainWindow::sceneReset);
    connect(session_, &SceneSession::valueChanged, this, &MainWindow::requestSimulation);
    connect(session_, &SceneSession::systemChanged, this, &MainWindow::requestSimulation);
    connect(session_, &SceneSession::startChanged, this, &MainWindow::requestSimulation);
    connect(docks_->systemEditor(), &SystemEditor::duplicateRequested, files_,
            &MainWindowFiles::duplicateAsSystem);
    connect(session_, &SceneSession::modifiedChanged, this, &MainWindow::updateTitle);
    connect(session_, &SceneSession::filePathChanged, this, &MainWindow::updateTitle);
    connect(worker_, &SimulationWorker::started, this, &MainWindow::simulationStarted);
    connect(worker_, &SimulationWorker::progress, this, &MainWindow::simulationProgress);
    connect(worker_, &SimulationWorker::finished, this, &MainWindow::simulationFinished);
    connect(worker_, &SimulationWorker::failed, this, &MainWindow::simulationError);
    connect(clock_, &PlaybackClock::timeChanged, this, &MainWindow::showTime);
    connect(runs_, &RunModel::shownRunChanged, this, &MainWindow::showRun);
    connect(runs_, &RunModel::ghostsCleared, this,
            [this] { docks_->plotsPanel()->setRuns(runs_->runs()); });

    ForcesPanel* forces = docks_->forcesPanel();
    connect(forces, &ForcesPanel::forceVisibilityChanged, view_, &SceneView::setForceVisible);
    connect(forces, &ForcesPanel::arrowScaleChanged, view_, &SceneView::setArrowScale);
    connect(forces, &ForcesPanel::legendVisibilityChanged, view_, &SceneView::setLegendVisible);
    connect(forces, &ForcesPanel::magnitudeLabelsVisibilityChanged, view_,
            &SceneView::setMagnitudesVisible);
    connect(forces, &ForcesPanel::chosenBodyChanged, this, [this](int body) {
        view_->setChosenBody(body);
        // The dock's magnitudes are the chosen body's.
        showTime(clock_->time());
    });
    connect(forces, &ForcesPanel::arrowFieldVisibilityChanged, view_,
            &SceneView::setArrowFieldVisible);
}

void MainWindow::connectPresentation()
{
    present_ = new PresentationMode(this, presentPanel_, view_);
    // Their menus, tool bar and dock are hidden while presenting: on the window, their keys
    // (F5, Space, Home, the arrows) still work there.
    TimeControls* time = docks_->timeControls();
    addActions({actions_->present, time->playPauseAction(), time->resetAction(),
                time->stepForwardAction(), time->stepBackwardAction()});
    connect(actions_->present, &QAction::triggered, this,
            [this] { setPresenting(!isPresenting()); });
    connect(actions_->addLessonStep, &QAction::triggered, this, &MainWindow::addLessonStep);
    connect(actions_->editLessonCaption, &QAction::triggered, this, &MainWindow::editLessonCaption);
    connect(actions_->saveLesson, &QAction::triggered, this, &MainWindow::saveLessonDialog);
    connect(files_, &MainWindowFiles::lessonRequested, this, &MainWindow::openLesson);
    connect(session_, &SceneSession::documentReset, present_,
            [this] { present_->documentChanged(true); });
    connect(session_, &SceneSession::valueChanged, present_,
            [this] { present_->documentChanged(false); });
    connect(session_, &SceneSession::systemChanged, present_,
            [this] { present_->documentChanged(false); });
    connect(this, &MainWindow::trajectoryShown, present_, &PresentationMode::runShown);
}

bool MainWindow::isPresenting() const
{
    return present_->isActive();
}

void MainWindow::setPresenting(bool on)
{
    if (on)
        present_->enter();
    else
        present_->leave();
}

void MainWindow::showGhosts()
{
    view_->setGhosts(runs_->ghostTrails());
    docks_->plotsPanel()->setRuns(runs_->runs());
}

void MainWindow::setLargeTextScale(bool on)
{
    // The 3D view and the plots draw their text with VTK, at their own scale.
    docks_->plotsPanel()->setTextScale(on ? MainWindowActions::largePlotTextFactor : 1.0);
    view_->setTextScale(on ? MainWindowActions::largeViewTextFactor : 1.0);
}

QStringList MainWindow::recentFiles() const
{
    return actions_->recentFiles();
}

void MainWindow::clearGhosts()
{
    view_->clearGhosts();
    runs_->clearGhosts();
}

bool MainWindow::isCompareEnabled() const
{
    return actions_->compare->isChecked();
}

void MainWindow::setCompareEnabled(bool enabled)
{
    actions_->compare->setChecked(enabled);
}

bool MainWindow::isLargeText() const
{
    return actions_->largeText->isChecked();
}

void MainWindow::setLargeText(bool on)
{
    actions_->largeText->setChecked(on);
}

void MainWindow::setDocument(const SceneDocument& document, const QString& path)
{
    session_->setDocument(document, path);
}

void MainWindow::updateExportActions()
{
    const bool available = runs_->trace() != nullptr;
    actions_->exportCsv->setEnabled(available);
    actions_->exportVideo->setEnabled(available);
    actions_->exportPlot->setEnabled(available);
}

void MainWindow::restoreDefaults()
{
    const SceneDefinition* definition = session_->definition();
    if (!definition)
        return;
    // One undo step for the whole reset.
    session_->undoStack()->beginMacro(tr("Restore scene defaults"));
    for (const auto& [name, value] : definition->defaults())
        session_->edit(QString::fromStdString(name), value);
    session_->undoStack()->endMacro();
}

void MainWindow::showHelp()
{
    auto* dialog = findChild<HelpDialog*>();
    if (!dialog) {
        dialog = new HelpDialog(findChildren<QAction*>(), this);
        dialog->setModal(false);
    }
    dialog->show();
    dialog->raise();
    dialog->activateWindow();
}

void MainWindow::showAbout()
{
    QMessageBox::about(
        this, tr("About ConstraintLab"),
        tr("<h3>ConstraintLab %1</h3>"
           "<p>The Udwadia–Kalaba fundamental equation of constrained motion, "
           "<i>M q&#x0308; = Q + Q<sup>c</sup><sub>i</sub> + Q<sup>c</sup><sub>ni</sub></i>, "
           "seen and played with.</p>"
           "<p>Scenes with ideal and non-ideal (friction) constraints, holonomic and "
           "nonholonomic, with positive-definite or singular mass matrices.</p>"
           "<p>Built with Qt %2, VTK, Eigen and Boost.Odeint.</p>")
            .arg(QApplication::applicationVersion(), QLatin1String(qVersion())));
}

void MainWindow::updateTitle()
{
    setWindowTitle(tr("%1[*] — ConstraintLab").arg(session_->displayName()));
    setWindowModified(session_->isModified());
    setWindowFilePath(session_->filePath());
}

void MainWindow::sceneReset()
{
    // A different document: earlier runs and their ghosts belong to another scene.
    clearGhosts();
    runs_->reset();
    docks_->plotsPanel()->clear();
    docks_->fitPanel()->setTrace(nullptr);
    updateExportActions();
    bannerShowsSimulation_ = false;
    bannerShowsFileError_ = false;
    banner_->clearMessage();
    docks_->forcesPanel()->clearMagnitudes();
    docks_->derivationPanel()->clear();
    statusReadout_->clear();
    docks_->timeControls()->setTrajectoryAvailable(false);
    clock_->pause();
    clock_->setRange(0.0, 0.0, 0.01);
    clock_->setTime(0.0);
    docks_->timeControls()->updateRange();
    updateTitle();
    requestSimulation();
}

void MainWindow::requestSimulation()
{
    // Several values can change in one go (restore defaults): simulate once, afterwards.
    if (simulationScheduled_)
        return;
    simulationScheduled_ = true;
    QTimer::singleShot(0, this, [this] {
        simulationScheduled_ = false;
        if (!session_->definition())
            return;
        runs_->request(session_->document(), session_->editSerial());
        worker_->request(runs_->pendingDocument());
    });
}

void MainWindow::simulationStarted(quint64 generation)
{
    (void)generation;
    progress_->setValue(0);
    progress_->show();
    statusBar()->showMessage(tr("Simulating…"));
}

void MainWindow::simulationProgress(quint64 generation, double time, double endTime)
{
    (void)generation;
    // The built-in scenes start at t = 0, so the fraction done is time / endTime.
    const double fraction = endTime > 0.0 ? time / endTime : 0.0;
    progress_->setValue(static_cast<int>(std::clamp(fraction, 0.0, 1.0) * 1000));
}

void MainWindow::simulationFinished(quint64 generation, std::shared_ptr<const Trace> trace,
                                    double seconds)
{
    progress_->hide();
    if (!trace || trace->samples.empty()) {
        simulationError(generation, tr("the simulation produced no samples"));
        return;
    }
    runs_->show(std::move(trace), isCompareEnabled()); // showRun puts it on screen
    showRunStatus(seconds);
    if (autoPlay_) {
        autoPlay_ = false;
        clock_->play();
    }
    updateExportActions();
    docks_->plotsPanel()->setRuns(runs_->runs());
    docks_->fitPanel()->setTrace(runs_->trace());
    emit trajectoryShown();
}

void MainWindow::showRun(bool sameParameters, bool ghostsChanged)
{
    const SceneDocument& document = runs_->shownDocument();
    const Trace& trace = *runs_->trace();
    if (!sameParameters) {
        view_->setScene(document);
        // The view keeps the chosen body through a parameter change, clamped to the new count.
        ForcesPanel* forces = docks_->forcesPanel();
        forces->setBodies(view_->bodyCount(), view_->chosenBody(), view_->bodyNoun());
        forces->setDescriptions({view_->forceDescription(ForceKind::Given),
                                 view_->forceDescription(ForceKind::IdealConstraint),
                                 view_->forceDescription(ForceKind::NonIdealConstraint)});
    }
    view_->setTrace(trace);
    if (ghostsChanged)
        view_->setGhosts(runs_->ghostTrails());

    // Playback continues from the same time in the new motion.
    const double t0 = trace.samples.front().t;
    const double t1 = trace.samples.back().t;
    const double time = clock_->time();
    clock_->setRange(t0, t1, document.simulation.dt);
    docks_->timeControls()->updateRange();
    docks_->timeControls()->setTrajectoryAvailable(true);
    showTime(std::clamp(time, t0, t1));

    if (bannerShowsSimulation_ ||
        (bannerShowsFileError_ && runs_->shownSerial() != fileErrorSerial_)) {
        banner_->clearMessage();
        bannerShowsSimulation_ = false;
        bannerShowsFileError_ = false;
    }
}

void MainWindow::showRunStatus(double seconds)
{
    const Trace& trace = *runs_->trace();
    const QString end =
        trace.reachedEnd && session_->definition()
            ? tr(", where %1,").arg(QString::fromStdString(session_->definition()->end))
            : QString();
    statusBar()->showMessage(tr("Computed %1 samples up to t = %2 s%5 in %3 ms: %4")
                                 .arg(trace.samples.size())
                                 .arg(trace.samples.back().t, 0, 'g', 4)
                                 .arg(seconds * 1000.0, 0, 'f', 1)
                                 .arg(QString::fromStdString(trace.stats.summary()))
                                 .arg(end),
                             5000);
}

void MainWindow::simulationError(quint64 generation, const QString& message)
{
    (void)generation;
    progress_->hide();
    statusBar()->clearMessage();
    const QString text = runs_->trace()
                             ? tr("%1. The last good trajectory is still shown.").arg(message)
                             : tr("%1.").arg(message);
    banner_->showMessage(MessageBanner::Kind::Error, text);
    bannerShowsSimulation_ = true;
    emit simulationFailed(message);
}

void MainWindow::showTime(double t)
{
    view_->setTime(t);
    docks_->plotsPanel()->setTime(t);
    present_->showTime(t);
    const auto& trace = runs_->trace();
    if (!trace)
        return;
    const TraceSample* sample =
        trace->samples.empty() ? nullptr : &trace->samples[trace->sampleIndexAt(t)];
    if (!sample)
        return;
    // The forces as the view draws them: torques in N·m for the rigid body.
    docks_->forcesPanel()->setMagnitudes({view_->forceMagnitude(ForceKind::Given),
                                          view_->forceMagnitude(ForceKind::IdealConstraint),
                                          view_->forceMagnitude(ForceKind::NonIdealConstraint)},
                                         view_->forceUnit());
    docks_->forcesPanel()->setReadouts(view_->readouts() + ContactReadouts::lines(*trace, t));
    docks_->showDerivation(t);
    statusReadout_->setText(tr("E = %1 J    W(%2) = %3 J    residual %4")
                                .arg(sample->E, 0, 'f', 4)
                                .arg(forceSymbol(ForceKind::NonIdealConstraint))
                                .arg(sample->W_nonideal, 0, 'f', 4)
                                .arg(sample->residualMax, 0, 'e', 1));
}

void MainWindow::showFileError(const QString& what, const QString& message)
{
    banner_->showMessage(MessageBanner::Kind::Error, QStringLiteral("%1: %2").arg(what, message));
    bannerShowsSimulation_ = false;
    // The message stays until the user moves on: an edit after it that computes fine.
    bannerShowsFileError_ = true;
    fileErrorSerial_ = session_ ? session_->editSerial() : 0;
}

void MainWindow::readSettings()
{
    QSettings s(MainWindowActions::settingsOrganization(),
                MainWindowActions::settingsApplication());
    const bool largeText = s.value(QStringLiteral("view/largeText"), false).toBool();
    actions_->largeText->setChecked(largeText);
    // Also when unchanged: an earlier window may have left it on.
    MainWindowActions::applyLargeText(largeText);
    setLargeTextScale(largeText);
    if (!restoreGeometry(s.value(QStringLiteral("window/geometry")).toByteArray())) {
        // First start: 1400×860, or the whole screen where that is smaller (a 1024×768
        // projector), so that no dock starts beyond the screen's edge.
        const QSize wanted(1400, 860);
        const QScreen* screen = this->screen();
        resize(screen ? wanted.boundedTo(screen->availableGeometry().size()) : wanted);
    }
    const QByteArray state = s.value(QStringLiteral("window/state")).toByteArray();
    if (state.isEmpty() || !restoreState(state)) {
        // First start: give the 3D view most of the width once the window has its size.
        // On a small screen (a 1024-pixel projector) the docks take less, so that the view
        // keeps about half of the width, and the right-hand panels share one tab group.
        if (width() < 1280)
            docks_->stackRightPanels();
        QTimer::singleShot(0, this, [this] {
            const int w = width();
            // The System editor, when on top, needs more room than the parameters.
            const int left = docks_->isSystemOnTop() ? std::clamp(w * 30 / 100, 285, 480)
                                                     : std::clamp(w * 27 / 100, 270, 340);
            // The right-hand column by the dock on top of it (Plots when stacked).
            resizeDocks({findChild<QDockWidget*>(QStringLiteral("sceneDock")),
                         findChild<QDockWidget*>(QStringLiteral("plotsDock"))},
                        {left, std::clamp(w * 28 / 100, 270, 460)}, Qt::Horizontal);
        });
    }
    readDisplaySettings(s);
}

void MainWindow::readDisplaySettings(const QSettings& s)
{
    ForcesPanel* forces = docks_->forcesPanel();
    for (int i = 0; i < 3; ++i) {
        const auto kind = static_cast<ForceKind>(i);
        const bool visible = s.value(QStringLiteral("view/force%1").arg(i), true).toBool();
        forces->setForceVisible(kind, visible);
        view_->setForceVisible(kind, visible);
    }
    if (s.contains(QStringLiteral("plots/x"))) {
        PlotSpec plot;
        plot.id = s.value(QStringLiteral("plots/preset")).toString().toStdString();
        plot.x = s.value(QStringLiteral("plots/x")).toString().toStdString();
        for (const QString& name : s.value(QStringLiteral("plots/y")).toStringList())
            plot.y.push_back(name.toStdString());
        plot.logY = s.value(QStringLiteral("plots/logY")).toBool();
        // Checked against the trace when it arrives; the panel falls back when it does not fit.
        docks_->plotsPanel()->setSpec(plot);
    }
    const double scale = s.value(QStringLiteral("view/arrowScale"), 1.0).toDouble();
    forces->setArrowScale(scale);
    view_->setArrowScale(forces->arrowScale());
    const bool legend = s.value(QStringLiteral("view/legend"), true).toBool();
    forces->setLegendVisible(legend);
    view_->setLegendVisible(legend);
    docks_->timeControls()->loopAction()->setChecked(
        s.value(QStringLiteral("playback/loop"), true).toBool());
    const bool magnitudes = s.value(QStringLiteral("view/magnitudes"), false).toBool();
    forces->setMagnitudeLabelsVisible(magnitudes);
    view_->setMagnitudesVisible(magnitudes);
    const bool field = s.value(QStringLiteral("view/arrowField"), false).toBool();
    forces->setArrowFieldVisible(field);
    view_->setArrowFieldVisible(field);
}

void MainWindow::writeSettings() const
{
    QSettings s(MainWindowActions::settingsOrganization(),
                MainWindowActions::settingsApplication());
    s.setValue(QStringLiteral("view/largeText"), isLargeText());
    s.setValue(QStringLiteral("window/geometry"), saveGeometry());
    s.setValue(QStringLiteral("window/state"), saveState());
    for (int i = 0; i < 3; ++i)
        s.setValue(QStringLiteral("view/force%1").arg(i),
                   docks_->forcesPanel()->isForceVisible(static_cast<ForceKind>(i)));
    s.setValue(QStringLiteral("view/arrowScale"), docks_->forcesPanel()->arrowScale());
    s.setValue(QStringLiteral("view/legend"), docks_->forcesPanel()->isLegendVisible());
    s.setValue(QStringLiteral("view/magnitudes"),
               docks_->forcesPanel()->areMagnitudeLabelsVisible());
    s.setValue(QStringLiteral("view/arrowField"), docks_->forcesPanel()->isArrowFieldVisible());
    s.setValue(QStringLiteral("playback/loop"), docks_->timeControls()->loopAction()->isChecked());
    // The plot shown: a ready-made one by id, a custom one by its quantities.
    const PlotSpec plot = docks_->plotsPanel()->spec();
    s.setValue(QStringLiteral("plots/preset"), QString::fromStdString(plot.id));
    s.setValue(QStringLiteral("plots/x"), QString::fromStdString(plot.x));
    QStringList y;
    for (const std::string& name : plot.y)
        y << QString::fromStdString(name);
    s.setValue(QStringLiteral("plots/y"), y);
    s.setValue(QStringLiteral("plots/logY"), plot.logY);
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event)
{
    const QEvent::Type type = event->type();
    if (type == QEvent::MouseButtonPress &&
        watched == static_cast<QObject*>(view_->openGLWindow())) {
        view_->setFocus(Qt::MouseFocusReason);
        return false;
    }
    if (type != QEvent::ShortcutOverride && type != QEvent::KeyPress)
        return false;
    auto* widget = qobject_cast<QWidget*>(watched);
    // Controls that use these keys themselves: fields, sliders, lists.
    const bool editing =
        widget && widget->window() == this &&
        (qobject_cast<QAbstractSpinBox*>(widget) || qobject_cast<QAbstractSlider*>(widget) ||
         qobject_cast<QLineEdit*>(widget) || qobject_cast<QComboBox*>(widget));
    if (!editing)
        return false;
    const int key = static_cast<QKeyEvent*>(event)->key();
    // Presenting, the clicker's keys drive the lesson and playback even over a slider.
    if (present_ && present_->isActive() && PresentationMode::isClickerKey(key))
        return false;
    if (key == Qt::Key_Escape && type == QEvent::KeyPress) {
        view_->setFocus(Qt::OtherFocusReason);
        return true;
    }
    static const int controlKeys[] = {Qt::Key_Left, Qt::Key_Right,  Qt::Key_Up,
                                      Qt::Key_Down, Qt::Key_PageUp, Qt::Key_PageDown,
                                      Qt::Key_Home, Qt::Key_End,    Qt::Key_Space};
    if (type == QEvent::ShortcutOverride &&
        std::find(std::begin(controlKeys), std::end(controlKeys), key) != std::end(controlKeys)) {
        // Accepted, the key reaches the control as a key press instead of a window shortcut.
        event->accept();
        return true;
    }
    return false;
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (!files_->maybeSave()) {
        event->ignore();
        return;
    }
    clock_->pause();
    worker_->cancel();
    writeSettings();
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (!droppedSceneFile(event->mimeData()).isEmpty())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    const QString path = droppedSceneFile(event->mimeData());
    if (path.isEmpty())
        return;
    event->acceptProposedAction();
    // Opening may ask about unsaved changes: do it after the drag-and-drop has finished.
    QTimer::singleShot(0, this, [this, path] { files_->openFileInBackground(path); });
}

} // namespace clab
