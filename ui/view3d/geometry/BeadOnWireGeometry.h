#pragma once

#include "view3d/geometry/SceneGeometry.h"

#include <scenes/BeadOnWire.h>

namespace clab {

/// \brief Bead on an inclined wire: the wire as a tube through the origin at angle_deg in the
/// x–y plane, supports down to the ground at the lowest point shown, the bead as a sphere.
class BeadOnWireGeometry : public SceneGeometry {
public:
    explicit BeadOnWireGeometry(const BeadOnWire& system);

    void fitToTrace(const Trace& trace) override;
    void update(const TraceSample& sample) override;
    Eigen::Vector3d bodyPosition(const Eigen::VectorXd& q) const override;
    /// The trail runs just in front of the wire as seen from the framing camera.
    Eigen::Vector3d trailPoint(const Eigen::VectorXd& q) const override;
    double sceneSize() const override { return length_; }

private:
    /// Rebuilds wire, supports and ground for the arc-length range [sMin, sMax]; with `foot`
    /// the wire ends at sMin in a collar the bead stops against.
    void build(double sMin, double sMax, bool foot);
    void addAngleMark(double groundY, const Eigen::Vector3d& a, const Eigen::Vector3d& b);

    double angle_;
    double s0_;
    double v0_;
    double g_;
    double length_ = 1.0;
    double wireRadius_ = 0.01;
    vtkSmartPointer<vtkActor> bead_;
};

} // namespace clab
