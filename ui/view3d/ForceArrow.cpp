#include "view3d/ForceArrow.h"

#include <vtkActor.h>
#include <vtkAppendPolyData.h>
#include <vtkArrowSource.h>
#include <vtkCylinderSource.h>
#include <vtkMatrix4x4.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkTransform.h>
#include <vtkTransformPolyDataFilter.h>

#include <algorithm>
#include <cmath>

namespace clab {

ForceArrow::ForceArrow()
    : source_(vtkSmartPointer<vtkArrowSource>::New()), actor_(vtkSmartPointer<vtkActor>::New()),
      matrix_(vtkSmartPointer<vtkMatrix4x4>::New()),
      markShape_(vtkSmartPointer<vtkPolyData>::New()), mark_(vtkSmartPointer<vtkActor>::New()),
      markMatrix_(vtkSmartPointer<vtkMatrix4x4>::New())
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

    auto markMapper = vtkSmartPointer<vtkPolyDataMapper>::New();
    markMapper->SetInputData(markShape_);
    mark_->SetMapper(markMapper);
    mark_->SetUserMatrix(markMatrix_);
    mark_->PickableOff();
    // Flat white: it reads as a gap in the shaft, whatever the light.
    vtkProperty* m = mark_->GetProperty();
    m->SetColor(1.0, 1.0, 1.0);
    m->SetAmbient(1.0);
    m->SetDiffuse(0.0);
    m->SetSpecular(0.0);
    mark_->VisibilityOff();
    rebuildBreakMark();
}

vtkActor* ForceArrow::actor() const
{
    return actor_;
}

vtkActor* ForceArrow::breakMark() const
{
    return mark_;
}

void ForceArrow::addTo(vtkRenderer* renderer) const
{
    renderer->AddViewProp(actor_);
    renderer->AddViewProp(mark_);
}

void ForceArrow::removeFrom(vtkRenderer* renderer) const
{
    renderer->RemoveViewProp(actor_);
    renderer->RemoveViewProp(mark_);
}

void ForceArrow::setCut(bool cut)
{
    cut_ = cut;
    refreshVisibility();
}

bool ForceArrow::isBreakMarkDrawn() const
{
    return mark_->GetVisibility() != 0;
}

void ForceArrow::rebuildBreakMark()
{
    // Two thin discs round the shaft, their planes slanted 25° off the perpendicular: seen side
    // on, two strokes "//" across the shaft.
    auto strokes = vtkSmartPointer<vtkAppendPolyData>::New();
    for (double offset : {-0.7, 0.7}) {
        auto disc = vtkSmartPointer<vtkCylinderSource>::New();
        disc->SetRadius(1.8 * shaftRadius_);
        disc->SetHeight(0.6 * shaftRadius_);
        disc->SetResolution(24);
        auto transform = vtkSmartPointer<vtkTransform>::New();
        transform->Translate(offset * shaftRadius_, 0.0, 0.0);
        // The cylinder's axis is +y; turned to (cos 25°, −sin 25°, 0), nearly along the arrow.
        transform->RotateZ(-115.0);
        auto placed = vtkSmartPointer<vtkTransformPolyDataFilter>::New();
        placed->SetInputConnection(disc->GetOutputPort());
        placed->SetTransform(transform);
        strokes->AddInputConnection(placed->GetOutputPort());
    }
    strokes->Update();
    markShape_->DeepCopy(strokes->GetOutput());
}

void ForceArrow::placeBreakMark()
{
    const double length = vector_.norm();
    // Halfway along the shaft, in the arrow's frame without its scaling.
    const double along = 0.5 * (length - std::min(tipLength_, 0.6 * length));
    for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 3; ++c)
            markMatrix_->SetElement(r, c, matrix_->GetElement(r, c) / length);
        markMatrix_->SetElement(r, 3, origin_[r] + along * vector_[r] / length);
    }
    markMatrix_->Modified();
    mark_->Modified();
}

void ForceArrow::setLengthened(bool lengthened)
{
    lengthened_ = lengthened;
    // Faint, as a thing not to be read by its length; its label gives the magnitude.
    actor_->GetProperty()->SetOpacity(lengthened ? 0.6 : 1.0);
}

void ForceArrow::setColor(const QColor& color)
{
    actor_->GetProperty()->SetColor(color.redF(), color.greenF(), color.blueF());
}

void ForceArrow::setDimensions(double shaftRadius, double tipRadius, double tipLength)
{
    const bool thicker = shaftRadius != shaftRadius_;
    shaftRadius_ = shaftRadius;
    tipRadius_ = tipRadius;
    tipLength_ = tipLength;
    if (thicker)
        rebuildBreakMark();
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
    setLengthened(false);
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
    mark_->SetVisibility(drawn && cut_ ? 1 : 0);
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
    placeBreakMark();
}

} // namespace clab
