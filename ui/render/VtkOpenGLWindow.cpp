#include "render/VtkOpenGLWindow.h"

#include "render/VtkSurfaceFormat.h"

#include <QCoreApplication>
#include <QExposeEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QOpenGLContext>
#include <QOpenGLExtraFunctions>
#include <QOpenGLFunctions>
#include <QPlatformSurfaceEvent>
#include <QWheelEvent>

namespace clab {

VtkOpenGLWindow::VtkOpenGLWindow(QWindow* parent)
    : QWindow(parent),
      bridge_({
          [this] {
              if (context_) {
                  context_->makeCurrent(this);
              }
          },
          [this] { return context_ && QOpenGLContext::currentContext() == context_.get(); },
          [this] { scheduleFrame(); },
      })
{
    setSurfaceType(QSurface::OpenGLSurface);
    setFormat(VtkSurfaceFormat::standard());
    // Another screen may have another pixel ratio: the pixel size changes without a resize.
    connect(this, &QWindow::screenChanged, this, [this] {
        bridge_.setSize(size(), devicePixelRatio());
        emit resized();
        scheduleFrame();
    });
}

VtkOpenGLWindow::~VtkOpenGLWindow()
{
    // QWindow's destructor destroys the surface without calling event() of this class any more.
    releaseContext();
}

vtkGenericOpenGLRenderWindow* VtkOpenGLWindow::renderWindow() const
{
    return bridge_.window();
}

vtkGenericRenderWindowInteractor* VtkOpenGLWindow::interactor() const
{
    return bridge_.interactor();
}

void VtkOpenGLWindow::scheduleFrame()
{
    // A posted event, not requestUpdate(): that waits for the platform's idle timer (5 ms on
    // xcb), a third of a frame's budget.
    if (!framePending_) {
        framePending_ = true;
        QCoreApplication::postEvent(this, new QEvent(QEvent::UpdateRequest));
    }
}

bool VtkOpenGLWindow::makeContextCurrent()
{
    if (!context_) {
        auto context = std::make_unique<QOpenGLContext>();
        context->setFormat(requestedFormat());
        if (!context->create()) {
            qWarning("VtkOpenGLWindow: cannot create an OpenGL 3.2 core context");
            return false;
        }
        context_ = std::move(context);
    }
    if (!context_->makeCurrent(this)) {
        return false;
    }
    if (!bridge_.isInitialized()) {
        bridge_.initialize(context_.get());
    }
    return true;
}

void VtkOpenGLWindow::releaseContext()
{
    if (!context_) {
        return;
    }
    // VTK's GL objects live in the context: free them while it is current.
    if (bridge_.isInitialized() && context_->makeCurrent(this)) {
        bridge_.release();
        context_->doneCurrent();
    }
    context_.reset();
}

bool VtkOpenGLWindow::renderFrame()
{
    if (!isExposed() || !makeContextCurrent()) {
        return false;
    }
    bridge_.setSize(size(), devicePixelRatio());
    bridge_.render(context_.get(), context_->defaultFramebufferObject(),
                   [this] { context_->makeCurrent(this); });
    return true;
}

void VtkOpenGLWindow::renderAndSwap()
{
    if (renderFrame()) {
        context_->swapBuffers(this);
        emit frameRendered();
    }
}

QImage VtkOpenGLWindow::grabFramebuffer()
{
    if (!renderFrame()) {
        return {};
    }
    const QSize pixels = bridge_.pixelSize();
    QImage image(pixels, QImage::Format_RGBA8888);
    QOpenGLExtraFunctions* f = context_->extraFunctions();
    f->glBindFramebuffer(GL_READ_FRAMEBUFFER, context_->defaultFramebufferObject());
    f->glReadBuffer(GL_BACK);
    f->glPixelStorei(GL_PACK_ALIGNMENT, 4);
    f->glReadPixels(0, 0, pixels.width(), pixels.height(), GL_RGBA, GL_UNSIGNED_BYTE, image.bits());
    context_->swapBuffers(this);
    emit frameRendered();
    // OpenGL's rows run bottom to top.
    return image.mirrored().convertToFormat(QImage::Format_RGB32);
}

void VtkOpenGLWindow::finishFrames()
{
    if (context_ && context_->makeCurrent(this)) {
        context_->functions()->glFinish();
    }
}

bool VtkOpenGLWindow::event(QEvent* event)
{
    switch (event->type()) {
    case QEvent::UpdateRequest:
        framePending_ = false;
        renderAndSwap();
        return true;
    case QEvent::PlatformSurface:
        if (static_cast<QPlatformSurfaceEvent*>(event)->surfaceEventType() ==
            QPlatformSurfaceEvent::SurfaceAboutToBeDestroyed) {
            releaseContext();
        }
        break;
    case QEvent::Enter:
        bridge_.enter(event);
        break;
    case QEvent::Leave:
        bridge_.leave(event);
        break;
    default:
        break;
    }
    return QWindow::event(event);
}

void VtkOpenGLWindow::exposeEvent(QExposeEvent* event)
{
    (void)event;
    // Exposed (first show, uncovered): draw at once, as the platform expects.
    if (isExposed()) {
        renderAndSwap();
    }
}

void VtkOpenGLWindow::resizeEvent(QResizeEvent* event)
{
    (void)event;
    bridge_.setSize(size(), devicePixelRatio());
    emit resized();
    scheduleFrame();
}

void VtkOpenGLWindow::mousePressEvent(QMouseEvent* event)
{
    // A QWindow gets the second press of a double click and then the double click itself; VTK
    // must see one press per release.
    if (event->flags().testFlag(Qt::MouseEventCreatedDoubleClick)) {
        event->accept();
        return;
    }
    if (bridge_.mousePress(event)) {
        emit interacted();
    }
    event->accept();
}

void VtkOpenGLWindow::mouseDoubleClickEvent(QMouseEvent* event)
{
    // The second press already came through mousePressEvent (see there); VTK's repeat press
    // stands for it.
    bridge_.mouseDoubleClick(event);
    event->accept();
}

void VtkOpenGLWindow::mouseReleaseEvent(QMouseEvent* event)
{
    bridge_.mouseRelease(event);
    event->accept();
}

void VtkOpenGLWindow::mouseMoveEvent(QMouseEvent* event)
{
    bridge_.mouseMove(event);
    event->accept();
}

void VtkOpenGLWindow::wheelEvent(QWheelEvent* event)
{
    if (bridge_.wheel(event)) {
        emit interacted();
    }
    event->accept();
}

void VtkOpenGLWindow::keyPressEvent(QKeyEvent* event)
{
    if (keyTarget_ != nullptr) {
        QCoreApplication::sendEvent(keyTarget_, event);
    }
}

void VtkOpenGLWindow::keyReleaseEvent(QKeyEvent* event)
{
    if (keyTarget_ != nullptr) {
        QCoreApplication::sendEvent(keyTarget_, event);
    }
}

} // namespace clab
