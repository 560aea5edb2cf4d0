#include "model/MechanicalSystem.h"

#include "model/ConstraintLabError.h"

namespace clab {

// Allocates M: systems whose kinetic energy is in a hot path override this.
double MechanicalSystem::kineticEnergy(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                       double t) const
{
    Eigen::MatrixXd M(dof(), dof());
    massMatrix(q, t, M);
    return 0.5 * qd.dot(M * qd);
}

// The dense-to-sparse defaults: a system that only has dense matrices can still be solved on
// the sparse path (the agreement tests do), at dense cost.
void MechanicalSystem::sparseMassMatrix(const Eigen::VectorXd& q, double t, SparseMatrix& M) const
{
    Eigen::MatrixXd dense(dof(), dof());
    massMatrix(q, t, dense);
    M = dense.sparseView(0.0, 0.0);
}

void MechanicalSystem::sparseConstraintMatrix(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                              double t, SparseMatrix& A, Eigen::VectorXd& b) const
{
    Eigen::MatrixXd dense(constraintCount(), dof());
    b.resize(constraintCount());
    constraintMatrix(q, qd, t, dense, b);
    A = dense.sparseView(0.0, 0.0);
}

void MechanicalSystem::sparsePositionConstraints(const Eigen::VectorXd& q, double t,
                                                 Eigen::VectorXd& phi, SparseMatrix& J) const
{
    Eigen::MatrixXd dense = Eigen::MatrixXd::Zero(holonomicCount(), dof());
    phi.setZero(holonomicCount());
    positionConstraints(q, t, phi, dense);
    J = dense.sparseView(0.0, 0.0);
}

void MechanicalSystem::sparseVelocityConstraints(const Eigen::VectorXd& q, double t,
                                                 SparseMatrix& Av, Eigen::VectorXd& bv) const
{
    Eigen::MatrixXd dense = Eigen::MatrixXd::Zero(constraintCount(), dof());
    bv.setZero(constraintCount());
    velocityConstraints(q, t, dense, bv);
    Av = dense.sparseView(0.0, 0.0);
}

std::string MechanicalSystem::contactName(int contact) const
{
    return contactCount() == 1 ? std::string("contact") : "contact" + std::to_string(contact + 1);
}

double MechanicalSystem::slidingVelocity(int contact, const Eigen::VectorXd& q,
                                         const Eigen::VectorXd& qd, double t) const
{
    if (contact < 0 || contact >= contactCount() || slipDimension(contact) != 1)
        throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter,
                                 "MechanicalSystem::slidingVelocity: contact " +
                                     std::to_string(contact) +
                                     " is not a one-dimensional contact of this system");
    Eigen::MatrixXd G(1, dof());
    Eigen::VectorXd gamma(1);
    slipJacobian(contact, q, qd, t, G, gamma);
    return G.row(0).dot(qd);
}

} // namespace clab
