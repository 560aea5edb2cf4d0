#include "view3d/TrailActor.h"

#include <vtkActor.h>
#include <vtkCellArray.h>
#include <vtkIdTypeArray.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkUnsignedCharArray.h>

#include <algorithm>

namespace clab {

TrailActor::TrailActor()
    : points_(vtkSmartPointer<vtkPoints>::New()), lines_(vtkSmartPointer<vtkCellArray>::New()),
      colors_(vtkSmartPointer<vtkUnsignedCharArray>::New()),
      polyData_(vtkSmartPointer<vtkPolyData>::New()), actor_(vtkSmartPointer<vtkActor>::New())
{
    points_->SetDataTypeToDouble();
    colors_->SetNumberOfComponents(3);
    colors_->SetName("trail_colors");
    polyData_->SetPoints(points_);
    polyData_->SetLines(lines_);
    polyData_->GetPointData()->SetScalars(colors_);
    auto mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
    mapper->SetInputData(polyData_);
    mapper->SetColorModeToDirectScalars();
    mapper->ScalarVisibilityOn();
    actor_->SetMapper(mapper);
    actor_->PickableOff();
    vtkProperty* p = actor_->GetProperty();
    p->SetLineWidth(4.0);
    // Flat colour: shading a 4-pixel line only adds glints that read as a second line.
    p->LightingOff();
    actor_->VisibilityOff();
}

vtkActor* TrailActor::actor() const
{
    return actor_;
}

void TrailActor::setPath(const std::vector<Eigen::Vector3d>& points)
{
    path_ = points;
    points_->SetNumberOfPoints(static_cast<vtkIdType>(path_.size()));
    for (std::size_t i = 0; i < path_.size(); ++i) {
        points_->SetPoint(static_cast<vtkIdType>(i), path_[i].data());
    }
    points_->Modified();
    colors_->SetNumberOfTuples(static_cast<vtkIdType>(path_.size()));
    head_ = std::min(head_, path_.size());
    rebuild();
}

void TrailActor::setHead(std::size_t count)
{
    count = std::min(count, path_.size());
    if (count == head_) {
        return;
    }
    head_ = count;
    rebuild();
}

void TrailActor::setColors(const QColor& color, const QColor& fadeTo, double tailStrength)
{
    color_ = color;
    fadeTo_ = fadeTo;
    tailStrength_ = std::clamp(tailStrength, 0.0, 1.0);
    rebuild();
}

void TrailActor::setLineWidth(double width)
{
    actor_->GetProperty()->SetLineWidth(static_cast<float>(width));
}

Eigen::AlignedBox3d TrailActor::bounds() const
{
    Eigen::AlignedBox3d box;
    for (const Eigen::Vector3d& p : path_) {
        box.extend(p);
    }
    return box;
}

void TrailActor::rebuild()
{
    const vtkIdType n = static_cast<vtkIdType>(head_);
    // One polyline through the first n points: offsets {0, n}, connectivity 0..n-1.
    auto offsets = vtkSmartPointer<vtkIdTypeArray>::New();
    auto connectivity = vtkSmartPointer<vtkIdTypeArray>::New();
    if (n >= 2) {
        offsets->SetNumberOfValues(2);
        offsets->SetValue(0, 0);
        offsets->SetValue(1, n);
        connectivity->SetNumberOfValues(n);
        for (vtkIdType i = 0; i < n; ++i) {
            connectivity->SetValue(i, i);
        }
    } else {
        offsets->SetNumberOfValues(1);
        offsets->SetValue(0, 0);
    }
    lines_->SetData(offsets, connectivity);
    lines_->Modified();

    // The newest point has the full colour; older ones blend towards the background.
    const double c[3] = {color_.redF(), color_.greenF(), color_.blueF()};
    const double f[3] = {fadeTo_.redF(), fadeTo_.greenF(), fadeTo_.blueF()};
    for (vtkIdType i = 0; i < n; ++i) {
        const double age = n > 1 ? static_cast<double>(i) / static_cast<double>(n - 1) : 1.0;
        const double strength = tailStrength_ + (1.0 - tailStrength_) * age;
        unsigned char rgb[3];
        for (int k = 0; k < 3; ++k) {
            const double v = f[k] + (c[k] - f[k]) * strength;
            rgb[k] = static_cast<unsigned char>(std::clamp(v * 255.0 + 0.5, 0.0, 255.0));
        }
        colors_->SetTypedTuple(i, rgb);
    }
    colors_->Modified();
    polyData_->Modified();
    actor_->SetVisibility(n >= 2 ? 1 : 0);
}

} // namespace clab
