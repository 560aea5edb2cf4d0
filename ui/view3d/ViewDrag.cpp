#include "view3d/ViewDrag.h"

#include "render/VtkOpenGLWindow.h"
#include "session/DragSession.h"
#include "session/StartStateEdit.h"
#include "view3d/BodyGrab.h"
#include "view3d/SceneViewContent.h"
#include "view3d/geometry/SceneGeometry.h"

#include <exception>

namespace clab {

namespace {

constexpr int kFrameMs = 33;

} // namespace

ViewDrag::ViewDrag(VtkOpenGLWindow* window, SceneViewContent& content, QObject* parent)
    : QObject(parent), content_(content), grab_(new BodyGrab(window, content, this))
{
    layer_.addTo(content_.renderer());
    live_.setInterval(kFrameMs);
    connect(&live_, &QTimer::timeout, this, &ViewDrag::onTick);
    connect(grab_, &BodyGrab::hoverChanged, this, &ViewDrag::onHover);
    connect(grab_, &BodyGrab::grabbed, this, &ViewDrag::onGrabbed);
    connect(grab_, &BodyGrab::moved, this, &ViewDrag::onMoved);
    connect(grab_, &BodyGrab::released, this, &ViewDrag::onReleased);
}

ViewDrag::~ViewDrag()
{
    layer_.removeFrom(content_.renderer());
}

void ViewDrag::setScene(const SceneDocument& document)
{
    live_.stop();
    session_.reset();
    holdingResult_ = false; // the content let go of the held state with its old scene
    document_ = document;
    content_.setHandLegend({}, {});
    grab_->setEnabled(StartStateEdit::canSetStart(document));
    layer_.clearHighlight();
    layer_.clearHand();
}

void ViewDrag::letGo()
{
    if (session_ || !holdingResult_)
        return;
    holdingResult_ = false;
    content_.releaseSample();
    emit changed();
}

void ViewDrag::onHover(int point)
{
    if (session_)
        return;
    const SceneGeometry* geometry = content_.geometry();
    const TraceSample* sample = content_.currentSample();
    if (point >= 0 && geometry && sample)
        layer_.highlight(geometry->grabPoint(point, sample->q), 1.6 * geometry->bodyRadius(),
                         false);
    else
        layer_.clearHighlight();
    emit changed();
}

void ViewDrag::onGrabbed(int point, const Eigen::Vector3d& target)
{
    const SceneGeometry* geometry = content_.geometry();
    const TraceSample* sample = content_.currentSample();
    if (geometry == nullptr || sample == nullptr)
        return;
    point_ = point;
    const auto at = [geometry, point](const Eigen::VectorXd& q) {
        return geometry->grabPoint(point, q);
    };
    const bool spring = playing_;
    emit grabStarted(spring);
    try {
        session_ = std::make_unique<DragSession>(document_, at, *sample,
                                                 spring ? DragSession::Mode::Spring
                                                        : DragSession::Mode::SetStart);
    } catch (const std::exception& e) {
        fail(QString::fromUtf8(e.what()));
        return;
    }
    session_->moveTo(target);
    if (spring)
        live_.start();
    show();
}

void ViewDrag::onMoved(const Eigen::Vector3d& target)
{
    if (!session_)
        return;
    try {
        session_->moveTo(target);
    } catch (const std::exception& e) {
        fail(QString::fromUtf8(e.what()));
        return;
    }
    show();
}

void ViewDrag::onTick()
{
    if (!session_)
        return;
    try {
        session_->advance(kFrameMs / 1000.0);
    } catch (const std::exception& e) {
        fail(QString::fromUtf8(e.what()));
        return;
    }
    show();
}

void ViewDrag::onReleased(const Eigen::Vector3d& target, const Eigen::Vector3d& velocity, bool keep)
{
    if (!session_)
        return;
    live_.stop();
    Eigen::VectorXd q, qd;
    QString what;
    const double t = session_->sample().t;
    try {
        session_->moveTo(target);
        session_->release(velocity, keep, q, qd);
    } catch (const std::exception& e) {
        fail(QString::fromUtf8(e.what()));
        return;
    }
    if (session_->mode() == DragSession::Mode::Spring)
        what = tr("Pull the body");
    else if (velocity.norm() > 0.0 && !keep)
        what = tr("Throw the body");
    else
        what = tr("Drag the body");
    session_.reset();
    holdingResult_ = true;
    layer_.clearHand();
    content_.setHandLegend({}, {});
    layer_.clearHighlight();
    emit changed();
    emit startChosen(t, q, qd, what);
}

void ViewDrag::show()
{
    const SceneGeometry* geometry = content_.geometry();
    if (!session_ || geometry == nullptr)
        return;
    content_.holdSample(session_->sample());
    const Eigen::Vector3d point = session_->point();
    const double size = geometry->bodyRadius();
    layer_.highlight(point, 1.6 * size, true);
    Eigen::Vector3d arrow =
        content_.automaticArrowScale() * content_.arrowScale() * session_->springForce();
    // A hard pull is drawn no longer than the scene: the arrow shows its direction and growth.
    if (arrow.norm() > 2.0 * geometry->sceneSize())
        arrow *= 2.0 * geometry->sceneSize() / arrow.norm();
    layer_.showHand(session_->target(), point, arrow, size);
    if (session_->mode() == DragSession::Mode::Spring)
        content_.setHandLegend(tr("hand's spring (given force)"), GrabLayer::springColor());
    emit changed();
}

void ViewDrag::fail(const QString& message)
{
    live_.stop();
    session_.reset();
    grab_->cancel();
    layer_.clearHand();
    content_.setHandLegend({}, {});
    layer_.clearHighlight();
    content_.releaseSample();
    emit changed();
    emit failed(message);
}

} // namespace clab
