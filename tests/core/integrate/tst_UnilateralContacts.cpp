// One-sided contacts (docs/MATH.md §11) against closed forms and a brute-force enumeration: the
// bouncing ball's impact times, apex heights and rest at its accumulation time; a particle
// leaving a smooth circle where cos θ = (2 cos θ₀ + v₀²/gR)/3, then flying on a parabola; a rod
// on the floor whose contacts the complementarity problem chooses as the KKT enumeration does;
// the energy audit through impacts; and the refusals of the format.
#include "../../support/ContactEventTimes.h"
#include "integrate/Simulator.h"
#include "model/ConstraintLabError.h"
#include "symbolic/SymbolicModel.h"
#include "symbolic/SymbolicSystem.h"
#include "symbolic/SystemError.h"

#include <QtTest>

#include <cmath>

using namespace clab;

class TestUnilateralContacts : public QObject {
    Q_OBJECT

private slots:
    void bouncingBallImpactsFollowNewtonsLawAndComeToRestAtTheAccumulationTime();
    void bouncingBallApexHeightsShrinkByESquared();
    void livelyBallWithManyBouncesComesToRestAtTheAccumulationTime();
    void elasticBallKeepsItsEnergyAcrossImpacts();
    void particleLeavesASmoothCircleWhereCosThetaIsTwoThirdsOfItsStart();
    void particleWithStartSpeedLeavesWhereTheClosedFormSays();
    void rodOnTheFloorKeepsTheContactsThatTheKktEnumerationKeeps();
    void frictionActsOnlyWhileItsOneSidedContactIsClosed();
    void restitutionOutsideZeroToOneIsRefused();
    void aStartInsideTheSurfaceIsRefused();
    void aOneSidedConstraintOnVelocitiesIsRefused();
};

using clab::testing::eventTimes;

namespace {

using Kind = SystemDescription::Constraint::Kind;
using P = SystemDescription::Parameter;
constexpr double g = 9.81;

SystemDescription::Constraint oneSided(std::string name, std::string phi, std::string e = {})
{
    SystemDescription::Constraint c{std::move(name), Kind::Holonomic, std::move(phi)};
    c.unilateral = true;
    c.restitution = std::move(e);
    return c;
}

SystemDescription ball(double h0, double e)
{
    SystemDescription d;
    d.coordinates = {{"y"}};
    d.parameters = {P::plain("m", 2.0), P::plain("g", g), P::plain("e", e)};
    d.masses = {"m"};
    d.potentialEnergy = "m*g*y";
    d.constraints = {oneSided("floor", "y", "e")};
    d.initial = {{"y", std::to_string(h0)}, {"y_dot", "0"}};
    return d;
}

// A particle on the outside of a circle of radius R, from angle θ₀ off the top at speed v₀.
SystemDescription circle(double theta0, double v0)
{
    SystemDescription d;
    d.coordinates = {{"x"}, {"y"}};
    d.parameters = {P::plain("m", 1.0), P::plain("g", g), P::plain("R", 1.5),
                    P::plain("theta0", theta0), P::plain("v0", v0)};
    d.masses = {"m", "m"};
    d.potentialEnergy = "m*g*y";
    d.constraints = {oneSided("sphere", "sqrt(x^2 + y^2) - R")};
    d.initial = {{"x", "R*sin(theta0)"},
                 {"y", "R*cos(theta0)"},
                 {"x_dot", "v0*cos(theta0)"},
                 {"y_dot", "-v0*sin(theta0)"}};
    return d;
}

std::unique_ptr<MechanicalSystem> build(const SystemDescription& d)
{
    return SymbolicModel::create(d)->definition().create({});
}

Trace run(const MechanicalSystem& system, double tEnd, double dt, double rtol = 1e-12)
{
    Simulator simulator(system);
    SimulationOptions options;
    options.tEnd = tEnd;
    options.dt = dt;
    options.rtol = rtol;
    options.atol = 1e-14;
    return simulator.run(options);
}

double column(const Trace& trace, const TraceSample& s, const std::string& name)
{
    std::vector<double> row;
    trace.row(s, row);
    return row[static_cast<std::size_t>(trace.columnIndex(name))];
}

} // namespace

void TestUnilateralContacts::bouncingBallImpactsFollowNewtonsLawAndComeToRestAtTheAccumulationTime()
{
    const double h0 = 1.0, e = 0.5;
    const auto system = build(ball(h0, e));
    const Trace trace = run(*system, 2.0, 1e-3);
    // t₁ = √(2h₀/g), tₖ₊₁ = tₖ + 2eᵏt₁, and at rest from t∞ = t₁(1 + e)/(1 − e).
    const double t1 = std::sqrt(2.0 * h0 / g), tInf = t1 * (1.0 + e) / (1.0 - e);
    const std::vector<double> impacts = eventTimes(trace, ContactEvent::Kind::Impact);
    QVERIFY(impacts.size() > 20);
    // Every impact but the last, which ends the series (below), within 1e-9 of its time.
    double tk = t1;
    for (std::size_t k = 0; k + 1 < impacts.size(); ++k) {
        QVERIFY2(std::abs(impacts[k] - tk) < 1e-9,
                 qPrintable(QString("impact %1 at %2, expected %3")
                                .arg(k)
                                .arg(impacts[k], 0, 'g', 15)
                                .arg(tk, 0, 'g', 15)));
        tk += 2.0 * std::pow(e, static_cast<double>(k + 1)) * t1;
    }
    // The series is resolved until its remainder is far below 1e-9 (docs/MATH.md §11, Zeno).
    QVERIFY2(std::abs(impacts.back() - tInf) < 1e-9, qPrintable(QString("at rest from %1, t∞ = %2")
                                                                    .arg(impacts.back(), 0, 'g', 15)
                                                                    .arg(tInf, 0, 'g', 15)));
    QCOMPARE(eventTimes(trace, ContactEvent::Kind::Touch).size(), std::size_t(1));
    for (const TraceSample& s : trace.samples) {
        QVERIFY(s.q[0] >= -1e-9); // never below the floor
        QVERIFY(std::abs(s.E_error) < 1e-8);
        if (s.t > tInf + 1e-6) {
            QVERIFY(std::abs(s.q[0]) < 1e-12 && std::abs(s.qd[0]) < 1e-9);
            QVERIFY(std::abs(column(trace, s, "N_floor") - 2.0 * g) < 1e-9);
        }
    }
    // All the energy went into the impacts.
    QVERIFY(std::abs(trace.samples.back().W_impact + 2.0 * g * h0) < 1e-8);
    QVERIFY(trace.columnIndex("W_impact") >= 0);
}

void TestUnilateralContacts::bouncingBallApexHeightsShrinkByESquared()
{
    const double h0 = 1.0, e = 0.7;
    const auto system = build(ball(h0, e));
    const Trace trace = run(*system, 3.0, 1e-4);
    const std::vector<double> impacts = eventTimes(trace, ContactEvent::Kind::Impact);
    QVERIFY(impacts.size() > 5);
    for (std::size_t k = 0; k + 1 < 5; ++k) {
        double apex = 0.0;
        for (const TraceSample& s : trace.samples)
            if (s.t > impacts[k] && s.t < impacts[k + 1])
                apex = std::max(apex, s.q[0]);
        const double expected = h0 * std::pow(e, 2.0 * static_cast<double>(k + 1));
        // Sampled every 1e-4 s: the top is missed by at most g·(5e-5)²/2.
        QVERIFY2(
            apex <= expected + 1e-9 && apex > expected - 2e-8,
            qPrintable(QString("apex %1: %2, expected %3").arg(k + 1).arg(apex).arg(expected)));
    }
}

void TestUnilateralContacts::livelyBallWithManyBouncesComesToRestAtTheAccumulationTime()
{
    // e = 0.95: hundreds of bounces, the last ones closer together than the span of
    // simultaneous events; the run neither stops as chattering nor rests early.
    const double h0 = 0.05, e = 0.95;
    const auto system = build(ball(h0, e));
    const double t1 = std::sqrt(2.0 * h0 / g), tInf = t1 * (1.0 + e) / (1.0 - e);
    const Trace trace = run(*system, 4.0, 1e-2);
    const std::vector<double> impacts = eventTimes(trace, ContactEvent::Kind::Impact);
    QVERIFY(impacts.size() > 300);
    QVERIFY2(std::abs(impacts.back() - tInf) < 1e-9,
             qPrintable(QString("at rest from %1 after %2 impacts, t∞ = %3")
                            .arg(impacts.back(), 0, 'g', 15)
                            .arg(impacts.size())
                            .arg(tInf, 0, 'g', 15)));
    QVERIFY(std::abs(trace.samples.back().q[0]) < 1e-12);
}

void TestUnilateralContacts::elasticBallKeepsItsEnergyAcrossImpacts()
{
    const double h0 = 0.5;
    const auto system = build(ball(h0, 1.0));
    const Trace trace = run(*system, 3.0, 1e-3);
    const double t1 = std::sqrt(2.0 * h0 / g);
    const std::vector<double> impacts = eventTimes(trace, ContactEvent::Kind::Impact);
    QCOMPARE(impacts.size(), std::size_t(std::floor((3.0 / t1 + 1.0) / 2.0)));
    for (std::size_t k = 0; k < impacts.size(); ++k)
        QVERIFY(std::abs(impacts[k] - (2.0 * static_cast<double>(k) + 1.0) * t1) < 1e-9);
    for (const TraceSample& s : trace.samples) {
        QVERIFY(std::abs(s.W_impact) < 1e-9);
        QVERIFY(std::abs(s.E - 2.0 * g * h0) < 1e-8);
    }
}

// The particle leaves the circle from (θ₀, v₀) where its normal force m (g cos θ − v²/R)
// vanishes, with v² = v₀² + 2gR(cos θ₀ − cos θ): cos θ = (2 cos θ₀ + v₀²/gR)/3. Checked at
// the located leave time (a second run ends there), then the flight on the parabola.
void checkLeavesCircle(double theta0, double v0)
{
    const double R = 1.5;
    const auto system = build(circle(theta0, v0));
    const Trace trace = run(*system, 3.0, 1e-3);
    const std::vector<double> leave = eventTimes(trace, ContactEvent::Kind::Leave);
    QCOMPARE(leave.size(), std::size_t(1));
    QVERIFY(eventTimes(trace, ContactEvent::Kind::Touch).empty());
    const double tl = leave[0];
    const double c = (2.0 * std::cos(theta0) + v0 * v0 / (g * R)) / 3.0;
    const double s = std::sqrt(1.0 - c * c), v = std::sqrt(g * R * c);
    const auto again = build(circle(theta0, v0));
    const Trace upTo = run(*again, tl, 1e-3);
    const TraceSample& at = upTo.samples.back();
    QCOMPARE(at.t, tl);
    QVERIFY2(std::abs(at.q[1] / R - c) < 1e-9 && std::abs(at.q[0] / R - s) < 1e-9,
             qPrintable(QString("cos θ = %1 at the leave time, expected %2")
                            .arg(at.q[1] / R, 0, 'g', 12)
                            .arg(c, 0, 'g', 12)));
    int checked = 0;
    for (const TraceSample& sample : trace.samples) {
        QVERIFY(std::hypot(sample.q[0], sample.q[1]) - R >= -1e-9);
        if (sample.t < tl) {
            QVERIFY(std::abs(std::hypot(sample.q[0], sample.q[1]) - R) < 1e-9);
            QVERIFY(column(trace, sample, "N_sphere") > 0.0);
            continue;
        }
        const double tau = sample.t - tl;
        const double x = R * s + v * c * tau, y = R * c - v * s * tau - 0.5 * g * tau * tau;
        QVERIFY2(std::abs(sample.q[0] - x) < 1e-8 && std::abs(sample.q[1] - y) < 1e-8,
                 qPrintable(QString("t = %1: (%2, %3), parabola (%4, %5)")
                                .arg(sample.t)
                                .arg(sample.q[0])
                                .arg(sample.q[1])
                                .arg(x)
                                .arg(y)));
        QCOMPARE(column(trace, sample, "N_sphere"), 0.0);
        ++checked;
    }
    QVERIFY(checked > 100);
    for (const TraceSample& sample : trace.samples)
        QVERIFY(std::abs(sample.E_error) < 1e-8);
}

void TestUnilateralContacts::particleLeavesASmoothCircleWhereCosThetaIsTwoThirdsOfItsStart()
{
    checkLeavesCircle(0.02, 0.0);
}

void TestUnilateralContacts::particleWithStartSpeedLeavesWhereTheClosedFormSays()
{
    checkLeavesCircle(0.3, 1.2);
}

namespace {

// A rod of two point masses m on a frictionless floor, each end a one-sided contact, the right
// end pulled up by F. The reference enumerates the four sets of closed contacts and solves the
// bordered (KKT) system [M Aᵀ; A 0] of each: a set is right when its forces push and the open
// ends do not sink.
std::vector<std::vector<double>> kktForces(double m, double L, double F)
{
    std::vector<std::vector<double>> valid;
    for (int mask = 0; mask < 4; ++mask) {
        std::vector<Eigen::RowVector4d> rows = {Eigen::RowVector4d(-2 * L, 0, 2 * L, 0)};
        if (mask & 1)
            rows.push_back(Eigen::RowVector4d(0, 1, 0, 0));
        if (mask & 2)
            rows.push_back(Eigen::RowVector4d(0, 0, 0, 1));
        const int k = static_cast<int>(rows.size());
        Eigen::MatrixXd K = Eigen::MatrixXd::Zero(4 + k, 4 + k);
        K.topLeftCorner(4, 4) = m * Eigen::Matrix4d::Identity();
        for (int i = 0; i < k; ++i) {
            K.block(4 + i, 0, 1, 4) = rows[static_cast<std::size_t>(i)];
            K.block(0, 4 + i, 4, 1) = -rows[static_cast<std::size_t>(i)].transpose();
        }
        Eigen::VectorXd rhs = Eigen::VectorXd::Zero(4 + k);
        rhs.head(4) << 0, -m * g, 0, -m * g + F;
        const Eigen::VectorXd x = K.fullPivLu().solve(rhs);
        std::vector<double> N = {0.0, 0.0};
        bool ok = true;
        int i = 1;
        for (int c = 0; c < 2; ++c) {
            const double ydd = x[c == 0 ? 1 : 3];
            if (mask & (1 << c)) {
                N[static_cast<std::size_t>(c)] = x[4 + i++];
                ok = ok && N[static_cast<std::size_t>(c)] > 1e-9;
            } else {
                ok = ok && ydd >= -1e-9;
            }
        }
        if (ok)
            valid.push_back(N);
    }
    return valid;
}

} // namespace

void TestUnilateralContacts::rodOnTheFloorKeepsTheContactsThatTheKktEnumerationKeeps()
{
    const double m = 1.0, L = 1.0;
    for (double F : {0.5 * m * g, 1.5 * m * g, 3.0 * m * g, 6.0 * m * g}) {
        const std::vector<std::vector<double>> reference = kktForces(m, L, F);
        QCOMPARE(reference.size(), std::size_t(1));
        SystemDescription d;
        d.coordinates = {{"x1"}, {"y1"}, {"x2"}, {"y2"}};
        d.parameters = {P::plain("m", m), P::plain("g", g), P::plain("L", L), P::plain("F", F)};
        d.masses = {"m", "m", "m", "m"};
        d.potentialEnergy = "m*g*(y1 + y2)";
        d.forces = {{"y2", "F"}};
        d.constraints = {{"rod", Kind::Holonomic, "(x2 - x1)^2 + (y2 - y1)^2 - L^2"},
                         oneSided("left", "y1"),
                         oneSided("right", "y2")};
        d.initial = {{"x1", "0"}, {"y1", "0"}, {"x2", "L"}, {"y2", "0"}};
        const auto system = build(d);
        const Trace trace = run(*system, 0.01, 0.01);
        const TraceSample& first = trace.samples.front();
        // N_name is |λ| ‖Aᵣ‖, and a contact row y ≥ 0 has ‖Aᵣ‖ = 1.
        QVERIFY2(std::abs(column(trace, first, "N_left") - reference[0][0]) < 1e-9 &&
                     std::abs(column(trace, first, "N_right") - reference[0][1]) < 1e-9,
                 qPrintable(QString("F = %1: N = (%2, %3), KKT (%4, %5)")
                                .arg(F)
                                .arg(column(trace, first, "N_left"))
                                .arg(column(trace, first, "N_right"))
                                .arg(reference[0][0])
                                .arg(reference[0][1])));
        for (const TraceSample& s : trace.samples)
            QVERIFY(s.q[1] >= -1e-9 && s.q[3] >= -1e-9);
    }
}

void TestUnilateralContacts::frictionActsOnlyWhileItsOneSidedContactIsClosed()
{
    // Thrown horizontally at u from h₀: no friction in the air (x = u t), a plastic landing at
    // t₁ = √(2h₀/g), then Coulomb friction μ m g until it sticks at t₁ + u/(μ g).
    const double h0 = 0.8, u = 2.0, mu = 0.4;
    SystemDescription d;
    d.coordinates = {{"x"}, {"y"}};
    d.parameters = {P::plain("m", 1.0), P::plain("g", g), P::plain("mu", mu)};
    d.masses = {"m", "m"};
    d.potentialEnergy = "m*g*y";
    d.constraints = {oneSided("floor", "y")};
    SystemDescription::Friction f;
    f.name = "block";
    f.slip = {"x_dot"};
    f.normal = {"floor"};
    f.mu = "mu";
    d.friction = {f};
    d.initial = {
        {"x", "0"}, {"y", std::to_string(h0)}, {"x_dot", std::to_string(u)}, {"y_dot", "0"}};
    const auto system = build(d);
    const Trace trace = run(*system, 1.5, 1e-3);
    const double t1 = std::sqrt(2.0 * h0 / g), tStick = t1 + u / (mu * g);
    const std::vector<double> stick = eventTimes(trace, ContactEvent::Kind::Stick);
    QCOMPARE(stick.size(), std::size_t(1));
    QVERIFY2(std::abs(stick[0] - tStick) < 1e-9, qPrintable(QString::number(stick[0] - tStick)));
    for (const TraceSample& s : trace.samples) {
        const double x = s.t < t1       ? u * s.t
                         : s.t < tStick ? u * s.t - 0.5 * mu * g * (s.t - t1) * (s.t - t1)
                                        : u * t1 + u * u / (2.0 * mu * g);
        QVERIFY2(std::abs(s.q[0] - x) < 1e-8,
                 qPrintable(QString("t = %1: x = %2, expected %3").arg(s.t).arg(s.q[0]).arg(x)));
    }
}

void TestUnilateralContacts::restitutionOutsideZeroToOneIsRefused()
{
    SystemDescription d = ball(1.0, 1.5);
    try {
        build(d);
        QFAIL("e = 1.5 was accepted");
    } catch (const ConstraintLabError& e) {
        QVERIFY2(QString(e.what()).contains("system.constraints[0].restitution") &&
                     QString(e.what()).contains("[0, 1]"),
                 e.what());
    }
}

void TestUnilateralContacts::aStartInsideTheSurfaceIsRefused()
{
    try {
        build(ball(-0.1, 0.5));
        QFAIL("a start below the floor was accepted");
    } catch (const ConstraintLabError& e) {
        QVERIFY2(QString(e.what()).contains("inside the one-sided constraint 'floor'"), e.what());
    }
}

void TestUnilateralContacts::aOneSidedConstraintOnVelocitiesIsRefused()
{
    SystemDescription d = ball(1.0, 0.5);
    d.constraints = {oneSided("floor", "y + y_dot")};
    try {
        SymbolicModel::create(d);
        QFAIL("a one-sided constraint on velocities was accepted");
    } catch (const SystemError& e) {
        QVERIFY2(QString(e.what()).contains("system.constraints[0].unilateral") &&
                     QString(e.what()).contains("velocity constraint cannot be one-sided"),
                 e.what());
    }
}

QTEST_APPLESS_MAIN(TestUnilateralContacts)
#include "tst_UnilateralContacts.moc"
