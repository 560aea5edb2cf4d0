#pragma once

#include "model/MechanicalSystem.h"
#include "model/ParameterSpec.h"
#include "scenes/SceneDefinition.h"

namespace clab {

/// \brief A free rigid body rotating about its centre of mass, described by its unit
/// quaternion u = (u₀, u₁, u₂, u₃) (paper 004, §4; docs/MATH.md §5).
///
/// M = 4 Eᵀ J E is singular (rank 3), Q = −8 E(u̇)ᵀ J E(u) u̇ + 2 Eᵀ Γ, and the normalization
/// uᵀu = 1 gives A = uᵀ, b = −u̇ᵀu̇. The body angular velocity is ω = 2 E(u) u̇.
class RigidBodyQuaternion : public MechanicalSystem {
public:
    /// From complete, validated values (see SceneDefinition::create); quat0 is normalized and
    /// an all-zero quat0 throws ConstraintLabError(InvalidParameter).
    explicit RigidBodyQuaternion(const ParameterValues& values);

    static SceneDefinition definition();
    /// The start parameters that make the body start in (q, q̇): quat0 = u / |u| and omega0 =
    /// 2 E(u) u̇, the body-axis angular velocity (a drag in the 3D view; core/scenes/SceneStart).
    static ParameterValues startFromState(const ParameterValues& values, const Eigen::VectorXd& q,
                                          const Eigen::VectorXd& qd);

    int dof() const override { return 4; }
    int constraintCount() const override { return 1; }
    std::vector<std::string> coordinateNames() const override { return {"u0", "u1", "u2", "u3"}; }
    std::string coordinateUnit(int) const override { return ""; } ///< quaternion: dimensionless

    void massMatrix(const Eigen::VectorXd& q, double t, Eigen::MatrixXd& M) const override;
    bool massMatrixIsSingular() const override { return true; }
    void givenForce(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                    Eigen::VectorXd& Q) const override;
    void constraintMatrix(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                          Eigen::MatrixXd& A, Eigen::VectorXd& b) const override;

    int residualCount() const override { return 2; }
    void constraintResiduals(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                             Eigen::VectorXd& r) const override;

    int holonomicCount() const override { return 1; }
    bool providesConstraintFunctions() const override { return true; }
    void positionConstraints(const Eigen::VectorXd& q, double t, Eigen::Ref<Eigen::VectorXd> phi,
                             Eigen::Ref<Eigen::MatrixXd> J) const override;
    void velocityConstraints(const Eigen::VectorXd& q, double t, Eigen::Ref<Eigen::MatrixXd> Av,
                             Eigen::Ref<Eigen::VectorXd> bv) const override;

    double kineticEnergy(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                         double t) const override;
    double potentialEnergy(const Eigen::VectorXd& q, double t) const override;
    double nonConservativePower(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                double t) const override;

    void initialState(Eigen::VectorXd& q0, Eigen::VectorXd& qd0) const override;

    std::vector<std::string> extraColumnNames() const override
    {
        return {"w1", "w2", "w3", "quat_norm"};
    }
    /// w1..w3 in 1/s (rad/s), quat_norm dimensionless.
    std::string extraColumnUnit(int i) const override { return i < 3 ? "1/s" : ""; }
    void extraColumns(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                      Eigen::VectorXd& values) const override;

    const Eigen::Vector3d& inertia() const { return J_; } ///< principal moments J₁, J₂, J₃
    const Eigen::Vector3d& torque() const { return torque_; } ///< body-axis torque Γ
    /// Body-axis angular velocity ω at the start.
    const Eigen::Vector3d& initialAngularVelocity() const { return omega0_; }

private:
    Eigen::Vector3d J_;
    Eigen::Vector3d torque_;
    Eigen::Vector4d quat0_; ///< normalized
    Eigen::Vector3d omega0_;
};

} // namespace clab
