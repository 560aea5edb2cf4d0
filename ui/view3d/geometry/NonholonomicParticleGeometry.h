#pragma once

#include "view3d/geometry/SceneGeometry.h"

#include <scenes/NonholonomicParticle.h>

namespace clab {

/// \brief Nonholonomic particle (ẏ = z ẋ): the constraint distribution as small plane patches
/// on a grid around the path, each spanned by the allowed directions (1, z, 0) and (0, 0, 1);
/// the patch at the particle is highlighted. The grid covers where the particle would go
/// without drag, so that changing the drag a0 keeps the grid (and the camera) in place.
class NonholonomicParticleGeometry : public SceneGeometry {
public:
    explicit NonholonomicParticleGeometry(const NonholonomicParticle& system);

    void fitToTrace(const Trace& trace) override;
    void update(const TraceSample& sample) override;
    Eigen::Vector3d bodyPosition(const Eigen::VectorXd& q) const override;
    double sceneSize() const override { return size_; }
    Eigen::Vector3d viewDirection() const override;
    std::vector<LegendEntry> extraLegendEntries() const override;
    bool seeThrough() const override { return true; } ///< the patches

    /// Unit vectors spanning the allowed velocities at height z: (1, z, 0)/√(1+z²), (0, 0, 1).
    static std::pair<Eigen::Vector3d, Eigen::Vector3d> allowedDirections(double z);

private:
    void build(const Eigen::AlignedBox3d& motion);
    /// Where the particle goes in `duration` seconds with these values but no drag (a0 = 0);
    /// simulated once per duration (compare mode fits the grid again for every run shown).
    const Eigen::AlignedBox3d& dragFreeBox(double duration);

    NonholonomicParticle dragFree_; ///< the same particle with a0 = 0
    double dragFreeDuration_ = -1.0;
    Eigen::AlignedBox3d dragFreeBox_;
    double size_ = 1.0;
    double patchSize_ = 0.2;
    vtkSmartPointer<vtkActor> particle_;
    vtkSmartPointer<vtkActor> currentPatch_;
};

} // namespace clab
