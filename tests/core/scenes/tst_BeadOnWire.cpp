#include "../../support/SceneForces.h"
#include "integrate/Simulator.h"
#include "model/ConstraintLabError.h"
#include "model/ContactEvent.h"
#include "scenes/BeadOnWire.h"
#include "solve/FundamentalEquation.h"

#include "../../support/SceneParameters.h"

#include <QtTest>

#include <cmath>
#include <numbers>
#include <random>

using namespace clab;

namespace {

constexpr double kPi = std::numbers::pi;

using Forces = test::SceneForces;

Forces solve(const MechanicalSystem& s, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
             double t)
{
    return test::solveScene(s, q, qd, t);
}

ParameterValues values(double mass, double g, double angleDeg, double mu, double s0, double v0)
{
    return {{"mass", {mass}}, {"g", {g}},   {"angle_deg", {angleDeg}},
            {"mu", {mu}},     {"s0", {s0}}, {"v0", {v0}}};
}

ParameterValues withStatic(ParameterValues v, double muS)
{
    v["mu_s"] = {muS};
    return v;
}

// Position along the wire, up-slope positive, and the speed along it.
double along(const TraceSample& s, double theta)
{
    return std::cos(theta) * s.q[0] + std::sin(theta) * s.q[1];
}
double speedAlong(const TraceSample& s, double theta)
{
    return std::cos(theta) * s.qd[0] + std::sin(theta) * s.qd[1];
}

SimulationOptions options(double tEnd, IntegratorKind kind = IntegratorKind::Dopri5)
{
    SimulationOptions o;
    o.tEnd = tEnd;
    o.dt = 0.01;
    o.integrator = kind;
    return o;
}

void expectInvalid(const ParameterValues& v, const QString& mustMention)
{
    try {
        BeadOnWire::definition().create(v);
        QFAIL(qPrintable("no error for " + mustMention));
    } catch (const ConstraintLabError& e) {
        QCOMPARE(e.kind(), ConstraintLabError::Kind::InvalidParameter);
        QVERIFY2(QString::fromUtf8(e.what()).contains(mustMention), e.what());
    }
}

} // namespace

class TestBeadOnWire : public QObject {
    Q_OBJECT

private slots:
    // Users' scripts and scene files name these parameters: renaming one breaks them.
    void parametersKeepTheirNamesAndUnits()
    {
        const SceneDefinition d = BeadOnWire::definition();
        QCOMPARE(testing::namesAndUnits(d), (testing::NamesAndUnits{{"mass", "kg"},
                                                                    {"g", "m/s²"},
                                                                    {"angle_deg", "deg"},
                                                                    {"mu", ""},
                                                                    {"mu_s", ""},
                                                                    {"s0", "m"},
                                                                    {"v0", "m/s"}}));
        QCOMPARE(d.parameter("angle_deg")->min, 0.0);
        QCOMPARE(d.parameter("angle_deg")->max, 90.0);
    }

    void forcesMatchClosedForm();
    void accelerationMatchesClosedForm();
    void verticalWireHasNoNormalForce();
    void initialStateSatisfiesConstraints();
    void invalidParametersAreRejected();
    void slidesDownWithClosedFormAcceleration();
    void energyBalanceHolds_data();
    void energyBalanceHolds();
    void staticFrictionFollowsKineticWhenNotGiven();
    void staticFrictionBelowKineticIsRejected();
    void launchedDownStopsAtClosedFormTimeAndStays_data();
    void launchedDownStopsAtClosedFormTimeAndStays();
    void placedAtRestOnGentleSlopeNeverMoves_data();
    void placedAtRestOnGentleSlopeNeverMoves();
    void placedAtRestOnSteepSlopeSlidesImmediately();
    void launchedUpStopsAtTopAndStays();
    void launchedUpComesBackDown();
    void launchedUpFromTheFootRunsBackToIt();
    void launchedDownFromTheFootEndsAtOnce();
    void startBelowTheFootIsRefusedWhenStoppingThere();
};

// docs/MATH.md §5: Qᶜᵢ = m g cos θ (−sin θ, cos θ), Qᶜₙᵢ = C = −μ m g cos θ sgn(s̈) (cos θ, sin θ).
void TestBeadOnWire::forcesMatchClosedForm()
{
    std::mt19937 rng(20240601);
    std::uniform_real_distribution<double> mass(0.1, 10), g(0.5, 25), angle(0, 89.9), mu(0, 2),
        s(-5, 5), v(-4, 4);
    for (int trial = 0; trial < 200; ++trial) {
        const double m = mass(rng), gg = g(rng), deg = angle(rng), k = mu(rng), s0 = s(rng);
        double v0 = v(rng);
        if (std::abs(v0) < 1e-3)
            v0 = 1.0;
        const auto sys = BeadOnWire::definition().create(values(m, gg, deg, k, s0, v0));
        Eigen::VectorXd q(2), qd(2);
        sys->initialState(q, qd);
        const Forces f = solve(*sys, q, qd, 0.0);

        const double th = deg * kPi / 180.0;
        const double N = m * gg * std::cos(th);
        const Eigen::Vector2d normal(-std::sin(th), std::cos(th));
        const Eigen::Vector2d tangent(std::cos(th), std::sin(th));
        const Eigen::Vector2d Qci = N * normal;
        const Eigen::Vector2d Qcni = -k * N * (v0 > 0 ? 1.0 : -1.0) * tangent;
        const double scale = m * gg;
        QVERIFY2((f.acc.Qci - Qci).norm() <= 1e-12 * scale, qPrintable(QString::number(trial)));
        QVERIFY2((f.acc.Qcni - Qcni).norm() <= 1e-12 * scale, qPrintable(QString::number(trial)));
        // C is tangent to the wire, so all of it survives as the non-ideal force.
        QVERIFY((f.C - Qcni).norm() <= 1e-12 * scale);
    }
}

// Along the wire s̈ = −g sin θ − sgn(ṡ) μ g cos θ; no acceleration across it.
void TestBeadOnWire::accelerationMatchesClosedForm()
{
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> mass(0.1, 10), g(0.5, 25), angle(0, 89.9), mu(0, 2),
        s(-5, 5), v(-4, 4);
    for (int trial = 0; trial < 200; ++trial) {
        const double m = mass(rng), gg = g(rng), deg = angle(rng), k = mu(rng), s0 = s(rng);
        double v0 = v(rng);
        if (std::abs(v0) < 1e-3)
            v0 = -1.0;
        const auto sys = BeadOnWire::definition().create(values(m, gg, deg, k, s0, v0));
        Eigen::VectorXd q(2), qd(2);
        sys->initialState(q, qd);
        const Forces f = solve(*sys, q, qd, 0.0);

        const double th = deg * kPi / 180.0;
        const double sdd = -gg * std::sin(th) - (v0 > 0 ? 1.0 : -1.0) * k * gg * std::cos(th);
        const Eigen::Vector2d expected = sdd * Eigen::Vector2d(std::cos(th), std::sin(th));
        QVERIFY2((f.acc.qdd - expected).norm() <= 1e-12 * gg, qPrintable(QString::number(trial)));
    }
    // At rest there is no sliding direction: C = 0 and the bead starts down with g sin θ.
    const auto rest = BeadOnWire::definition().create(values(2, 9.81, 30, 0.2, 1, 0));
    Eigen::VectorXd q(2), qd(2);
    rest->initialState(q, qd);
    const Forces f = solve(*rest, q, qd, 0.0);
    QCOMPARE(f.C.norm(), 0.0);
    QVERIFY((f.acc.qdd - (-9.81 * 0.5) * Eigen::Vector2d(std::sqrt(3.0) / 2, 0.5)).norm() < 1e-12);
}

// θ = 90°: gravity is along the wire, so the wire pushes nothing and friction vanishes.
void TestBeadOnWire::verticalWireHasNoNormalForce()
{
    const auto sys = BeadOnWire::definition().create(values(1.5, 9.81, 90, 0.7, 3, -2));
    Eigen::VectorXd q(2), qd(2);
    sys->initialState(q, qd);
    QVERIFY(std::abs(q[0]) < 1e-15 && std::abs(q[1] - 3) < 1e-15);
    const Forces f = solve(*sys, q, qd, 0.0);
    QVERIFY(f.acc.Qci.norm() < 1e-12);
    QVERIFY(f.acc.Qcni.norm() < 1e-12);
    QVERIFY((f.acc.qdd - Eigen::Vector2d(0, -9.81)).norm() < 1e-12);
}

void TestBeadOnWire::initialStateSatisfiesConstraints()
{
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> angle(0, 90), s(-100, 100), v(-50, 50);
    for (int trial = 0; trial < 100; ++trial) {
        const double deg = angle(rng), s0 = s(rng), v0 = v(rng);
        const auto sys = BeadOnWire::definition().create(values(1, 9.81, deg, 0.2, s0, v0));
        Eigen::VectorXd q(2), qd(2), r(sys->residualCount());
        sys->initialState(q, qd);
        const double th = deg * kPi / 180.0;
        // On the wire y = x tan θ at signed distance s0, moving along it with speed v0.
        QVERIFY(std::abs(q[1] * std::cos(th) - q[0] * std::sin(th)) <= 1e-13 * std::abs(s0));
        QVERIFY(std::abs(q.norm() - std::abs(s0)) <= 1e-13 * std::abs(s0));
        QVERIFY(std::abs(q[0] * std::cos(th) + q[1] * std::sin(th) - s0) <= 1e-13 * std::abs(s0));
        QVERIFY(std::abs(qd[0] * std::cos(th) + qd[1] * std::sin(th) - v0) <= 1e-13 * std::abs(v0));
        QVERIFY(std::abs(qd.norm() - std::abs(v0)) <= 1e-13 * std::abs(v0));
        sys->constraintResiduals(q, qd, 0.0, r);
        QVERIFY(r.cwiseAbs().maxCoeff() <= 1e-12 * (1 + std::abs(s0) + std::abs(v0)));
    }
    // Off the wire the residuals report the distance to it and the normal velocity.
    const auto sys = BeadOnWire::definition().create(values(1, 9.81, 90, 0.2, 0, 0));
    Eigen::VectorXd r(2);
    sys->constraintResiduals(Eigen::Vector2d(0.25, 7), Eigen::Vector2d(-3, 1), 0.0, r);
    QVERIFY(std::abs(std::abs(r[0]) - 0.25) < 1e-15 && std::abs(std::abs(r[1]) - 3) < 1e-15);
}

void TestBeadOnWire::invalidParametersAreRejected()
{
    expectInvalid({{"mass", {0.0}}}, "mass");
    expectInvalid({{"mass", {-1.0}}}, "-1");
    expectInvalid({{"g", {-9.81}}}, "g");
    expectInvalid({{"angle_deg", {91.0}}}, "angle_deg");
    expectInvalid({{"angle_deg", {-0.5}}}, "90");
    expectInvalid({{"mu", {-0.1}}}, "mu");
    expectInvalid({{"mu", {2.5}}}, "2.5");
    expectInvalid({{"s0", {std::nan("")}}}, "s0");
    expectInvalid({{"v0", {std::numeric_limits<double>::infinity()}}}, "v0");
    expectInvalid({{"mass", {1.0, 2.0}}}, "mass");
    expectInvalid({{"mass", {}}}, "mass");
    expectInvalid({{"friction", {0.3}}}, "friction");
    // The edges of the ranges are allowed.
    BeadOnWire::definition().create(values(1e-6, 0, 0, 0, 0, 0));
    BeadOnWire::definition().create(values(1, 9.81, 90, 2, 0, 0));
}

// From rest with tan θ > μ: s(t) = s0 − ½ g (sin θ − μ cos θ) t², v(t) = −g (sin θ − μ cos θ) t.
void TestBeadOnWire::slidesDownWithClosedFormAcceleration()
{
    const double g = 9.81, deg = 30, mu = 0.2, s0 = 2;
    const auto sys = BeadOnWire::definition().create(values(0.7, g, deg, mu, s0, 0));
    Simulator sim(*sys);
    SimulationOptions opt;
    opt.tEnd = 1.5;
    opt.dt = 0.05;
    const Trace trace = sim.run(opt);
    QCOMPARE(trace.samples.size(), std::size_t(31));
    const double th = deg * kPi / 180.0;
    const double a = g * (std::sin(th) - mu * std::cos(th));
    const Eigen::Vector2d e(std::cos(th), std::sin(th));
    for (const TraceSample& smp : trace.samples) {
        const double t = smp.t;
        const Eigen::Vector2d q = (s0 - 0.5 * a * t * t) * e;
        const Eigen::Vector2d qd = (-a * t) * e;
        // rtol 1e-9 on a state of size ~10: errors of a few 1e-9 at most.
        QVERIFY2((smp.q - q).norm() < 1e-7, qPrintable(QString::number(t)));
        QVERIFY2((smp.qd - qd).norm() < 1e-7, qPrintable(QString::number(t)));
        // The arc-length column is the closed-form position along the wire.
        QCOMPARE(trace.columnIndex("s") >= 0, true);
        QVERIFY(std::abs(smp.extra[0] - (s0 - 0.5 * a * t * t)) < 1e-7);
        if (t > 0) {
            QVERIFY((smp.qdd + a * e).norm() < 1e-9);
            // Friction work so far: −μ N × distance slid.
            const double slid = 0.5 * a * t * t;
            QVERIFY(std::abs(smp.W_nonideal + mu * 0.7 * g * std::cos(th) * slid) < 1e-7);
        }
    }
}

// E(t) − E(0) = ∫ Qᶜₙᵢ·q̇ dt, and friction only ever removes energy.
void TestBeadOnWire::energyBalanceHolds_data()
{
    QTest::addColumn<double>("angle");
    QTest::addColumn<double>("mu");
    QTest::addColumn<double>("v0");
    QTest::newRow("sliding down") << 40.0 << 0.5 << -1.0;
    QTest::newRow("thrown up, slides back") << 30.0 << 0.2 << 3.0;
    QTest::newRow("frictionless") << 60.0 << 0.0 << 2.0;
}

void TestBeadOnWire::energyBalanceHolds()
{
    QFETCH(double, angle);
    QFETCH(double, mu);
    QFETCH(double, v0);
    const auto sys = BeadOnWire::definition().create(values(1.3, 9.81, angle, mu, 1, v0));
    Simulator sim(*sys);
    SimulationOptions opt;
    opt.tEnd = 3;
    opt.dt = 0.01;
    const Trace trace = sim.run(opt);
    const TraceSample& first = trace.samples.front();
    double previousWork = 0;
    double maxE = 0;
    for (const TraceSample& s : trace.samples)
        maxE = std::max(maxE, std::abs(s.T) + std::abs(s.V));
    for (const TraceSample& s : trace.samples) {
        // Both sides are integrated to rtol = 1e-9 over a few hundred steps.
        QVERIFY2(
            std::abs((s.E - first.E) - s.W_nonideal) <= 1e-7 * maxE,
            qPrintable(
                QString("t = %1: ΔE = %2, W = %3").arg(s.t).arg(s.E - first.E).arg(s.W_nonideal)));
        QVERIFY(s.W_nonideal <= previousWork + 1e-12 * maxE);
        previousWork = s.W_nonideal;
        QVERIFY(s.residualMax < 1e-6);
    }
    if (mu > 0)
        QVERIFY(trace.samples.back().W_nonideal < -0.1);
    else
        QVERIFY(std::abs(trace.samples.back().W_nonideal) < 1e-12);
}

void TestBeadOnWire::staticFrictionFollowsKineticWhenNotGiven()
{
    const SceneDefinition d = BeadOnWire::definition();
    const ParameterSpec* spec = d.parameter("mu_s");
    QVERIFY(spec);
    QCOMPARE(spec->defaultsTo, std::string("mu"));
    QCOMPARE(d.defaults().at("mu_s"), d.defaults().at("mu"));
    // Only mu given: mu_s follows it (--set mu=0.5 alone gives mu_s = 0.5).
    auto only = d.create({{"mu", {0.5}}});
    QCOMPARE(static_cast<BeadOnWire&>(*only).staticFriction(), 0.5);
    QCOMPARE(d.complete({{"mu", {0.5}}}).at("mu_s"), std::vector<double>{0.5});
    auto both = d.create({{"mu", {0.5}}, {"mu_s", {0.7}}});
    QCOMPARE(static_cast<BeadOnWire&>(*both).staticFriction(), 0.7);
    QCOMPARE(static_cast<BeadOnWire&>(*both).friction(), 0.5);
}

void TestBeadOnWire::staticFrictionBelowKineticIsRejected()
{
    expectInvalid({{"mu", {0.5}}, {"mu_s", {0.3}}}, "mu_s");
    expectInvalid({{"mu", {0.5}}, {"mu_s", {0.3}}}, "at least mu");
    expectInvalid({{"mu_s", {0.1}}}, "'mu' = 0.2"); // below the default mu
    expectInvalid({{"mu_s", {-0.2}}}, "mu_s");
    expectInvalid({{"mu", {-0.2}}, {"mu_s", {0.1}}}, "'mu' = -0.2");
    // Equal coefficients are fine.
    BeadOnWire::definition().create({{"mu", {0.4}}, {"mu_s", {0.4}}});
}

void TestBeadOnWire::launchedDownStopsAtClosedFormTimeAndStays_data()
{
    QTest::addColumn<IntegratorKind>("kind");
    QTest::newRow("dopri5") << IntegratorKind::Dopri5;
    QTest::newRow("rk4") << IntegratorKind::Rk4;
}

// Launched down the wire (v0 < 0) with μ > tan θ the bead decelerates at g (μ cos θ − sin θ),
// stops at t* = |v0|/(g (μ cos θ − sin θ)) and stays: static friction then holds m g sin θ.
void TestBeadOnWire::launchedDownStopsAtClosedFormTimeAndStays()
{
    QFETCH(IntegratorKind, kind);
    const double m = 0.7, g = 9.81, deg = 30, mu = 0.8, muS = 0.9, s0 = 2, v0 = -2;
    const double th = deg * kPi / 180.0;
    const double decel = g * (mu * std::cos(th) - std::sin(th));
    const double tStop = std::abs(v0) / decel, sStop = s0 - v0 * v0 / (2 * decel);
    const auto sys =
        BeadOnWire::definition().create(withStatic(values(m, g, deg, mu, s0, v0), muS));
    Simulator sim(*sys);
    const Trace trace = sim.run(options(3.0, kind));

    QCOMPARE(trace.events.size(), std::size_t(1));
    QCOMPARE(trace.events[0].kind, ContactEvent::Kind::Stick);
    QVERIFY2(std::abs(trace.events[0].t - tStop) < 1e-10,
             qPrintable(QStringLiteral("stops at %1, closed form %2")
                            .arg(trace.events[0].t, 0, 'g', 17)
                            .arg(tStop, 0, 'g', 17)));
    for (const TraceSample& smp : trace.samples) {
        const double t = smp.t;
        if (t < tStop) {
            QCOMPARE(smp.contacts[0], 1.0);
            QVERIFY(std::abs(along(smp, th) - (s0 + v0 * t + 0.5 * decel * t * t)) < 1e-9);
            QVERIFY(std::abs(speedAlong(smp, th) - (v0 + decel * t)) < 1e-9);
        } else {
            QCOMPARE(smp.contacts[0], 0.0);
            QVERIFY(std::abs(along(smp, th) - sStop) < 1e-9);
            QVERIFY2(smp.qd.norm() <= 1e-12,
                     qPrintable(QStringLiteral("|v| = %1 at t = %2").arg(smp.qd.norm()).arg(t)));
            // Static friction: m g sin θ up the wire, within μₛ N; the normal force unchanged.
            const Eigen::Vector2d up(std::cos(th), std::sin(th));
            QVERIFY((smp.Qcni - m * g * std::sin(th) * up).norm() < 1e-12);
            QVERIFY(std::abs(smp.Qci.norm() - m * g * std::cos(th)) < 1e-12);
        }
    }
}

void TestBeadOnWire::placedAtRestOnGentleSlopeNeverMoves_data()
{
    QTest::addColumn<double>("deg");
    QTest::addColumn<double>("muS");
    QTest::addColumn<IntegratorKind>("kind");
    QTest::newRow("tan θ < μs") << 25.0 << 0.5 << IntegratorKind::Dopri5;
    QTest::newRow("tan θ = μs") << 30.0 << std::tan(30.0 * kPi / 180.0) << IntegratorKind::Dopri5;
    QTest::newRow("rk4") << 25.0 << 0.5 << IntegratorKind::Rk4;
}

void TestBeadOnWire::placedAtRestOnGentleSlopeNeverMoves()
{
    QFETCH(double, deg);
    QFETCH(double, muS);
    QFETCH(IntegratorKind, kind);
    const auto sys =
        BeadOnWire::definition().create(withStatic(values(1.3, 9.81, deg, 0.3, 1.5, 0), muS));
    Simulator sim(*sys);
    const Trace trace = sim.run(options(5.0, kind));
    QCOMPARE(trace.events.size(), std::size_t(1));
    QCOMPARE(trace.events[0].t, 0.0);
    QCOMPARE(trace.events[0].kind, ContactEvent::Kind::Stick);
    const TraceSample& first = trace.samples.front();
    for (const TraceSample& smp : trace.samples) {
        QCOMPARE(smp.q, first.q); // exactly
        QVERIFY(smp.qd.isZero(0.0));
        QVERIFY(smp.qdd.isZero(0.0));
        QCOMPARE(smp.contacts[0], 0.0);
        QCOMPARE(smp.E_error, 0.0);
    }
}

// tan θ > μₛ: from rest the bead slides at once, with the kinetic coefficient.
void TestBeadOnWire::placedAtRestOnSteepSlopeSlidesImmediately()
{
    const double g = 9.81, deg = 40, mu = 0.3, muS = 0.5, s0 = 2;
    const double th = deg * kPi / 180.0;
    const double a = g * (std::sin(th) - mu * std::cos(th));
    const auto sys = BeadOnWire::definition().create(withStatic(values(1, g, deg, mu, s0, 0), muS));
    Simulator sim(*sys);
    const Trace trace = sim.run(options(1.0));
    QCOMPARE(trace.events.size(), std::size_t(1));
    QCOMPARE(trace.events[0].t, 0.0);
    QCOMPARE(trace.events[0].kind, ContactEvent::Kind::Slip);
    for (const TraceSample& smp : trace.samples) {
        QCOMPARE(smp.contacts[0], 1.0);
        QVERIFY(std::abs(along(smp, th) - (s0 - 0.5 * a * smp.t * smp.t)) < 1e-9);
        QVERIFY(std::abs(speedAlong(smp, th) + a * smp.t) < 1e-9);
    }
}

// Launched up with tan θ ≤ μₛ: decelerates at g (sin θ + μ cos θ), stops at the top, stays.
void TestBeadOnWire::launchedUpStopsAtTopAndStays()
{
    const double g = 9.81, deg = 20, mu = 0.2, muS = 0.4, s0 = 0.5, v0 = 1.5;
    const double th = deg * kPi / 180.0;
    const double up = g * (std::sin(th) + mu * std::cos(th));
    const double tTop = v0 / up, sTop = s0 + v0 * v0 / (2 * up);
    const auto sys =
        BeadOnWire::definition().create(withStatic(values(1, g, deg, mu, s0, v0), muS));
    Simulator sim(*sys);
    const Trace trace = sim.run(options(2.0));
    QCOMPARE(trace.events.size(), std::size_t(1));
    QCOMPARE(trace.events[0].kind, ContactEvent::Kind::Stick);
    QVERIFY(std::abs(trace.events[0].t - tTop) < 1e-10);
    for (const TraceSample& smp : trace.samples) {
        const double t = std::min(smp.t, tTop);
        QVERIFY(std::abs(along(smp, th) - (s0 + v0 * t - 0.5 * up * t * t)) < 1e-9);
        if (smp.t > tTop) {
            QVERIFY(smp.qd.norm() <= 1e-12);
            QVERIFY(std::abs(along(smp, th) - sTop) < 1e-9);
        }
    }
}

// Launched up with tan θ > μₛ: stops at the top, then comes back down with g (sin θ − μ cos θ).
void TestBeadOnWire::launchedUpComesBackDown()
{
    const double g = 9.81, deg = 35, mu = 0.2, muS = 0.5, s0 = 0.5, v0 = 1.5;
    const double th = deg * kPi / 180.0;
    const double up = g * (std::sin(th) + mu * std::cos(th));
    const double down = g * (std::sin(th) - mu * std::cos(th));
    const double tTop = v0 / up, sTop = s0 + v0 * v0 / (2 * up);
    const auto sys =
        BeadOnWire::definition().create(withStatic(values(1, g, deg, mu, s0, v0), muS));
    Simulator sim(*sys);
    const Trace trace = sim.run(options(2.0));
    QCOMPARE(trace.events.size(), std::size_t(1));
    QCOMPARE(trace.events[0].kind, ContactEvent::Kind::Reversal);
    QVERIFY(std::abs(trace.events[0].t - tTop) < 1e-10);
    for (const TraceSample& smp : trace.samples) {
        QCOMPARE(smp.contacts[0], 1.0);
        const double t = smp.t;
        const double expected = t <= tTop ? s0 + v0 * t - 0.5 * up * t * t
                                          : sTop - 0.5 * down * (t - tTop) * (t - tTop);
        QVERIFY2(std::abs(along(smp, th) - expected) < 1e-9, qPrintable(QString::number(t)));
        // The acceleration along the wire, from the equation itself.
        const double accel = std::cos(th) * smp.qdd[0] + std::sin(th) * smp.qdd[1];
        QVERIFY(std::abs(accel - (t < tTop ? -up : -down)) < 1e-9);
    }
}

// From the foot (s = 0) up the wire: up and back down by the closed forms, ending where it
// comes back to the foot, never below it.
void TestBeadOnWire::launchedUpFromTheFootRunsBackToIt()
{
    const double g = 9.81, deg = 30, mu = 0.2, v0 = 2.0;
    const double th = deg * kPi / 180.0;
    const double up = g * (std::sin(th) + mu * std::cos(th));
    const double down = g * (std::sin(th) - mu * std::cos(th));
    const double tTop = v0 / up, sTop = v0 * v0 / (2 * up);
    const double tFoot = tTop + std::sqrt(2 * sTop / down);
    const auto sys = BeadOnWire::definition().create(values(1, g, deg, mu, 0.0, v0));
    SimulationOptions o = options(5.0);
    o.stopAtEnd = true;
    const Trace trace = Simulator(*sys).run(o);
    QVERIFY(trace.reachedEnd);
    QVERIFY2(std::abs(trace.samples.back().t - tFoot) < 1e-9,
             qPrintable(QString::number(trace.samples.back().t, 'g', 17)));
    for (const TraceSample& smp : trace.samples)
        QVERIFY2(along(smp, th) > -1e-12, qPrintable(QString::number(smp.t)));
}

// From the foot down the wire (issue 32: it ran on to s = −1.59 and blamed the foot): the run
// ends at its start, the bead at the foot; without stop_at_end it slides on below.
void TestBeadOnWire::launchedDownFromTheFootEndsAtOnce()
{
    const double th = 30 * kPi / 180.0;
    const auto sys = BeadOnWire::definition().create(values(1, 9.81, 30, 0.2, 0.0, -2.0));
    SimulationOptions o = options(5.0);
    o.stopAtEnd = true;
    const Trace trace = Simulator(*sys).run(o);
    QVERIFY(trace.reachedEnd);
    QCOMPARE(trace.samples.size(), std::size_t(1));
    QCOMPARE(trace.samples[0].t, 0.0);
    QCOMPARE(along(trace.samples[0], th), 0.0);

    o.stopAtEnd = false;
    const Trace past = Simulator(*sys).run(o);
    QVERIFY(!past.reachedEnd);
    QVERIFY(along(past.samples.back(), th) < -1.0);
}

// Below the foot there is no end to reach: refused with why while stopping at it, run without.
void TestBeadOnWire::startBelowTheFootIsRefusedWhenStoppingThere()
{
    const auto sys = BeadOnWire::definition().create(values(1, 9.81, 30, 0.2, -1.0, 0.0));
    SimulationOptions o = options(1.0);
    o.stopAtEnd = true;
    try {
        Simulator(*sys).run(o);
        QFAIL("a start below the foot ran");
    } catch (const ConstraintLabError& e) {
        QCOMPARE(e.kind(), ConstraintLabError::Kind::InvalidInitialState);
        QVERIFY2(QString(e.what()).contains("beyond the end of the scene's track"), e.what());
        QVERIFY(QString::fromStdString(e.hint()).contains("stop_at_end"));
    }
    o.stopAtEnd = false;
    QVERIFY(Simulator(*sys).run(o).samples.size() > 1);
}

QTEST_APPLESS_MAIN(TestBeadOnWire)
#include "tst_BeadOnWire.moc"
