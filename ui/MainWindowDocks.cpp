#include "MainWindowDocks.h"

#include "MainWindowActions.h"
#include "panels/DerivationPanel.h"
#include "panels/FitPanel.h"
#include "panels/ForcesPanel.h"
#include "panels/ParameterEditor.h"
#include "panels/PlotsPanel.h"
#include "panels/SystemEditor.h"
#include "panels/TimeControls.h"
#include "session/PlaybackClock.h"
#include "session/RunModel.h"
#include "view3d/SceneView.h"
#include "widgets/AdaptiveToolBar.h"
#include "widgets/PanelDock.h"
#include "widgets/VerticalScrollArea.h"

#include <QAction>
#include <QDockWidget>
#include <QLabel>
#include <QMainWindow>
#include <QScrollArea>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>

#include <algorithm>

namespace clab {

MainWindowDocks::MainWindowDocks(QMainWindow* window, SceneSession* session, PlaybackClock* clock,
                                 const RunModel* runs, SceneView* view,
                                 const MainWindowActions& actions)
    : QObject(window), window_(window), clock_(clock), runs_(runs), view_(view)
{
    QDockWidget* sceneDock = createSceneDock(session, actions);
    QDockWidget* forcesDock = createForcesDock();
    createTimeDock(clock);
    QDockWidget* plotsDock = createPlotsDock(forcesDock);
    createFitDock(session, forcesDock);
    // The System editor beside the Scene dock and the derivation beside the plots, each a tab
    // behind the dock it joins.
    createSystemDock(session, sceneDock);
    createDerivationDock(plotsDock);
}

QDockWidget* MainWindowDocks::newDock(const QString& title, const QString& objectName)
{
    auto* dock = new PanelDock(title, window_);
    dock->setObjectName(objectName);
    return dock;
}

// Scene: the parameters, with the compare controls on top; it scrolls up and down, never
// sideways (a dock as wide as its content needs; the content wraps and stacks to stay narrow).
QDockWidget* MainWindowDocks::createSceneDock(SceneSession* session,
                                              const MainWindowActions& actions)
{
    QDockWidget* sceneDock = newDock(tr("Scene"), QStringLiteral("sceneDock"));
    auto* scroll = new VerticalScrollArea(sceneDock);
    scroll->setObjectName(QStringLiteral("sceneScroll"));
    auto* sceneContainer = new QWidget(scroll);
    auto* sceneLayout = new QVBoxLayout(sceneContainer);
    sceneLayout->setContentsMargins(0, 0, 0, 0);
    // A tool bar: on a narrow dock its buttons drop their text instead of widening it.
    auto* compareRow = new AdaptiveToolBar(tr("Compare"), sceneContainer);
    compareRow->setObjectName(QStringLiteral("sceneToolBar"));
    compareRow->setIconSize(QSize(16, 16));
    sceneLayout->addWidget(compareRow);
    editor_ = new ParameterEditor(session, sceneContainer);
    editor_->setObjectName(QStringLiteral("parameterEditor"));
    sceneLayout->addWidget(editor_, 1);
    scroll->setContent(sceneContainer);
    sceneDock->setWidget(scroll);
    window_->addDockWidget(Qt::LeftDockWidgetArea, sceneDock);
    for (QAction* action : {actions.compare, actions.clearGhosts, actions.defaults})
        compareRow->addAction(action);
    return sceneDock;
}

QDockWidget* MainWindowDocks::createForcesDock()
{
    QDockWidget* forcesDock = newDock(tr("Forces"), QStringLiteral("forcesDock"));
    forces_ = new ForcesPanel(forcesDock);
    forces_->setObjectName(QStringLiteral("forcesPanel"));
    // Scrolls when the dock is short (large text, a small screen) instead of squeezing rows.
    auto* forcesScroll = new VerticalScrollArea(forcesDock);
    forcesScroll->setContent(forces_);
    forcesDock->setWidget(forcesScroll);
    window_->addDockWidget(Qt::RightDockWidgetArea, forcesDock);
    return forcesDock;
}

void MainWindowDocks::createTimeDock(PlaybackClock* clock)
{
    QDockWidget* timeDock = newDock(tr("Time"), QStringLiteral("timeDock"));
    timeControls_ = new TimeControls(clock, timeDock);
    timeControls_->setObjectName(QStringLiteral("timeControls"));
    timeDock->setWidget(timeControls_);
    timeDock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetClosable |
                          QDockWidget::DockWidgetFloatable);
    window_->addDockWidget(Qt::BottomDockWidgetArea, timeDock);
}

// Plots beside the 3D view, under the small Forces panel.
QDockWidget* MainWindowDocks::createPlotsDock(QDockWidget* forcesDock)
{
    QDockWidget* plotsDock = newDock(tr("Plots"), QStringLiteral("plotsDock"));
    plots_ = new PlotsPanel(plotsDock);
    plots_->setObjectName(QStringLiteral("plotsPanel"));
    plotsDock->setWidget(plots_);
    window_->addDockWidget(Qt::RightDockWidgetArea, plotsDock);
    window_->splitDockWidget(forcesDock, plotsDock, Qt::Vertical);
    return plotsDock;
}

// Fitting to measurements: a tab behind Forces, so that the plots stay in sight.
void MainWindowDocks::createFitDock(SceneSession* session, QDockWidget* forcesDock)
{
    fitDock_ = newDock(tr("Fit"), QStringLiteral("fitDock"));
    fit_ = new FitPanel(session, fitDock_);
    fit_->setObjectName(QStringLiteral("fitPanel"));
    auto* fitScroll = new VerticalScrollArea(fitDock_);
    fitScroll->setContent(fit_);
    fitDock_->setWidget(fitScroll);
    window_->addDockWidget(Qt::RightDockWidgetArea, fitDock_);
    window_->tabifyDockWidget(forcesDock, fitDock_);
    forcesDock->raise();
    // The measured data over the simulated curves, as markers in the 3D view, and their
    // residuals as a plot of their own; markers take the colour of their quantity's curve.
    connect(fit_, &FitPanel::measurementsChanged, this, [this] {
        plots_->setMeasured(fit_->measuredCurves());
        showMeasuredMarkers();
    });
    connect(fit_, &FitPanel::residualsChanged, this,
            [this] { plots_->setResiduals(fit_->residualCurves()); });
    connect(plots_, &PlotsPanel::specChanged, this, &MainWindowDocks::showMeasuredMarkers);
}

// System: the equations of a system written as equations, a tab beside Scene.
void MainWindowDocks::createSystemDock(SceneSession* session, QDockWidget* sceneDock)
{
    systemDock_ = newDock(tr("System"), QStringLiteral("systemDock"));
    auto* systemScroll = new VerticalScrollArea(systemDock_);
    systemScroll->setObjectName(QStringLiteral("systemScroll"));
    systemEditor_ = new SystemEditor(session, systemScroll);
    systemEditor_->setObjectName(QStringLiteral("systemEditor"));
    systemScroll->setContent(systemEditor_);
    systemDock_->setWidget(systemScroll);
    window_->addDockWidget(Qt::LeftDockWidgetArea, systemDock_);
    window_->tabifyDockWidget(sceneDock, systemDock_);
    sceneDock->raise();
    connect(systemDock_, &QDockWidget::visibilityChanged, this,
            [this](bool visible) { systemOnTop_ = visible; });
}

// Derivation: the equations and the fundamental equation at the time on screen, a tab beside
// Plots.
void MainWindowDocks::createDerivationDock(QDockWidget* plotsDock)
{
    QDockWidget* derivationDock = newDock(tr("Derivation"), QStringLiteral("derivationDock"));
    derivation_ = new DerivationPanel(derivationDock);
    derivation_->setObjectName(QStringLiteral("derivationPanel"));
    derivationDock->setWidget(derivation_);
    window_->addDockWidget(Qt::RightDockWidgetArea, derivationDock);
    window_->tabifyDockWidget(plotsDock, derivationDock);
    plotsDock->raise(); // the last dock tabified would be on top
    // While the System editor's fields do not build, the derivation (and the status bar) say
    // that the last valid system is shown, and where the fields differ from it.
    auto* shown = new QLabel(window_->statusBar());
    shown->setObjectName(QStringLiteral("systemShownStatus"));
    shown->setStyleSheet(QStringLiteral("QLabel { color: #7a1c1c; }"));
    shown->hide();
    window_->statusBar()->addPermanentWidget(shown);
    connect(systemEditor_, &SystemEditor::shownChanged, this, [this, shown] {
        derivation_->setNotice(systemEditor_->shownNotice());
        shown->setText(systemEditor_->shownStatus());
        shown->setToolTip(systemEditor_->shownNotice());
        shown->setVisible(!systemEditor_->shownStatus().isEmpty());
    });
    connect(derivationDock, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        derivationOnTop_ = visible;
        if (visible)
            showDerivation(clock_->time());
    });
}

bool MainWindowDocks::showPanel(const QString& name)
{
    auto* dock = window_->findChild<QDockWidget*>(name + QStringLiteral("Dock"));
    if (!dock)
        return false;
    if (dock == systemDock_) {
        showSystemEditor();
        return true;
    }
    dock->show();
    dock->raise();
    auto* plotsDock = window_->findChild<QDockWidget*>(QStringLiteral("plotsDock"));
    if (dock == fitDock_ && !window_->tabifiedDockWidgets(dock).contains(plotsDock)) {
        // Its tab group is the short one above Plots: room for the mapping and the result.
        // Once the window is laid out (--panel fit names it before the window is shown).
        QTimer::singleShot(0, this, [this, dock, plotsDock] {
            const int both = dock->height() + plotsDock->height();
            window_->resizeDocks({dock, plotsDock}, {both * 11 / 20, both * 9 / 20}, Qt::Vertical);
        });
    }
    return true;
}

void MainWindowDocks::stackRightPanels()
{
    const auto dock = [this](const char* name) {
        return window_->findChild<QDockWidget*>(QLatin1String(name));
    };
    window_->tabifyDockWidget(dock("forcesDock"), dock("plotsDock"));
    window_->tabifyDockWidget(dock("plotsDock"), dock("derivationDock"));
    dock("plotsDock")->raise();
}

QStringList MainWindowDocks::panelNames() const
{
    QStringList names;
    for (const QDockWidget* dock : window_->findChildren<QDockWidget*>())
        if (dock->objectName().endsWith(QLatin1String("Dock")))
            names << dock->objectName().chopped(4);
    return names;
}

void MainWindowDocks::showSystemEditor()
{
    systemDock_->show();
    systemDock_->raise();
    // Expressions need room: up to a third of a wide window, never less than the dock has.
    const int wanted = std::min(480, window_->width() / 3);
    if (systemDock_->width() < wanted)
        window_->resizeDocks({systemDock_}, {wanted}, Qt::Horizontal);
}

void MainWindowDocks::showDerivation(double t)
{
    // Behind the Plots tab the panel is moved off the window, not hidden: skip the work then.
    const auto& trace = runs_->trace();
    if (!trace || trace->samples.empty() || !derivationOnTop_)
        return;
    derivation_->show(runs_->shownDocument(), trace->samples[trace->sampleIndexAt(t)]);
}

void MainWindowDocks::showMeasuredMarkers()
{
    const Measurements& measured = fit_->mappedMeasurements();
    std::vector<QColor> colors;
    for (const Measurements::Column& column : measured.columns)
        colors.push_back(plots_->measuredColor(column.quantity));
    view_->setMeasured(measured, colors);
    fit_->setColumnColors(colors);
}

} // namespace clab
