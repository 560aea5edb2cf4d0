#include "view3d/geometry/NonholonomicParticleGeometry.h"

#include <model/ConstraintLabError.h>
#include <integrate/Simulator.h>

#include <vtkActor.h>
#include <vtkCellArray.h>
#include <vtkNew.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkProperty.h>

#include <algorithm>
#include <cmath>

namespace clab {

namespace {

/// Appends a square patch centred at c, spanned by unit vectors e1, e2, with half side h.
void appendPatch(vtkPoints* points, vtkCellArray* quads, const Eigen::Vector3d& c,
                 const Eigen::Vector3d& e1, const Eigen::Vector3d& e2, double h)
{
    const vtkIdType base = points->GetNumberOfPoints();
    const Eigen::Vector3d corners[4] = {c - h * e1 - h * e2, c + h * e1 - h * e2,
                                        c + h * e1 + h * e2, c - h * e1 + h * e2};
    for (const Eigen::Vector3d& p : corners) {
        points->InsertNextPoint(p.data());
    }
    const vtkIdType ids[4] = {base, base + 1, base + 2, base + 3};
    quads->InsertNextCell(4, ids);
}

QColor patchColor()
{
    return QColor(0x8A, 0x9B, 0xB4);
}

} // namespace

NonholonomicParticleGeometry::NonholonomicParticleGeometry(const NonholonomicParticle& system)
    : dragFree_(system.withDrag(0.0))
{
    Eigen::VectorXd q0, qd0;
    system.initialState(q0, qd0);
    const Eigen::Vector3d p0 = bodyPosition(q0);
    Eigen::AlignedBox3d box(p0);
    box.extend(p0 + Eigen::Vector3d::Constant(0.5));
    box.extend(p0 - Eigen::Vector3d::Constant(0.5));
    build(box);
}

std::pair<Eigen::Vector3d, Eigen::Vector3d>
NonholonomicParticleGeometry::allowedDirections(double z)
{
    return {Eigen::Vector3d(1.0, z, 0.0).normalized(), Eigen::Vector3d::UnitZ()};
}

Eigen::Vector3d NonholonomicParticleGeometry::bodyPosition(const Eigen::VectorXd& q) const
{
    return {q[0], q[1], q[2]};
}

Eigen::Vector3d NonholonomicParticleGeometry::viewDirection() const
{
    return Eigen::Vector3d(0.9, 0.75, 1.25).normalized();
}

std::vector<SceneGeometry::LegendEntry> NonholonomicParticleGeometry::extraLegendEntries() const
{
    return {{QStringLiteral("allowed velocities  \u1E8F = z \u1E8B"), patchColor(),
             LegendEntry::Symbol::Patch}};
}

void NonholonomicParticleGeometry::fitToTrace(const Trace& trace)
{
    Eigen::AlignedBox3d box = motionBox(trace);
    if (box.isEmpty()) {
        return;
    }
    // The drag only shortens the path: the grid spans the drag-free motion over the same time,
    // and grows only for a path that still leaves it.
    const double duration = trace.samples.back().t - trace.samples.front().t;
    box.extend(dragFreeBox(duration));
    build(box);
}

const Eigen::AlignedBox3d& NonholonomicParticleGeometry::dragFreeBox(double duration)
{
    if (duration == dragFreeDuration_) {
        return dragFreeBox_;
    }
    dragFreeDuration_ = duration;
    dragFreeBox_.setEmpty();
    if (!(duration > 0.0)) {
        return dragFreeBox_;
    }
    try {
        Simulator simulator(dragFree_);
        SimulationOptions options;
        options.tEnd = dragFree_.initialTime() + duration;
        // A box, not a trace to show: a hundred samples and loose tolerances are plenty.
        options.dt = duration / 100.0;
        options.rtol = 1e-6;
        options.atol = 1e-9;
        dragFreeBox_ = motionBox(simulator.run(options));
    } catch (const ConstraintLabError&) {
        // Values the scene refuses give no reference; the run's own extent then decides.
    }
    return dragFreeBox_;
}

void NonholonomicParticleGeometry::build(const Eigen::AlignedBox3d& motion)
{
    clearProps();
    size_ = std::max(1e-3, motion.diagonal().norm());
    if (motion.diagonal().norm() < 0.5) {
        size_ = std::max(size_, 1.0);
    }
    // Pad the motion box so patches surround the path; a flat extent still gets one layer.
    const Eigen::Vector3d center = motion.center();
    const Eigen::Vector3d half =
        (0.5 * motion.diagonal()).cwiseMax(Eigen::Vector3d::Constant(0.08 * size_)) +
        Eigen::Vector3d::Constant(0.12 * size_);
    const double longest = half.maxCoeff();
    int n[3];
    for (int k = 0; k < 3; ++k) {
        n[k] = std::clamp(static_cast<int>(std::lround(4.0 * half[k] / longest)) + 1, 2, 5);
    }
    double spacing = 1e300;
    for (int k = 0; k < 3; ++k) {
        spacing = std::min(spacing, 2.0 * half[k] / (n[k] - 1));
    }
    patchSize_ = std::min(0.32 * spacing, 0.09 * size_);

    vtkNew<vtkPoints> points;
    vtkNew<vtkCellArray> quads;
    for (int i = 0; i < n[0]; ++i) {
        for (int j = 0; j < n[1]; ++j) {
            for (int k = 0; k < n[2]; ++k) {
                const Eigen::Vector3d c = center - half +
                                          Eigen::Vector3d(2.0 * half.x() * i / (n[0] - 1),
                                                          2.0 * half.y() * j / (n[1] - 1),
                                                          2.0 * half.z() * k / (n[2] - 1));
                const auto [e1, e2] = allowedDirections(c.z());
                appendPatch(points, quads, c, e1, e2, patchSize_);
            }
        }
    }
    vtkNew<vtkPolyData> patches;
    patches->SetPoints(points);
    patches->SetPolys(quads);
    QColor color = patchColor();
    color.setAlphaF(0.35);
    auto grid = surfaceActor(patches, color, 0.1);
    grid->GetProperty()->BackfaceCullingOff();
    grid->GetProperty()->EdgeVisibilityOn();
    grid->GetProperty()->SetEdgeColor(0.55, 0.62, 0.71);
    grid->GetProperty()->SetLineWidth(1.0f);
    addProp(grid);

    // The plane of allowed velocities at the particle, drawn larger and stronger.
    vtkNew<vtkPoints> cp;
    vtkNew<vtkCellArray> cq;
    appendPatch(cp, cq, Eigen::Vector3d::Zero(), Eigen::Vector3d::UnitX(), Eigen::Vector3d::UnitZ(),
                1.0);
    vtkNew<vtkPolyData> current;
    current->SetPoints(cp);
    current->SetPolys(cq);
    QColor strong = patchColor().darker(125);
    strong.setAlphaF(0.55);
    currentPatch_ = surfaceActor(current, strong, 0.1);
    currentPatch_->GetProperty()->EdgeVisibilityOn();
    currentPatch_->GetProperty()->SetEdgeColor(0.20, 0.25, 0.33);
    currentPatch_->GetProperty()->SetLineWidth(2.0f);
    currentPatch_->SetScale(2.2 * patchSize_);
    addProp(currentPatch_);

    if (!particle_) {
        particle_ = sphereActor(1.0, bodyColor());
    }
    particle_->SetScale(bodyRadius());
    addProp(particle_);
}

void NonholonomicParticleGeometry::update(const TraceSample& sample)
{
    const Eigen::Vector3d p = bodyPosition(sample.q);
    particle_->SetPosition(p.x(), p.y(), p.z());
    // Orient the unit patch: its x axis along (1, z, 0), its z axis along (0, 0, 1).
    const double tilt = std::atan(sample.q[2]) * 180.0 / 3.14159265358979323846;
    currentPatch_->SetOrientation(0.0, 0.0, tilt);
    currentPatch_->SetPosition(p.x(), p.y(), p.z());
}

} // namespace clab
