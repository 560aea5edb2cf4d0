#include "view3d/ForceArrow.h"

#include <vtkActor.h>
#include <vtkArrowSource.h>
#include <vtkMatrix4x4.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>

#include <algorithm>
#include <cmath>

namespace clab {

ForceArrow::ForceArrow()
    : source_(vtkSmartPointer<vtkArrowSource>::New()), actor_(vtkSmartPointer<vtkActor>::New()),
      matrix_(vtkSmartPointer<vtkMatrix4x4>::New())
{
    source_->SetTipResolution(40);
    source_->SetShaftResolution(28);
    auto mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
    mapper->SetInputConnection(source_->GetOutputPort());
    actor_->SetMapper(mapper);
    actor_->SetUserMatrix(matrix_);
    actor_->PickableOff();
    vtkProperty* p = actor_->GetProperty();
    p->SetInterpolationToPhong();
    p->SetAmbient(0.3);
    p->SetDiffuse(0.7);
    p->SetSpecular(0.15);
    p->SetSpecularPower(20.0);
    actor_->VisibilityOff();
}

vtkActor* ForceArrow::actor() const
{
    return actor_;
}

void ForceArrow::setColor(const QColor& color)
{
    actor_->GetProperty()->SetColor(color.redF(), color.greenF(), color.blueF());
}

void ForceArrow::setDimensions(double shaftRadius, double tipRadius, double tipLength)
{
    shaftRadius_ = shaftRadius;
    tipRadius_ = tipRadius;
    tipLength_ = tipLength;
    if (hasVector_) {
        set(origin_, vector_);
    }
}

void ForceArrow::setMinimumLength(double length)
{
    minLength_ = std::max(length, 0.0);
    refreshVisibility();
}

void ForceArrow::setEnabled(bool enabled)
{
    enabled_ = enabled;
    refreshVisibility();
}

void ForceArrow::clear()
{
    hasVector_ = false;
    vector_.setZero();
    refreshVisibility();
}

bool ForceArrow::isDrawn() const
{
    return actor_->GetVisibility() != 0;
}

void ForceArrow::refreshVisibility()
{
    const double length = vector_.norm();
    const bool drawn = enabled_ && hasVector_ && std::isfinite(length) && length > minLength_;
    actor_->SetVisibility(drawn ? 1 : 0);
}

void ForceArrow::set(const Eigen::Vector3d& origin, const Eigen::Vector3d& vector)
{
    origin_ = origin;
    vector_ = vector;
    hasVector_ = origin.allFinite() && vector.allFinite();
    refreshVisibility();
    if (!isDrawn()) {
        return;
    }
    const double length = vector.norm();
    // vtkArrowSource is a unit arrow along +x: express the absolute dimensions relative to the
    // length, and let short arrows shrink their tip so that the head never exceeds the arrow.
    const double tip = std::min(tipLength_, 0.6 * length);
    const double shrink = tip / tipLength_;
    source_->SetTipLength(tip / length);
    source_->SetTipRadius(std::min(10.0, tipRadius_ * shrink / length));
    source_->SetShaftRadius(std::min(5.0, shaftRadius_ * shrink / length));

    // Orthonormal frame with x along the vector; columns scaled by the length.
    const Eigen::Vector3d x = vector / length;
    const Eigen::Vector3d helper =
        std::abs(x.z()) < 0.9 ? Eigen::Vector3d::UnitZ() : Eigen::Vector3d::UnitX();
    const Eigen::Vector3d y = helper.cross(x).normalized();
    const Eigen::Vector3d z = x.cross(y);
    for (int r = 0; r < 3; ++r) {
        matrix_->SetElement(r, 0, x[r] * length);
        matrix_->SetElement(r, 1, y[r] * length);
        matrix_->SetElement(r, 2, z[r] * length);
        matrix_->SetElement(r, 3, origin[r]);
    }
    matrix_->SetElement(3, 0, 0.0);
    matrix_->SetElement(3, 1, 0.0);
    matrix_->SetElement(3, 2, 0.0);
    matrix_->SetElement(3, 3, 1.0);
    matrix_->Modified();
    actor_->Modified();
}

} // namespace clab
