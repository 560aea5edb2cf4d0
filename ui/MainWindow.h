#pragma once

#include "MainWindowDocks.h"
#include "MainWindowExports.h"
#include "MainWindowFiles.h"
#include "session/RunModel.h"

#include <scenes/SceneDocument.h>
#include <trace/LabelledTrace.h>
#include <trace/Trace.h>

#include <QMainWindow>
#include <QStringList>

#include <functional>
#include <memory>
#include <string>
#include <vector>

class QLabel;
class QProgressBar;
class QSettings;

namespace clab {

class MainWindowActions;
class MessageBanner;
class PresentationMode;
class PresentationPanel;
class PlaybackClock;
class SceneSession;
class SceneStore;
class SceneView;
class SimulationWorker;

/// \brief ConstraintLab's main window: the 3D view with the Scene, Forces and Time docks, file
/// handling with undo, live re-simulation on every change, and compare mode.
///
/// The window arranges its parts: the actions and menus (MainWindowActions), the docks and
/// their panels (MainWindowDocks), New/Open/Save (MainWindowFiles), the exports
/// (MainWindowExports) and the runs on screen (RunModel); it carries requests and results
/// between them and keeps the banner and the status bar.
///
/// Every parameter change recomputes the whole trajectory on a worker thread; the newest
/// request wins and playback continues from the same time. Problems (invalid values, numerical
/// failures, unreadable files) appear in an inline banner while the last good trajectory stays.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    using UnsavedChoice = MainWindowFiles::UnsavedChoice;
    /// Asks what to do with unsaved changes of the named document.
    using UnsavedPrompt = MainWindowFiles::UnsavedPrompt;
    /// Returns a file name chosen by the user, or an empty string when cancelled.
    using OpenFileProvider = MainWindowFiles::OpenFileProvider;
    using SaveFileProvider = MainWindowFiles::SaveFileProvider;

    explicit MainWindow(std::shared_ptr<SceneStore> store, QWidget* parent = nullptr);
    ~MainWindow() override;

    /// Replaces the document without asking (start-up, command line). Throws ConstraintLabError
    /// when the scene type is unknown.
    void setDocument(const SceneDocument& document, const QString& path = {});
    /// Shows a problem in the error banner, e.g. a scene named on the command line that could
    /// not be opened ("Could not open x.json: reason").
    void showError(const QString& what, const QString& message) { showFileError(what, message); }
    /// File → New: the built-in scene's document, after the unsaved-changes prompt.
    bool newFromBuiltIn(const std::string& sceneName) { return files_->newFromBuiltIn(sceneName); }
    /// File → New → System from Equations: the shipped system file at `path`, as a new
    /// unsaved document, after the unsaved-changes prompt.
    bool newFromSystem(const QString& path) { return files_->newFromSystem(path); }
    /// Edit → Duplicate as Editable System: the current scene as a new, unsaved system written
    /// as equations (a built-in scene through its shipped format-2 file, with the same
    /// parameter values and settings), after the unsaved-changes prompt; the System dock shows.
    bool duplicateAsSystem() { return files_->duplicateAsSystem(); }
    /// File → Open without the dialog: prompts for unsaved changes, then loads. On a bad file
    /// the banner names the problem and the current scene stays. Returns true when loaded.
    bool openFile(const QString& path) { return files_->openFile(path); }
    /// Loads on a worker thread with progress and Cancel in the status bar (MainWindowFiles).
    void openFileInBackground(const QString& path) { files_->openFileInBackground(path); }
    SceneLoader* sceneLoader() const { return files_->loader(); }
    LoadingIndicator* loadingIndicator() const { return files_->loadingIndicator(); }
    /// File → Save: to the current path, or Save As when the document has none.
    bool save() { return files_->save(); }
    /// Saves under `path` (no dialog); errors go to the banner.
    bool saveAs(const QString& path) { return files_->saveAs(path); }
    /// Asks about unsaved changes when there are any; false means "cancel what you were doing".
    bool maybeSave() { return files_->maybeSave(); }

    // Exports without their dialogs (the menu actions ask first, then call these). Failures go
    // to the banner, naming the file and the reason; true when every file was written.
    /// The 3D view at the current time as an image of `size` pixels (format from the suffix).
    bool exportViewImage(const QString& path, const QSize& size)
    {
        return exports_->exportViewImage(path, size);
    }
    /// runs() as CSV: the chosen columns (empty: all); several runs in one file with a "run"
    /// column, or one file per run.
    bool exportCsv(const QString& path, const std::vector<std::string>& columns,
                   bool filePerRun = false, bool commentHeader = false)
    {
        return exports_->exportCsv(path, columns, filePerRun, commentHeader);
    }

    /// Shows the panel `name` (scene, system, forces, plots, derivation, time) on top of its
    /// tab group; false for an unknown name.
    bool showPanel(const QString& name) { return docks_->showPanel(name); }
    /// The names showPanel knows, in the order of the View → Panels menu.
    QStringList panelNames() const { return docks_->panelNames(); }

    /// Plays the next trajectory as soon as it arrives (used at start-up).
    void setAutoPlay(bool autoPlay) { autoPlay_ = autoPlay; }
    bool isCompareEnabled() const;
    void setCompareEnabled(bool enabled);

    /// Large text for projection: every panel's and dialog's font 1.4 times its normal size
    /// (the 3D view's and the plots' text already grow with their size). Kept in QSettings.
    bool isLargeText() const;
    void setLargeText(bool on);

    /// Presentation mode (View → Present, F5; Escape leaves): see PresentationMode.
    bool isPresenting() const;
    void setPresenting(bool on);
    PresentationMode* presentation() const { return present_; }
    PresentationPanel* presentationPanel() const { return presentPanel_; }
    /// Opens a lesson file in presentation mode at its first step; on a bad file the banner
    /// names the key and the reason and nothing changes. Returns true when opened.
    bool openLesson(const QString& path);
    /// Lesson → Save Lesson without the dialog; errors go to the banner.
    bool saveLesson(const QString& path);
    /// Lesson → Add Current State: asks for the step's caption (PresentationMode's caption
    /// prompt); false when cancelled, or for a scene a lesson cannot name (the banner says so).
    bool addLessonStep();
    /// Lesson → Edit Step Caption: the caption of the step on screen; false when cancelled or
    /// there is no step.
    bool editLessonCaption();
    /// The run model's ghosts into the view and the plots (after RunModel::addGhost).
    void showGhosts();

    /// The trajectory on screen (null before the first result).
    std::shared_ptr<const Trace> trace() const { return runs_->trace(); }
    /// The document the trajectory on screen was computed from.
    const SceneDocument& shownDocument() const { return runs_->shownDocument(); }
    /// The runs on screen, oldest first: the compare-mode ghosts, then the current run (the
    /// last entry). Each is labelled by what sets it apart ("mu = 0.1"); a lone run by the
    /// scene's name. Empty before the first result.
    std::vector<LabelledTrace> runs() const { return runs_->runs(); }
    /// Removes the compare-mode runs (their ghost trails and plot curves).
    void clearGhosts();
    QStringList recentFiles() const;

    // Test hooks: replace the modal dialogs.
    void setUnsavedChangesPrompt(UnsavedPrompt prompt)
    {
        files_->setUnsavedChangesPrompt(std::move(prompt));
    }
    void setFileDialogs(OpenFileProvider open, SaveFileProvider save)
    {
        files_->setFileDialogs(std::move(open), std::move(save));
    }

    SceneSession* session() const { return session_; }
    /// The runs on screen; its runsChanged() says when runs() changed.
    RunModel* runModel() const { return runs_; }
    SceneView* sceneView() const { return view_; }
    ParameterEditor* parameterEditor() const { return docks_->parameterEditor(); }
    ForcesPanel* forcesPanel() const { return docks_->forcesPanel(); }
    TimeControls* timeControls() const { return docks_->timeControls(); }
    PlaybackClock* clock() const { return clock_; }
    SimulationWorker* worker() const { return worker_; }
    MessageBanner* banner() const { return banner_; }
    PlotsPanel* plotsPanel() const { return docks_->plotsPanel(); }
    FitPanel* fitPanel() const { return docks_->fitPanel(); }
    SystemEditor* systemEditor() const { return docks_->systemEditor(); }
    DerivationPanel* derivationPanel() const { return docks_->derivationPanel(); }

signals:
    /// A new trajectory is on screen.
    void trajectoryShown();
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
    void createCentralWidget();
    void createStatusBar();
    void connectActions();
    void connectSession();
    void connectPresentation();
    void saveLessonDialog();
    void readSettings();
    /// The Forces dock's and the plots' choices kept in QSettings, on the panels and the view.
    void readDisplaySettings(const QSettings& s);
    void writeSettings() const;

    void updateExportActions();
    void restoreDefaults();
    void showHelp();
    void showAbout();

    void updateTitle();
    void sceneReset();
    void requestSimulation();
    void simulationStarted(quint64 generation);
    void simulationProgress(quint64 generation, double time, double endTime);
    void simulationFinished(quint64 generation, std::shared_ptr<const Trace> trace, double seconds);
    void simulationError(quint64 generation, const QString& message);
    /// The run model's new run in the view, the Forces and Time docks and the banner.
    void showRun(bool sameParameters, bool ghostsChanged);
    void showRunStatus(double seconds);
    void showTime(double t);
    void showFileError(const QString& what, const QString& message);
    void setLargeTextScale(bool on);

    std::shared_ptr<SceneStore> store_;
    SceneSession* session_;
    PlaybackClock* clock_;
    SimulationWorker* worker_;
    RunModel* runs_;
    SceneView* view_ = nullptr;
    MessageBanner* banner_ = nullptr;
    MainWindowActions* actions_ = nullptr;
    MainWindowDocks* docks_ = nullptr;
    MainWindowFiles* files_ = nullptr;
    MainWindowExports* exports_ = nullptr;
    PresentationPanel* presentPanel_ = nullptr;
    PresentationMode* present_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QLabel* statusReadout_ = nullptr;

    bool autoPlay_ = false;
    bool bannerShowsSimulation_ = false;
    bool bannerShowsFileError_ = false; // a file problem (open, save, export) is on the banner
    quint64 fileErrorSerial_ = 0;       // the edit serial when it was shown
    bool simulationScheduled_ = false;
};

} // namespace clab
