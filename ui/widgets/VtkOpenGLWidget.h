#pragma once

#include "render/VtkRenderBridge.h"

#include <QOpenGLWidget>

namespace clab {

/// \brief A Qt 6 ↔ VTK bridge as a widget: a QOpenGLWidget that drives a
/// vtkGenericOpenGLRenderWindow.
///
/// Debian's QVTKOpenGLNativeWidget is built against Qt 5, so this widget does its job: VTK
/// renders into its own framebuffer inside the widget's context and the result is blitted into
/// the widget's framebuffer object, which Qt composes into the window. It behaves as any widget
/// (overlapping, grab()); the 3D view, which needs the frame rate, uses VtkOpenGLWindow. Mouse and
/// wheel events go to a vtkGenericRenderWindowInteractor with a trackball-camera style (left:
/// rotate, middle or Shift+left: pan, right or wheel: zoom).
class VtkOpenGLWidget : public QOpenGLWidget {
    Q_OBJECT
public:
    explicit VtkOpenGLWidget(QWidget* parent = nullptr);
    ~VtkOpenGLWidget() override;

    vtkGenericOpenGLRenderWindow* renderWindow() const;
    vtkGenericRenderWindowInteractor* interactor() const;
    /// True when the widget's OpenGL is rendered by the CPU (llvmpipe and the like); known
    /// after the first show. Multisampling is off then.
    bool isSoftwareRenderer() const { return bridge_.isSoftwareRenderer(); }

signals:
    /// Emitted after VTK rendered a frame into the widget.
    void frameRendered();
    /// Emitted when the user starts moving the camera (button press or wheel).
    void interacted();

protected:
    void initializeGL() override;
    void resizeGL(int w, int h) override;
    void paintGL() override;

    void mousePressEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void enterEvent(QEnterEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    void updateBridgeSize();

    VtkRenderBridge bridge_;
    QMetaObject::Connection contextConnection_;
};

} // namespace clab
