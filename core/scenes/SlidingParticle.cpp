#include "scenes/SlidingParticle.h"

namespace clab {

SlidingParticle::SlidingParticle(const ParameterValues& values)
    : mass_(parameterValue(values, "mass")), g_(parameterValue(values, "g")),
      mu_(parameterValue(values, "mu")),
      muS_(values.count("mu_s") ? parameterValue(values, "mu_s") : mu_)
{
}

std::vector<ParameterSpec> SlidingParticle::bodyParameters(const std::string& body)
{
    return {
        ParameterSpec::positive("mass", "kg", "mass of " + body, 1.0),
        {.name = "g",
         .unit = "m/s²",
         .description = "gravitational acceleration",
         .defaultValue = {9.81},
         .min = 0.0},
    };
}

std::vector<ParameterSpec> SlidingParticle::frictionParameters(double defaultMu)
{
    return {
        {.name = "mu",
         .unit = "",
         .description = "kinetic (sliding) friction coefficient",
         .defaultValue = {defaultMu},
         .min = 0.0,
         .max = 2.0},
        {.name = "mu_s",
         .unit = "",
         .description = "static friction coefficient, at least mu (follows mu when not given)",
         .defaultValue = {defaultMu},
         .min = 0.0,
         .max = 2.0,
         .defaultsTo = "mu",
         .notBelow = "mu"},
    };
}

void SlidingParticle::massMatrix(const Eigen::VectorXd&, double, Eigen::MatrixXd& M) const
{
    M.setZero(2, 2);
    M.diagonal().setConstant(mass_);
}

void SlidingParticle::givenForce(const Eigen::VectorXd&, const Eigen::VectorXd&, double,
                                 Eigen::VectorXd& Q) const
{
    Q.resize(2);
    Q << 0.0, -mass_ * g_;
}

void SlidingParticle::nonIdealForce(const Eigen::VectorXd&, const Eigen::VectorXd& qd, double,
                                    const Eigen::VectorXd& Qci, Eigen::VectorXd& C) const
{
    C.setZero(2);
    const double speed = qd.norm();
    // Coulomb friction has no direction at rest; sticking is the simulator's business.
    if (speed > 0.0 && mu_ > 0.0)
        C = (-mu_ * Qci.norm() / speed) * qd;
}

double SlidingParticle::kineticFrictionForce(int, const Eigen::VectorXd&, const Eigen::VectorXd&,
                                             double, const Eigen::VectorXd& Qci) const
{
    return mu_ * Qci.norm();
}

double SlidingParticle::stickForceLimit(int, const Eigen::VectorXd&, const Eigen::VectorXd&, double,
                                        const Eigen::VectorXd& Qci) const
{
    return muS_ * Qci.norm();
}

double SlidingParticle::kineticEnergy(const Eigen::VectorXd&, const Eigen::VectorXd& qd,
                                      double) const
{
    return 0.5 * mass_ * qd.squaredNorm();
}

double SlidingParticle::potentialEnergy(const Eigen::VectorXd& q, double) const
{
    return mass_ * g_ * q[1];
}

} // namespace clab
