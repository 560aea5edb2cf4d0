#include "view3d/ArrowField.h"

#include <vtkActor.h>
#include <vtkArrowSource.h>
#include <vtkDoubleArray.h>
#include <vtkGlyph3DMapper.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkProperty.h>

#include <algorithm>
#include <cmath>

namespace clab {

namespace {
constexpr const char* kVectors = "arrow_vectors";
}

ArrowField::ArrowField()
    : points_(vtkSmartPointer<vtkPoints>::New()), vectors_(vtkSmartPointer<vtkDoubleArray>::New()),
      data_(vtkSmartPointer<vtkPolyData>::New()), actor_(vtkSmartPointer<vtkActor>::New())
{
    points_->SetDataTypeToDouble();
    vectors_->SetName(kVectors);
    vectors_->SetNumberOfComponents(3);
    data_->SetPoints(points_);
    data_->GetPointData()->AddArray(vectors_);

    // A unit arrow along +x, a little stouter than vtkArrowSource's default so that a
    // ten-pixel arrow still reads as one.
    vtkNew<vtkArrowSource> arrow;
    arrow->SetTipLength(0.35);
    arrow->SetTipRadius(0.14);
    arrow->SetShaftRadius(0.05);
    arrow->SetTipResolution(12);
    arrow->SetShaftResolution(8);
    vtkNew<vtkGlyph3DMapper> glyphs;
    glyphs->SetInputData(data_);
    glyphs->SetSourceConnection(arrow->GetOutputPort());
    glyphs->SetOrientationArray(kVectors);
    glyphs->SetOrientationModeToDirection();
    glyphs->SetScaleArray(kVectors);
    glyphs->SetScaleModeToScaleByMagnitude();
    glyphs->SetScaleFactor(1.0);
    glyphs->ScalarVisibilityOff();
    actor_->SetMapper(glyphs);
    actor_->PickableOff();
    vtkProperty* p = actor_->GetProperty();
    p->SetAmbient(0.3);
    p->SetDiffuse(0.7);
    p->SetSpecular(0.1);
    actor_->VisibilityOff();
}

vtkActor* ArrowField::actor() const
{
    return actor_;
}

void ArrowField::setColor(const QColor& color)
{
    actor_->GetProperty()->SetColor(color.redF(), color.greenF(), color.blueF());
}

void ArrowField::setEnabled(bool enabled)
{
    enabled_ = enabled;
    refreshVisibility();
}

void ArrowField::setMinimumLength(double length)
{
    minLength_ = std::max(length, 0.0);
}

void ArrowField::set(const std::vector<Eigen::Vector3d>& origins,
                     const std::vector<Eigen::Vector3d>& vectors)
{
    const vtkIdType n = static_cast<vtkIdType>(std::min(origins.size(), vectors.size()));
    points_->SetNumberOfPoints(n);
    vectors_->SetNumberOfTuples(n);
    anyLongEnough_ = false;
    for (vtkIdType i = 0; i < n; ++i) {
        const auto k = static_cast<std::size_t>(i);
        const bool drawn =
            origins[k].allFinite() && vectors[k].allFinite() && vectors[k].norm() > minLength_;
        // A point without an arrow stays (a zero glyph), so that point i is always body i.
        const Eigen::Vector3d v = drawn ? vectors[k] : Eigen::Vector3d::Zero();
        const Eigen::Vector3d at = origins[k].allFinite() ? origins[k] : Eigen::Vector3d::Zero();
        points_->SetPoint(i, at.data());
        vectors_->SetTuple(i, v.data());
        anyLongEnough_ = anyLongEnough_ || drawn;
    }
    points_->Modified();
    vectors_->Modified();
    data_->Modified();
    refreshVisibility();
}

void ArrowField::clear()
{
    set({}, {});
}

bool ArrowField::isDrawn() const
{
    return actor_->GetVisibility() != 0;
}

void ArrowField::refreshVisibility()
{
    actor_->SetVisibility(enabled_ && anyLongEnough_ ? 1 : 0);
}

int ArrowField::count() const
{
    return static_cast<int>(points_->GetNumberOfPoints());
}

Eigen::Vector3d ArrowField::origin(int i) const
{
    Eigen::Vector3d p;
    points_->GetPoint(i, p.data());
    return p;
}

Eigen::Vector3d ArrowField::vector(int i) const
{
    Eigen::Vector3d v;
    vectors_->GetTuple(i, v.data());
    return v;
}

} // namespace clab
