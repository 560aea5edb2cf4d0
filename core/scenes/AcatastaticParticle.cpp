#include "scenes/AcatastaticParticle.h"

#include <cmath>
#include <memory>

namespace clab {

AcatastaticParticle::AcatastaticParticle(const ParameterValues& values)
    : mass_(parameterValue(values, "mass")),
      force_(parameterValue(values, "fx"), parameterValue(values, "fy")),
      a0_(parameterValue(values, "a0")), a1_(parameterValue(values, "a1")),
      omega_(parameterValue(values, "omega")), x0_(parameterValue(values, "x0")),
      y0_(parameterValue(values, "y0")), ydot0_(parameterValue(values, "ydot0"))
{
}

SceneDefinition AcatastaticParticle::definition()
{
    SceneDefinition d;
    d.name = "acatastatic-particle";
    d.title = "Acatastatic particle (ẋ − t ẏ = a(t))";
    d.description =
        "A particle in the plane under a constant force must move so that ẋ − t ẏ = a(t), with "
        "a(t) = a0 + a1 sin(omega t). The constraint changes with time, so the ideal constraint "
        "force does work on the actual motion and the energy changes by exactly that work "
        "(W_ideal).";
    const auto scalar = &ParameterSpec::scalar;
    d.parameters = {
        ParameterSpec::positive("mass", "kg", "mass of the particle", 1.0),
        scalar("fx", "N", "x component of the constant given force", 0.0),
        scalar("fy", "N", "y component of the constant given force", -1.0),
        scalar("a0", "m/s", "constant part of a(t)", 1.0),
        scalar("a1", "m/s", "amplitude of the oscillating part of a(t)", 0.5),
        scalar("omega", "rad/s", "angular frequency of the oscillating part of a(t)", 2.0),
        scalar("x0", "m", "initial x", 0.0),
        scalar("y0", "m", "initial y", 0.0),
        scalar("ydot0", "m/s", "initial ẏ (ẋ = a(0) follows from the constraint at t = 0)", 0.0),
    };
    d.factory = [](const ParameterValues& v) -> std::unique_ptr<MechanicalSystem> {
        return std::make_unique<AcatastaticParticle>(v);
    };
    d.keyParameters = {"a1", "omega"};
    d.setLabels({{"mass", "Mass m"},
                 {"fx", "Force Fx"},
                 {"fy", "Force Fy"},
                 {"a0", "Constraint rate a₀"},
                 {"a1", "Rate amplitude a₁"},
                 {"omega", "Rate frequency ω"},
                 {"x0", "Start x₀"},
                 {"y0", "Start y₀"},
                 {"ydot0", "Start velocity ẏ₀"}});
    d.expected = {.moving = {{"ydot0", {0.8}}},
                  .holonomicCount = 0,
                  .coordinates = {"x", "y"},
                  .rheonomic = true,
                  .extraColumns = {}};
    return d;
}

ParameterValues AcatastaticParticle::startFromState(const ParameterValues& v,
                                                    const Eigen::VectorXd& q,
                                                    const Eigen::VectorXd& qd)
{
    ParameterValues start = v;
    start["x0"] = {q[0]};
    start["y0"] = {q[1]};
    start["ydot0"] = {qd[1]}; // ẋ follows from the constraint
    return start;
}

double AcatastaticParticle::a(double t) const
{
    return a0_ + a1_ * std::sin(omega_ * t);
}

double AcatastaticParticle::aDot(double t) const
{
    return a1_ * omega_ * std::cos(omega_ * t);
}

void AcatastaticParticle::massMatrix(const Eigen::VectorXd&, double, Eigen::MatrixXd& M) const
{
    M.setZero(2, 2);
    M.diagonal().setConstant(mass_);
}

void AcatastaticParticle::givenForce(const Eigen::VectorXd&, const Eigen::VectorXd&, double,
                                     Eigen::VectorXd& Q) const
{
    Q = force_;
}

void AcatastaticParticle::constraintMatrix(const Eigen::VectorXd&, const Eigen::VectorXd& qd,
                                           double t, Eigen::MatrixXd& A, Eigen::VectorXd& b) const
{
    // d/dt (ẋ − t ẏ − a) = ẍ − t ÿ − ẏ − ȧ = 0.
    A.resize(1, 2);
    A << 1.0, -t;
    b.resize(1);
    b[0] = qd[1] + aDot(t);
}

void AcatastaticParticle::constraintResiduals(const Eigen::VectorXd&, const Eigen::VectorXd& qd,
                                              double t, Eigen::VectorXd& r) const
{
    r.resize(1);
    r[0] = qd[0] - t * qd[1] - a(t);
}

double AcatastaticParticle::kineticEnergy(const Eigen::VectorXd&, const Eigen::VectorXd& qd,
                                          double) const
{
    return 0.5 * mass_ * qd.squaredNorm();
}

double AcatastaticParticle::potentialEnergy(const Eigen::VectorXd& q, double) const
{
    return -force_.dot(q);
}

void AcatastaticParticle::initialState(Eigen::VectorXd& q0, Eigen::VectorXd& qd0) const
{
    const double t0 = initialTime();
    q0.resize(2);
    qd0.resize(2);
    q0 << x0_, y0_;
    qd0 << a(t0) + t0 * ydot0_, ydot0_;
}

void AcatastaticParticle::velocityConstraints(const Eigen::VectorXd&, double t,
                                              Eigen::Ref<Eigen::MatrixXd> Av,
                                              Eigen::Ref<Eigen::VectorXd> bv) const
{
    Av(0, 0) = 1.0;
    Av(0, 1) = -t;
    bv[0] = a(t);
}

} // namespace clab
