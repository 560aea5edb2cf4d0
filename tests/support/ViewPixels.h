#pragma once
// Where a scene point is in the main window's 3D view, for GUI tests that press on a body.

#include <MainWindow.h>
#include <render/VtkOpenGLWindow.h>
#include <view3d/SceneView.h>
#include <view3d/SceneViewContent.h>

#include <Eigen/Core>
#include <QPoint>
#include <QPointF>

#include <vtkRenderWindow.h>
#include <vtkRenderer.h>

namespace clab::testing {

/// Where a scene point is in the view's window, in logical pixels (Qt's, top left).
inline QPoint pixelOf(MainWindow& window, const Eigen::Vector3d& p)
{
    VtkOpenGLWindow* gl = window.sceneView()->openGLWindow();
    vtkRenderer* renderer = window.sceneView()->content().renderer();
    renderer->SetWorldPoint(p.x(), p.y(), p.z(), 1.0);
    renderer->WorldToDisplay();
    const double* d = renderer->GetDisplayPoint();
    const double ratio = gl->devicePixelRatio();
    const int height = renderer->GetRenderWindow()->GetSize()[1];
    return QPointF(d[0] / ratio, (height - 1 - d[1]) / ratio).toPoint();
}

} // namespace clab::testing
