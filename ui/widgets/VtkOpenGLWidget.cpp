#include "widgets/VtkOpenGLWidget.h"

#include <QMouseEvent>
#include <QOpenGLContext>
#include <QWheelEvent>

namespace clab {

VtkOpenGLWidget::VtkOpenGLWidget(QWidget* parent)
    : QOpenGLWidget(parent),
      bridge_({
          // Only the context: QOpenGLWidget::makeCurrent() would also bind the widget's
          // framebuffer behind VTK's back, and VTK's cached bindings would go stale (its
          // translucency pass then attaches its textures to the widget's framebuffer).
          [this] { context()->makeCurrent(context()->surface()); },
          [this] { return QOpenGLContext::currentContext() == context(); },
          [this] { update(); },
      })
{
    setFocusPolicy(Qt::StrongFocus);
    setUpdateBehavior(QOpenGLWidget::NoPartialUpdate);
    setMinimumSize(64, 64);
}

VtkOpenGLWidget::~VtkOpenGLWidget()
{
    // QOpenGLWidget's destructor destroys the context after this object is gone: the
    // aboutToBeDestroyed handler must not call into it then.
    disconnect(contextConnection_);
    if (bridge_.isInitialized()) {
        makeCurrent();
        bridge_.release();
        doneCurrent();
    }
}

vtkGenericOpenGLRenderWindow* VtkOpenGLWidget::renderWindow() const
{
    return bridge_.window();
}

vtkGenericRenderWindowInteractor* VtkOpenGLWidget::interactor() const
{
    return bridge_.interactor();
}

void VtkOpenGLWidget::initializeGL()
{
    bridge_.initialize(context());
    updateBridgeSize();
    contextConnection_ = connect(
        context(), &QOpenGLContext::aboutToBeDestroyed, this,
        [this] {
            makeCurrent();
            bridge_.release();
        },
        Qt::DirectConnection);
}

void VtkOpenGLWidget::updateBridgeSize()
{
    bridge_.setSize(size(), devicePixelRatioF());
}

void VtkOpenGLWidget::resizeGL(int w, int h)
{
    (void)w, (void)h;
    updateBridgeSize();
}

void VtkOpenGLWidget::paintGL()
{
    if (!bridge_.isInitialized()) {
        return;
    }
    updateBridgeSize();
    bridge_.render(context(), defaultFramebufferObject(), [this] { makeCurrent(); });
    emit frameRendered();
}

void VtkOpenGLWidget::mousePressEvent(QMouseEvent* event)
{
    if (bridge_.mousePress(event)) {
        emit interacted();
    }
    event->accept();
}

void VtkOpenGLWidget::mouseDoubleClickEvent(QMouseEvent* event)
{
    bridge_.mouseDoubleClick(event);
    event->accept();
}

void VtkOpenGLWidget::mouseReleaseEvent(QMouseEvent* event)
{
    bridge_.mouseRelease(event);
    event->accept();
}

void VtkOpenGLWidget::mouseMoveEvent(QMouseEvent* event)
{
    bridge_.mouseMove(event);
    event->accept();
}

void VtkOpenGLWidget::wheelEvent(QWheelEvent* event)
{
    if (bridge_.wheel(event)) {
        emit interacted();
    }
    event->accept();
}

void VtkOpenGLWidget::enterEvent(QEnterEvent* event)
{
    bridge_.enter(event);
    QOpenGLWidget::enterEvent(event);
}

void VtkOpenGLWidget::leaveEvent(QEvent* event)
{
    bridge_.leave(event);
    QOpenGLWidget::leaveEvent(event);
}

} // namespace clab
