#include "VtkOpenGLWidget.h"

#include <QMouseEvent>
#include <QOpenGLContext>
#include <QOpenGLExtraFunctions>
#include <QOpenGLFunctions>
#include <QWheelEvent>

#include <vtkCommand.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkGenericRenderWindowInteractor.h>
#include <vtkInteractorStyleTrackballCamera.h>
#include <vtkNew.h>
#include <vtkOpenGLFramebufferObject.h>
#include <vtkOpenGLState.h>

#include <cmath>

namespace clab {

QSurfaceFormat VtkOpenGLWidget::defaultSurfaceFormat()
{
    QSurfaceFormat format;
    format.setRenderableType(QSurfaceFormat::OpenGL);
    format.setVersion(3, 2);
    format.setProfile(QSurfaceFormat::CoreProfile);
    format.setSwapBehavior(QSurfaceFormat::DoubleBuffer);
    format.setRedBufferSize(8);
    format.setGreenBufferSize(8);
    format.setBlueBufferSize(8);
    format.setAlphaBufferSize(8);
    format.setDepthBufferSize(24);
    format.setStencilBufferSize(8);
    // VTK renders into its own multisampled framebuffer; the widget's does not need samples.
    format.setSamples(0);
    return format;
}

void VtkOpenGLWidget::setDefaultSurfaceFormat()
{
    QSurfaceFormat::setDefaultFormat(defaultSurfaceFormat());
}

VtkOpenGLWidget::VtkOpenGLWidget(QWidget* parent)
    : QOpenGLWidget(parent), window_(vtkSmartPointer<vtkGenericOpenGLRenderWindow>::New()),
      interactor_(vtkSmartPointer<vtkGenericRenderWindowInteractor>::New())
{
    setFocusPolicy(Qt::StrongFocus);
    setUpdateBehavior(QOpenGLWidget::NoPartialUpdate);
    setMinimumSize(64, 64);

    // Nothing may render before initializeGL has given VTK a context.
    window_->SetReadyForRendering(false);
    window_->SetOwnContext(false);
    // The widget blits VTK's framebuffer itself (see paintGL).
    window_->SetFrameBlitModeToNoBlit();
    // Core profile: VTK emulates wide lines when it believes the hardware limit is 1.
    window_->SetForceMaximumHardwareLineWidth(1);
    // Four samples: what llvmpipe offers; VTK renders without MSAA when asked for more.
    // initializeGL turns them off on software renderers, where they halve the frame rate.
    window_->SetMultiSamples(4);
    window_->AddObserver(vtkCommand::WindowMakeCurrentEvent, this, &VtkOpenGLWidget::onWindowEvent);
    window_->AddObserver(vtkCommand::WindowIsCurrentEvent, this, &VtkOpenGLWidget::onWindowEvent);
    window_->AddObserver(vtkCommand::WindowFrameEvent, this, &VtkOpenGLWidget::onWindowEvent);

    interactor_->SetRenderWindow(window_);
    // Interaction asks for a repaint instead of rendering outside paintGL.
    interactor_->EnableRenderOff();
    interactor_->AddObserver(vtkCommand::RenderEvent, this, &VtkOpenGLWidget::onWindowEvent);
    vtkNew<vtkInteractorStyleTrackballCamera> style;
    interactor_->SetInteractorStyle(style);
    interactor_->Initialize();
}

VtkOpenGLWidget::~VtkOpenGLWidget()
{
    // QOpenGLWidget's destructor destroys the context after this object is gone: the
    // aboutToBeDestroyed handler must not call into it then.
    disconnect(contextConnection_);
    if (initialized_) {
        makeCurrent();
        releaseContext();
        doneCurrent();
    }
    interactor_->RemoveObservers(vtkCommand::RenderEvent);
    interactor_->SetInteractorStyle(nullptr);
    window_->RemoveObservers(vtkCommand::WindowMakeCurrentEvent);
    window_->RemoveObservers(vtkCommand::WindowIsCurrentEvent);
    window_->RemoveObservers(vtkCommand::WindowFrameEvent);
}

vtkGenericOpenGLRenderWindow* VtkOpenGLWidget::renderWindow() const
{
    return window_;
}

vtkGenericRenderWindowInteractor* VtkOpenGLWidget::interactor() const
{
    return interactor_;
}

void VtkOpenGLWidget::onWindowEvent(vtkObject* caller, unsigned long eventId, void* callData)
{
    (void)caller;
    switch (eventId) {
    case vtkCommand::WindowMakeCurrentEvent:
        // Only the context: QOpenGLWidget::makeCurrent() would also bind the widget's
        // framebuffer behind VTK's back, and VTK's cached bindings would go stale (its
        // translucency pass then attaches its textures to the widget's framebuffer).
        if (initialized_ && QOpenGLContext::currentContext() != context()) {
            context()->makeCurrent(context()->surface());
        }
        break;
    case vtkCommand::WindowIsCurrentEvent: {
        bool& current = *static_cast<bool*>(callData);
        current = initialized_ && QOpenGLContext::currentContext() == context();
        break;
    }
    case vtkCommand::WindowFrameEvent:
    case vtkCommand::RenderEvent:
        // A render outside paintGL (or an interaction) must reach the screen.
        if (!inPaint_) {
            update();
        }
        break;
    default:
        break;
    }
}

void VtkOpenGLWidget::initializeGL()
{
    // Playback needs frame rate more than smooth edges when the CPU renders (llvmpipe in VMs,
    // remote desktops, Xvfb); screenshots (OffscreenRenderWindow) keep their multisampling.
    const auto* rendererName =
        reinterpret_cast<const char*>(context()->functions()->glGetString(GL_RENDERER));
    const QByteArray renderer = rendererName ? QByteArray(rendererName).toLower() : QByteArray();
    softwareRenderer_ = renderer.contains("llvmpipe") || renderer.contains("softpipe") ||
                        renderer.contains("swrast") || renderer.contains("swr");
    window_->SetMultiSamples(softwareRenderer_ ? 0 : 4);
    window_->SetReadyForRendering(true);
    window_->OpenGLInitContext();
    vtkOpenGLState* state = window_->GetState();
    state->Reset();
    // Qt leaves GL_LESS; VTK expects GL_LEQUAL.
    state->vtkglDepthFunc(GL_LEQUAL);
    initialized_ = true;
    updateInteractorSize();
    contextConnection_ = connect(
        context(), &QOpenGLContext::aboutToBeDestroyed, this,
        [this] {
            makeCurrent();
            releaseContext();
        },
        Qt::DirectConnection);
}

void VtkOpenGLWidget::releaseContext()
{
    if (!initialized_) {
        return;
    }
    // Frees VTK's GL objects while their context is still current.
    window_->Finalize();
    window_->SetReadyForRendering(false);
    initialized_ = false;
}

void VtkOpenGLWidget::updateInteractorSize()
{
    const double dpr = devicePixelRatioF();
    const int w = std::max(1, static_cast<int>(std::lround(width() * dpr)));
    const int h = std::max(1, static_cast<int>(std::lround(height() * dpr)));
    interactor_->UpdateSize(w, h);
    window_->SetDPI(static_cast<int>(std::lround(72 * dpr)));
}

void VtkOpenGLWidget::resizeGL(int w, int h)
{
    (void)w, (void)h;
    updateInteractorSize();
}

void VtkOpenGLWidget::paintGL()
{
    if (!initialized_) {
        return;
    }
    updateInteractorSize();
    vtkOpenGLState* state = window_->GetState();
    state->Reset();
    state->Push();
    state->vtkglDepthFunc(GL_LEQUAL);

    inPaint_ = true;
    window_->Render();
    inPaint_ = false;

    // The render may have touched other contexts (progress events); ours must be current to blit.
    makeCurrent();
    QOpenGLExtraFunctions* f = context()->extraFunctions();
    f->glBindFramebuffer(GL_DRAW_FRAMEBUFFER, defaultFramebufferObject());
    const GLenum buffers[1] = {GL_COLOR_ATTACHMENT0};
    f->glDrawBuffers(1, buffers);
    const GLboolean scissor = f->glIsEnabled(GL_SCISSOR_TEST);
    if (scissor == GL_TRUE) {
        state->vtkglDisable(GL_SCISSOR_TEST);
        f->glDisable(GL_SCISSOR_TEST);
    }
    const int* size = window_->GetSize();
    window_->BlitDisplayFramebuffer(0, 0, 0, size[0], size[1], 0, 0, size[0], size[1],
                                    GL_COLOR_BUFFER_BIT, GL_NEAREST);

    // An alpha below one would let the desktop shine through on some compositors (Mesa).
    GLboolean mask[4];
    f->glGetBooleanv(GL_COLOR_WRITEMASK, mask);
    GLfloat clear[4];
    f->glGetFloatv(GL_COLOR_CLEAR_VALUE, clear);
    f->glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_TRUE);
    f->glClearColor(0.0f, 0.0f, 0.0f, 1.0f);
    f->glClear(GL_COLOR_BUFFER_BIT);
    f->glColorMask(mask[0], mask[1], mask[2], mask[3]);
    f->glClearColor(clear[0], clear[1], clear[2], clear[3]);
    if (scissor == GL_TRUE) {
        state->vtkglEnable(GL_SCISSOR_TEST);
        f->glEnable(GL_SCISSOR_TEST);
    }
    state->Pop();
    emit frameRendered();
}

void VtkOpenGLWidget::forwardMouse(QMouseEvent* event, unsigned long vtkEvent, int repeat)
{
    const double dpr = devicePixelRatioF();
    const QPointF p = event->position();
    const Qt::KeyboardModifiers mods = event->modifiers();
    interactor_->SetEventInformationFlipY(
        static_cast<int>(std::lround(p.x() * dpr)), static_cast<int>(std::lround(p.y() * dpr)),
        (mods & Qt::ControlModifier) ? 1 : 0, (mods & Qt::ShiftModifier) ? 1 : 0, 0, repeat);
    interactor_->SetAltKey((mods & Qt::AltModifier) ? 1 : 0);
    interactor_->InvokeEvent(vtkEvent, event);
}

namespace {

unsigned long pressEventFor(Qt::MouseButton button)
{
    switch (button) {
    case Qt::LeftButton:
        return vtkCommand::LeftButtonPressEvent;
    case Qt::MiddleButton:
        return vtkCommand::MiddleButtonPressEvent;
    case Qt::RightButton:
        return vtkCommand::RightButtonPressEvent;
    default:
        return vtkCommand::NoEvent;
    }
}

unsigned long releaseEventFor(Qt::MouseButton button)
{
    switch (button) {
    case Qt::LeftButton:
        return vtkCommand::LeftButtonReleaseEvent;
    case Qt::MiddleButton:
        return vtkCommand::MiddleButtonReleaseEvent;
    case Qt::RightButton:
        return vtkCommand::RightButtonReleaseEvent;
    default:
        return vtkCommand::NoEvent;
    }
}

} // namespace

void VtkOpenGLWidget::mousePressEvent(QMouseEvent* event)
{
    const unsigned long id = pressEventFor(event->button());
    if (id != vtkCommand::NoEvent) {
        emit interacted();
        forwardMouse(event, id, 0);
    }
    event->accept();
}

void VtkOpenGLWidget::mouseDoubleClickEvent(QMouseEvent* event)
{
    const unsigned long id = pressEventFor(event->button());
    if (id != vtkCommand::NoEvent) {
        forwardMouse(event, id, 1);
    }
    event->accept();
}

void VtkOpenGLWidget::mouseReleaseEvent(QMouseEvent* event)
{
    const unsigned long id = releaseEventFor(event->button());
    if (id != vtkCommand::NoEvent) {
        forwardMouse(event, id, 0);
    }
    event->accept();
}

void VtkOpenGLWidget::mouseMoveEvent(QMouseEvent* event)
{
    forwardMouse(event, vtkCommand::MouseMoveEvent, 0);
    event->accept();
}

void VtkOpenGLWidget::wheelEvent(QWheelEvent* event)
{
    const double dpr = devicePixelRatioF();
    const QPointF p = event->position();
    const Qt::KeyboardModifiers mods = event->modifiers();
    interactor_->SetEventInformationFlipY(
        static_cast<int>(std::lround(p.x() * dpr)), static_cast<int>(std::lround(p.y() * dpr)),
        (mods & Qt::ControlModifier) ? 1 : 0, (mods & Qt::ShiftModifier) ? 1 : 0);
    emit interacted();
    // Touchpads send many small deltas; one VTK step per 120 units (one mouse notch).
    wheelRemainder_ += event->angleDelta().y();
    while (wheelRemainder_ >= 120) {
        interactor_->InvokeEvent(vtkCommand::MouseWheelForwardEvent, event);
        wheelRemainder_ -= 120;
    }
    while (wheelRemainder_ <= -120) {
        interactor_->InvokeEvent(vtkCommand::MouseWheelBackwardEvent, event);
        wheelRemainder_ += 120;
    }
    event->accept();
}

void VtkOpenGLWidget::enterEvent(QEnterEvent* event)
{
    interactor_->InvokeEvent(vtkCommand::EnterEvent, event);
    QOpenGLWidget::enterEvent(event);
}

void VtkOpenGLWidget::leaveEvent(QEvent* event)
{
    interactor_->InvokeEvent(vtkCommand::LeaveEvent, event);
    QOpenGLWidget::leaveEvent(event);
}

} // namespace clab
