#pragma once

#include "view3d/ForceArrow.h"
#include "view3d/geometry/SceneGeometry.h"

#include "view3d/WorldLabel.h"
#include <scenes/RigidBodyQuaternion.h>

#include <array>

class vtkMatrix4x4;

namespace clab {

/// \brief Rigid body in quaternions: a box proportioned to its inertia, its body axes, and
/// arrows for ω and the angular momentum L. Quaternion-space forces are drawn as the body
/// torques they correspond to, Γ = ½ E(u) F, turned into world axes (docs/MATH.md §5).
class RigidBodyQuaternionGeometry : public SceneGeometry {
public:
    explicit RigidBodyQuaternionGeometry(const RigidBodyQuaternion& system);

    void fitToTrace(const Trace& trace) override;
    void update(const TraceSample& sample) override;
    Eigen::Vector3d bodyPosition(const Eigen::VectorXd& q) const override;
    Eigen::Vector3d trailPoint(const Eigen::VectorXd& q) const override;
    /// The hand takes the body by the tip its trail follows (its centre stays where it is).
    int grabPointCount() const override { return 1; }
    Eigen::Vector3d grabPoint(int, const Eigen::VectorXd& q) const override
    {
        return trailPoint(q);
    }
    Eigen::Vector3d forceVector(const Eigen::VectorXd& q, const Eigen::VectorXd& F) const override;
    /// The given force as the applied torque τ: Q also holds the gyroscopic term of Euler's
    /// equations, which is no torque anything applies.
    Eigen::Vector3d arrowVector(const TraceSample& sample, ForceKind kind) const override;
    QString forceLabel(ForceKind kind) const override;
    /// The arrows are torques.
    QString forceUnit() const override { return QStringLiteral("N\u00B7m"); }
    QString forceDescription(ForceKind kind) const override;
    /// Angular velocity and angular momentum.
    QStringList readouts(const TraceSample& sample) const override;
    double sceneSize() const override { return 3.2 * halfExtents_.maxCoeff(); }
    Eigen::AlignedBox3d frameBox() const override;
    Eigen::Vector3d viewDirection() const override;
    Eigen::Vector3d viewUp() const override { return Eigen::Vector3d::UnitZ(); }
    std::vector<LegendEntry> extraLegendEntries() const override;
    bool seeThrough() const override { return true; } ///< the box, to see the axes inside
    QString annotation(const TraceSample& sample) const override;

    /// E(u) of docs/MATH.md §5 (3×4).
    static Eigen::Matrix<double, 3, 4> E(const Eigen::Vector4d& u);
    /// Rotation body → world of the (normalized) quaternion u = (u0, u1, u2, u3).
    static Eigen::Matrix3d rotation(const Eigen::Vector4d& u);
    /// Half extents of the uniform box with principal moments J, largest one 1.
    static Eigen::Vector3d boxHalfExtents(const Eigen::Vector3d& J);

    static QColor omegaColor() { return QColor(0xCC, 0x79, 0xA7); }
    static QColor momentumColor() { return QColor(0x1A, 0x1A, 0x1A); }

private:
    Eigen::Vector3d J_;
    Eigen::Vector3d halfExtents_;
    int trailAxis_ = 0;
    double omegaScale_ = 1.0;
    double momentumScale_ = 1.0;
    vtkSmartPointer<vtkMatrix4x4> pose_;
    vtkSmartPointer<vtkActor> box_;
    std::array<WorldLabel, 3> axisLabels_;
    ForceArrow omega_;
    ForceArrow momentum_;
};

} // namespace clab
