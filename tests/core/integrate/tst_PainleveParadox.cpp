// Painlevé's paradox (docs/MATH.md §11): a uniform rod of mass m and length 2l whose foot slides
// on a rough floor. The reference is Newton–Euler for the rod alone. The foot is at (x, y), the
// rod at the angle θ from the floor, its centre at G = (x + l cos θ, y + l sin θ). On the foot act
// the floor's push N (up) and the friction F (along x); gravity acts at G:
//   m ẍ_G = F,   m ÿ_G = N − m g,   (m l²/3) θ̈ = (foot − G) × (F, N) = −l cos θ N + l sin θ F.
// With y = y_G − l sin θ, ÿ = ÿ_G − l cos θ θ̈ + l sin θ θ̇², that is
//   m ÿ = N (1 + 3 cos²θ) − 3 sin θ cos θ F − m g + m l θ̇² sin θ.
// A foot that slides away from the rod (ẋ < 0) is rubbed towards it, F = +μN, and
//   m ÿ = N D + m (l θ̇² sin θ − g),   D = 1 + 3 cos²θ − 3 μ sin θ cos θ;
// sliding towards the rod, F = −μN and D = 1 + 3 cos²θ + 3 μ sin θ cos θ > 0 always. While D > 0 a
// push N ≥ 0 keeping ÿ = 0, or none with ÿ ≥ 0, is unique. For D ≤ 0 and l θ̇² sin θ < g neither
// exists (no consistent force); for D ≤ 0 and l θ̇² sin θ > g both lifting off (N = 0) and
// N = m (g − l θ̇² sin θ)/D > 0 hold (two). Dividing D = 0 by cos²θ: tan²θ − 3μ tan θ + 4 = 0, so
// tan θ = (3μ ± √(9μ² − 16))/2: never for μ < 4/3; for μ = 3, θ from 0.4388 to 1.454 rad.
#include "integrate/Simulator.h"
#include "model/ConstraintLabError.h"
#include "symbolic/SymbolicModel.h"
#include "symbolic/SymbolicSystem.h"

#include <QtTest>

#include <cmath>
#include <optional>

using namespace clab;

class TestPainleveParadox : public QObject {
    Q_OBJECT

private slots:
    void rodSlidingAwayAboveTheCriticalFrictionStopsAtTheStartNamingTheFloor();
    void rodSlidingAwayJustBelowTheCriticalFrictionRuns();
    void rodSlidingTowardsItsLeanRunsAtAnyFriction();
    void rodTurningIntoTheParadoxStopsWhereTheClosedFormCoefficientVanishes();
    void rodWhoseFootCouldBothLiftAndPressStopsAsUndetermined();
};

namespace {

using Kind = SystemDescription::Constraint::Kind;
using P = SystemDescription::Parameter;
constexpr double g = 9.81, l = 0.5;

// The closed form's coefficient for a foot sliding away from the rod.
double coefficient(double theta, double mu)
{
    return 1.0 + 3.0 * std::cos(theta) * std::cos(theta) -
           3.0 * mu * std::sin(theta) * std::cos(theta);
}

// The smaller angle where it vanishes: tan θ = (3μ − √(9μ² − 16))/2.
double criticalAngle(double mu)
{
    return std::atan((3.0 * mu - std::sqrt(9.0 * mu * mu - 16.0)) / 2.0);
}

// μ at which the coefficient vanishes at θ.
double criticalFriction(double theta)
{
    return (1.0 + 3.0 * std::cos(theta) * std::cos(theta)) /
           (3.0 * std::sin(theta) * std::cos(theta));
}

// The rod in the coordinates of its foot (x, y) and angle θ, so that the floor's row is y and the
// slip velocity ẋ: the friction law's μ‖N‖ is μ N here. `footSpeed` < 0: away from the rod.
std::unique_ptr<MechanicalSystem> rod(double mu, double theta0, double footSpeed, double omega0)
{
    SystemDescription d;
    d.coordinates = {{"x"}, {"y"}, {"theta"}};
    d.parameters = {P::plain("m", 1.0), P::plain("g", g), P::plain("l", l), P::plain("mu", mu)};
    d.kineticEnergy = "m/2*((x_dot - l*sin(theta)*theta_dot)^2 + (y_dot + "
                      "l*cos(theta)*theta_dot)^2) + m*l^2/6*theta_dot^2";
    d.potentialEnergy = "m*g*(y + l*sin(theta))";
    SystemDescription::Constraint floor{"floor", Kind::Holonomic, "y"};
    floor.unilateral = true;
    d.constraints = {floor};
    SystemDescription::Friction f;
    f.name = "foot";
    f.slip = {"x_dot"};
    f.normal = {"floor"};
    f.mu = "mu";
    d.friction = {f};
    d.initial = {{"x", "0"},
                 {"y", "0"},
                 {"theta", QString::number(theta0, 'g', 17).toStdString()},
                 {"x_dot", QString::number(footSpeed, 'g', 17).toStdString()},
                 {"y_dot", "0"},
                 {"theta_dot", QString::number(omega0, 'g', 17).toStdString()}};
    return SymbolicModel::create(d)->definition().create({});
}

struct Outcome {
    std::optional<std::string> error;
    std::vector<TraceSample> samples; // those emitted before the stop
};

Outcome run(const MechanicalSystem& system, double tEnd, double dt = 1e-3)
{
    Simulator simulator(system);
    SimulationOptions options;
    options.tEnd = tEnd;
    options.dt = dt;
    options.rtol = 1e-12;
    options.atol = 1e-14;
    Outcome out;
    try {
        simulator.run(options, [&](const TraceSample& s) { out.samples.push_back(s); });
    } catch (const ConstraintLabError& e) {
        out.error = e.what();
    }
    return out;
}

// The time of "at t = … s:" at the start of a run's error.
double stopTime(const std::string& error)
{
    const auto at = error.find("at t = ");
    return at == std::string::npos ? -1.0 : std::stod(error.substr(at + 7));
}

} // namespace

void TestPainleveParadox::rodSlidingAwayAboveTheCriticalFrictionStopsAtTheStartNamingTheFloor()
{
    QVERIFY(coefficient(0.5, 3.0) < -0.4); // 1 + 3cos²(0.5) − 9 sin(0.5)cos(0.5) = −0.476
    const auto system = rod(3.0, 0.5, -1.0, 0.0);
    const Outcome out = run(*system, 0.1);
    QVERIFY2(out.error, "a rod with D < 0 ran without a message");
    const QString message = QString::fromStdString(*out.error);
    QVERIFY2(
        message.startsWith("at t = 0 s: Painlevé's paradox at the one-sided contact 'floor'") &&
            message.contains("μ = 3 ") && message.contains("no normal force is consistent"),
        qPrintable(message));
}

void TestPainleveParadox::rodSlidingAwayJustBelowTheCriticalFrictionRuns()
{
    const double theta0 = 0.5, critical = criticalFriction(theta0); // 2.623
    QVERIFY(std::abs(coefficient(theta0, critical)) < 1e-12);
    const auto below = rod(critical * (1.0 - 1e-3), theta0, -1.0, 0.0);
    const Outcome ran = run(*below, 1e-3, 1e-4);
    QVERIFY2(!ran.error, ran.error ? ran.error->c_str() : "");
    QCOMPARE(ran.samples.size(), std::size_t(11));
    const auto above = rod(critical * (1.0 + 1e-3), theta0, -1.0, 0.0);
    const Outcome stopped = run(*above, 1e-3, 1e-4);
    QVERIFY(stopped.error && stopTime(*stopped.error) == 0.0);
}

void TestPainleveParadox::rodSlidingTowardsItsLeanRunsAtAnyFriction()
{
    const auto system = rod(3.0, 0.5, 1.0, 0.0); // D = 1 + 3cos²θ + 9 sin θ cos θ
    const Outcome out = run(*system, 0.02);
    QVERIFY2(!out.error, out.error ? out.error->c_str() : "");
    QCOMPARE(out.samples.size(), std::size_t(21));
}

void TestPainleveParadox::rodTurningIntoTheParadoxStopsWhereTheClosedFormCoefficientVanishes()
{
    // From θ₀ = 0.3 turning up, the foot sliding away: D > 0 until θ* = atan((9 − √65)/2).
    const double mu = 3.0, thetaStar = criticalAngle(mu);
    QVERIFY(std::abs(coefficient(thetaStar, mu)) < 1e-12 && coefficient(0.3, mu) > 0.0);
    const auto system = rod(mu, 0.3, -2.0, 3.0);
    const Outcome out = run(*system, 1.0);
    QVERIFY2(out.error, "the rod turned into the paradox without a message");
    const double tStar = stopTime(*out.error);
    QVERIFY2(tStar > 0.0 && out.error->find("'floor'") != std::string::npos, out.error->c_str());
    // The samples before the stop: on the floor, sliding away, D > 0 and θ below θ*.
    QVERIFY(out.samples.size() > 5);
    for (const TraceSample& s : out.samples)
        QVERIFY(std::abs(s.q[1]) < 1e-9 && s.qd[0] < 0.0 && s.q[2] < thetaStar &&
                coefficient(s.q[2], mu) > 0.0);
    // A run that ends 1e-8 s before the stop reaches θ* to within that time's turn.
    const auto again = rod(mu, 0.3, -2.0, 3.0);
    const Outcome before = run(*again, tStar - 1e-8);
    QVERIFY2(!before.error, before.error ? before.error->c_str() : "");
    const TraceSample& last = before.samples.back();
    QVERIFY2(last.q[2] < thetaStar && thetaStar - last.q[2] < 1e-8 * last.qd[2] + 1e-9,
             qPrintable(QString("θ = %1 at t = %2, θ* = %3 at %4")
                            .arg(last.q[2], 0, 'g', 15)
                            .arg(last.t, 0, 'g', 15)
                            .arg(thetaStar, 0, 'g', 15)
                            .arg(tStar, 0, 'g', 15)));
}

void TestPainleveParadox::rodWhoseFootCouldBothLiftAndPressStopsAsUndetermined()
{
    // θ̇ = 10: l θ̇² sin θ = 24 > g, so the foot may lift off; D(0.5) < 0 lets it also press.
    QVERIFY(l * 100.0 * std::sin(0.5) > g);
    const auto system = rod(3.0, 0.5, -1.0, 10.0);
    const Outcome out = run(*system, 0.1);
    QVERIFY2(out.error && out.error->find("'floor'") != std::string::npos &&
                 out.error->find("not determined") != std::string::npos,
             out.error ? out.error->c_str() : "no message");
    // Sliding towards the rod (D > 0), the same start simply lifts off.
    const auto towards = rod(3.0, 0.5, 1.0, 10.0);
    const Outcome lifts = run(*towards, 0.01);
    QVERIFY2(!lifts.error, lifts.error ? lifts.error->c_str() : "");
}

QTEST_APPLESS_MAIN(TestPainleveParadox)
#include "tst_PainleveParadox.moc"
