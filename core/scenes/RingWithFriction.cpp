#include "scenes/RingWithFriction.h"

#include <cmath>
#include <memory>
#include <numbers>

namespace clab {

RingWithFriction::RingWithFriction(const ParameterValues& values)
    : mass_(parameterValue(values, "mass")), g_(parameterValue(values, "g")),
      radius_(parameterValue(values, "radius")), mu_(parameterValue(values, "mu")),
      // mu_s follows mu when it is not given (SceneDefinition::create fills it in the same way).
      muS_(values.count("mu_s") ? parameterValue(values, "mu_s") : mu_),
      phi0_(parameterValue(values, "phi0_deg") * std::numbers::pi / 180.0),
      v0_(parameterValue(values, "v0"))
{
}

SceneDefinition RingWithFriction::definition()
{
    SceneDefinition d;
    d.name = "ring";
    d.title = "Particle on a vertical ring with friction";
    d.description =
        "A particle moves under gravity on a vertical circular ring centred at the origin. The "
        "ideal constraint force is the normal force of the ring, which grows with the speed, and "
        "Coulomb friction proportional to it slows the particle until it swings to rest near "
        "the bottom.";
    d.parameters = {
        {.name = "mass",
         .unit = "kg",
         .description = "mass of the particle",
         .defaultValue = {1.0},
         .min = 0.0,
         .minExclusive = true},
        {.name = "g",
         .unit = "m/s²",
         .description = "gravitational acceleration",
         .defaultValue = {9.81},
         .min = 0.0},
        {.name = "radius",
         .unit = "m",
         .description = "radius of the ring",
         .defaultValue = {1.0},
         .min = 0.0,
         .minExclusive = true},
        {.name = "mu",
         .unit = "",
         .description = "kinetic (sliding) friction coefficient",
         .defaultValue = {0.1},
         .min = 0.0,
         .max = 2.0},
        {.name = "mu_s",
         .unit = "",
         .description = "static friction coefficient, at least mu (follows mu when not given)",
         .defaultValue = {0.1},
         .min = 0.0,
         .max = 2.0,
         .defaultsTo = "mu",
         .notBelow = "mu"},
        {.name = "phi0_deg",
         .unit = "deg",
         .description = "initial angle from the lowest point, counter-clockwise",
         .defaultValue = {90.0},
         .min = -360.0,
         .max = 360.0},
        {.name = "v0",
         .unit = "m/s",
         .description = "initial tangential speed, counter-clockwise positive",
         .defaultValue = {0.0}},
    };
    d.factory = [](const ParameterValues& v) -> std::unique_ptr<MechanicalSystem> {
        return std::make_unique<RingWithFriction>(v);
    };
    return d;
}

void RingWithFriction::massMatrix(const Eigen::VectorXd&, double, Eigen::MatrixXd& M) const
{
    M.setZero(2, 2);
    M.diagonal().setConstant(mass_);
}

void RingWithFriction::givenForce(const Eigen::VectorXd&, const Eigen::VectorXd&, double,
                                  Eigen::VectorXd& Q) const
{
    Q.resize(2);
    Q << 0.0, -mass_ * g_;
}

void RingWithFriction::constraintMatrix(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double,
                                        Eigen::MatrixXd& A, Eigen::VectorXd& b) const
{
    A.resize(1, 2);
    A << q[0], q[1];
    b.resize(1);
    b[0] = -qd.squaredNorm();
}

void RingWithFriction::nonIdealForce(const Eigen::VectorXd&, const Eigen::VectorXd& qd, double,
                                     const Eigen::VectorXd& Qci, Eigen::VectorXd& C) const
{
    C.setZero(2);
    const double speed = qd.norm();
    // Coulomb friction has no direction at rest; sticking is the simulator's business.
    if (speed > 0.0 && mu_ > 0.0)
        C = (-mu_ * Qci.norm() / speed) * qd;
}

void RingWithFriction::constraintResiduals(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                           double, Eigen::VectorXd& r) const
{
    r.resize(2);
    // Scaled by R so that both residuals are lengths/speeds along the ring's normal.
    r << (q.squaredNorm() - radius_ * radius_) / (2.0 * radius_), q.dot(qd) / radius_;
}

double RingWithFriction::kineticEnergy(const Eigen::VectorXd&, const Eigen::VectorXd& qd,
                                       double) const
{
    return 0.5 * mass_ * qd.squaredNorm();
}

double RingWithFriction::potentialEnergy(const Eigen::VectorXd& q, double) const
{
    return mass_ * g_ * q[1];
}

void RingWithFriction::initialState(Eigen::VectorXd& q0, Eigen::VectorXd& qd0) const
{
    q0.resize(2);
    qd0.resize(2);
    const double s = std::sin(phi0_);
    const double c = std::cos(phi0_);
    q0 << radius_ * s, -radius_ * c;
    qd0 << v0_ * c, v0_ * s;
}

void RingWithFriction::positionConstraints(const Eigen::VectorXd& q, double,
                                           Eigen::Ref<Eigen::VectorXd> phi,
                                           Eigen::Ref<Eigen::MatrixXd> J) const
{
    // φ = (x² + y² − R²)/2, so that ∂φ/∂q = [x, y] is the row of A.
    phi[0] = 0.5 * (q[0] * q[0] + q[1] * q[1] - radius_ * radius_);
    J(0, 0) = q[0];
    J(0, 1) = q[1];
}

void RingWithFriction::velocityConstraints(const Eigen::VectorXd& q, double,
                                           Eigen::Ref<Eigen::MatrixXd> Av,
                                           Eigen::Ref<Eigen::VectorXd> bv) const
{
    Av(0, 0) = q[0];
    Av(0, 1) = q[1];
    bv[0] = 0.0;
}

void RingWithFriction::slipJacobian(int, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                    double, Eigen::Ref<Eigen::MatrixXd> G,
                                    Eigen::Ref<Eigen::VectorXd> gamma) const
{
    // Unit tangent (−y, x)/r, counter-clockwise; v = (x ẏ − y ẋ)/r and
    // v̇ = G q̈ − v ṙ/r with ṙ = q·q̇/r (zero on the ring itself).
    const double r = q.norm();
    G(0, 0) = -q[1] / r;
    G(0, 1) = q[0] / r;
    const double v = (q[0] * qd[1] - q[1] * qd[0]) / r;
    gamma[0] = -v * q.dot(qd) / (r * r);
}

double RingWithFriction::kineticFrictionForce(int, const Eigen::VectorXd&, const Eigen::VectorXd&,
                                              double, const Eigen::VectorXd& Qci) const
{
    return mu_ * Qci.norm();
}

double RingWithFriction::stickForceLimit(int, const Eigen::VectorXd&, const Eigen::VectorXd&,
                                         double, const Eigen::VectorXd& Qci) const
{
    return muS_ * Qci.norm();
}

} // namespace clab
