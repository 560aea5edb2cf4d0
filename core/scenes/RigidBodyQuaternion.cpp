#include "scenes/RigidBodyQuaternion.h"

#include <cmath>
#include <memory>
#include <sstream>

namespace clab {

namespace {

using Matrix34 = Eigen::Matrix<double, 3, 4>;

// E(u) of paper 004: ω = 2 E(u) u̇ (body axes), and E(u) u = 0.
Matrix34 E(const Eigen::Vector4d& u)
{
    Matrix34 e;
    e << -u[1], u[0], u[3], -u[2], //
        -u[2], -u[3], u[0], u[1],  //
        -u[3], u[2], -u[1], u[0];
    return e;
}

} // namespace

RigidBodyQuaternion::RigidBodyQuaternion(const ParameterValues& values)
{
    for (int i = 0; i < 3; ++i) {
        J_[i] = parameterValue(values, "J", i);
        torque_[i] = parameterValue(values, "torque", i);
        omega0_[i] = parameterValue(values, "omega0", i);
    }
    // Principal moments of a real body obey the triangle inequality (J₁ + J₂ ≥ J₃ and cyclic);
    // others describe no body, and very unequal ones make the motion needlessly stiff.
    for (int i = 0; i < 3; ++i) {
        const double others = J_[(i + 1) % 3] + J_[(i + 2) % 3];
        if (J_[i] > others * (1.0 + 1e-12)) {
            std::ostringstream msg;
            msg << "rigid-body: parameter 'J' = (" << ConstraintLabError::number(J_[0]) << ", "
                << ConstraintLabError::number(J_[1]) << ", " << ConstraintLabError::number(J_[2])
                << ") kg·m² is not the inertia of a rigid body: each principal moment must be at "
                << "most the sum of the other two (the triangle inequality; here J" << i + 1
                << " = " << ConstraintLabError::number(J_[i]) << " > "
                << ConstraintLabError::number(others) << ")";
            throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter, msg.str());
        }
    }
    for (int i = 0; i < 4; ++i)
        quat0_[i] = parameterValue(values, "quat0", i);
    const double norm = quat0_.norm();
    if (!(norm > 0.0) || !std::isfinite(norm)) {
        std::ostringstream msg;
        msg << "rigid-body: parameter 'quat0' = (" << quat0_[0] << ", " << quat0_[1] << ", "
            << quat0_[2] << ", " << quat0_[3]
            << ") cannot be normalized: it must be a non-zero, finite quaternion";
        throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter, msg.str());
    }
    quat0_ /= norm;
}

SceneDefinition RigidBodyQuaternion::definition()
{
    SceneDefinition d;
    d.name = "rigid-body";
    d.title = "Rigid body in quaternions";
    d.description =
        "A rigid body turns about its centre of mass; its orientation is the unit quaternion "
        "u, whose normalization uᵀu = 1 is the constraint, and its mass matrix 4 Eᵀ J E is "
        "singular. Started close to the axis of the intermediate moment of inertia, it tumbles "
        "over periodically (the Dzhanibekov effect).";
    constexpr double inf = std::numeric_limits<double>::infinity();
    d.parameters = {
        {.name = "J",
         .unit = "kg·m²",
         .description = "principal moments of inertia J1, J2, J3",
         .defaultValue = {1.0, 2.0, 3.0},
         .min = 0.0,
         .max = inf,
         .minExclusive = true},
        {.name = "torque",
         .unit = "N·m",
         .description = "constant torque in body axes",
         .defaultValue = {0.0, 0.0, 0.0}},
        {.name = "quat0",
         .unit = "",
         .description = "initial orientation quaternion (u0, u1, u2, u3), normalized on load",
         .defaultValue = {1.0, 0.0, 0.0, 0.0},
         .nonZero = true},
        {.name = "omega0",
         .unit = "rad/s",
         .description = "initial angular velocity in body axes",
         .defaultValue = {0.01, 2.0, 0.01}},
    };
    d.factory = [](const ParameterValues& v) -> std::unique_ptr<MechanicalSystem> {
        return std::make_unique<RigidBodyQuaternion>(v);
    };
    d.setLabels({{"J", "Moments of inertia J"},
                 {"torque", "Torque τ"},
                 {"quat0", "Start orientation u₀"},
                 {"omega0", "Start angular velocity ω₀"}});
    d.expected = {.moving = {{"omega0", {0.5, 2.0, -1.0}}, {"quat0", {1, 2, 3, 4}}},
                  .holonomicCount = 1,
                  .coordinates = {"u0", "u1", "u2", "u3"},
                  .extraColumns = {"w1", "w2", "w3", "quat_norm"}};
    return d;
}

void RigidBodyQuaternion::massMatrix(const Eigen::VectorXd& q, double, Eigen::MatrixXd& M) const
{
    const Matrix34 e = E(q.head<4>());
    M = 4.0 * e.transpose() * J_.asDiagonal() * e;
}

void RigidBodyQuaternion::givenForce(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double,
                                     Eigen::VectorXd& Q) const
{
    const Eigen::Vector4d u = q.head<4>();
    const Eigen::Vector4d ud = qd.head<4>();
    const Eigen::Vector3d Jw = J_.asDiagonal() * (E(u) * ud);
    Q = -8.0 * E(ud).transpose() * Jw + 2.0 * E(u).transpose() * torque_;
}

void RigidBodyQuaternion::constraintMatrix(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                           double, Eigen::MatrixXd& A, Eigen::VectorXd& b) const
{
    A.resize(1, 4);
    A.row(0) = q.head<4>().transpose();
    b.resize(1);
    b[0] = -qd.head<4>().squaredNorm();
}

void RigidBodyQuaternion::constraintResiduals(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                              double, Eigen::VectorXd& r) const
{
    r.resize(2);
    r << q.head<4>().squaredNorm() - 1.0, 2.0 * q.head<4>().dot(qd.head<4>());
}

double RigidBodyQuaternion::kineticEnergy(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                          double) const
{
    const Eigen::Vector3d w = 2.0 * E(q.head<4>()) * qd.head<4>();
    return 0.5 * w.dot(J_.asDiagonal() * w);
}

double RigidBodyQuaternion::potentialEnergy(const Eigen::VectorXd&, double) const
{
    return 0.0;
}

double RigidBodyQuaternion::nonConservativePower(const Eigen::VectorXd& q,
                                                 const Eigen::VectorXd& qd, double) const
{
    const Eigen::Vector3d w = 2.0 * E(q.head<4>()) * qd.head<4>();
    return torque_.dot(w);
}

ParameterValues RigidBodyQuaternion::startFromState(const ParameterValues& values,
                                                    const Eigen::VectorXd& q,
                                                    const Eigen::VectorXd& qd)
{
    const Eigen::Vector4d u = q.head<4>().normalized();
    const Eigen::Vector3d omega = 2.0 * E(u) * qd.head<4>();
    ParameterValues start = values;
    start["quat0"] = {u[0], u[1], u[2], u[3]};
    start["omega0"] = {omega[0], omega[1], omega[2]};
    return start;
}

void RigidBodyQuaternion::initialState(Eigen::VectorXd& q0, Eigen::VectorXd& qd0) const
{
    q0 = quat0_;
    qd0 = 0.5 * E(quat0_).transpose() * omega0_;
}

void RigidBodyQuaternion::extraColumns(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double,
                                       Eigen::VectorXd& values) const
{
    values.resize(4);
    values.head<3>() = 2.0 * E(q.head<4>()) * qd.head<4>();
    values[3] = q.head<4>().norm();
}

void RigidBodyQuaternion::positionConstraints(const Eigen::VectorXd& q, double,
                                              Eigen::Ref<Eigen::VectorXd> phi,
                                              Eigen::Ref<Eigen::MatrixXd> J) const
{
    // φ = (uᵀu − 1)/2, so that ∂φ/∂u = uᵀ is the row of A.
    phi[0] = 0.5 * (q.head<4>().squaredNorm() - 1.0);
    J.row(0) = q.head<4>().transpose();
}

void RigidBodyQuaternion::velocityConstraints(const Eigen::VectorXd& q, double,
                                              Eigen::Ref<Eigen::MatrixXd> Av,
                                              Eigen::Ref<Eigen::VectorXd> bv) const
{
    Av.row(0) = q.head<4>().transpose();
    bv[0] = 0.0;
}

} // namespace clab
