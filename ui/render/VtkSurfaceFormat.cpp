#include "render/VtkSurfaceFormat.h"

namespace clab {

QSurfaceFormat VtkSurfaceFormat::standard()
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
    // VTK renders into its own multisampled framebuffer; the window's does not need samples.
    format.setSamples(0);
    return format;
}

void VtkSurfaceFormat::makeDefault()
{
    QSurfaceFormat::setDefaultFormat(standard());
}

} // namespace clab
