#pragma once

#include <trace/LabelledTrace.h>
#include <scenes/SceneDocument.h>
#include <trace/Trace.h>

#include <QMainWindow>
#include <QStringList>

#include <functional>
#include <memory>
#include <string>
#include <vector>

class QAction;
class QLabel;
class QMenu;
class QProgressBar;
class QToolButton;

namespace clab {

class FitPanel;
class ForcesPanel;
class MessageBanner;
class ParameterEditor;
class PlotsPanel;
class PlaybackClock;
class SceneSession;
class SceneStore;
class SceneView;
class SimulationWorker;
class SystemEditor;
class DerivationPanel;
class TimeControls;

/// \brief ConstraintLab's main window: the 3D view with the Scene, Forces and Time docks, file
/// handling with undo, live re-simulation on every change, and compare mode.
///
/// Every parameter change recomputes the whole trajectory on a worker thread; the newest
/// request wins and playback continues from the same time. Problems (invalid values, numerical
/// failures, unreadable files) appear in an inline banner while the last good trajectory stays.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    enum class UnsavedChoice { Save, Discard, Cancel };
    /// Asks what to do with unsaved changes of the named document.
    using UnsavedPrompt = std::function<UnsavedChoice(const QString& documentName)>;
    /// Returns a file name chosen by the user, or an empty string when cancelled.
    using OpenFileProvider = std::function<QString()>;
    using SaveFileProvider =
        std::function<QString(const QString& suggestedPath, const QString& filter)>;

    explicit MainWindow(std::shared_ptr<SceneStore> store, QWidget* parent = nullptr);
    ~MainWindow() override;

    /// Replaces the document without asking (start-up, command line). Throws ConstraintLabError
    /// when the scene type is unknown.
    void setDocument(const SceneDocument& document, const QString& path = {});
    /// Shows a problem in the error banner, e.g. a scene named on the command line that could
    /// not be opened ("Could not open x.json: reason").
    void showError(const QString& what, const QString& message) { showFileError(what, message); }
    /// File → New: the built-in scene's document, after the unsaved-changes prompt.
    bool newFromBuiltIn(const std::string& sceneName);
    /// File → New → System from Equations: the shipped system file at `path`, as a new
    /// unsaved document, after the unsaved-changes prompt.
    bool newFromSystem(const QString& path);
    /// Edit → Duplicate as Editable System: the current scene as a new, unsaved system written
    /// as equations (a built-in scene through its shipped format-2 file, with the same
    /// parameter values and settings), after the unsaved-changes prompt; the System dock shows.
    bool duplicateAsSystem();
    /// File → Open without the dialog: prompts for unsaved changes, then loads. On a bad file
    /// the banner names the problem and the current scene stays. Returns true when loaded.
    bool openFile(const QString& path);
    /// File → Save: to the current path, or Save As when the document has none.
    bool save();
    /// Saves under `path` (no dialog); errors go to the banner.
    bool saveAs(const QString& path);
    /// Asks about unsaved changes when there are any; false means "cancel what you were doing".
    bool maybeSave();

    // Exports without their dialogs (the menu actions ask first, then call these). Failures go
    // to the banner, naming the file and the reason; true when every file was written.
    /// The 3D view at the current time as an image of `size` pixels (format from the suffix).
    bool exportViewImage(const QString& path, const QSize& size);
    /// runs() as CSV: the chosen columns (empty: all); several runs in one file with a "run"
    /// column, or one file per run.
    bool exportCsv(const QString& path, const std::vector<std::string>& columns,
                   bool filePerRun = false, bool commentHeader = false);

    /// Shows the panel `name` (scene, system, forces, plots, derivation, time) on top of its
    /// tab group; false for an unknown name.
    bool showPanel(const QString& name);
    /// The names showPanel knows, in the order of the View → Panels menu.
    QStringList panelNames() const;

    /// Plays the next trajectory as soon as it arrives (used at start-up).
    void setAutoPlay(bool autoPlay) { autoPlay_ = autoPlay; }
    bool isCompareEnabled() const;
    void setCompareEnabled(bool enabled);

    /// Large text for projection: every panel's and dialog's font 1.4 times its normal size
    /// (the 3D view's and the plots' text already grow with their size). Kept in QSettings.
    bool isLargeText() const;
    void setLargeText(bool on);

    /// The trajectory on screen (null before the first result).
    std::shared_ptr<const Trace> trace() const { return trace_; }
    /// The document the trajectory on screen was computed from.
    const SceneDocument& shownDocument() const { return shownDocument_; }
    /// The runs on screen, oldest first: the compare-mode ghosts, then the current run (the
    /// last entry). Each is labelled by what sets it apart ("mu = 0.1"); a lone run by the
    /// scene's name. Empty before the first result.
    std::vector<LabelledTrace> runs() const;
    /// Removes the compare-mode runs (their ghost trails and plot curves).
    void clearGhosts();
    QStringList recentFiles() const;

    // Test hooks: replace the modal dialogs.
    void setUnsavedChangesPrompt(UnsavedPrompt prompt) { unsavedPrompt_ = std::move(prompt); }
    void setFileDialogs(OpenFileProvider open, SaveFileProvider save);

    SceneSession* session() const { return session_; }
    SceneView* sceneView() const { return view_; }
    ParameterEditor* parameterEditor() const { return editor_; }
    ForcesPanel* forcesPanel() const { return forces_; }
    TimeControls* timeControls() const { return timeControls_; }
    PlaybackClock* clock() const { return clock_; }
    SimulationWorker* worker() const { return worker_; }
    MessageBanner* banner() const { return banner_; }
    PlotsPanel* plotsPanel() const { return plots_; }
    FitPanel* fitPanel() const { return fit_; }
    SystemEditor* systemEditor() const { return systemEditor_; }
    DerivationPanel* derivationPanel() const { return derivation_; }

signals:
    /// A new trajectory is on screen.
    void trajectoryShown();
    /// runs() changed: a new trajectory, or compare-mode runs added or removed.
    void runsChanged();
    /// The newest simulation failed; the banner shows `message`.
    void simulationFailed(const QString& message);

protected:
    void closeEvent(QCloseEvent* event) override;
    /// A focused field or slider keeps the keys it uses (arrows, Page Up/Down, Home/End, Space)
    /// instead of playback; Escape, or a click on the 3D view, hands them back to playback.
    bool eventFilter(QObject* watched, QEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void createActions();
    void createNewMenu();
    void createMenus();
    void createDocks();
    void createEquationDocks(QDockWidget* sceneDock, QDockWidget* plotsDock);
    void readSettings();
    void writeSettings() const;

    void open();
    bool saveAsDialog();
    void exportImage();
    void exportCsvDialog();
    void exportVideo();
    void updateExportActions();
    void restoreDefaults();
    void showHelp();
    void showAbout();

    void addRecentFile(const QString& path);
    void updateRecentMenu();
    void updateTitle();
    void sceneReset();
    void requestSimulation();
    void simulationStarted(quint64 generation);
    void simulationProgress(quint64 generation, double time, double endTime);
    void simulationFinished(quint64 generation, std::shared_ptr<const Trace> trace, double seconds);
    void simulationError(quint64 generation, const QString& message);
    void showTime(double t);
    /// The derivation panel at the time on screen, when it is visible.
    void showDerivation(double t);
    /// Brings the System dock to the front, wide enough for its equations.
    void showSystemEditor();
    void showFileError(const QString& what, const QString& message);
    QString currentRunLabel() const;
    /// The values that set `run` apart from the other runs on screen ("mu = 0.1"); empty when
    /// none do.
    QString runLabel(const SceneDocument& run) const;
    /// Compare mode: drops ghosts whose values repeat, relabels them, shows them.
    void updateGhosts();
    /// The Fit dock's mapped measurements as markers in the 3D view, in their plot colours.
    void showMeasuredMarkers();
    /// Same motion: same scene, parameters and simulation settings (title and notes aside).
    static bool sameRun(const SceneDocument& a, const SceneDocument& b);
    /// "name = value" of `before` for each setting that differs in `after`.
    static QStringList changedValues(const SceneDocument& before, const SceneDocument& after);

    std::shared_ptr<SceneStore> store_;
    SceneSession* session_;
    PlaybackClock* clock_;
    SimulationWorker* worker_;
    SceneView* view_ = nullptr;
    MessageBanner* banner_ = nullptr;
    ParameterEditor* editor_ = nullptr;
    ForcesPanel* forces_ = nullptr;
    PlotsPanel* plots_ = nullptr;
    FitPanel* fit_ = nullptr;
    QDockWidget* fitDock_ = nullptr;
    SystemEditor* systemEditor_ = nullptr;
    QDockWidget* systemDock_ = nullptr;
    DerivationPanel* derivation_ = nullptr;
    QDockWidget* derivationDock_ = nullptr;
    bool derivationOnTop_ = false; ///< its tab is the one shown (docks behind stay "visible")
    bool systemOnTop_ = false;
    TimeControls* timeControls_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QLabel* statusReadout_ = nullptr;

    QAction* newAction_ = nullptr;
    QMenu* newMenu_ = nullptr;
    QAction* openAction_ = nullptr;
    QMenu* recentMenu_ = nullptr;
    QAction* saveAction_ = nullptr;
    QAction* saveAsAction_ = nullptr;
    QAction* exportImageAction_ = nullptr;
    QAction* exportCsvAction_ = nullptr;
    QAction* exportPlotAction_ = nullptr;
    QAction* exportVideoAction_ = nullptr;
    QAction* quitAction_ = nullptr;
    QAction* undoAction_ = nullptr;
    QAction* duplicateAction_ = nullptr;
    QAction* redoAction_ = nullptr;
    QAction* defaultsAction_ = nullptr;
    QAction* compareAction_ = nullptr;
    QAction* clearGhostsAction_ = nullptr;
    QAction* resetCameraAction_ = nullptr;
    QAction* fullScreenAction_ = nullptr;
    QAction* largeTextAction_ = nullptr;
    QAction* helpAction_ = nullptr;
    QAction* aboutAction_ = nullptr;
    QAction* aboutQtAction_ = nullptr;
    QMenu* viewMenu_ = nullptr;

    UnsavedPrompt unsavedPrompt_;
    OpenFileProvider openProvider_;
    SaveFileProvider saveProvider_;

    // The newest request and what is on screen; results of older requests never show.
    SceneDocument pendingDocument_;
    quint64 pendingSerial_ = 0;
    std::shared_ptr<const Trace> trace_;
    SceneDocument shownDocument_;
    quint64 shownSerial_ = 0;
    // Compare mode: earlier runs with the documents they were computed from.
    struct Ghost {
        QString label;
        std::shared_ptr<const Trace> trace;
        SceneDocument document;
    };
    std::vector<Ghost> ghosts_;
    bool sceneShown_ = false;
    bool autoPlay_ = false;
    bool bannerShowsSimulation_ = false;
    bool bannerShowsFileError_ = false; // a file problem (open, save, export) is on the banner
    quint64 fileErrorSerial_ = 0;       // the edit serial when it was shown
    bool simulationScheduled_ = false;
};

} // namespace clab
