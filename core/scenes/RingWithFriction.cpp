#include "scenes/RingWithFriction.h"

#include <cmath>
#include <memory>
#include <numbers>

namespace clab {

RingWithFriction::RingWithFriction(const ParameterValues& values)
    : SlidingParticle(values), radius_(parameterValue(values, "radius")),
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
    d.parameters = bodyParameters("the particle");
    d.parameters.push_back(ParameterSpec::positive("radius", "m", "radius of the ring", 1.0));
    for (ParameterSpec& spec : frictionParameters(0.1)) {
        d.parameters.push_back(std::move(spec));
    }
    d.parameters.push_back({.name = "phi0_deg",
                            .unit = "deg",
                            .description = "initial angle from the lowest point, counter-clockwise",
                            .defaultValue = {90.0},
                            .min = -360.0,
                            .max = 360.0});
    d.parameters.push_back({.name = "v0",
                            .unit = "m/s",
                            .description = "initial tangential speed, counter-clockwise positive",
                            .defaultValue = {0.0}});
    d.factory = [](const ParameterValues& v) -> std::unique_ptr<MechanicalSystem> {
        return std::make_unique<RingWithFriction>(v);
    };
    d.keyParameters = {"mu", "phi0_deg", "v0"};
    d.setLabels({{"radius", "Radius R"},
                 {"mass", "Mass m"},
                 {"g", "Gravity g"},
                 {"mu", "Kinetic friction μ"},
                 {"mu_s", "Static friction μₛ"},
                 {"phi0_deg", "Start angle φ₀"},
                 {"v0", "Start speed v₀"}});
    d.expected = {.moving = {{"v0", {2.0}}, {"phi0_deg", {30.0}}, {"radius", {1.7}}},
                  .holonomicCount = 1,
                  .coordinates = {"x", "y"},
                  .extraColumns = {"phi"}};
    return d;
}

ParameterValues RingWithFriction::startFromState(const ParameterValues& v, const Eigen::VectorXd& q,
                                                 const Eigen::VectorXd& qd)
{
    // q = R (sin φ, −cos φ); the tangent, counter-clockwise, is (cos φ, sin φ).
    const double phi = std::atan2(q[0], -q[1]);
    ParameterValues start = v;
    start["phi0_deg"] = {phi * 180.0 / std::numbers::pi};
    start["v0"] = {Eigen::Vector2d(std::cos(phi), std::sin(phi)).dot(qd.head<2>())};
    return start;
}

void RingWithFriction::constraintMatrix(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double,
                                        Eigen::MatrixXd& A, Eigen::VectorXd& b) const
{
    A.resize(1, 2);
    A << q[0], q[1];
    b.resize(1);
    b[0] = -qd.squaredNorm();
}

void RingWithFriction::constraintResiduals(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                           double, Eigen::VectorXd& r) const
{
    r.resize(2);
    // Scaled by R so that both residuals are lengths/speeds along the ring's normal.
    r << (q.squaredNorm() - radius_ * radius_) / (2.0 * radius_), q.dot(qd) / radius_;
}

void RingWithFriction::extraColumns(const Eigen::VectorXd& q, const Eigen::VectorXd&, double,
                                    Eigen::VectorXd& values) const
{
    values.resize(1);
    // The lowest point is (0, −R): φ = atan2(x, −y).
    values[0] = std::atan2(q[0], -q[1]);
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

} // namespace clab
