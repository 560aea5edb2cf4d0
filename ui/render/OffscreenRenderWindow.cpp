#include "render/OffscreenRenderWindow.h"

#include "render/VtkSurfaceFormat.h"

#include <QOffscreenSurface>
#include <QOpenGLContext>

#include <vtkCommand.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkNew.h>
#include <vtkOpenGLState.h>
#include <vtkUnsignedCharArray.h>

#include <cstring>

namespace clab {

OffscreenRenderWindow::OffscreenRenderWindow()
    : window_(vtkSmartPointer<vtkGenericOpenGLRenderWindow>::New())
{
    window_->SetReadyForRendering(false);
    window_->SetOwnContext(false);
    window_->SetFrameBlitModeToNoBlit();
    window_->SetForceMaximumHardwareLineWidth(1);
    // Four samples: what llvmpipe offers; VTK renders without MSAA when asked for more.
    window_->SetMultiSamples(4);
    // Font sizes are given in pixels by the content; 72 dpi makes a point one pixel.
    window_->SetDPI(72);
    window_->AddObserver(vtkCommand::WindowMakeCurrentEvent, this,
                         &OffscreenRenderWindow::onWindowEvent);
    window_->AddObserver(vtkCommand::WindowIsCurrentEvent, this,
                         &OffscreenRenderWindow::onWindowEvent);
}

OffscreenRenderWindow::~OffscreenRenderWindow()
{
    if (initialized_ && makeCurrent()) {
        // Release VTK's GL objects while their context still exists.
        window_->Finalize();
        context_->doneCurrent();
    }
    window_->SetReadyForRendering(false);
    window_->RemoveObservers(vtkCommand::WindowMakeCurrentEvent);
    window_->RemoveObservers(vtkCommand::WindowIsCurrentEvent);
}

vtkRenderWindow* OffscreenRenderWindow::window() const
{
    return window_;
}

void OffscreenRenderWindow::onWindowEvent(vtkObject* caller, unsigned long eventId, void* callData)
{
    (void)caller;
    if (eventId == vtkCommand::WindowMakeCurrentEvent) {
        makeCurrent();
    } else if (eventId == vtkCommand::WindowIsCurrentEvent) {
        bool& current = *static_cast<bool*>(callData);
        current = context_ && QOpenGLContext::currentContext() == context_.get();
    }
}

bool OffscreenRenderWindow::makeCurrent()
{
    if (!context_) {
        context_ = std::make_unique<QOpenGLContext>();
        context_->setFormat(VtkSurfaceFormat::standard());
        if (!context_->create()) {
            error_ = QStringLiteral("OffscreenRenderWindow: cannot create an OpenGL 3.2 core "
                                    "context (is a display or Xvfb available?)");
            context_.reset();
            return false;
        }
        surface_ = std::make_unique<QOffscreenSurface>();
        surface_->setFormat(context_->format());
        surface_->create();
        if (!surface_->isValid()) {
            error_ = QStringLiteral("OffscreenRenderWindow: cannot create an offscreen surface");
            surface_.reset();
            context_.reset();
            return false;
        }
    }
    if (!context_->makeCurrent(surface_.get())) {
        error_ = QStringLiteral("OffscreenRenderWindow: cannot make the OpenGL context current");
        return false;
    }
    return true;
}

QImage OffscreenRenderWindow::render(const QSize& size)
{
    if (size.width() <= 0 || size.height() <= 0) {
        error_ = QStringLiteral("OffscreenRenderWindow::render: empty size %1x%2")
                     .arg(size.width())
                     .arg(size.height());
        return {};
    }
    QOpenGLContext* previous = QOpenGLContext::currentContext();
    QSurface* previousSurface = previous ? previous->surface() : nullptr;
    if (!makeCurrent()) {
        return {};
    }
    if (!initialized_) {
        window_->SetReadyForRendering(true);
        window_->OpenGLInitContext();
        initialized_ = true;
    }
    const int w = size.width();
    const int h = size.height();
    window_->SetSize(w, h);
    vtkOpenGLState* state = window_->GetState();
    state->Reset();
    state->Push();
    state->vtkglDepthFunc(GL_LEQUAL);
    window_->Render();

    vtkNew<vtkUnsignedCharArray> pixels;
    const int ok = window_->GetRGBACharPixelData(0, 0, w - 1, h - 1, 1, pixels);
    state->Pop();

    QImage image;
    if (ok != 0 && pixels->GetNumberOfTuples() == static_cast<vtkIdType>(w) * h) {
        image = QImage(w, h, QImage::Format_RGBA8888);
        const unsigned char* src = pixels->GetPointer(0);
        // OpenGL rows run bottom-up.
        for (int y = 0; y < h; ++y) {
            std::memcpy(image.scanLine(h - 1 - y), src + static_cast<std::size_t>(y) * w * 4,
                        static_cast<std::size_t>(w) * 4);
        }
        image = image.convertToFormat(QImage::Format_RGB32);
    } else {
        error_ = QStringLiteral("OffscreenRenderWindow::render: reading back %1x%2 pixels failed")
                     .arg(w)
                     .arg(h);
    }
    context_->doneCurrent();
    // Leave the GL state as we found it for whoever was rendering before (e.g. a widget).
    if (previous && previousSurface) {
        previous->makeCurrent(previousSurface);
    }
    return image;
}

} // namespace clab
