#include "view3d/geometry/RingWithFrictionGeometry.h"

#include <model/ConstraintLabError.h>

#include <vtkActor.h>
#include <vtkNew.h>
#include <vtkParametricFunctionSource.h>
#include <vtkParametricTorus.h>
#include <vtkPolyData.h>

#include <cmath>

namespace clab {

RingWithFrictionGeometry::RingWithFrictionGeometry(const RingWithFriction& system)
    : radius_(system.radius())
{
    if (!(radius_ > 0.0)) {
        throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter,
                                 "RingWithFrictionGeometry: radius must be positive, got " +
                                     std::to_string(radius_));
    }
    const double R = radius_;
    // The torus of vtkParametricTorus lies in the x–y plane: exactly the ring's plane.
    vtkNew<vtkParametricTorus> torus;
    torus->SetRingRadius(R);
    torus->SetCrossSectionRadius(tubeRadius());
    vtkNew<vtkParametricFunctionSource> source;
    source->SetParametricFunction(torus);
    source->SetUResolution(160);
    source->SetVResolution(24);
    source->SetScalarModeToNone();
    source->GenerateTextureCoordinatesOff();
    source->Update();
    addProp(surfaceActor(source->GetOutput(), constraintColor(), 0.45));

    // A stand behind the ring's plane: a post from the floor up to a clamp at the bottom of
    // the ring, so the particle passes in front of it.
    const double back = -0.12 * R;
    const double floorY = -1.3 * R;
    const QColor stand = constraintColor().darker(115);
    addProp(
        rodActor(Eigen::Vector3d(0, floorY, back), Eigen::Vector3d(0, -R, back), 0.03 * R, stand));
    addProp(rodActor(Eigen::Vector3d(0, -R, back), Eigen::Vector3d(0, -R, -0.01 * R), 0.022 * R,
                     stand));
    addProp(boxActor(Eigen::AlignedBox3d(Eigen::Vector3d(-1.45 * R, floorY - 0.05 * R, -0.7 * R),
                                         Eigen::Vector3d(1.45 * R, floorY, 0.6 * R)),
                     groundColor()));

    particle_ = sphereActor(bodyRadius(), bodyColor());
    addProp(particle_);
}

Eigen::Vector3d RingWithFrictionGeometry::bodyPosition(const Eigen::VectorXd& q) const
{
    return {q[0], q[1], 0.0};
}

Eigen::Vector3d RingWithFrictionGeometry::trailPoint(const Eigen::VectorXd& q) const
{
    // Just outside the tube, radially: a trail on (or a little in front of) the tube's surface
    // fights it for depth and shows as speckle from some angles; out here it never touches it.
    const Eigen::Vector3d p = bodyPosition(q);
    const double rho = std::hypot(p.x(), p.y());
    const double outside = radius_ + 1.8 * tubeRadius();
    return rho > 0.0 ? Eigen::Vector3d(p.x() * outside / rho, p.y() * outside / rho, 0.0) : p;
}

Eigen::Vector3d RingWithFrictionGeometry::arrowStart(const TraceSample& sample, ForceKind kind,
                                                     const Eigen::Vector3d& drawn) const
{
    // Tangent to the ring, from the body's outermost point: the arrow's line then keeps off
    // the tube (the body is thicker than the tube and the arrow's shaft together).
    const Eigen::Vector3d p = bodyPosition(sample.q);
    const double rho = p.norm();
    if (kind != ForceKind::NonIdealConstraint || !(rho > 0.0)) {
        return SceneGeometry::arrowStart(sample, kind, drawn);
    }
    return p / rho;
}

void RingWithFrictionGeometry::update(const TraceSample& sample)
{
    const Eigen::Vector3d p = bodyPosition(sample.q);
    particle_->SetPosition(p.x(), p.y(), p.z());
}

} // namespace clab
