#include "solve/SpringDrag.h"

#include <cmath>
#include <numbers>
#include <utility>

namespace clab {

SpringDrag::SpringDrag(const MechanicalSystem& system, ConfigurationProjection::Point point,
                       double stiffness, const Eigen::Vector3d& target, const Eigen::VectorXd& q0,
                       const Eigen::VectorXd& qd0, double t0)
    : system_(system), point_(std::move(point)), stiffness_(stiffness), target_(target), q0_(q0),
      qd0_(qd0), t0_(t0)
{
}

double SpringDrag::stiffnessFor(const MechanicalSystem& system,
                                const ConfigurationProjection::Point& point,
                                const Eigen::VectorXd& q, double t, double frequency)
{
    const Eigen::MatrixXd P = ConfigurationProjection::pointJacobian(point, q);
    Eigen::MatrixXd M(system.dof(), system.dof());
    system.massMatrix(q, t, M);
    const Eigen::MatrixXd mobility = P * M.completeOrthogonalDecomposition().solve(P.transpose());
    const double largest =
        Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(mobility).eigenvalues().maxCoeff();
    const double omega = 2.0 * std::numbers::pi * frequency;
    return largest > 0.0 ? omega * omega / largest : omega * omega;
}

Eigen::Vector3d SpringDrag::springForce(const Eigen::VectorXd& q) const
{
    return stiffness_ * (target_ - point_(q));
}

Eigen::VectorXd SpringDrag::generalizedSpringForce(const Eigen::VectorXd& q) const
{
    return ConfigurationProjection::pointJacobian(point_, q).transpose() * springForce(q);
}

void SpringDrag::givenForce(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                            Eigen::VectorXd& Q) const
{
    system_.givenForce(q, qd, t, Q);
    Q += generalizedSpringForce(q);
}

double SpringDrag::nonConservativePower(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                        double t) const
{
    return system_.nonConservativePower(q, qd, t) + generalizedSpringForce(q).dot(qd);
}

void SpringDrag::initialState(Eigen::VectorXd& q0, Eigen::VectorXd& qd0) const
{
    q0 = q0_;
    qd0 = qd0_;
}

} // namespace clab
