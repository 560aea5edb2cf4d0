#pragma once

#include "render/VtkRenderBridge.h"

#include <QImage>
#include <QWindow>

#include <memory>

class QOpenGLContext;

namespace clab {

/// \brief The fast Qt 6 ↔ VTK bridge: a native OpenGL QWindow whose frames VTK renders and which
/// swaps them to the screen itself.
///
/// A QOpenGLWidget's frame is composed into its top-level window by Qt, which under a software
/// renderer costs as much as drawing the scene; this window skips that (put it in a widget
/// layout with QWidget::createWindowContainer). Frames are rendered on the next turn of the
/// event loop after a change, several changes in one turn giving one frame, and only while the
/// window is exposed. Mouse and wheel events drive VTK's trackball camera as in VtkOpenGLWidget;
/// key events go on to `keyTarget` (the container's widget tree, where shortcuts and key
/// handlers live).
class VtkOpenGLWindow : public QWindow {
    Q_OBJECT
public:
    explicit VtkOpenGLWindow(QWindow* parent = nullptr);
    ~VtkOpenGLWindow() override;

    vtkGenericOpenGLRenderWindow* renderWindow() const;
    vtkGenericRenderWindowInteractor* interactor() const;
    /// True when the OpenGL is rendered by the CPU (llvmpipe and the like); known after the
    /// first frame. Multisampling is off then.
    bool isSoftwareRenderer() const { return bridge_.isSoftwareRenderer(); }

    /// Asks for a frame on the next turn of the event loop.
    void scheduleFrame();
    /// Renders a frame now (when exposed) and returns it as shown; null when not exposed.
    QImage grabFramebuffer();
    /// Waits until OpenGL has finished every frame asked for so far (benchmarks).
    void finishFrames();
    /// The widget that receives this window's key events (the window container).
    void setKeyTarget(QObject* target) { keyTarget_ = target; }

signals:
    /// Emitted after VTK rendered a frame and it was swapped to the screen.
    void frameRendered();
    /// Emitted when the user starts moving the camera (button press or wheel).
    void interacted();
    /// Emitted after the window changed its size.
    void resized();

protected:
    bool event(QEvent* event) override;
    void exposeEvent(QExposeEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void keyReleaseEvent(QKeyEvent* event) override;

private:
    /// Renders into the back buffer; false when there is nothing to render into.
    bool renderFrame();
    void renderAndSwap();
    bool makeContextCurrent();
    void releaseContext();

    std::unique_ptr<QOpenGLContext> context_;
    QObject* keyTarget_ = nullptr;
    bool framePending_ = false;
    // Last: its constructor may already call back (scheduleFrame) into the members above.
    VtkRenderBridge bridge_;
};

} // namespace clab
