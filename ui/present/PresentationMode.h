#pragma once

#include <scenes/Lesson.h>
#include <scenes/SceneDocument.h>

#include <QByteArray>
#include <QObject>
#include <QRect>
#include <QString>
#include <QStringList>

#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

class QAction;
class QTimer;
class QWidget;

namespace clab {

class MainWindow;
class PresentationPanel;
class SceneView;
class Trace;

/// \brief Presentation mode: the main window full screen with the 3D view and a
/// PresentationPanel beside it, driven by keyboard and presenter clicker, stepping through a
/// lesson.
///
/// Entering keeps what it changes (geometry, window state, docks and tool bars, menu and status
/// bar, the view's text scale) and leaving puts it all back; Large Text is never touched. Keys
/// while presenting: Space play/pause and Home restart (the playback actions), Page Down / Page
/// Up the next / previous lesson step (or one sample of the run without a lesson), B blanks the
/// screen, P shows or hides the one plot, Escape leaves.
class PresentationMode : public QObject {
    Q_OBJECT
public:
    /// Asks for a lesson step's caption (a dialog titled `title`, the field holding `caption`);
    /// nullopt when cancelled.
    using CaptionPrompt =
        std::function<std::optional<QString>(const QString& title, const QString& caption)>;

    PresentationMode(MainWindow* window, PresentationPanel* panel, SceneView* view);
    /// Waits for compared runs still being computed.
    ~PresentationMode() override;

    /// The clicker's keys, which a focused slider leaves to presentation mode.
    static bool isClickerKey(int key);

    bool isActive() const { return active_; }
    void enter();
    void leave();
    bool isBlank() const;
    void setBlank(bool blank);

    /// Starts `lesson` at its first step (read from `path`, for the title bar and saving).
    void setLesson(const Lesson& lesson, const QString& path);
    const Lesson& lesson() const { return lesson_; }
    QString lessonPath() const { return lessonPath_; }
    /// The step on screen; -1 without a lesson.
    int stepIndex() const { return step_; }
    /// Puts step `index` on screen: its scene and values, ghosts, camera, plot and caption.
    void goToStep(int index);
    /// Page Down / Page Up.
    void next();
    void previous();

    /// Lesson → Add Current State: the window's scene, values, ghosts, camera, plot and a
    /// caption the teacher types (the prompt offers the caption shown, else the scene's title)
    /// as a new last step. False when the prompt was cancelled; throws std::runtime_error when
    /// the scene has no file a lesson could name (an unsaved system) or the caption is too long.
    bool addCurrentState();
    /// Lesson → Edit Step Caption: the caption of the step on screen, through the prompt. False
    /// when there is no step or the prompt was cancelled; throws for a caption too long.
    bool editCaption();
    /// The caption of step `index` (shown at once when it is on screen).
    void setStepCaption(int index, const QString& caption);
    /// Replaces the caption dialog (tests).
    void setCaptionPrompt(CaptionPrompt prompt) { captionPrompt_ = std::move(prompt); }

    /// The one plot beside the view (P while presenting; a lesson step naming a plot shows it).
    void setPlotVisible(bool visible);
    bool isPlotVisible() const;
    /// Compared runs of the step on screen still being computed (off the GUI thread).
    bool isComputingComparedRuns() const { return !pending_.empty(); }

    /// The window shows time t: the panel's clock, forces and contact state follow.
    void showTime(double t);
    /// The document changed (a new scene, an edit, undo): the sliders follow.
    void documentChanged(bool newScene);
    /// A new run is on screen: a step's ghosts, camera and plot go with its first run.
    void runShown();

    QAction* leaveAction() const { return leave_; }
    QAction* nextAction() const { return next_; }
    QAction* previousAction() const { return previous_; }
    QAction* blankAction() const { return blankToggle_; }
    QAction* plotAction() const { return plotToggle_; }

signals:
    void activeChanged(bool active);
    void stepChanged(int index);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    struct Saved {
        QByteArray geometry, state;
        Qt::WindowStates windowState;
        bool menuBar = true, statusBar = true;
        double textScale = 1.0;
        bool legend = true;
        QRect rect; // restoreGeometry alone misplaces it without a window manager
    };
    /// The compared runs of one step, computed on a thread of their own.
    struct ComparedRuns {
        int generation = 0;
        std::vector<std::pair<SceneDocument, std::shared_ptr<const Trace>>> runs;
        QStringList errors;
    };
    QAction* addKey(const QString& text, int key);
    void startComparedRuns(const LessonStep& step);
    /// Adds the finished compared runs of the step on screen as ghosts.
    void collectComparedRuns();
    /// The plot follows the Plots dock's (its data and cursor).
    void refreshPlot();
    /// `caption` trimmed; throws when it is longer than a lesson file allows.
    static std::string checkedCaption(const QString& caption);
    void updateTextScale();
    void showCaption();
    /// The scene a lesson step may name for the document on screen.
    std::string currentSceneReference() const;

    MainWindow* window_;
    PresentationPanel* panel_;
    SceneView* view_;
    QWidget* blank_ = nullptr;
    QAction* leave_;
    QAction* next_;
    QAction* previous_;
    QAction* blankToggle_;
    QAction* plotToggle_;
    Saved saved_;
    bool active_ = false;
    Lesson lesson_;
    QString lessonPath_;
    int step_ = -1;
    bool stepPending_ = false; // the step's first run has not arrived yet
    int generation_ = 0;       // counts goToStep calls: a late compared run is dropped
    std::vector<std::future<ComparedRuns>> pending_;
    QTimer* pendingTimer_;
    CaptionPrompt captionPrompt_;
};

} // namespace clab
