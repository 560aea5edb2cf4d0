#include "MechanicalSystem.h"

#include "ConstraintLabError.h"

namespace clab {

// Allocates M: systems whose kinetic energy is in a hot path override this.
double MechanicalSystem::kineticEnergy(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                       double t) const
{
    Eigen::MatrixXd M(dof(), dof());
    massMatrix(q, t, M);
    return 0.5 * qd.dot(M * qd);
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
