#pragma once

#include <Eigen/Core>
#include <QColor>

#include <vtkSmartPointer.h>

#include <string>

class vtkCoordinate;
class vtkTextActor;
class vtkTextProperty;
class vtkViewport;

namespace clab {

/// \brief A text label pinned to a point of the scene, drawn as 2D overlay text.
///
/// Not a vtkBillboardTextActor3D: that is translucent 3D geometry, and one such prop makes VTK
/// run its order-independent translucency pass over the whole view, which under a software
/// renderer costs about half a frame. The label keeps its pixel size, faces the viewer and is
/// drawn on top of the scene; an optional pixel offset moves it off its point.
class WorldLabel {
public:
    WorldLabel();

    /// The prop to add to a renderer.
    vtkTextActor* actor() const;
    vtkTextProperty* textProperty() const;
    /// The style of a label on the overlay layer: the view's font, bold, `color` on a light
    /// backing that keeps it legible over the body and the trail; hidden until shown.
    void styleAsOverlay(const QColor& color);
    void setText(const std::string& text);
    void setPosition(const Eigen::Vector3d& point);
    /// Offset from the point in pixels (x right, y up).
    void setPixelOffset(double dx, double dy);
    /// Where the point is in the viewport, in display pixels.
    Eigen::Vector2d anchorOnScreen(vtkViewport* viewport) const;

private:
    vtkSmartPointer<vtkCoordinate> anchor_;
    vtkSmartPointer<vtkTextActor> actor_;
};

} // namespace clab
