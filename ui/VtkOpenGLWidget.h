#pragma once

#include <QOpenGLWidget>
#include <QSurfaceFormat>

#include <vtkSmartPointer.h>

class vtkGenericOpenGLRenderWindow;
class vtkGenericRenderWindowInteractor;
class vtkObject;

namespace clab {

/// \brief The Qt 6 ↔ VTK bridge: a QOpenGLWidget that drives a vtkGenericOpenGLRenderWindow.
///
/// Debian's QVTKOpenGLNativeWidget is built against Qt 5, so this widget does its job: VTK
/// renders into its own framebuffer inside the widget's context and the result is blitted into
/// the widget's default framebuffer object. Mouse and wheel events are forwarded to a
/// vtkGenericRenderWindowInteractor with a trackball-camera style (left: rotate, middle or
/// Shift+left: pan, right or wheel: zoom).
class VtkOpenGLWidget : public QOpenGLWidget {
    Q_OBJECT
public:
    explicit VtkOpenGLWidget(QWidget* parent = nullptr);
    ~VtkOpenGLWidget() override;

    /// The surface format VTK needs: OpenGL 3.2 core profile, depth 24, stencil 8.
    static QSurfaceFormat defaultSurfaceFormat();
    /// Installs defaultSurfaceFormat() as the application default; call before QApplication.
    static void setDefaultSurfaceFormat();

    vtkGenericOpenGLRenderWindow* renderWindow() const;
    vtkGenericRenderWindowInteractor* interactor() const;
    /// True when the widget's OpenGL is rendered by the CPU (llvmpipe and the like); known
    /// after the first show. Multisampling is off then.
    bool isSoftwareRenderer() const { return softwareRenderer_; }

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
    void onWindowEvent(vtkObject* caller, unsigned long eventId, void* callData);
    void releaseContext();
    void updateInteractorSize();
    void forwardMouse(QMouseEvent* event, unsigned long vtkEvent, int repeat);

    vtkSmartPointer<vtkGenericOpenGLRenderWindow> window_;
    vtkSmartPointer<vtkGenericRenderWindowInteractor> interactor_;
    bool initialized_ = false;
    QMetaObject::Connection contextConnection_;
    bool inPaint_ = false;
    bool softwareRenderer_ = false;
    int wheelRemainder_ = 0;
};

} // namespace clab
