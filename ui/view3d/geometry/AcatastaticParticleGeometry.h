#pragma once

#include "view3d/geometry/SceneGeometry.h"

#include <scenes/AcatastaticParticle.h>

class vtkPolyData;

namespace clab {

/// \brief Acatastatic particle (ẋ − t ẏ = a(t)): the particle in the x–y plane on a faint grid,
/// and the dashed line of its allowed velocity direction (t, 1) at the current time.
class AcatastaticParticleGeometry : public SceneGeometry {
public:
    explicit AcatastaticParticleGeometry(const AcatastaticParticle& system);

    void fitToTrace(const Trace& trace) override;
    void update(const TraceSample& sample) override;
    Eigen::Vector3d bodyPosition(const Eigen::VectorXd& q) const override;
    double sceneSize() const override { return size_; }
    Eigen::Vector3d viewDirection() const override;
    std::vector<LegendEntry> extraLegendEntries() const override;

    /// Unit direction of the velocities the constraint leaves free at time t: (t, 1)/√(1+t²).
    static Eigen::Vector3d allowedDirection(double t);

private:
    void build(const Eigen::AlignedBox3d& motion);

    double size_ = 1.0;
    vtkSmartPointer<vtkActor> particle_;
    vtkSmartPointer<vtkPolyData> directionLine_;
    vtkSmartPointer<vtkActor> directionActor_;
};

} // namespace clab
