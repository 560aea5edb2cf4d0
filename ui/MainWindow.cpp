#include "MainWindow.h"

#include "export/CsvExportDialog.h"

#include "export/ImageExportDialog.h"
#include "export/VideoExportDialog.h"
#include <CsvWriter.h>

#include "DialogFolders.h"
#include "HelpDialog.h"
#include "panels/DerivationPanel.h"
#include "panels/FitPanel.h"
#include "panels/ForcesPanel.h"
#include "panels/ParameterEditor.h"
#include "panels/PlotsPanel.h"
#include "panels/SystemEditor.h"
#include "panels/TimeControls.h"
#include "plots/ForceKind.h"
#include "render/VtkOpenGLWindow.h"
#include "session/PlaybackClock.h"
#include "session/SceneSession.h"
#include "session/SceneStore.h"
#include "session/SimulationWorker.h"
#include "view3d/SceneView.h"
#include "widgets/MessageBanner.h"

#include <scenes/SceneRegistry.h>
#include <integrate/SimulationSetting.h>

#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

// Resources of a static library must be registered by hand; outside any namespace.
static void initConstraintLabResources()
{
    Q_INIT_RESOURCE(constraintlab);
}

namespace clab {

namespace {

constexpr int maxRecentFiles = 8;

/// How much larger text is for projection.
constexpr double largeTextFactor = 1.4;

/// The application's fonts at their normal size, or 1.4 times that for projection: the general
/// one and those a desktop theme sets for particular widgets (dock titles, menus, tool buttons),
/// which the general one does not override.
void applyLargeText(bool on)
{
    static const char* const classes[] = {nullptr,   "QDockWidget", "QMenuBar",
                                          "QMenu",   "QToolButton", "QGroupBox",
                                          "QTabBar", "QLabel",      "QAbstractButton"};
    // The fonts the application started with, whatever an earlier window left behind.
    static const std::vector<QFont> normal = [] {
        std::vector<QFont> fonts;
        for (const char* name : classes)
            fonts.push_back(name ? QApplication::font(name) : QApplication::font());
        return fonts;
    }();
    for (std::size_t i = 0; i < std::size(classes); ++i) {
        QFont font = normal[i];
        if (on) {
            if (font.pointSizeF() > 0)
                font.setPointSizeF(font.pointSizeF() * largeTextFactor);
            else
                font.setPixelSize(qRound(font.pixelSize() * largeTextFactor));
        }
        QApplication::setFont(font, classes[i]);
    }
}
const char* const recentFilesKey = "recentFiles";
const char* const sceneFilter =
    QT_TRANSLATE_NOOP("MainWindow", "ConstraintLab scenes (*.clab.json *.json)");

QIcon themed(const char* themeName, const char* resource)
{
    return QIcon::fromTheme(QLatin1String(themeName), QIcon(QLatin1String(resource)));
}

// Where the window layout, display choices and recent files persist.
const QString settingsOrganization = QStringLiteral("ConstraintLab");
const QString settingsApplication = QStringLiteral("ConstraintLab");

QString formatValue(const std::vector<double>& value)
{
    QStringList parts;
    for (double v : value)
        parts << QString::number(v, 'g', 4);
    return value.size() == 1 ? parts.front()
                             : QStringLiteral("(%1)").arg(parts.join(QStringLiteral(", ")));
}

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
      clock_(new PlaybackClock(this)), worker_(new SimulationWorker(this))
{
    initConstraintLabResources();
    setObjectName(QStringLiteral("MainWindow"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/constraintlab.svg")));
    setAcceptDrops(true);
    setDockOptions(AnimatedDocks | AllowTabbedDocks);

    unsavedPrompt_ = [this](const QString& name) {
        const auto answer = QMessageBox::warning(
            this, tr("Unsaved Changes"),
            tr("The scene “%1” has unsaved changes.\nDo you want to save them?").arg(name),
            QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
        if (answer == QMessageBox::Save)
            return UnsavedChoice::Save;
        return answer == QMessageBox::Discard ? UnsavedChoice::Discard : UnsavedChoice::Cancel;
    };
    openProvider_ = [this] {
        const QString current = QFileInfo(session_->filePath()).absolutePath();
        const QString dir = !session_->filePath().isEmpty() && QFileInfo(current).isDir()
                                ? current
                                : DialogFolders::folder(QStringLiteral("scene"));
        const QString path =
            QFileDialog::getOpenFileName(this, tr("Open Scene"), dir, tr(sceneFilter));
        DialogFolders::remember(QStringLiteral("scene"), path);
        return path;
    };
    saveProvider_ = [this](const QString& suggested, const QString& filter) {
        return QFileDialog::getSaveFileName(this, tr("Save As"), suggested, filter);
    };

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
    centralLayout->addWidget(view_, 1);
    setCentralWidget(central);

    createActions();
    createDocks();
    createMenus();
    qApp->installEventFilter(this);

    progress_ = new QProgressBar(this);
    progress_->setRange(0, 1000);
    progress_->setMaximumWidth(180);
    progress_->setTextVisible(false);
    progress_->hide();
    statusReadout_ = new QLabel(this);
    statusReadout_->setObjectName(QStringLiteral("statusReadout"));
    statusBar()->addPermanentWidget(progress_);
    statusBar()->addPermanentWidget(statusReadout_);

    connect(session_, &SceneSession::documentReset, this, &MainWindow::sceneReset);
    connect(session_, &SceneSession::valueChanged, this, &MainWindow::requestSimulation);
    connect(session_, &SceneSession::systemChanged, this, &MainWindow::requestSimulation);
    connect(systemEditor_, &SystemEditor::duplicateRequested, this, &MainWindow::duplicateAsSystem);
    connect(session_, &SceneSession::modifiedChanged, this, &MainWindow::updateTitle);
    connect(session_, &SceneSession::filePathChanged, this, &MainWindow::updateTitle);
    connect(worker_, &SimulationWorker::started, this, &MainWindow::simulationStarted);
    connect(worker_, &SimulationWorker::progress, this, &MainWindow::simulationProgress);
    connect(worker_, &SimulationWorker::finished, this, &MainWindow::simulationFinished);
    connect(worker_, &SimulationWorker::failed, this, &MainWindow::simulationError);
    connect(clock_, &PlaybackClock::timeChanged, this, &MainWindow::showTime);

    connect(forces_, &ForcesPanel::forceVisibilityChanged, view_, &SceneView::setForceVisible);
    connect(forces_, &ForcesPanel::arrowScaleChanged, view_, &SceneView::setArrowScale);
    connect(forces_, &ForcesPanel::legendVisibilityChanged, view_, &SceneView::setLegendVisible);
    connect(forces_, &ForcesPanel::magnitudeLabelsVisibilityChanged, view_,
            &SceneView::setMagnitudesVisible);
    connect(forces_, &ForcesPanel::chosenBodyChanged, this, [this](int body) {
        view_->setChosenBody(body);
        // The dock's magnitudes are the chosen body's.
        showTime(clock_->time());
    });
    connect(forces_, &ForcesPanel::arrowFieldVisibilityChanged, view_,
            &SceneView::setArrowFieldVisible);

    readSettings();
    updateRecentMenu();
    updateExportActions();
    updateTitle();
    view_->setFocus();
}

MainWindow::~MainWindow()
{
    // ~QWidget destroys the children after this object has stopped being a MainWindow; a signal
    // they emit on the way out (visibility, focus, undo state) must not reach a slot of ours.
    for (QObject* child : findChildren<QObject*>()) {
        disconnect(child, nullptr, this, nullptr);
    }
}

void MainWindow::createDocks()
{
    // Scene: the parameters, with the compare controls on top; all of it scrolls, both ways, so
    // that the dock can be as narrow as a 1024-pixel projector with large text needs.
    auto* sceneDock = new QDockWidget(tr("Scene"), this);
    sceneDock->setObjectName(QStringLiteral("sceneDock"));
    auto* scroll = new QScrollArea(sceneDock);
    scroll->setObjectName(QStringLiteral("sceneScroll"));
    auto* sceneContainer = new QWidget(scroll);
    auto* sceneLayout = new QVBoxLayout(sceneContainer);
    sceneLayout->setContentsMargins(0, 0, 0, 0);
    // A tool bar: on a narrow dock its buttons move into its » menu instead of widening it.
    auto* compareRow = new QToolBar(sceneContainer);
    compareRow->setObjectName(QStringLiteral("sceneToolBar"));
    compareRow->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    compareRow->setIconSize(QSize(16, 16));
    sceneLayout->addWidget(compareRow);
    editor_ = new ParameterEditor(session_, sceneContainer);
    editor_->setObjectName(QStringLiteral("parameterEditor"));
    sceneLayout->addWidget(editor_, 1);
    scroll->setWidget(sceneContainer);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    sceneDock->setWidget(scroll);
    sceneDock->setMinimumWidth(240);
    addDockWidget(Qt::LeftDockWidgetArea, sceneDock);

    auto* forcesDock = new QDockWidget(tr("Forces"), this);
    forcesDock->setObjectName(QStringLiteral("forcesDock"));
    forces_ = new ForcesPanel(forcesDock);
    forces_->setObjectName(QStringLiteral("forcesPanel"));
    // Scrolls when the dock is short (large text, a small screen) instead of squeezing rows.
    auto* forcesScroll = new QScrollArea(forcesDock);
    forcesScroll->setWidget(forces_);
    forcesScroll->setWidgetResizable(true);
    forcesScroll->setFrameShape(QFrame::NoFrame);
    forcesScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    forcesDock->setWidget(forcesScroll);
    addDockWidget(Qt::RightDockWidgetArea, forcesDock);

    auto* timeDock = new QDockWidget(tr("Time"), this);
    timeDock->setObjectName(QStringLiteral("timeDock"));
    timeControls_ = new TimeControls(clock_, timeDock);
    timeControls_->setObjectName(QStringLiteral("timeControls"));
    timeDock->setWidget(timeControls_);
    timeDock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetClosable |
                          QDockWidget::DockWidgetFloatable);
    addDockWidget(Qt::BottomDockWidgetArea, timeDock);

    // Plots beside the 3D view, under the small Forces panel.
    auto* plotsDock = new QDockWidget(tr("Plots"), this);
    plotsDock->setObjectName(QStringLiteral("plotsDock"));
    plots_ = new PlotsPanel(plotsDock);
    plots_->setObjectName(QStringLiteral("plotsPanel"));
    plotsDock->setWidget(plots_);
    addDockWidget(Qt::RightDockWidgetArea, plotsDock);
    splitDockWidget(forcesDock, plotsDock, Qt::Vertical);

    // Fitting to measurements: a tab behind Forces, so that the plots stay in sight.
    auto* fitDock = fitDock_ = new QDockWidget(tr("Fit"), this);
    fitDock->setObjectName(QStringLiteral("fitDock"));
    fit_ = new FitPanel(session_, fitDock);
    fit_->setObjectName(QStringLiteral("fitPanel"));
    auto* fitScroll = new QScrollArea(fitDock);
    fitScroll->setWidgetResizable(true);
    fitScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    fitScroll->setFrameShape(QFrame::NoFrame);
    fitScroll->setWidget(fit_);
    fitDock->setWidget(fitScroll);
    addDockWidget(Qt::RightDockWidgetArea, fitDock);
    tabifyDockWidget(forcesDock, fitDock);
    forcesDock->raise();
    // The measured data over the simulated curves, as markers in the 3D view, and their
    // residuals as a plot of their own; markers take the colour of their quantity's curve.
    connect(fit_, &FitPanel::measurementsChanged, this, [this] {
        plots_->setMeasured(fit_->measuredCurves());
        showMeasuredMarkers();
    });
    connect(fit_, &FitPanel::residualsChanged, this,
            [this] { plots_->setResiduals(fit_->residualCurves()); });
    connect(plots_, &PlotsPanel::specChanged, this, &MainWindow::showMeasuredMarkers);

    for (QAction* action : {compareAction_, clearGhostsAction_, defaultsAction_})
        compareRow->addAction(action);

    createEquationDocks(sceneDock, plotsDock);
}

// The System editor beside the Scene dock and the derivation beside the plots, each a tab
// behind the dock it joins.
void MainWindow::createEquationDocks(QDockWidget* sceneDock, QDockWidget* plotsDock)
{
    // System: the equations of a system written as equations, a tab beside Scene.
    systemDock_ = new QDockWidget(tr("System"), this);
    systemDock_->setObjectName(QStringLiteral("systemDock"));
    auto* systemScroll = new QScrollArea(systemDock_);
    systemScroll->setObjectName(QStringLiteral("systemScroll"));
    systemEditor_ = new SystemEditor(session_, systemScroll);
    systemEditor_->setObjectName(QStringLiteral("systemEditor"));
    systemScroll->setWidget(systemEditor_);
    systemScroll->setWidgetResizable(true);
    systemScroll->setFrameShape(QFrame::NoFrame);
    systemDock_->setWidget(systemScroll);
    addDockWidget(Qt::LeftDockWidgetArea, systemDock_);
    tabifyDockWidget(sceneDock, systemDock_);
    sceneDock->raise();
    connect(systemDock_, &QDockWidget::visibilityChanged, this,
            [this](bool visible) { systemOnTop_ = visible; });

    // Derivation: the equations and the fundamental equation at the time on screen, a tab
    // beside Plots.
    derivationDock_ = new QDockWidget(tr("Derivation"), this);
    derivationDock_->setObjectName(QStringLiteral("derivationDock"));
    derivation_ = new DerivationPanel(derivationDock_);
    derivation_->setObjectName(QStringLiteral("derivationPanel"));
    derivationDock_->setWidget(derivation_);
    addDockWidget(Qt::RightDockWidgetArea, derivationDock_);
    tabifyDockWidget(plotsDock, derivationDock_);
    plotsDock->raise(); // the last dock tabified would be on top
    connect(derivationDock_, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        derivationOnTop_ = visible;
        if (visible)
            showDerivation(clock_->time());
    });
}

// File → New: the built-in scenes, then the shipped systems written as equations.
void MainWindow::createNewMenu()
{
    newAction_ = new QAction(themed("document-new", ":/icons/new.svg"), tr("&New"), this);
    newMenu_ = new QMenu(tr("&New"), this);
    newMenu_->setIcon(newAction_->icon());
    bool first = true;
    for (const SceneDefinition& definition : SceneRegistry::builtIn()) {
        QAction* action = newMenu_->addAction(QString::fromStdString(definition.title));
        action->setObjectName(
            QStringLiteral("new_%1").arg(QString::fromStdString(definition.name)));
        action->setStatusTip(QString::fromStdString(definition.description));
        const std::string name = definition.name;
        connect(action, &QAction::triggered, this, [this, name] { newFromBuiltIn(name); });
        if (first) {
            // Ctrl+N starts the first scene; the others are one click away in the submenu.
            action->setShortcut(QKeySequence::New);
            action->setProperty("helpText", tr("New scene: %1").arg(action->text()));
            first = false;
        }
    }
    // Systems written as equations, in a submenu of their own.
    const std::vector<SceneStore::SystemEntry> systems = store_->builtInSystems();
    if (!systems.empty()) {
        QMenu* systemsMenu = newMenu_->addMenu(tr("System from &Equations"));
        systemsMenu->setObjectName(QStringLiteral("newSystemMenu"));
        for (const SceneStore::SystemEntry& entry : systems) {
            QAction* action = systemsMenu->addAction(entry.title);
            action->setObjectName(
                QStringLiteral("newSystem_%1").arg(QFileInfo(entry.path).baseName()));
            const QString path = entry.path;
            connect(action, &QAction::triggered, this, [this, path] { newFromSystem(path); });
        }
    }
    // Starting points for a system of one's own, edited in the System dock.
    const std::vector<SceneStore::SystemEntry> templates = store_->systemTemplates();
    if (!templates.empty()) {
        QMenu* templateMenu = newMenu_->addMenu(tr("System from &Template"));
        templateMenu->setObjectName(QStringLiteral("newTemplateMenu"));
        for (const SceneStore::SystemEntry& entry : templates) {
            QAction* action = templateMenu->addAction(entry.title);
            action->setObjectName(
                QStringLiteral("newTemplate_%1").arg(QFileInfo(entry.path).baseName()));
            const QString path = entry.path;
            connect(action, &QAction::triggered, this, [this, path] {
                if (newFromSystem(path))
                    showSystemEditor();
            });
        }
    }
    newAction_->setMenu(newMenu_);
}

void MainWindow::createActions()
{
    createNewMenu();

    openAction_ = new QAction(themed("document-open", ":/icons/open.svg"), tr("&Open…"), this);
    openAction_->setShortcut(QKeySequence::Open);
    openAction_->setStatusTip(tr("Open a scene file"));
    connect(openAction_, &QAction::triggered, this, &MainWindow::open);

    recentMenu_ = new QMenu(tr("Open &Recent"), this);
    recentMenu_->setIcon(themed("document-open-recent", ":/icons/open.svg"));

    saveAction_ = new QAction(themed("document-save", ":/icons/save.svg"), tr("&Save"), this);
    saveAction_->setShortcut(QKeySequence::Save);
    saveAction_->setStatusTip(tr("Save the scene"));
    connect(saveAction_, &QAction::triggered, this, &MainWindow::save);

    saveAsAction_ =
        new QAction(themed("document-save-as", ":/icons/save-as.svg"), tr("Save &As…"), this);
    saveAsAction_->setShortcut(QKeySequence::SaveAs);
    connect(saveAsAction_, &QAction::triggered, this, &MainWindow::saveAsDialog);

    exportImageAction_ = new QAction(themed("image-x-generic", ":/icons/export-image.svg"),
                                     tr("&Export Image…"), this);
    exportImageAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    exportImageAction_->setStatusTip(tr("Save the 3D view as an image at a resolution you choose"));
    connect(exportImageAction_, &QAction::triggered, this, &MainWindow::exportImage);

    exportCsvAction_ = new QAction(themed("text-csv", ":/icons/export-csv.svg"),
                                   tr("Export &Trace as CSV…"), this);
    exportCsvAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    exportCsvAction_->setStatusTip(
        tr("Save the trajectory (all or chosen columns, every compare run) as CSV"));
    connect(exportCsvAction_, &QAction::triggered, this, &MainWindow::exportCsvDialog);

    exportPlotAction_ =
        new QAction(QIcon(QStringLiteral(":/icons/export-plot.svg")), tr("Export &Plot…"), this);
    exportPlotAction_->setStatusTip(tr("Save the plot as PNG (any scale), SVG or PDF"));
    connect(exportPlotAction_, &QAction::triggered, this, [this] { plots_->showExportDialog(); });

    exportVideoAction_ = new QAction(themed("video-x-generic", ":/icons/export-video.svg"),
                                     tr("Export &Video…"), this);
    exportVideoAction_->setStatusTip(tr("Record the animation as an Ogg Theora video"));
    connect(exportVideoAction_, &QAction::triggered, this, &MainWindow::exportVideo);

    quitAction_ = new QAction(themed("application-exit", ":/icons/quit.svg"), tr("&Quit"), this);
    quitAction_->setShortcut(QKeySequence::Quit);
    quitAction_->setMenuRole(QAction::QuitRole);
    connect(quitAction_, &QAction::triggered, this, &QWidget::close);

    undoAction_ = session_->undoStack()->createUndoAction(this, tr("&Undo"));
    undoAction_->setIcon(themed("edit-undo", ":/icons/undo.svg"));
    // The menu says what would be undone; the toolbar button keeps a steady width.
    undoAction_->setIconText(tr("Undo"));
    undoAction_->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Z)});
    redoAction_ = session_->undoStack()->createRedoAction(this, tr("&Redo"));
    redoAction_->setIcon(themed("edit-redo", ":/icons/redo.svg"));
    redoAction_->setIconText(tr("Redo"));
    redoAction_->setShortcuts(
        {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence(Qt::CTRL | Qt::Key_Y)});

    defaultsAction_ = new QAction(themed("edit-reset", ":/icons/defaults.svg"),
                                  tr("Restore Scene &Defaults"), this);
    defaultsAction_->setStatusTip(tr("Set every parameter back to the scene's default (undoable)"));
    defaultsAction_->setToolTip(tr("Set every parameter back to the scene's default (undoable)"));
    defaultsAction_->setIconText(tr("Defaults"));
    connect(defaultsAction_, &QAction::triggered, this, &MainWindow::restoreDefaults);

    compareAction_ =
        new QAction(QIcon(QStringLiteral(":/icons/compare.svg")), tr("&Compare Runs"), this);
    compareAction_->setObjectName(QStringLiteral("compareAction"));
    compareAction_->setCheckable(true);
    compareAction_->setIconText(tr("Compare"));
    compareAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_K));
    compareAction_->setToolTip(tr("Keep a faded, labelled trail of each earlier run (Ctrl+K)"));
    connect(compareAction_, &QAction::toggled, this, [this](bool on) {
        if (!on)
            clearGhosts();
        statusBar()->showMessage(
            on ? tr("Compare: every change leaves a ghost trail of the previous run")
               : tr("Compare off"),
            4000);
    });

    clearGhostsAction_ = new QAction(QIcon(QStringLiteral(":/icons/clear-ghosts.svg")),
                                     tr("C&lear Ghost Trails"), this);
    clearGhostsAction_->setToolTip(tr("Remove the trails of earlier runs"));
    clearGhostsAction_->setIconText(tr("Clear Ghosts"));
    connect(clearGhostsAction_, &QAction::triggered, this, &MainWindow::clearGhosts);

    resetCameraAction_ =
        new QAction(themed("zoom-fit-best", ":/icons/camera-reset.svg"), tr("Reset &Camera"), this);
    resetCameraAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    connect(resetCameraAction_, &QAction::triggered, view_, &SceneView::resetCamera);

    fullScreenAction_ =
        new QAction(themed("view-fullscreen", ":/icons/fullscreen.svg"), tr("&Full Screen"), this);
    fullScreenAction_->setCheckable(true);
    fullScreenAction_->setShortcut(QKeySequence::FullScreen);
    connect(fullScreenAction_, &QAction::toggled, this, [this](bool on) {
        if (on)
            showFullScreen();
        else
            showNormal();
    });

    largeTextAction_ = new QAction(tr("&Large Text for Projection"), this);
    largeTextAction_->setObjectName(QStringLiteral("largeTextAction"));
    largeTextAction_->setCheckable(true);
    largeTextAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_L));
    largeTextAction_->setToolTip(
        tr("Larger text in every panel, legible from the back of a lecture room"));
    connect(largeTextAction_, &QAction::toggled, this, [this](bool on) {
        applyLargeText(on);
        // The plots draw their text with VTK, at their own scale.
        plots_->setTextScale(on ? largeTextFactor : 1.0);
    });

    helpAction_ = new QAction(themed("help-contents", ":/icons/help.svg"),
                              tr("The &Fundamental Equation"), this);
    helpAction_->setShortcut(QKeySequence::HelpContents);
    helpAction_->setIconText(tr("Help"));
    helpAction_->setToolTip(tr("The fundamental equation and what each arrow means (F1)"));
    connect(helpAction_, &QAction::triggered, this, &MainWindow::showHelp);
    aboutAction_ = new QAction(QIcon(QStringLiteral(":/icons/constraintlab.svg")),
                               tr("&About ConstraintLab"), this);
    aboutAction_->setMenuRole(QAction::AboutRole);
    connect(aboutAction_, &QAction::triggered, this, &MainWindow::showAbout);
    aboutQtAction_ = new QAction(tr("About &Qt"), this);
    aboutQtAction_->setMenuRole(QAction::AboutQtRole);
    connect(aboutQtAction_, &QAction::triggered, qApp, &QApplication::aboutQt);
}

void MainWindow::createMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addMenu(newMenu_);
    file->addAction(openAction_);
    file->addMenu(recentMenu_);
    file->addSeparator();
    file->addAction(saveAction_);
    file->addAction(saveAsAction_);
    file->addSeparator();
    QMenu* exportMenu = file->addMenu(tr("&Export"));
    exportMenu->setIcon(themed("document-export", ":/icons/export-image.svg"));
    exportMenu->addAction(exportImageAction_);
    exportMenu->addAction(exportVideoAction_);
    exportMenu->addAction(exportCsvAction_);
    exportMenu->addAction(exportPlotAction_);
    file->addSeparator();
    file->addAction(quitAction_);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(undoAction_);
    edit->addAction(redoAction_);
    edit->addSeparator();
    edit->addAction(defaultsAction_);
    duplicateAction_ = edit->addAction(tr("&Duplicate as Editable System"));
    duplicateAction_->setObjectName(QStringLiteral("duplicateAsSystem"));
    duplicateAction_->setStatusTip(
        tr("A copy of this scene as a system written as equations, to edit in the System dock"));
    connect(duplicateAction_, &QAction::triggered, this, &MainWindow::duplicateAsSystem);

    viewMenu_ = menuBar()->addMenu(tr("&View"));
    viewMenu_->addAction(compareAction_);
    viewMenu_->addAction(clearGhostsAction_);
    viewMenu_->addSeparator();
    viewMenu_->addAction(resetCameraAction_);
    viewMenu_->addAction(fullScreenAction_);
    viewMenu_->addAction(largeTextAction_);
    viewMenu_->addSeparator();
    QMenu* panels = viewMenu_->addMenu(tr("&Panels"));
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        panels->addAction(dock->toggleViewAction());

    QMenu* playback = menuBar()->addMenu(tr("&Playback"));
    playback->addAction(timeControls_->playPauseAction());
    playback->addAction(timeControls_->stepForwardAction());
    playback->addAction(timeControls_->loopAction());
    playback->addAction(timeControls_->stepBackwardAction());
    playback->addAction(timeControls_->resetAction());

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(helpAction_);
    help->addSeparator();
    help->addAction(aboutAction_);
    help->addAction(aboutQtAction_);

    QToolBar* toolbar = addToolBar(tr("Main Toolbar"));
    toolbar->setObjectName(QStringLiteral("mainToolBar"));
    toolbar->setIconSize(QSize(28, 28));
    toolbar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toolbar->addAction(newAction_);
    if (auto* newButton = qobject_cast<QToolButton*>(toolbar->widgetForAction(newAction_)))
        newButton->setPopupMode(QToolButton::InstantPopup);
    toolbar->addAction(openAction_);
    toolbar->addAction(saveAction_);
    toolbar->addSeparator();
    toolbar->addAction(undoAction_);
    toolbar->addAction(redoAction_);
    toolbar->addSeparator();
    toolbar->addAction(timeControls_->resetAction());
    toolbar->addAction(timeControls_->playPauseAction());
    toolbar->addAction(timeControls_->stepForwardAction());
    toolbar->addSeparator();
    toolbar->addAction(compareAction_);
    toolbar->addAction(resetCameraAction_);
    toolbar->addSeparator();
    toolbar->addAction(helpAction_);
    panels->addSeparator();
    panels->addAction(toolbar->toggleViewAction());
}

void MainWindow::readSettings()
{
    QSettings s(settingsOrganization, settingsApplication);
    const bool largeText = s.value(QStringLiteral("view/largeText"), false).toBool();
    largeTextAction_->setChecked(largeText);
    applyLargeText(largeText); // also when unchanged: an earlier window may have left it on
    plots_->setTextScale(largeText ? largeTextFactor : 1.0);
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
        // keeps about half of the width.
        QTimer::singleShot(0, this, [this] {
            const int w = width();
            // The System editor, when on top, needs more room than the parameters.
            const int left = systemOnTop_ ? std::clamp(w * 30 / 100, 285, 480)
                                          : std::clamp(w * 28 / 100, 285, 340);
            resizeDocks({findChild<QDockWidget*>(QStringLiteral("sceneDock")),
                         findChild<QDockWidget*>(QStringLiteral("forcesDock"))},
                        {left, std::clamp(w * 28 / 100, 280, 460)}, Qt::Horizontal);
        });
    }
    for (int i = 0; i < 3; ++i) {
        const auto kind = static_cast<ForceKind>(i);
        const bool visible = s.value(QStringLiteral("view/force%1").arg(i), true).toBool();
        forces_->setForceVisible(kind, visible);
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
        plots_->setSpec(plot);
    }
    const double scale = s.value(QStringLiteral("view/arrowScale"), 1.0).toDouble();
    forces_->setArrowScale(scale);
    view_->setArrowScale(forces_->arrowScale());
    const bool legend = s.value(QStringLiteral("view/legend"), true).toBool();
    forces_->setLegendVisible(legend);
    view_->setLegendVisible(legend);
    timeControls_->loopAction()->setChecked(
        s.value(QStringLiteral("playback/loop"), true).toBool());
    const bool magnitudes = s.value(QStringLiteral("view/magnitudes"), false).toBool();
    forces_->setMagnitudeLabelsVisible(magnitudes);
    view_->setMagnitudesVisible(magnitudes);
    const bool field = s.value(QStringLiteral("view/arrowField"), false).toBool();
    forces_->setArrowFieldVisible(field);
    view_->setArrowFieldVisible(field);
}

bool MainWindow::isLargeText() const
{
    return largeTextAction_->isChecked();
}

void MainWindow::setLargeText(bool on)
{
    largeTextAction_->setChecked(on);
}

void MainWindow::writeSettings() const
{
    QSettings s(settingsOrganization, settingsApplication);
    s.setValue(QStringLiteral("view/largeText"), isLargeText());
    s.setValue(QStringLiteral("window/geometry"), saveGeometry());
    s.setValue(QStringLiteral("window/state"), saveState());
    for (int i = 0; i < 3; ++i)
        s.setValue(QStringLiteral("view/force%1").arg(i),
                   forces_->isForceVisible(static_cast<ForceKind>(i)));
    s.setValue(QStringLiteral("view/arrowScale"), forces_->arrowScale());
    s.setValue(QStringLiteral("view/legend"), forces_->isLegendVisible());
    s.setValue(QStringLiteral("view/magnitudes"), forces_->areMagnitudeLabelsVisible());
    s.setValue(QStringLiteral("view/arrowField"), forces_->isArrowFieldVisible());
    s.setValue(QStringLiteral("playback/loop"), timeControls_->loopAction()->isChecked());
    // The plot shown: a ready-made one by id, a custom one by its quantities.
    const PlotSpec plot = plots_->spec();
    s.setValue(QStringLiteral("plots/preset"), QString::fromStdString(plot.id));
    s.setValue(QStringLiteral("plots/x"), QString::fromStdString(plot.x));
    QStringList y;
    for (const std::string& name : plot.y)
        y << QString::fromStdString(name);
    s.setValue(QStringLiteral("plots/y"), y);
    s.setValue(QStringLiteral("plots/logY"), plot.logY);
}

void MainWindow::setFileDialogs(OpenFileProvider open, SaveFileProvider save)
{
    openProvider_ = std::move(open);
    saveProvider_ = std::move(save);
}

bool MainWindow::isCompareEnabled() const
{
    return compareAction_->isChecked();
}

void MainWindow::setCompareEnabled(bool enabled)
{
    compareAction_->setChecked(enabled);
}

void MainWindow::setDocument(const SceneDocument& document, const QString& path)
{
    session_->setDocument(document, path);
}

bool MainWindow::newFromSystem(const QString& path)
{
    if (!maybeSave())
        return false;
    try {
        // A new, unsaved document: Save asks where, as for a built-in scene.
        session_->setDocument(store_->load(path), {});
    } catch (const std::exception& error) {
        showFileError(tr("Could not create the system %1").arg(QFileInfo(path).baseName()),
                      QString::fromStdString(error.what()));
        return false;
    }
    return true;
}

bool MainWindow::duplicateAsSystem()
{
    const SceneDocument current = session_->document();
    SceneDocument copy;
    if (current.system) {
        copy = current;
    } else {
        // A built-in scene is duplicated through its shipped format-2 file of the same name.
        const std::vector<SceneStore::SystemEntry> systems = store_->builtInSystems();
        const auto entry =
            std::find_if(systems.begin(), systems.end(), [&](const SceneStore::SystemEntry& e) {
                return QFileInfo(e.path).baseName().toStdString() == current.scene;
            });
        if (entry == systems.end()) {
            showFileError(tr("Could not duplicate “%1”").arg(session_->displayName()),
                          tr("there is no system file for the scene “%1”")
                              .arg(QString::fromStdString(current.scene)));
            return false;
        }
        try {
            copy = store_->load(entry->path);
        } catch (const std::exception& error) {
            showFileError(tr("Could not duplicate “%1”").arg(session_->displayName()),
                          QString::fromStdString(error.what()));
            return false;
        }
        copy.simulation = current.simulation;
        copy.takeValuesFrom(current);
    }
    if (!maybeSave())
        return false;
    session_->setDocument(copy, {});
    showSystemEditor();
    return true;
}

void MainWindow::showSystemEditor()
{
    systemDock_->show();
    systemDock_->raise();
    // Expressions need room: up to a third of a wide window, never less than the dock has.
    const int wanted = std::min(480, width() / 3);
    if (systemDock_->width() < wanted)
        resizeDocks({systemDock_}, {wanted}, Qt::Horizontal);
}

bool MainWindow::newFromBuiltIn(const std::string& sceneName)
{
    if (!maybeSave())
        return false;
    try {
        session_->setDocument(store_->builtIn(sceneName), {});
    } catch (const std::exception& error) {
        showFileError(tr("Could not create the scene “%1”").arg(QString::fromStdString(sceneName)),
                      QString::fromStdString(error.what()));
        return false;
    }
    return true;
}

void MainWindow::open()
{
    if (!maybeSave())
        return;
    const QString path = openProvider_ ? openProvider_() : QString();
    if (!path.isEmpty())
        openFile(path);
}

bool MainWindow::openFile(const QString& path)
{
    if (!maybeSave())
        return false;
    SceneDocument document;
    try {
        document = store_->load(path);
        session_->setDocument(document, QFileInfo(path).absoluteFilePath());
    } catch (const std::exception& error) {
        showFileError(tr("Could not open %1").arg(QFileInfo(path).fileName()),
                      QString::fromStdString(error.what()));
        return false;
    }
    addRecentFile(QFileInfo(path).absoluteFilePath());
    statusBar()->showMessage(tr("Opened %1").arg(QDir::toNativeSeparators(path)), 4000);
    return true;
}

bool MainWindow::save()
{
    if (session_->filePath().isEmpty())
        return saveAsDialog();
    return saveAs(session_->filePath());
}

bool MainWindow::saveAsDialog()
{
    QString suggested = session_->filePath();
    if (suggested.isEmpty())
        suggested = DialogFolders::suggestedPath(
            QStringLiteral("scene"), QString::fromStdString(session_->document().shortName()) +
                                         QStringLiteral(".clab.json"));
    QString path = saveProvider_ ? saveProvider_(suggested, tr(sceneFilter)) : QString();
    if (path.isEmpty())
        return false;
    DialogFolders::remember(QStringLiteral("scene"), path);
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".clab.json"); // the desktop's file type for scenes
    return saveAs(path);
}

bool MainWindow::saveAs(const QString& path)
{
    try {
        store_->save(session_->document(), path);
    } catch (const std::exception& error) {
        showFileError(tr("Could not save %1").arg(QFileInfo(path).fileName()),
                      QString::fromStdString(error.what()));
        return false;
    }
    const QString absolute = QFileInfo(path).absoluteFilePath();
    session_->markSaved(absolute);
    addRecentFile(absolute);
    if (!bannerShowsSimulation_) {
        banner_->clearMessage();
        bannerShowsFileError_ = false;
    }
    statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(absolute)), 4000);
    if (systemEditor_->hasUnappliedEdits()) {
        // The file holds the last system that built; say what stayed behind in the editor.
        banner_->showMessage(MessageBanner::Kind::Warning,
                             tr("Saved the last valid system. Not saved, because it does not "
                                "build yet: %1")
                                 .arg(systemEditor_->problem()));
        bannerShowsFileError_ = true;
        fileErrorSerial_ = session_->editSerial();
    }
    return true;
}

bool MainWindow::maybeSave()
{
    // Text in the System editor that does not build yet is an edit too: ask before losing it.
    if (!session_->isModified() && !systemEditor_->hasUnappliedEdits())
        return true;
    switch (unsavedPrompt_(session_->displayName())) {
    case UnsavedChoice::Save:
        return save();
    case UnsavedChoice::Discard:
        return true;
    case UnsavedChoice::Cancel:
        return false;
    }
    return false;
}

void MainWindow::exportImage()
{
    ImageExportDialog dialog(this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const QString suggested = DialogFolders::suggestedPath(
        QStringLiteral("image"),
        QString::fromStdString(session_->document().shortName()) + QStringLiteral(".png"));
    QString path = saveProvider_ ? saveProvider_(suggested, tr("PNG images (*.png)")) : QString();
    if (path.isEmpty())
        return;
    DialogFolders::remember(QStringLiteral("image"), path);
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".png");
    exportViewImage(path, dialog.selectedSize());
}

bool MainWindow::exportViewImage(const QString& path, const QSize& size)
{
    const QImage image = view_->renderImage(size);
    QString error;
    if (image.isNull()) {
        error = tr("%1: the 3D view could not be rendered (no OpenGL context)").arg(path);
    } else if (ImageExportDialog::saveImage(image, path, &error)) {
        statusBar()->showMessage(tr("Exported %1 (%2×%3)")
                                     .arg(QDir::toNativeSeparators(path))
                                     .arg(image.width())
                                     .arg(image.height()),
                                 5000);
        return true;
    }
    showFileError(tr("Could not export the image"), error);
    return false;
}

void MainWindow::exportCsvDialog()
{
    const std::vector<LabelledTrace> all = runs();
    if (all.empty())
        return;
    CsvExportDialog dialog(all.back().trace->columnNames(), static_cast<int>(all.size()), this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const QString suggested = DialogFolders::suggestedPath(
        QStringLiteral("csv"),
        QString::fromStdString(session_->document().shortName()) + QStringLiteral(".csv"));
    QString path = saveProvider_ ? saveProvider_(suggested, tr("CSV files (*.csv)")) : QString();
    if (path.isEmpty())
        return;
    DialogFolders::remember(QStringLiteral("csv"), path);
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".csv");
    exportCsv(path, dialog.selectedColumns(),
              dialog.runMode() == CsvExportDialog::RunMode::FilePerRun, dialog.commentHeader());
}

bool MainWindow::exportCsv(const QString& path, const std::vector<std::string>& columns,
                           bool filePerRun, bool commentHeader)
{
    const std::vector<LabelledTrace> all = runs();
    if (all.empty()) {
        showFileError(tr("Could not export the trace"), tr("there is no trajectory yet"));
        return false;
    }
    try {
        // The scene and settings of the run on screen; several runs differ in their run column.
        std::vector<std::string> comment;
        if (commentHeader) {
            CsvWriter writer(columns);
            comment = writer.describe(shownDocument_, *all.back().trace);
            if (all.size() > 1)
                comment.push_back("runs: " + std::to_string(all.size()) +
                                  ", labelled in the run column");
        }
        const QStringList written = CsvExportDialog::write(
            *store_, all, columns,
            filePerRun ? CsvExportDialog::RunMode::FilePerRun : CsvExportDialog::RunMode::OneFile,
            path, comment);
        statusBar()->showMessage(
            written.size() == 1 ? tr("Exported %1").arg(QDir::toNativeSeparators(written.first()))
                                : tr("Exported %1 files next to %2")
                                      .arg(written.size())
                                      .arg(QDir::toNativeSeparators(path)),
            5000);
        return true;
    } catch (const std::exception& error) {
        showFileError(tr("Could not export the trace"), QString::fromUtf8(error.what()));
        return false;
    }
}

void MainWindow::exportVideo()
{
    if (!trace_)
        return;
    // The video shows the trajectory on screen: no playback and no new run while it records.
    clock_->pause();
    const double time = clock_->time();
    VideoExportDialog dialog(view_, trace_->samples.front().t, trace_->samples.back().t, this);
    // The last video's name when there was one, else one named after the scene.
    const QString last = QSettings().value(QStringLiteral("export/videoPath")).toString();
    dialog.setOutputPath(!last.isEmpty() && QFileInfo(QFileInfo(last).absolutePath()).isDir()
                             ? last
                             : DialogFolders::suggestedPath(
                                   QStringLiteral("video"),
                                   QString::fromStdString(session_->document().shortName()) +
                                       QStringLiteral(".ogv")));
    connect(&dialog, &VideoExportDialog::exported, this, [this](const QString& path) {
        QSettings().setValue(QStringLiteral("export/videoPath"), path);
        DialogFolders::remember(QStringLiteral("video"), path);
        statusBar()->showMessage(tr("Exported %1").arg(QDir::toNativeSeparators(path)), 5000);
    });
    const bool wasEnabled = editor_->isEnabled();
    editor_->setEnabled(false);
    dialog.exec();
    editor_->setEnabled(wasEnabled);
    showTime(time);
}

void MainWindow::updateExportActions()
{
    const bool available = trace_ != nullptr;
    exportCsvAction_->setEnabled(available);
    exportVideoAction_->setEnabled(available);
    exportPlotAction_->setEnabled(available);
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

QStringList MainWindow::recentFiles() const
{
    const QSettings s(settingsOrganization, settingsApplication);
    return s.value(QLatin1String(recentFilesKey)).toStringList();
}

void MainWindow::addRecentFile(const QString& path)
{
    QStringList files = recentFiles();
    files.removeAll(path);
    files.prepend(path);
    while (files.size() > maxRecentFiles)
        files.removeLast();
    QSettings s(settingsOrganization, settingsApplication);
    s.setValue(QLatin1String(recentFilesKey), files);
    updateRecentMenu();
}

void MainWindow::updateRecentMenu()
{
    recentMenu_->clear();
    const QStringList files = recentFiles();
    for (int i = 0; i < files.size(); ++i) {
        const QString& path = files[i];
        // &1 … &8 give keyboard access, as KDE's recent-files menus do.
        QAction* action = recentMenu_->addAction(
            QStringLiteral("&%1  %2").arg(i + 1).arg(QFileInfo(path).fileName()));
        action->setToolTip(QDir::toNativeSeparators(path));
        action->setStatusTip(QDir::toNativeSeparators(path));
        connect(action, &QAction::triggered, this, [this, path] { openFile(path); });
    }
    if (!files.isEmpty()) {
        recentMenu_->addSeparator();
        recentMenu_->addAction(tr("&Clear List"), this, [this] {
            QSettings s(settingsOrganization, settingsApplication);
            s.remove(QLatin1String(recentFilesKey));
            updateRecentMenu();
        });
    }
    recentMenu_->setEnabled(!files.isEmpty());
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
    trace_.reset();
    plots_->clear();
    fit_->setTrace(nullptr);
    updateExportActions();
    sceneShown_ = false;
    bannerShowsSimulation_ = false;
    bannerShowsFileError_ = false;
    banner_->clearMessage();
    forces_->clearMagnitudes();
    derivation_->clear();
    statusReadout_->clear();
    timeControls_->setTrajectoryAvailable(false);
    clock_->pause();
    clock_->setRange(0.0, 0.0, 0.01);
    clock_->setTime(0.0);
    timeControls_->updateRange();
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
        pendingDocument_ = session_->document();
        pendingSerial_ = session_->editSerial();
        worker_->request(pendingDocument_);
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
    (void)generation;
    progress_->hide();
    if (!trace || trace->samples.empty()) {
        simulationError(generation, tr("the simulation produced no samples"));
        return;
    }
    const SceneDocument& document = pendingDocument_;
    // Compare mode: the run on screen becomes a ghost when a distinct edit replaces it.
    if (isCompareEnabled() && trace_ && sceneShown_ && shownSerial_ != pendingSerial_ &&
        shownDocument_.sameScene(document)) {
        ghosts_.push_back({QString(), trace_, shownDocument_});
    }
    const bool comparing = !ghosts_.empty();

    const bool sameGeometry = sceneShown_ && shownDocument_.sameScene(document) &&
                              shownDocument_.parameters == document.parameters;
    trace_ = std::move(trace);
    shownDocument_ = document;
    shownSerial_ = pendingSerial_;
    if (!sameGeometry) {
        view_->setScene(document);
        // The view keeps the chosen body through a parameter change, clamped to the new count.
        forces_->setBodies(view_->bodyCount(), view_->chosenBody(), view_->bodyNoun());
        forces_->setDescriptions({view_->forceDescription(ForceKind::Given),
                                  view_->forceDescription(ForceKind::IdealConstraint),
                                  view_->forceDescription(ForceKind::NonIdealConstraint)});
    }
    sceneShown_ = true;
    view_->setTrace(*trace_);
    if (comparing)
        updateGhosts();

    // Playback continues from the same time in the new motion.
    const double t0 = trace_->samples.front().t;
    const double t1 = trace_->samples.back().t;
    const double time = clock_->time();
    clock_->setRange(t0, t1, document.simulation.dt);
    timeControls_->updateRange();
    timeControls_->setTrajectoryAvailable(true);
    showTime(std::clamp(time, t0, t1));

    if (bannerShowsSimulation_ || (bannerShowsFileError_ && shownSerial_ != fileErrorSerial_)) {
        banner_->clearMessage();
        bannerShowsSimulation_ = false;
        bannerShowsFileError_ = false;
    }
    const QString end =
        trace_->reachedEnd && session_->definition()
            ? tr(", where %1,").arg(QString::fromStdString(session_->definition()->end))
            : QString();
    statusBar()->showMessage(tr("Computed %1 samples up to t = %2 s%5 in %3 ms: %4")
                                 .arg(trace_->samples.size())
                                 .arg(t1, 0, 'g', 4)
                                 .arg(seconds * 1000.0, 0, 'f', 1)
                                 .arg(QString::fromStdString(trace_->stats.summary()))
                                 .arg(end),
                             5000);
    if (autoPlay_) {
        autoPlay_ = false;
        clock_->play();
    }
    updateExportActions();
    plots_->setRuns(runs());
    fit_->setTrace(trace_);
    emit trajectoryShown();
    emit runsChanged();
}

void MainWindow::showMeasuredMarkers()
{
    const Measurements& measured = fit_->mappedMeasurements();
    std::vector<QColor> colors;
    for (const Measurements::Column& column : measured.columns)
        colors.push_back(plots_->measuredColor(column.quantity));
    view_->setMeasured(measured, colors);
    fit_->setColumnColors(colors);
}

std::vector<LabelledTrace> MainWindow::runs() const
{
    std::vector<LabelledTrace> result;
    if (!trace_)
        return result;
    for (const Ghost& ghost : ghosts_)
        result.push_back({ghost.label.toStdString(), ghost.trace});
    result.push_back({currentRunLabel().toStdString(), trace_});
    return result;
}

void MainWindow::clearGhosts()
{
    view_->clearGhosts();
    if (ghosts_.empty())
        return;
    ghosts_.clear();
    plots_->setRuns(runs());
    emit runsChanged();
}

QString MainWindow::currentRunLabel() const
{
    if (ghosts_.empty())
        return QString::fromStdString(shownDocument_.shortName());
    const QString label = runLabel(shownDocument_);
    return label.isEmpty() ? tr("current") : label;
}

bool MainWindow::sameRun(const SceneDocument& a, const SceneDocument& b)
{
    // Title and notes do not change the motion.
    SceneDocument plainA = a;
    SceneDocument plainB = b;
    plainA.title = plainB.title = std::string();
    plainA.notes = plainB.notes = std::string();
    return plainA == plainB;
}

QString MainWindow::runLabel(const SceneDocument& run) const
{
    // The values in which this run differs from any other run on screen, in a stable order.
    QStringList values;
    const auto add = [&](const SceneDocument& other) {
        for (const QString& value : changedValues(run, other))
            if (!values.contains(value))
                values << value;
    };
    for (const Ghost& ghost : ghosts_)
        add(ghost.document);
    add(shownDocument_);
    values.sort();
    return values.join(QStringLiteral(", "));
}

void MainWindow::updateGhosts()
{
    // A run is identified by its values: the current run replaces a ghost of the same values
    // (undo back to an earlier μ), and of two ghosts with the same values the newer stays.
    std::vector<Ghost> kept;
    for (auto it = ghosts_.rbegin(); it != ghosts_.rend(); ++it) {
        const auto same = [&](const Ghost& g) {
            return sameRun(g.document, it->document);
        };
        if (!sameRun(it->document, shownDocument_) && std::none_of(kept.begin(), kept.end(), same))
            kept.push_back(*it);
    }
    std::reverse(kept.begin(), kept.end());
    ghosts_ = std::move(kept);
    std::vector<std::pair<std::shared_ptr<const Trace>, QString>> shown;
    for (std::size_t i = 0; i < ghosts_.size(); ++i) {
        Ghost& ghost = ghosts_[i];
        ghost.label = runLabel(ghost.document);
        if (ghost.label.isEmpty())
            ghost.label = tr("run %1").arg(i + 1);
        shown.emplace_back(ghost.trace, ghost.label);
    }
    view_->setGhosts(shown);
}

void MainWindow::simulationError(quint64 generation, const QString& message)
{
    (void)generation;
    progress_->hide();
    statusBar()->clearMessage();
    const QString text = trace_ ? tr("%1. The last good trajectory is still shown.").arg(message)
                                : tr("%1.").arg(message);
    banner_->showMessage(MessageBanner::Kind::Error, text);
    bannerShowsSimulation_ = true;
    emit simulationFailed(message);
}

void MainWindow::showTime(double t)
{
    view_->setTime(t);
    plots_->setTime(t);
    if (!trace_)
        return;
    const TraceSample* sample =
        trace_->samples.empty() ? nullptr : &trace_->samples[trace_->sampleIndexAt(t)];
    if (!sample)
        return;
    // The forces as the view draws them: torques in N·m for the rigid body.
    forces_->setMagnitudes({view_->forceMagnitude(ForceKind::Given),
                            view_->forceMagnitude(ForceKind::IdealConstraint),
                            view_->forceMagnitude(ForceKind::NonIdealConstraint)},
                           view_->forceUnit());
    forces_->setReadouts(view_->readouts());
    showDerivation(t);
    statusReadout_->setText(tr("E = %1 J    W(%2) = %3 J    residual %4")
                                .arg(sample->E, 0, 'f', 4)
                                .arg(forceSymbol(ForceKind::NonIdealConstraint))
                                .arg(sample->W_nonideal, 0, 'f', 4)
                                .arg(sample->residualMax, 0, 'e', 1));
}

bool MainWindow::showPanel(const QString& name)
{
    auto* dock = findChild<QDockWidget*>(name + QStringLiteral("Dock"));
    if (!dock)
        return false;
    if (dock == systemDock_) {
        showSystemEditor();
        return true;
    }
    dock->show();
    dock->raise();
    if (dock == fitDock_) {
        // Its tab group is the short one above Plots: room for the mapping and the result.
        // Once the window is laid out (--panel fit names it before the window is shown).
        QTimer::singleShot(0, this, [this, dock] {
            auto* plotsDock = findChild<QDockWidget*>(QStringLiteral("plotsDock"));
            const int both = dock->height() + plotsDock->height();
            resizeDocks({dock, plotsDock}, {both * 11 / 20, both * 9 / 20}, Qt::Vertical);
        });
    }
    return true;
}

QStringList MainWindow::panelNames() const
{
    QStringList names;
    for (const QDockWidget* dock : findChildren<QDockWidget*>())
        if (dock->objectName().endsWith(QLatin1String("Dock")))
            names << dock->objectName().chopped(4);
    return names;
}

void MainWindow::showDerivation(double t)
{
    // Behind the Plots tab the panel is moved off the window, not hidden: skip the work then.
    if (!trace_ || trace_->samples.empty() || !derivationOnTop_)
        return;
    derivation_->show(shownDocument_, trace_->samples[trace_->sampleIndexAt(t)]);
}

void MainWindow::showFileError(const QString& what, const QString& message)
{
    banner_->showMessage(MessageBanner::Kind::Error, QStringLiteral("%1: %2").arg(what, message));
    bannerShowsSimulation_ = false;
    // The message stays until the user moves on: an edit after it that computes fine.
    bannerShowsFileError_ = true;
    fileErrorSerial_ = session_ ? session_->editSerial() : 0;
}

QStringList MainWindow::changedValues(const SceneDocument& before, const SceneDocument& after)
{
    // A parameter that follows another (mu_s follows mu) and still equals it in both runs says
    // nothing new: "mu = 0.2", not "mu = 0.2, mu_s = 0.2".
    const SceneDefinition* definition = before.definition();
    const auto follows = [&](const std::string& name) {
        return definition && definition->tiedToLeader(before.parameters, name) &&
               definition->tiedToLeader(after.parameters, name);
    };
    QStringList changes;
    for (const auto& [name, value] : before.parameters) {
        if (follows(name))
            continue;
        const auto it = after.parameters.find(name);
        if (it == after.parameters.end() || it->second != value)
            changes << QStringLiteral("%1 = %2").arg(QString::fromStdString(name),
                                                     formatValue(value));
    }
    for (const SimulationSetting& setting : SimulationSetting::all()) {
        const double value = setting.get(before.simulation);
        if (value == setting.get(after.simulation))
            continue;
        if (setting.kind == SimulationSetting::Kind::Number)
            changes
                << QStringLiteral("%1 = %2").arg(QString::fromStdString(setting.symbol)).arg(value);
        else
            changes << QString::fromStdString(setting.words.at(static_cast<std::size_t>(value)));
    }
    return changes;
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
    if (!maybeSave()) {
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
    QTimer::singleShot(0, this, [this, path] { openFile(path); });
}

} // namespace clab
