#include "view3d/geometry/AcatastaticParticleGeometry.h"

#include <vtkActor.h>
#include <vtkCellArray.h>
#include <vtkNew.h>
#include <vtkPlaneSource.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>

#include <algorithm>
#include <cmath>

namespace clab {

namespace {

QColor directionColor()
{
    return QColor(0x4A, 0x55, 0x66);
}

} // namespace

AcatastaticParticleGeometry::AcatastaticParticleGeometry(const AcatastaticParticle& system)
    : directionLine_(vtkSmartPointer<vtkPolyData>::New())
{
    Eigen::VectorXd q0, qd0;
    system.initialState(q0, qd0);
    const Eigen::Vector3d p0 = bodyPosition(q0);
    build(Eigen::AlignedBox3d(p0 - Eigen::Vector3d(0.5, 0.5, 0.0),
                              p0 + Eigen::Vector3d(0.5, 0.5, 0.0)));
}

Eigen::Vector3d AcatastaticParticleGeometry::allowedDirection(double t)
{
    return Eigen::Vector3d(t, 1.0, 0.0).normalized();
}

Eigen::Vector3d AcatastaticParticleGeometry::bodyPosition(const Eigen::VectorXd& q) const
{
    return {q[0], q[1], 0.0};
}

Eigen::Vector3d AcatastaticParticleGeometry::viewDirection() const
{
    return Eigen::Vector3d(0.0, 0.0, 1.0);
}

std::vector<SceneGeometry::LegendEntry> AcatastaticParticleGeometry::extraLegendEntries() const
{
    return {{QStringLiteral("allowed direction  \u1E8B \u2212 t \u1E8F = a(t)"), directionColor(),
             LegendEntry::Symbol::Line}};
}

void AcatastaticParticleGeometry::fitToTrace(const Trace& trace)
{
    const Eigen::AlignedBox3d box = motionBox(trace);
    if (!box.isEmpty()) {
        build(box);
    }
}

void AcatastaticParticleGeometry::build(const Eigen::AlignedBox3d& motion)
{
    clearProps();
    const Eigen::Vector3d d = motion.diagonal();
    size_ = std::max({d.x(), d.y(), 1e-3});
    if (size_ < 0.5) {
        size_ = 1.0;
    }
    // Graph paper behind the motion: square cells of a round size.
    const double cell = std::pow(10.0, std::floor(std::log10(size_ / 4.0)));
    const double step = size_ / cell > 20.0 ? 5.0 * cell : (size_ / cell > 8.0 ? 2.0 * cell : cell);
    const double pad = 0.15 * size_;
    const double x0 = std::floor((motion.min().x() - pad) / step) * step;
    const double x1 = std::ceil((motion.max().x() + pad) / step) * step;
    const double y0 = std::floor((motion.min().y() - pad) / step) * step;
    const double y1 = std::ceil((motion.max().y() + pad) / step) * step;
    vtkNew<vtkPlaneSource> plane;
    plane->SetOrigin(x0, y0, -0.002 * size_);
    plane->SetPoint1(x1, y0, -0.002 * size_);
    plane->SetPoint2(x0, y1, -0.002 * size_);
    plane->SetXResolution(std::max(1, static_cast<int>(std::lround((x1 - x0) / step))));
    plane->SetYResolution(std::max(1, static_cast<int>(std::lround((y1 - y0) / step))));
    plane->Update();
    auto paper = surfaceActor(plane->GetOutput(), QColor(0xFA, 0xFB, 0xFC), 0.0);
    paper->GetProperty()->SetAmbient(0.9);
    paper->GetProperty()->SetDiffuse(0.1);
    addProp(paper);
    auto grid = surfaceActor(plane->GetOutput(), QColor(0xC8, 0xD0, 0xDA), 0.0);
    grid->GetProperty()->SetRepresentationToWireframe();
    grid->GetProperty()->LightingOff();
    grid->GetProperty()->SetLineWidth(1.0f);
    grid->SetPosition(0.0, 0.0, 0.001 * size_);
    addProp(grid);

    directionActor_ = vtkSmartPointer<vtkActor>::New();
    auto mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
    mapper->SetInputData(directionLine_);
    directionActor_->SetMapper(mapper);
    vtkProperty* p = directionActor_->GetProperty();
    p->SetColor(directionColor().redF(), directionColor().greenF(), directionColor().blueF());
    p->SetLineWidth(3.0f);
    p->LightingOff();
    addProp(directionActor_);

    if (!particle_) {
        particle_ = sphereActor(1.0, bodyColor());
    }
    particle_->SetScale(bodyRadius());
    addProp(particle_);
}

void AcatastaticParticleGeometry::update(const TraceSample& sample)
{
    const Eigen::Vector3d p = bodyPosition(sample.q);
    particle_->SetPosition(p.x(), p.y(), p.z());
    const Eigen::Vector3d d = allowedDirection(sample.t);
    // Dashes, so the direction is not mistaken for the trail.
    const double h = 0.45 * size_;
    const double dash = 0.035 * size_;
    const double period = 0.06 * size_;
    vtkNew<vtkPoints> points;
    vtkNew<vtkCellArray> lines;
    for (double s = -h; s < h; s += period) {
        const Eigen::Vector3d a = p + s * d;
        const Eigen::Vector3d b = p + std::min(s + dash, h) * d;
        const vtkIdType ia = points->InsertNextPoint(a.x(), a.y(), a.z());
        const vtkIdType ib = points->InsertNextPoint(b.x(), b.y(), b.z());
        const vtkIdType ids[2] = {ia, ib};
        lines->InsertNextCell(2, ids);
    }
    directionLine_->SetPoints(points);
    directionLine_->SetLines(lines);
    directionLine_->Modified();
}

} // namespace clab
