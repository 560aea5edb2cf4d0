#pragma once

#include "view3d/GrabLayer.h"

#include <scenes/SceneDocument.h>

#include <Eigen/Dense>
#include <QObject>
#include <QString>
#include <QTimer>

#include <memory>

namespace clab {

class BodyGrab;
class DragSession;
class SceneViewContent;
class VtkOpenGLWindow;

/// \brief A hand on the bodies of the 3D view (docs/GUI.md "Grab, drag and throw"): the
/// pointer's side (BodyGrab), what is drawn of it (GrabLayer) and the physics of one grab
/// (DragSession), for SceneView.
///
/// Paused, a drag shows the configuration where the constraints let the body come nearest to
/// the hand; playing, a spring pulls the body and the motion goes on live, 30 frames a second.
/// The release hands the state over as the new start (startChosen); the view keeps showing it
/// until the next run arrives (letGo).
class ViewDrag : public QObject {
    Q_OBJECT
public:
    ViewDrag(VtkOpenGLWindow* window, SceneViewContent& content, QObject* parent = nullptr);
    ~ViewDrag() override;

    /// The scene shown (its start may or may not be set by a drag: StartStateEdit::canSetStart).
    void setScene(const SceneDocument& document);
    /// Whether a grab drives a spring while the run goes on (else it sets the start).
    void setPlaying(bool playing) { playing_ = playing; }
    /// Drops the held state (a new run arrived, or the start could not be set).
    void letGo();

    BodyGrab& grab() const { return *grab_; }
    bool isHolding() const { return session_ != nullptr; }
    bool isHighlighted() const { return layer_.isHighlighted(); }
    bool isSpringDrawn() const { return layer_.isSpringDrawn(); }

signals:
    /// A body was taken (the window pauses the clock for it).
    void grabStarted(bool spring);
    /// Released: (q, q̇) is the start to set, `what` the undo step's name.
    void startChosen(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                     const QString& what);
    /// The body could not be taken or moved: why.
    void failed(const QString& message);
    /// Something to draw.
    void changed();

private:
    void onHover(int point);
    void onGrabbed(int point, const Eigen::Vector3d& target);
    void onMoved(const Eigen::Vector3d& target);
    void onReleased(const Eigen::Vector3d& target, const Eigen::Vector3d& velocity, bool keep);
    void onTick();
    void show();
    void fail(const QString& message);

    SceneViewContent& content_;
    BodyGrab* grab_;
    GrabLayer layer_;
    SceneDocument document_;
    std::unique_ptr<DragSession> session_;
    int point_ = -1;
    bool playing_ = false;
    bool holdingResult_ = false;
    QTimer live_;
};

} // namespace clab
