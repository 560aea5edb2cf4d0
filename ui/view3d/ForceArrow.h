#pragma once

#include <Eigen/Dense>
#include <QColor>

#include <vtkSmartPointer.h>

class vtkActor;
class vtkArrowSource;
class vtkMatrix4x4;
class vtkPolyData;
class vtkRenderer;

namespace clab {

/// \brief A shaded 3D arrow of constant thickness whose length follows a vector.
///
/// Shaft radius, tip radius and tip length are absolute (scene units), so a long and a short
/// arrow look alike apart from their length; arrows shorter than `minLength` are not drawn.
/// An arrow drawn shorter than its force (cut, not to scale) carries a break mark, two slanted
/// strokes across its shaft, as a broken axis does.
class ForceArrow {
public:
    ForceArrow();

    vtkActor* actor() const;
    /// The break mark's actor, shown while the arrow is drawn and cut.
    vtkActor* breakMark() const;
    /// Adds the arrow and its break mark to `renderer` (removes them).
    void addTo(vtkRenderer* renderer) const;
    void removeFrom(vtkRenderer* renderer) const;

    void setColor(const QColor& color);
    /// Thickness of the arrow in scene units.
    void setDimensions(double shaftRadius, double tipRadius, double tipLength);
    /// Vectors shorter than this (scene units) show no arrow.
    void setMinimumLength(double length);
    /// The user's switch; a disabled arrow is never drawn.
    void setEnabled(bool enabled);
    bool isEnabled() const { return enabled_; }

    /// Places the arrow from `origin` along `vector` (scene units).
    void set(const Eigen::Vector3d& origin, const Eigen::Vector3d& vector);
    /// Hides the arrow until the next set().
    void clear();
    /// Whether the vector of the last set() is shorter than the force it stands for.
    void setCut(bool cut);
    bool isCut() const { return cut_; }
    /// Whether the vector of the last set() is longer than its force (a force too small to
    /// read at its scale, drawn at the shortest length that reads): the arrow is drawn faint.
    void setLengthened(bool lengthened);
    bool isLengthened() const { return lengthened_; }
    /// True when the break mark is on screen (the arrow drawn and cut).
    bool isBreakMarkDrawn() const;

    /// True when the arrow is currently on screen (enabled and long enough).
    bool isDrawn() const;
    /// Tip position of the last set() (origin + vector).
    Eigen::Vector3d tip() const { return origin_ + vector_; }
    /// The vector of the last set() (scene units): the arrow runs from tip() - vector() to tip().
    const Eigen::Vector3d& vector() const { return vector_; }
    /// Length of the last set() vector (scene units).
    double length() const { return vector_.norm(); }

private:
    void refreshVisibility();
    /// The two strokes in the arrow's frame (x along the arrow), sized to the shaft.
    void rebuildBreakMark();
    void placeBreakMark();

    vtkSmartPointer<vtkArrowSource> source_;
    vtkSmartPointer<vtkActor> actor_;
    vtkSmartPointer<vtkMatrix4x4> matrix_;
    vtkSmartPointer<vtkPolyData> markShape_;
    vtkSmartPointer<vtkActor> mark_;
    vtkSmartPointer<vtkMatrix4x4> markMatrix_;
    bool cut_ = false;
    bool lengthened_ = false;
    double shaftRadius_ = 0.01;
    double tipRadius_ = 0.03;
    double tipLength_ = 0.08;
    double minLength_ = 1e-9;
    bool enabled_ = true;
    bool hasVector_ = false;
    Eigen::Vector3d origin_ = Eigen::Vector3d::Zero();
    Eigen::Vector3d vector_ = Eigen::Vector3d::Zero();
};

} // namespace clab
