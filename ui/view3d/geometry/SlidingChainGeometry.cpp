#include "view3d/geometry/SlidingChainGeometry.h"

#include <vtkActor.h>
#include <vtkCellArray.h>
#include <vtkLinearExtrusionFilter.h>
#include <vtkNew.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkPolyDataNormals.h>
#include <vtkProperty.h>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace clab {

SlidingChainGeometry::SlidingChainGeometry(const SlidingChain& system)
    : ChainGeometry(system.links(), system.links() * system.linkLength(), false),
      radius_(system.edgeRadius())
{
    // The path moved inwards by a bob's radius: top y = −r, edge radius R − r, side x = R − r
    // (a sharp corner when the edge is smaller than a bob).
    const double length = chainLength(), r = bobRadius();
    const double inner = std::max(radius_ - r, 0.0), depth = length + radius_ + 0.1 * length;
    const Eigen::Vector2d centre(0.0, -radius_);
    outline_ = {{-1.1 * length, -depth}, {radius_ - r, -depth}};
    if (inner > 0.0) {
        const int arc = 24;
        for (int k = arc; k >= 0; --k) {
            const double phi = 0.5 * std::numbers::pi * k / arc; // from the side up to the top
            outline_.push_back(centre + inner * Eigen::Vector2d(std::sin(phi), std::cos(phi)));
        }
    } else {
        outline_.push_back({radius_ - r, -r});
    }
    outline_.push_back({-1.1 * length, -r});

    vtkNew<vtkPoints> points;
    vtkNew<vtkCellArray> polygon;
    polygon->InsertNextCell(static_cast<vtkIdType>(outline_.size()));
    for (const Eigen::Vector2d& p : outline_)
        polygon->InsertCellPoint(points->InsertNextPoint(p.x(), p.y(), -0.15 * length));
    vtkNew<vtkPolyData> profile;
    profile->SetPoints(points);
    profile->SetPolys(polygon);
    vtkNew<vtkLinearExtrusionFilter> extrude;
    extrude->SetInputData(profile);
    extrude->SetExtrusionTypeToVectorExtrusion();
    extrude->SetVector(0.0, 0.0, 0.3 * length);
    extrude->CappingOn();
    // Sharp edges where the faces meet, smooth shading round the edge.
    vtkNew<vtkPolyDataNormals> normals;
    normals->SetInputConnection(extrude->GetOutputPort());
    normals->SetFeatureAngle(30.0);
    normals->Update();
    vtkNew<vtkPolyData> table;
    table->DeepCopy(normals->GetOutput());
    addChainProp(surfaceActor(table, groundColor().darker(115), 0.1));
}

Eigen::AlignedBox3d SlidingChainGeometry::frameBox() const
{
    const double length = chainLength();
    return Eigen::AlignedBox3d(Eigen::Vector3d(-length, -length - radius_, -0.1 * length),
                               Eigen::Vector3d(radius_ + 0.3 * length, 0.1 * length, 0.1 * length));
}

QStringList SlidingChainGeometry::readouts(const TraceSample& sample) const
{
    QStringList lines = ChainGeometry::readouts(sample);
    if (sample.extra.size() >= 2) {
        lines << QStringLiteral("Over the edge: %1 m").arg(sample.extra[0], 0, 'f', 3);
        lines << QStringLiteral("Speed: %1 m/s").arg(sample.extra[1], 0, 'f', 3);
    }
    return lines;
}

} // namespace clab
