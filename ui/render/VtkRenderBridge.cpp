#include "render/VtkRenderBridge.h"

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
#include <vtkOpenGLState.h>
#include <vtkRenderer.h>
#include <vtkRendererCollection.h>

#include <algorithm>
#include <cmath>
#include <utility>

namespace clab {

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

VtkRenderBridge::VtkRenderBridge(Host host)
    : host_(std::move(host)), window_(vtkSmartPointer<vtkGenericOpenGLRenderWindow>::New()),
      interactor_(vtkSmartPointer<vtkGenericRenderWindowInteractor>::New())
{
    // Nothing may render before initialize() has given VTK a context.
    window_->SetReadyForRendering(false);
    window_->SetOwnContext(false);
    // render() blits VTK's framebuffer itself, into the framebuffer the host names.
    window_->SetFrameBlitModeToNoBlit();
    // Core profile: VTK emulates wide lines when it believes the hardware limit is 1.
    window_->SetForceMaximumHardwareLineWidth(1);
    // Four samples: what llvmpipe offers; VTK renders without MSAA when asked for more.
    // initialize() turns them off on software renderers, where they halve the frame rate.
    window_->SetMultiSamples(4);
    window_->AddObserver(vtkCommand::WindowMakeCurrentEvent, this, &VtkRenderBridge::onEvent);
    window_->AddObserver(vtkCommand::WindowIsCurrentEvent, this, &VtkRenderBridge::onEvent);
    window_->AddObserver(vtkCommand::WindowFrameEvent, this, &VtkRenderBridge::onEvent);

    interactor_->SetRenderWindow(window_);
    // Interaction asks the host for a frame instead of rendering outside it.
    interactor_->EnableRenderOff();
    interactor_->AddObserver(vtkCommand::RenderEvent, this, &VtkRenderBridge::onEvent);
    vtkNew<vtkInteractorStyleTrackballCamera> style;
    interactor_->SetInteractorStyle(style);
    interactor_->Initialize();
}

VtkRenderBridge::~VtkRenderBridge()
{
    interactor_->RemoveObservers(vtkCommand::RenderEvent);
    interactor_->SetInteractorStyle(nullptr);
    window_->RemoveObservers(vtkCommand::WindowMakeCurrentEvent);
    window_->RemoveObservers(vtkCommand::WindowIsCurrentEvent);
    window_->RemoveObservers(vtkCommand::WindowFrameEvent);
}

vtkGenericOpenGLRenderWindow* VtkRenderBridge::window() const
{
    return window_;
}

vtkGenericRenderWindowInteractor* VtkRenderBridge::interactor() const
{
    return interactor_;
}

void VtkRenderBridge::onEvent(vtkObject* caller, unsigned long eventId, void* callData)
{
    (void)caller;
    switch (eventId) {
    case vtkCommand::WindowMakeCurrentEvent:
        if (initialized_ && !host_.isCurrent()) {
            host_.makeCurrent();
        }
        break;
    case vtkCommand::WindowIsCurrentEvent:
        *static_cast<bool*>(callData) = initialized_ && host_.isCurrent();
        break;
    case vtkCommand::WindowFrameEvent:
    case vtkCommand::RenderEvent:
        if (!inRender_) {
            host_.scheduleFrame();
        }
        break;
    default:
        break;
    }
}

void VtkRenderBridge::initialize(QOpenGLContext* context)
{
    // Playback needs frame rate more than smooth edges when the CPU renders (llvmpipe in VMs,
    // remote desktops, Xvfb); screenshots (OffscreenRenderWindow) keep their multisampling.
    const auto* rendererName =
        reinterpret_cast<const char*>(context->functions()->glGetString(GL_RENDERER));
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
}

void VtkRenderBridge::release()
{
    if (!initialized_) {
        return;
    }
    window_->Finalize();
    window_->SetReadyForRendering(false);
    initialized_ = false;
}

void VtkRenderBridge::setSize(const QSize& logical, double devicePixelRatio)
{
    devicePixelRatio_ = devicePixelRatio > 0.0 ? devicePixelRatio : 1.0;
    const int w = std::max(1, static_cast<int>(std::lround(logical.width() * devicePixelRatio_)));
    const int h = std::max(1, static_cast<int>(std::lround(logical.height() * devicePixelRatio_)));
    interactor_->UpdateSize(w, h);
    window_->SetDPI(static_cast<int>(std::lround(72 * devicePixelRatio_)));
}

QSize VtkRenderBridge::pixelSize() const
{
    const int* size = window_->GetSize();
    return {size[0], size[1]};
}

void VtkRenderBridge::render(QOpenGLContext* context, unsigned framebuffer,
                             const std::function<void()>& rebind)
{
    if (!initialized_) {
        return;
    }
    vtkOpenGLState* state = window_->GetState();
    state->Reset();
    state->Push();
    state->vtkglDepthFunc(GL_LEQUAL);

    makeOpaque();
    inRender_ = true;
    window_->Render();
    inRender_ = false;

    // The render may have touched other contexts (progress events); ours must be current to blit.
    rebind();
    QOpenGLExtraFunctions* f = context->extraFunctions();
    f->glBindFramebuffer(GL_DRAW_FRAMEBUFFER, framebuffer);
    const GLenum buffers[1] = {framebuffer == 0 ? GLenum(GL_BACK_LEFT)
                                                : GLenum(GL_COLOR_ATTACHMENT0)};
    f->glDrawBuffers(1, buffers);
    const GLboolean scissor = f->glIsEnabled(GL_SCISSOR_TEST);
    if (scissor == GL_TRUE) {
        state->vtkglDisable(GL_SCISSOR_TEST);
        f->glDisable(GL_SCISSOR_TEST);
    }
    const int* size = window_->GetSize();
    window_->BlitDisplayFramebuffer(0, 0, 0, size[0], size[1], 0, 0, size[0], size[1],
                                    GL_COLOR_BUFFER_BIT, GL_NEAREST);

    if (scissor == GL_TRUE) {
        state->vtkglEnable(GL_SCISSOR_TEST);
        f->glEnable(GL_SCISSOR_TEST);
    }
    state->Pop();
}

void VtkRenderBridge::makeOpaque()
{
    // An alpha below one would let the desktop shine through on some compositors (Mesa), and
    // VTK clears to alpha 0 by default. Opaque backgrounds give alpha 1 everywhere (VTK blends
    // alpha as a + (1 - a) * 1 = 1); clearing the alpha channel after the blit instead costs a
    // full-window draw under llvmpipe (a masked clear), a sixth of a frame at 1280x720.
    vtkRendererCollection* renderers = window_->GetRenderers();
    vtkCollectionSimpleIterator it;
    renderers->InitTraversal(it);
    while (vtkRenderer* renderer = renderers->GetNextRenderer(it)) {
        if (!renderer->Transparent()) {
            renderer->SetBackgroundAlpha(1.0);
        }
    }
}

void VtkRenderBridge::forwardMouse(QMouseEvent* event, unsigned long vtkEvent, int repeat)
{
    const QPointF p = event->position() * devicePixelRatio_;
    const Qt::KeyboardModifiers mods = event->modifiers();
    interactor_->SetEventInformationFlipY(
        static_cast<int>(std::lround(p.x())), static_cast<int>(std::lround(p.y())),
        (mods & Qt::ControlModifier) ? 1 : 0, (mods & Qt::ShiftModifier) ? 1 : 0, 0, repeat);
    interactor_->SetAltKey((mods & Qt::AltModifier) ? 1 : 0);
    interactor_->InvokeEvent(vtkEvent, event);
}

bool VtkRenderBridge::mousePress(QMouseEvent* event)
{
    const unsigned long id = pressEventFor(event->button());
    if (id == vtkCommand::NoEvent) {
        return false;
    }
    forwardMouse(event, id, 0);
    return true;
}

void VtkRenderBridge::mouseDoubleClick(QMouseEvent* event)
{
    const unsigned long id = pressEventFor(event->button());
    if (id != vtkCommand::NoEvent) {
        forwardMouse(event, id, 1);
    }
}

void VtkRenderBridge::mouseRelease(QMouseEvent* event)
{
    const unsigned long id = releaseEventFor(event->button());
    if (id != vtkCommand::NoEvent) {
        forwardMouse(event, id, 0);
    }
}

void VtkRenderBridge::mouseMove(QMouseEvent* event)
{
    forwardMouse(event, vtkCommand::MouseMoveEvent, 0);
}

bool VtkRenderBridge::wheel(QWheelEvent* event)
{
    const QPointF p = event->position() * devicePixelRatio_;
    const Qt::KeyboardModifiers mods = event->modifiers();
    interactor_->SetEventInformationFlipY(
        static_cast<int>(std::lround(p.x())), static_cast<int>(std::lround(p.y())),
        (mods & Qt::ControlModifier) ? 1 : 0, (mods & Qt::ShiftModifier) ? 1 : 0);
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
    return true;
}

void VtkRenderBridge::enter(QEvent* event)
{
    interactor_->InvokeEvent(vtkCommand::EnterEvent, event);
}

void VtkRenderBridge::leave(QEvent* event)
{
    interactor_->InvokeEvent(vtkCommand::LeaveEvent, event);
}

} // namespace clab
