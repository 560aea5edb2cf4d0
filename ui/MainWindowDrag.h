#pragma once

#include <Eigen/Core>
#include <QObject>
#include <QString>

class QAction;
class QStatusBar;

namespace clab {

class PlaybackClock;
class SceneSession;
class SceneView;

/// \brief The main window's side of a drag in the 3D view: the clock pauses while a body is
/// held, the release's state becomes the start (StartStateEdit, one undo step), the clock goes
/// back to the start and, when it was running, runs on from there. The status bar says what
/// went wrong.
class MainWindowDrag : public QObject {
    Q_OBJECT
public:
    /// `resetStart` (Edit → Reset Start) clears the stored start; enabled while there is one.
    MainWindowDrag(QStatusBar* status, SceneSession* session, PlaybackClock* clock, SceneView* view,
                   QAction* resetStart, QObject* parent = nullptr);

private:
    void grabbed(bool spring);
    void released(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                  const QString& what);

    QStatusBar* status_;
    SceneSession* session_;
    PlaybackClock* clock_;
    SceneView* view_;
    bool resume_ = false;
    bool stored_ = false; ///< whether the document had a stored start when last looked
};

} // namespace clab
