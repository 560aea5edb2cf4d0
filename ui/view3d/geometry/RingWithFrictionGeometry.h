#pragma once

#include "view3d/geometry/SceneGeometry.h"

#include <scenes/RingWithFriction.h>

namespace clab {

/// \brief Particle on a vertical ring: a torus of the given radius in the x–y plane on a stand,
/// the particle as a sphere.
class RingWithFrictionGeometry : public SceneGeometry {
public:
    explicit RingWithFrictionGeometry(const RingWithFriction& system);

    void update(const TraceSample& sample) override;
    Eigen::Vector3d bodyPosition(const Eigen::VectorXd& q) const override;
    /// The trail runs just in front of the ring as seen from the framing camera.
    Eigen::Vector3d trailPoint(const Eigen::VectorXd& q) const override;
    /// Friction runs along the tube: its arrow starts on the body's outer side, beside the tube.
    Eigen::Vector3d arrowStart(const TraceSample& sample, ForceKind kind,
                               const Eigen::Vector3d& drawn) const override;
    double sceneSize() const override { return 2.6 * radius_; }
    /// Radius of the tube's cross-section.
    double tubeRadius() const { return 0.028 * radius_; }

private:
    double radius_;
    vtkSmartPointer<vtkActor> particle_;
};

} // namespace clab
