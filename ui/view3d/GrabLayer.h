#pragma once

#include "view3d/ForceArrow.h"

#include <Eigen/Dense>
#include <QColor>

#include <vtkSmartPointer.h>

class vtkActor;
class vtkRenderer;
class vtkSphereSource;

namespace clab {

/// \brief What the 3D view draws of a hand on a body (BodyGrab): a ring around the body that
/// can be grabbed (hover) or is held, the hand's target and, while the run goes on, the spring's
/// force as an arrow of its own.
class GrabLayer {
public:
    GrabLayer();
    void addTo(vtkRenderer* renderer) const;
    void removeFrom(vtkRenderer* renderer) const;

    /// Marks the body at `point` (radius `radius`, scene units); held: in the held colour.
    void highlight(const Eigen::Vector3d& point, double radius, bool held);
    void clearHighlight();
    bool isHighlighted() const;
    /// The hand at `target`, and the spring's arrow from `point` (`arrow` in scene units, none
    /// when zero).
    void showHand(const Eigen::Vector3d& target, const Eigen::Vector3d& point,
                  const Eigen::Vector3d& arrow, double size);
    void clearHand();
    bool isSpringDrawn() const { return spring_.isDrawn(); }

    /// Colours: the legend and the docs name them.
    static QColor hoverColor() { return QColor(0xF2, 0xA9, 0x00); }
    static QColor springColor() { return QColor(0xC2, 0x18, 0x5B); }

private:
    vtkSmartPointer<vtkSphereSource> ringShape_;
    vtkSmartPointer<vtkActor> ring_;
    vtkSmartPointer<vtkSphereSource> handShape_;
    vtkSmartPointer<vtkActor> hand_;
    ForceArrow spring_;
};

} // namespace clab
