#pragma once

#include <QSize>

#include <vtkSmartPointer.h>

#include <functional>

class QEvent;
class QMouseEvent;
class QOpenGLContext;
class QWheelEvent;
class vtkGenericOpenGLRenderWindow;
class vtkGenericRenderWindowInteractor;
class vtkObject;

namespace clab {

/// \brief What every Qt host of a vtkGenericOpenGLRenderWindow shares (VtkOpenGLWidget,
/// VtkOpenGLWindow): the render window set up to draw into a context Qt owns, its interactor with
/// a trackball-camera style, rendering plus the blit into the host's framebuffer, and the
/// translation of Qt's mouse and wheel events.
///
/// The host supplies three callbacks: make its context current (VTK asks before it draws), tell
/// whether it is current, and schedule a frame (an interaction or a render outside the host's
/// own paint must reach the screen).
class VtkRenderBridge {
public:
    struct Host {
        std::function<void()> makeCurrent;
        std::function<bool()> isCurrent;
        std::function<void()> scheduleFrame;
    };

    explicit VtkRenderBridge(Host host);
    ~VtkRenderBridge();
    VtkRenderBridge(const VtkRenderBridge&) = delete;
    VtkRenderBridge& operator=(const VtkRenderBridge&) = delete;

    vtkGenericOpenGLRenderWindow* window() const;
    vtkGenericRenderWindowInteractor* interactor() const;

    /// Hands VTK the current context; call once it is current, before the first render.
    void initialize(QOpenGLContext* context);
    /// Frees VTK's GL objects; the context must still be current.
    void release();
    bool isInitialized() const { return initialized_; }
    /// True when the context's OpenGL is rendered by the CPU (llvmpipe and the like).
    bool isSoftwareRenderer() const { return softwareRenderer_; }

    /// The host's size in logical pixels and its device pixel ratio.
    void setSize(const QSize& logical, double devicePixelRatio);
    QSize pixelSize() const;

    /// Renders a frame with VTK and copies it into `framebuffer` of `context` (opaque alpha).
    /// `rebind` makes the host's context and framebuffer current again after VTK's render.
    void render(QOpenGLContext* context, unsigned framebuffer, const std::function<void()>& rebind);

    /// Input: each returns true when the event starts a camera interaction (press, wheel).
    bool mousePress(QMouseEvent* event);
    void mouseDoubleClick(QMouseEvent* event);
    void mouseRelease(QMouseEvent* event);
    void mouseMove(QMouseEvent* event);
    bool wheel(QWheelEvent* event);
    void enter(QEvent* event);
    void leave(QEvent* event);

private:
    void onEvent(vtkObject* caller, unsigned long eventId, void* callData);
    /// Gives every renderer that clears the colour an opaque background.
    void makeOpaque();
    void forwardMouse(QMouseEvent* event, unsigned long vtkEvent, int repeat);

    Host host_;
    vtkSmartPointer<vtkGenericOpenGLRenderWindow> window_;
    vtkSmartPointer<vtkGenericRenderWindowInteractor> interactor_;
    double devicePixelRatio_ = 1.0;
    bool initialized_ = false;
    bool softwareRenderer_ = false;
    bool inRender_ = false;
    int wheelRemainder_ = 0;
};

} // namespace clab
