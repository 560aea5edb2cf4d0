#include "scenes/BeadOnWire.h"

#include <cmath>
#include <memory>
#include <numbers>

namespace clab {

BeadOnWire::BeadOnWire(const ParameterValues& values)
    : SlidingParticle(values),
      theta_(parameterValue(values, "angle_deg") * std::numbers::pi / 180.0),
      s0_(parameterValue(values, "s0")), v0_(parameterValue(values, "v0")), sin_(std::sin(theta_)),
      cos_(std::cos(theta_))
{
}

SceneDefinition BeadOnWire::definition()
{
    SceneDefinition d;
    d.name = "bead-on-wire";
    d.title = "Bead on an inclined wire";
    d.description =
        "A bead of mass m slides under gravity along a straight wire inclined at an angle to "
        "the horizontal. The wire pushes on the bead with the ideal normal force, and Coulomb "
        "friction of magnitude mu times that normal force opposes the sliding; the bead slides "
        "down with acceleration g (sin θ − mu cos θ) when tan θ > mu.";
    d.parameters = bodyParameters("the bead");
    d.parameters.push_back({.name = "angle_deg",
                            .unit = "deg",
                            .description = "inclination of the wire above the horizontal",
                            .defaultValue = {30.0},
                            .min = 0.0,
                            .max = 90.0});
    for (ParameterSpec& spec : frictionParameters(0.2)) {
        d.parameters.push_back(std::move(spec));
    }
    d.parameters.push_back(
        {.name = "s0",
         .unit = "m",
         .description = "initial position along the wire from the origin, up-slope positive",
         .defaultValue = {2.0}});
    d.parameters.push_back({.name = "v0",
                            .unit = "m/s",
                            .description = "initial speed along the wire, up-slope positive",
                            .defaultValue = {0.0}});
    d.end = "the bead reaches the foot of the wire (s = 0)";
    d.factory = [](const ParameterValues& v) -> std::unique_ptr<MechanicalSystem> {
        return std::make_unique<BeadOnWire>(v);
    };
    d.keyParameters = {"mu", "angle_deg", "v0"};
    d.setLabels({{"mass", "Mass m"},
                 {"g", "Gravity g"},
                 {"mu", "Kinetic friction μ"},
                 {"mu_s", "Static friction μₛ"},
                 {"angle_deg", "Inclination θ"},
                 {"s0", "Start position s₀"},
                 {"v0", "Start speed v₀"}});
    d.expected = {.moving = {{"v0", {1.5}}, {"angle_deg", {35.0}}},
                  .holonomicCount = 1,
                  .velocityTermsInB = false,
                  .coordinates = {"x", "y"},
                  .extraColumns = {"s"}};
    return d;
}

ParameterValues BeadOnWire::startFromState(const ParameterValues& v, const Eigen::VectorXd& q,
                                           const Eigen::VectorXd& qd)
{
    // s and ṡ along the wire's unit direction (cos θ, sin θ).
    const double theta = parameterValue(v, "angle_deg") * std::numbers::pi / 180.0;
    const Eigen::Vector2d along(std::cos(theta), std::sin(theta));
    ParameterValues start = v;
    start["s0"] = {along.dot(q.head<2>())};
    start["v0"] = {along.dot(qd.head<2>())};
    return start;
}

void BeadOnWire::constraintMatrix(const Eigen::VectorXd&, const Eigen::VectorXd&, double,
                                  Eigen::MatrixXd& A, Eigen::VectorXd& b) const
{
    A.resize(1, 2);
    A << -sin_, cos_;
    b.setZero(1);
}

void BeadOnWire::constraintResiduals(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double,
                                     Eigen::VectorXd& r) const
{
    r.resize(2);
    r << -q[0] * sin_ + q[1] * cos_, -qd[0] * sin_ + qd[1] * cos_;
}

void BeadOnWire::extraColumns(const Eigen::VectorXd& q, const Eigen::VectorXd&, double,
                              Eigen::VectorXd& values) const
{
    values.resize(1);
    values[0] = q[0] * cos_ + q[1] * sin_;
}

double BeadOnWire::endFunction(const Eigen::VectorXd& q, const Eigen::VectorXd&, double) const
{
    return q[0] * cos_ + q[1] * sin_;
}

void BeadOnWire::initialState(Eigen::VectorXd& q0, Eigen::VectorXd& qd0) const
{
    q0.resize(2);
    qd0.resize(2);
    q0 << s0_ * cos_, s0_ * sin_;
    qd0 << v0_ * cos_, v0_ * sin_;
}

void BeadOnWire::positionConstraints(const Eigen::VectorXd& q, double,
                                     Eigen::Ref<Eigen::VectorXd> phi,
                                     Eigen::Ref<Eigen::MatrixXd> J) const
{
    phi[0] = -q[0] * sin_ + q[1] * cos_;
    J(0, 0) = -sin_;
    J(0, 1) = cos_;
}

void BeadOnWire::velocityConstraints(const Eigen::VectorXd&, double, Eigen::Ref<Eigen::MatrixXd> Av,
                                     Eigen::Ref<Eigen::VectorXd> bv) const
{
    Av(0, 0) = -sin_;
    Av(0, 1) = cos_;
    bv[0] = 0.0;
}

void BeadOnWire::slipJacobian(int, const Eigen::VectorXd&, const Eigen::VectorXd&, double,
                              Eigen::Ref<Eigen::MatrixXd> G,
                              Eigen::Ref<Eigen::VectorXd> gamma) const
{
    G(0, 0) = cos_;
    G(0, 1) = sin_;
    gamma[0] = 0.0; // a straight wire: the tangent does not turn
}

} // namespace clab
