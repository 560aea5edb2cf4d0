#pragma once
// The smallest scene geometry the 3D view's layers can be tested with: one body at q = (x, y, z)
// in a scene `size` across, whose forces are their first three components; and samples and runs
// of it.

#include <view3d/geometry/SceneGeometry.h>

#include <trace/Trace.h>

#include <vector>

namespace clab::testing {

class PointGeometry : public SceneGeometry {
public:
    explicit PointGeometry(double size = 1.0) : size_(size) {}
    void update(const TraceSample& sample) override { (void)sample; }
    Eigen::Vector3d bodyPosition(const Eigen::VectorXd& q) const override { return q.head<3>(); }
    double sceneSize() const override { return size_; }

private:
    double size_;
};

/// A sample at time t with the body at `at` and the given, ideal and non-ideal forces.
inline TraceSample pointSample(double t, const Eigen::Vector3d& at, const Eigen::Vector3d& given,
                               const Eigen::Vector3d& ideal = Eigen::Vector3d::Zero(),
                               const Eigen::Vector3d& nonIdeal = Eigen::Vector3d::Zero())
{
    TraceSample s;
    s.t = t;
    s.q = at;
    s.qd = Eigen::Vector3d::Zero();
    s.Q = given;
    s.Qci = ideal;
    s.Qcni = nonIdeal;
    return s;
}

/// A run of the point along x (x = t) over `samples`, with coordinates x, y, z.
inline Trace pointRun(const std::vector<TraceSample>& samples)
{
    Trace trace({"x", "y", "z"}, {}, false);
    trace.samples = samples;
    return trace;
}

} // namespace clab::testing
