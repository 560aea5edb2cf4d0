#include "view3d/BodyGrab.h"

#include "view3d/SceneViewContent.h"
#include "view3d/geometry/SceneGeometry.h"

#include <QCursor>
#include <QMouseEvent>
#include <QWindow>

#include <vtkCamera.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace clab {

BodyGrab::BodyGrab(QWindow* window, SceneViewContent& content, QObject* parent)
    : QObject(parent), window_(window), content_(content)
{
    window_->installEventFilter(this);
}

void BodyGrab::setEnabled(bool enabled)
{
    enabled_ = enabled;
    if (!enabled)
        cancel();
}

void BodyGrab::cancel()
{
    held_ = -1;
    track_.clear();
    setHovered(-1);
}

Eigen::Vector2d BodyGrab::toDisplay(const QPointF& position) const
{
    const double ratio = window_->devicePixelRatio();
    const int height = content_.renderer()->GetRenderWindow()->GetSize()[1];
    return {position.x() * ratio, height - position.y() * ratio - 1.0};
}

Eigen::Vector2d BodyGrab::project(const Eigen::Vector3d& point) const
{
    vtkRenderer* renderer = content_.renderer();
    renderer->SetWorldPoint(point.x(), point.y(), point.z(), 1.0);
    renderer->WorldToDisplay();
    const double* d = renderer->GetDisplayPoint();
    return {d[0], d[1]};
}

int BodyGrab::pointAt(const QPointF& position) const
{
    const SceneGeometry* geometry = content_.geometry();
    const TraceSample* sample = content_.currentSample();
    if (!enabled_ || geometry == nullptr || sample == nullptr)
        return -1;
    const Eigen::Vector2d pointer = toDisplay(position);
    double up[3];
    content_.renderer()->GetActiveCamera()->GetViewUp(up);
    const Eigen::Vector3d rim = geometry->bodyRadius() * Eigen::Vector3d(up[0], up[1], up[2]);
    int best = -1;
    double bestDistance = std::numeric_limits<double>::infinity();
    for (int i = 0; i < geometry->grabPointCount(); ++i) {
        const Eigen::Vector3d p = geometry->grabPoint(i, sample->q);
        const Eigen::Vector2d centre = project(p);
        const double reach = std::max(kPickPixels * window_->devicePixelRatio(),
                                      (project(p + rim) - centre).norm() + 4.0);
        const double distance = (centre - pointer).norm();
        if (distance <= reach && distance < bestDistance) {
            best = i;
            bestDistance = distance;
        }
    }
    return best;
}

Eigen::Vector3d BodyGrab::onDragPlane(const QPointF& position) const
{
    vtkRenderer* renderer = content_.renderer();
    const Eigen::Vector2d d = toDisplay(position);
    Eigen::Vector3d ends[2];
    for (int k = 0; k < 2; ++k) {
        renderer->SetDisplayPoint(d.x(), d.y(), k);
        renderer->DisplayToWorld();
        const double* w = renderer->GetWorldPoint();
        ends[k] = Eigen::Vector3d(w[0], w[1], w[2]) / (w[3] != 0.0 ? w[3] : 1.0);
    }
    double direction[3];
    renderer->GetActiveCamera()->GetDirectionOfProjection(direction);
    const Eigen::Vector3d normal(direction[0], direction[1], direction[2]);
    const Eigen::Vector3d ray = ends[1] - ends[0];
    const double across = normal.dot(ray);
    if (std::abs(across) < 1e-300)
        return plane_;
    return ends[0] + (normal.dot(plane_ - ends[0]) / across) * ray;
}

void BodyGrab::setHovered(int point)
{
    if (point == hovered_)
        return;
    hovered_ = point;
    if (held_ < 0) {
        if (point >= 0)
            window_->setCursor(Qt::OpenHandCursor);
        else
            window_->unsetCursor();
    }
    emit hoverChanged(point);
}

bool BodyGrab::press(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton || held_ >= 0)
        return held_ >= 0;
    const int point = pointAt(event->position());
    if (point < 0)
        return false; // the camera's
    held_ = point;
    plane_ = content_.geometry()->grabPoint(point, content_.currentSample()->q);
    track_.clear();
    track_.push_back({static_cast<qint64>(event->timestamp()), plane_, event->position()});
    window_->setCursor(Qt::ClosedHandCursor);
    emit grabbed(point, plane_);
    return true;
}

bool BodyGrab::move(QMouseEvent* event)
{
    if (held_ < 0) {
        if (event->buttons() == Qt::NoButton)
            setHovered(pointAt(event->position()));
        return false;
    }
    const Eigen::Vector3d target = onDragPlane(event->position());
    const auto now = static_cast<qint64>(event->timestamp());
    track_.push_back({now, target, event->position()});
    while (track_.size() > 2 && now - track_[1].ms > kFlickWindowMs)
        track_.pop_front();
    emit moved(target);
    return true;
}

Eigen::Vector3d BodyGrab::flickVelocity(qint64 now) const
{
    // The hand's motion over the last kFlickWindowMs: none when it stood still (moved less
    // than a few pixels) for that long before the release.
    const Mark& last = track_.back();
    const auto first = std::find_if(track_.begin(), track_.end(),
                                    [&](const Mark& m) { return now - m.ms <= kFlickWindowMs; });
    if (first == track_.end() || first->ms >= last.ms)
        return Eigen::Vector3d::Zero();
    const double pixels = (last.pixel - first->pixel).manhattanLength();
    if (pixels < 3.0)
        return Eigen::Vector3d::Zero();
    return (last.at - first->at) / (static_cast<double>(last.ms - first->ms) / 1000.0);
}

bool BodyGrab::release(QMouseEvent* event)
{
    if (held_ < 0 || event->button() != Qt::LeftButton)
        return held_ >= 0;
    const Eigen::Vector3d target = onDragPlane(event->position());
    const auto now = static_cast<qint64>(event->timestamp());
    track_.push_back({now, target, event->position()});
    const Eigen::Vector3d velocity = flickVelocity(now);
    const bool keep = event->modifiers().testFlag(Qt::ShiftModifier);
    held_ = -1;
    track_.clear();
    emit released(target, velocity, keep);
    hovered_ = -2; // the cursor anew, whatever was hovered before
    setHovered(pointAt(event->position()));
    return true;
}

bool BodyGrab::eventFilter(QObject* watched, QEvent* event)
{
    if (watched != window_ || !enabled_)
        return QObject::eventFilter(watched, event);
    switch (event->type()) {
    case QEvent::MouseButtonPress:
        return press(static_cast<QMouseEvent*>(event));
    case QEvent::MouseMove:
        return move(static_cast<QMouseEvent*>(event));
    case QEvent::MouseButtonRelease:
        return release(static_cast<QMouseEvent*>(event));
    case QEvent::Leave:
        if (held_ < 0)
            setHovered(-1);
        break;
    default:
        break;
    }
    return QObject::eventFilter(watched, event);
}

} // namespace clab
