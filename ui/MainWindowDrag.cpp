#include "MainWindowDrag.h"

#include "session/PlaybackClock.h"
#include "session/SceneSession.h"
#include "session/StartStateEdit.h"
#include "view3d/SceneView.h"
#include "view3d/ViewDrag.h"

#include <QAction>
#include <QStatusBar>

#include <optional>

namespace clab {

MainWindowDrag::MainWindowDrag(QStatusBar* status, SceneSession* session, PlaybackClock* clock,
                               SceneView* view, QAction* resetStart, QObject* parent)
    : QObject(parent), status_(status), session_(session), clock_(clock), view_(view)
{
    const auto showStored = [this, resetStart](bool newDocument) {
        const bool stored = session_->document().simulation.start.has_value();
        resetStart->setEnabled(stored);
        // An edit of a start parameter clears the stored start too: say so.
        if (stored_ && !stored && !newDocument)
            status_->showMessage(tr("The stored start is cleared: runs start from the start "
                                    "parameters again"),
                                 8000);
        stored_ = stored;
    };
    connect(session_, &SceneSession::startChanged, this, [showStored] { showStored(false); });
    connect(session_, &SceneSession::systemChanged, this, [showStored] { showStored(false); });
    connect(session_, &SceneSession::documentReset, this, [showStored] { showStored(true); });
    connect(resetStart, &QAction::triggered, this, [this] {
        session_->editStart(std::nullopt, tr("Reset Start"));
        clock_->setTime(clock_->start());
    });
    connect(clock_, &PlaybackClock::playingChanged, view_, &SceneView::setPlaying);
    view_->setPlaying(clock_->isPlaying());
    connect(view_, &SceneView::bodyGrabbed, this, &MainWindowDrag::grabbed);
    connect(view_, &SceneView::startDragged, this, &MainWindowDrag::released);
    connect(view_, &SceneView::dragFailed, this, [this](const QString& message) {
        status_->showMessage(tr("The body cannot be dragged there: %1").arg(message), 8000);
        if (resume_)
            clock_->play();
        resume_ = false;
    });
}

void MainWindowDrag::grabbed(bool spring)
{
    // Held by the hand, the body moves as the drag says, not as the recorded run does.
    resume_ = spring;
    clock_->pause();
}

void MainWindowDrag::released(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                              const QString& what)
{
    const int before = session_->undoStack()->index();
    const QString problem = StartStateEdit::apply(*session_, t, q, qd, what);
    if (!problem.isEmpty())
        status_->showMessage(tr("The start cannot be set there: %1").arg(problem), 8000);
    if (session_->undoStack()->index() == before)
        view_->hand().letGo(); // nothing changed: no new run will replace the held state
    else if (const auto& stored = session_->document().simulation.start)
        status_->showMessage(tr("%1: the start is stored at t = %2 s (Edit → Reset Start goes back "
                                "to the start parameters; Ctrl+Z restores the previous start)")
                                 .arg(what)
                                 .arg(stored->t0, 0, 'g', 4),
                             8000);
    else
        status_->showMessage(tr("%1: the start values changed (Ctrl+Z restores them)").arg(what),
                             5000);
    // The run goes on from the state and the time reached: the new run starts at t (a drag
    // while paused sets the start at the start's own time, so the clock goes back there).
    clock_->setTime(t);
    if (resume_)
        clock_->play();
    resume_ = false;
}

} // namespace clab
