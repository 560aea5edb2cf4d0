#include "scenes/NonholonomicParticle.h"

#include <cmath>
#include <memory>

namespace clab {

NonholonomicParticle::NonholonomicParticle(const ParameterValues& values)
    : mass_(parameterValue(values, "mass")),
      force_(parameterValue(values, "fx"), parameterValue(values, "fy"),
             parameterValue(values, "fz")),
      a0_(parameterValue(values, "a0")),
      q0_(parameterValue(values, "x0"), parameterValue(values, "y0"), parameterValue(values, "z0")),
      xdot0_(parameterValue(values, "xdot0")), zdot0_(parameterValue(values, "zdot0"))
{
}

SceneDefinition NonholonomicParticle::definition()
{
    SceneDefinition d;
    d.name = "nonholonomic-particle";
    d.title = "Nonholonomic particle (ẏ = z ẋ)";
    d.description =
        "A particle in space must move so that ẏ = z ẋ: its velocity is restricted at every "
        "point, yet every point can be reached, so no coordinate can be eliminated. A constant "
        "force pushes it and a drag of constant magnitude a0 opposes its velocity; with no "
        "forces it follows Rosenberg's motion q̈ = ẋż/(1 + z²) (−z, 1, 0).";
    const auto scalar = &ParameterSpec::scalar;
    d.parameters = {
        ParameterSpec::positive("mass", "kg", "mass of the particle", 1.0),
        scalar("fx", "N", "x component of the constant given force", 0.5),
        scalar("fy", "N", "y component of the constant given force", 0.0),
        scalar("fz", "N", "z component of the constant given force", 0.0),
        {.name = "a0",
         .unit = "N",
         .description = "magnitude of the drag force opposing the velocity",
         .defaultValue = {0.1},
         .min = 0.0},
        scalar("x0", "m", "initial x", 0.0),
        scalar("y0", "m", "initial y", 0.0),
        scalar("z0", "m", "initial z", 0.0),
        scalar("xdot0", "m/s", "initial ẋ (ẏ = z ẋ follows from the constraint)", 1.0),
        scalar("zdot0", "m/s", "initial ż", 0.5),
    };
    d.factory = [](const ParameterValues& v) -> std::unique_ptr<MechanicalSystem> {
        return std::make_unique<NonholonomicParticle>(v);
    };
    d.keyParameters = {"a0", "fx"};
    d.setLabels({{"mass", "Mass m"},
                 {"fx", "Force Fx"},
                 {"fy", "Force Fy"},
                 {"fz", "Force Fz"},
                 {"a0", "Drag force a₀"},
                 {"x0", "Start x₀"},
                 {"y0", "Start y₀"},
                 {"z0", "Start z₀"},
                 {"xdot0", "Start velocity ẋ₀"},
                 {"zdot0", "Start velocity ż₀"}});
    d.expected = {.moving = {{"z0", {0.7}}},
                  .holonomicCount = 0,
                  .coordinates = {"x", "y", "z"},
                  .extraColumns = {}};
    return d;
}

ParameterValues NonholonomicParticle::startFromState(const ParameterValues& v,
                                                     const Eigen::VectorXd& q,
                                                     const Eigen::VectorXd& qd)
{
    ParameterValues start = v;
    start["x0"] = {q[0]};
    start["y0"] = {q[1]};
    start["z0"] = {q[2]};
    start["xdot0"] = {qd[0]}; // ẏ = z ẋ follows from the constraint
    start["zdot0"] = {qd[2]};
    return start;
}

void NonholonomicParticle::massMatrix(const Eigen::VectorXd&, double, Eigen::MatrixXd& M) const
{
    M.setZero(3, 3);
    M.diagonal().setConstant(mass_);
}

void NonholonomicParticle::givenForce(const Eigen::VectorXd&, const Eigen::VectorXd&, double,
                                      Eigen::VectorXd& Q) const
{
    Q = force_;
}

void NonholonomicParticle::constraintMatrix(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                            double, Eigen::MatrixXd& A, Eigen::VectorXd& b) const
{
    A.resize(1, 3);
    A << -q[2], 1.0, 0.0;
    b.resize(1);
    b[0] = qd[0] * qd[2];
}

void NonholonomicParticle::nonIdealForce(const Eigen::VectorXd&, const Eigen::VectorXd& qd, double,
                                         const Eigen::VectorXd&, Eigen::VectorXd& C) const
{
    C.setZero(3);
    const double speed = qd.norm();
    // A drag of constant magnitude has no direction at rest.
    if (speed > 0.0 && a0_ > 0.0)
        C = (-a0_ / speed) * qd;
}

void NonholonomicParticle::constraintResiduals(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                               double, Eigen::VectorXd& r) const
{
    r.resize(1);
    r[0] = qd[1] - q[2] * qd[0];
}

double NonholonomicParticle::kineticEnergy(const Eigen::VectorXd&, const Eigen::VectorXd& qd,
                                           double) const
{
    return 0.5 * mass_ * qd.squaredNorm();
}

double NonholonomicParticle::potentialEnergy(const Eigen::VectorXd& q, double) const
{
    return -force_.dot(q);
}

void NonholonomicParticle::initialState(Eigen::VectorXd& q0, Eigen::VectorXd& qd0) const
{
    q0 = q0_;
    qd0.resize(3);
    qd0 << xdot0_, q0_[2] * xdot0_, zdot0_;
}

void NonholonomicParticle::velocityConstraints(const Eigen::VectorXd& q, double,
                                               Eigen::Ref<Eigen::MatrixXd> Av,
                                               Eigen::Ref<Eigen::VectorXd> bv) const
{
    Av(0, 0) = -q[2];
    Av(0, 1) = 1.0;
    Av(0, 2) = 0.0;
    bv[0] = 0.0;
}

void NonholonomicParticle::slipJacobian(int, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                        double, Eigen::Ref<Eigen::MatrixXd> G,
                                        Eigen::Ref<Eigen::VectorXd> gamma) const
{
    const double z = q[2];
    const double s = std::sqrt(1.0 + z * z);
    G(0, 0) = 1.0 / s;
    G(0, 1) = z / s;
    G(0, 2) = 0.0;
    G(1, 0) = 0.0;
    G(1, 1) = 0.0;
    G(1, 2) = 1.0;
    // d/dt (1, z, 0)/s = ż (0, 1, 0)/s − ż z (1, z, 0)/s³, applied to q̇.
    gamma[0] = qd[2] * qd[1] / s - qd[2] * z * (qd[0] + z * qd[1]) / (s * s * s);
    gamma[1] = 0.0;
}

double NonholonomicParticle::kineticFrictionForce(int, const Eigen::VectorXd&,
                                                  const Eigen::VectorXd&, double,
                                                  const Eigen::VectorXd&) const
{
    return a0_;
}

double NonholonomicParticle::stickForceLimit(int, const Eigen::VectorXd&, const Eigen::VectorXd&,
                                             double, const Eigen::VectorXd&) const
{
    return a0_;
}

} // namespace clab
