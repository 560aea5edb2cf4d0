#pragma once

#include <QObject>
#include <QString>
#include <QStringList>

class QDockWidget;
class QMainWindow;

namespace clab {

class DerivationPanel;
class FitPanel;
class ForcesPanel;
class MainWindowActions;
class ParameterEditor;
class PlaybackClock;
class PlotsPanel;
class RunModel;
class SceneSession;
class SceneView;
class SystemEditor;
class TimeControls;

/// \brief The main window's docks and the panels in them: Scene (with the compare tool bar),
/// System, Forces, Fit, Plots, Derivation and Time, where each starts, and which is on top.
///
/// Also what passes between panels: the Fit dock's measurements to the plots and the 3D view,
/// the run on screen to the Derivation dock while its tab is on top.
class MainWindowDocks : public QObject {
    Q_OBJECT
public:
    /// Builds the docks in `window` around its central `view`.
    MainWindowDocks(QMainWindow* window, SceneSession* session, PlaybackClock* clock,
                    const RunModel* runs, SceneView* view, const MainWindowActions& actions);

    /// Shows the panel `name` on top of its tab group; false for an unknown name.
    bool showPanel(const QString& name);
    /// The names showPanel knows, in the order of the View → Panels menu.
    QStringList panelNames() const;
    /// Brings the System dock to the front, wide enough for its equations.
    void showSystemEditor();
    /// The derivation panel at time `t` of the run on screen, when its tab is on top.
    void showDerivation(double t);
    /// The Fit dock's mapped measurements as markers in the 3D view, in their plot colours.
    void showMeasuredMarkers();
    /// A first start on a small screen (a 1024×768 projector): Forces, Fit, Plots and
    /// Derivation in one tab group with Plots on top, each with the column's full height,
    /// instead of Forces and Fit above Plots and Derivation.
    void stackRightPanels();
    /// The System dock's tab is the one shown (docks behind a tab stay "visible").
    bool isSystemOnTop() const { return systemOnTop_; }

    ParameterEditor* parameterEditor() const { return editor_; }
    ForcesPanel* forcesPanel() const { return forces_; }
    TimeControls* timeControls() const { return timeControls_; }
    PlotsPanel* plotsPanel() const { return plots_; }
    FitPanel* fitPanel() const { return fit_; }
    SystemEditor* systemEditor() const { return systemEditor_; }
    DerivationPanel* derivationPanel() const { return derivation_; }

private:
    QDockWidget* createSceneDock(SceneSession* session, const MainWindowActions& actions);
    QDockWidget* createForcesDock();
    void createTimeDock(PlaybackClock* clock);
    QDockWidget* createPlotsDock(QDockWidget* forcesDock);
    void createFitDock(SceneSession* session, QDockWidget* forcesDock);
    void createSystemDock(SceneSession* session, QDockWidget* sceneDock);
    void createDerivationDock(QDockWidget* plotsDock);
    QDockWidget* newDock(const QString& title, const QString& objectName);

    QMainWindow* window_;
    PlaybackClock* clock_;
    const RunModel* runs_;
    SceneView* view_;
    ParameterEditor* editor_ = nullptr;
    ForcesPanel* forces_ = nullptr;
    TimeControls* timeControls_ = nullptr;
    PlotsPanel* plots_ = nullptr;
    FitPanel* fit_ = nullptr;
    SystemEditor* systemEditor_ = nullptr;
    DerivationPanel* derivation_ = nullptr;
    QDockWidget* fitDock_ = nullptr;
    QDockWidget* systemDock_ = nullptr;
    bool derivationOnTop_ = false; ///< its tab is the one shown (docks behind stay "visible")
    bool systemOnTop_ = false;
};

} // namespace clab
