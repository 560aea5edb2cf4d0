#pragma once

#include <QSurfaceFormat>

namespace clab {

/// \brief The OpenGL surface VTK renders into, for every window, widget and offscreen context.
///
/// VTK 9 needs OpenGL 3.2 core profile with depth and stencil buffers; Qt must be told so before
/// the first context exists, hence makeDefault() before QGuiApplication.
class VtkSurfaceFormat {
public:
    /// OpenGL 3.2 core profile, RGBA 8, depth 24, stencil 8, no multisampling.
    static QSurfaceFormat standard();
    /// Installs standard() as the application default; call before Q(Gui)Application.
    static void makeDefault();
};

} // namespace clab
