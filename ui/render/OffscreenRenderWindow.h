#pragma once

#include <QImage>
#include <QSize>
#include <QString>

#include <vtkSmartPointer.h>

#include <memory>

class QOffscreenSurface;
class QOpenGLContext;
class vtkGenericOpenGLRenderWindow;
class vtkObject;
class vtkRenderWindow;

namespace clab {

/// \brief A VTK render window in a private Qt OpenGL context on an offscreen surface: renders
/// images of any size whether or not a widget is on screen (screenshots, tests, benchmarks).
///
/// It uses the same vtkGenericOpenGLRenderWindow path as VtkOpenGLWidget, so pictures match what
/// the widget shows. Renderers added to window() must not be shared with another window.
class OffscreenRenderWindow {
public:
    OffscreenRenderWindow();
    ~OffscreenRenderWindow();
    OffscreenRenderWindow(const OffscreenRenderWindow&) = delete;
    OffscreenRenderWindow& operator=(const OffscreenRenderWindow&) = delete;

    vtkRenderWindow* window() const;

    /// Renders at exactly `size` and reads the frame back; a null image (and errorString())
    /// when no OpenGL context could be made current.
    QImage render(const QSize& size);
    QString errorString() const { return error_; }

private:
    void onWindowEvent(vtkObject* caller, unsigned long eventId, void* callData);
    bool makeCurrent();

    std::unique_ptr<QOpenGLContext> context_;
    std::unique_ptr<QOffscreenSurface> surface_;
    vtkSmartPointer<vtkGenericOpenGLRenderWindow> window_;
    bool initialized_ = false;
    QString error_;
};

} // namespace clab
