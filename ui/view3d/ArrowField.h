#pragma once

#include <Eigen/Dense>
#include <QColor>

#include <vtkSmartPointer.h>

#include <vector>

class vtkActor;
class vtkDoubleArray;
class vtkPoints;
class vtkPolyData;

namespace clab {

/// \brief Many small arrows of one colour (one force at many bodies) as the glyphs of one
/// vtkGlyph3DMapper: one actor however many arrows, each oriented and scaled by its vector.
///
/// Unlike ForceArrow the thickness follows the length (a quiver plot): a small force is a small
/// arrow. Vectors shorter than the minimum length get no arrow.
class ArrowField {
public:
    ArrowField();

    vtkActor* actor() const;

    void setColor(const QColor& color);
    /// The user's switch; a disabled field is never drawn.
    void setEnabled(bool enabled);
    bool isEnabled() const { return enabled_; }
    /// Vectors shorter than this (scene units) show no arrow.
    void setMinimumLength(double length);

    /// One arrow from origins[i] along vectors[i] (scene units); the two lists are parallel.
    void set(const std::vector<Eigen::Vector3d>& origins,
             const std::vector<Eigen::Vector3d>& vectors);
    /// Hides the field until the next set().
    void clear();

    /// True when the field is on screen (enabled, and at least one arrow long enough).
    bool isDrawn() const;
    /// Glyph points as the mapper draws them: where arrow i starts and its vector (scene units; a
    /// zero vector for one below the minimum length).
    int count() const;
    Eigen::Vector3d origin(int i) const;
    Eigen::Vector3d vector(int i) const;

private:
    void refreshVisibility();

    vtkSmartPointer<vtkPoints> points_;
    vtkSmartPointer<vtkDoubleArray> vectors_;
    vtkSmartPointer<vtkPolyData> data_;
    vtkSmartPointer<vtkActor> actor_;
    double minLength_ = 0.0;
    bool enabled_ = true;
    bool anyLongEnough_ = false;
};

} // namespace clab
