#pragma once

#include <SceneDocument.h>
#include <Trace.h>

#include <QMainWindow>
#include <QStringList>

#include <functional>
#include <memory>
#include <string>

class QAction;
class QLabel;
class QMenu;
class QProgressBar;
class QToolButton;

namespace clab {

class ForcesPanel;
class MessageBanner;
class ParameterEditor;
class PlaybackClock;
class SceneSession;
class SceneStore;
class SceneView;
class SimulationWorker;
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
    /// File → New: the built-in scene's document, after the unsaved-changes prompt.
    bool newFromBuiltIn(const std::string& sceneName);
    /// File → Open without the dialog: prompts for unsaved changes, then loads. On a bad file
    /// the banner names the problem and the current scene stays. Returns true when loaded.
    bool openFile(const QString& path);
    /// File → Save: to the current path, or Save As when the document has none.
    bool save();
    /// Saves under `path` (no dialog); errors go to the banner.
    bool saveAs(const QString& path);
    /// Asks about unsaved changes when there are any; false means "cancel what you were doing".
    bool maybeSave();

    /// Plays the next trajectory as soon as it arrives (used at start-up).
    void setAutoPlay(bool autoPlay) { autoPlay_ = autoPlay; }
    bool isCompareEnabled() const;
    void setCompareEnabled(bool enabled);

    /// The trajectory on screen (null before the first result).
    std::shared_ptr<const Trace> trace() const { return trace_; }
    /// The document the trajectory on screen was computed from.
    const SceneDocument& shownDocument() const { return shownDocument_; }
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

signals:
    /// A new trajectory is on screen.
    void trajectoryShown();
    /// The newest simulation failed; the banner shows `message`.
    void simulationFailed(const QString& message);

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void createActions();
    void createMenus();
    void createDocks();
    void readSettings();
    void writeSettings() const;

    void open();
    bool saveAsDialog();
    void exportImage();
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
    void showFileError(const QString& what, const QString& message);
    QString ghostLabel(const SceneDocument& before, const SceneDocument& after) const;

    std::shared_ptr<SceneStore> store_;
    SceneSession* session_;
    PlaybackClock* clock_;
    SimulationWorker* worker_;
    SceneView* view_ = nullptr;
    MessageBanner* banner_ = nullptr;
    ParameterEditor* editor_ = nullptr;
    ForcesPanel* forces_ = nullptr;
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
    QAction* quitAction_ = nullptr;
    QAction* undoAction_ = nullptr;
    QAction* redoAction_ = nullptr;
    QAction* defaultsAction_ = nullptr;
    QAction* compareAction_ = nullptr;
    QAction* clearGhostsAction_ = nullptr;
    QAction* resetCameraAction_ = nullptr;
    QAction* fullScreenAction_ = nullptr;
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
    bool sceneShown_ = false;
    bool autoPlay_ = false;
    bool bannerShowsSimulation_ = false;
    bool simulationScheduled_ = false;
};

} // namespace clab
