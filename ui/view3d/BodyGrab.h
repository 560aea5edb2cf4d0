#pragma once

#include <Eigen/Dense>
#include <QObject>
#include <QPointF>

#include <deque>

class QMouseEvent;
class QWindow;

namespace clab {

class SceneViewContent;

/// \brief The hand in the 3D view: which body the pointer is over (hover: an open hand), a
/// press on it (a closed hand) and the drag of it across the plane through the body that faces
/// the camera; presses elsewhere go on to the camera.
///
/// Watches the view's window (an event filter), so a touch screen's single finger works through
/// the mouse events Qt makes of it. Picks by projecting every grab point of the scene's
/// geometry (SceneGeometry::grabPoint) with the renderer's transform: the nearest within a
/// body's radius on screen (and at least kPickPixels) is taken. The flick is the hand's velocity
/// over the last 0.1 s before the release, from the events' timestamps; a hand held still for
/// that long throws nothing.
class BodyGrab : public QObject {
    Q_OBJECT
public:
    BodyGrab(QWindow* window, SceneViewContent& content, QObject* parent = nullptr);

    /// Off for scenes that cannot be dragged (their start is not a parameter): nothing is
    /// highlighted, every press turns the camera.
    void setEnabled(bool enabled);
    bool isEnabled() const { return enabled_; }
    /// The grab point under a position in the window (logical pixels), −1 for none.
    int pointAt(const QPointF& position) const;
    /// The point under the pointer (−1: none) and the one held (−1: none).
    int hoveredPoint() const { return hovered_; }
    int heldPoint() const { return held_; }
    /// Lets go without a release (the scene changed under the hand).
    void cancel();

    static constexpr double kPickPixels = 14.0;
    static constexpr qint64 kFlickWindowMs = 100;

signals:
    void hoverChanged(int point);
    /// Pressed on `point`; `target` is where the hand is (on the body).
    void grabbed(int point, const Eigen::Vector3d& target);
    void moved(const Eigen::Vector3d& target);
    /// Let go at `target` with the hand's velocity (zero when held still); `keepVelocity`: Shift
    /// was held.
    void released(const Eigen::Vector3d& target, const Eigen::Vector3d& velocity,
                  bool keepVelocity);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    bool press(QMouseEvent* event);
    bool move(QMouseEvent* event);
    bool release(QMouseEvent* event);
    void setHovered(int point);
    /// A window position (logical pixels) as VTK's display coordinates.
    Eigen::Vector2d toDisplay(const QPointF& position) const;
    Eigen::Vector2d project(const Eigen::Vector3d& point) const;
    /// Where the pointer's ray meets the plane through `through` facing the camera.
    Eigen::Vector3d onDragPlane(const QPointF& position) const;
    Eigen::Vector3d flickVelocity(qint64 now) const;

    struct Mark {
        qint64 ms;
        Eigen::Vector3d at;
        QPointF pixel;
    };

    QWindow* window_;
    SceneViewContent& content_;
    bool enabled_ = false;
    int hovered_ = -1;
    int held_ = -1;
    Eigen::Vector3d plane_ = Eigen::Vector3d::Zero(); ///< a point of the drag plane
    std::deque<Mark> track_;
};

} // namespace clab
