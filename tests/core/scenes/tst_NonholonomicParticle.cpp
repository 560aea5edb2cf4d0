#include "../../support/SceneForces.h"
#include "model/ConstraintLabError.h"
#include "model/ContactEvent.h"
#include "solve/FundamentalEquation.h"
#include "integrate/Simulator.h"
#include "scenes/NonholonomicParticle.h"

#include "../../support/SceneParameters.h"

#include <QtTest>

#include <cmath>
#include <random>

using namespace clab;

namespace {

using Forces = test::SceneForces;

Forces solve(const MechanicalSystem& s, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
             double t)
{
    return test::solveScene(s, q, qd, t);
}

struct Setup {
    double mass = 1, fx = 0, fy = 0, fz = 0, a0 = 0, x0 = 0, y0 = 0, z0 = 0, xdot0 = 0, zdot0 = 0;
    ParameterValues values() const
    {
        return {{"mass", {mass}},   {"fx", {fx}},      {"fy", {fy}}, {"fz", {fz}},
                {"a0", {a0}},       {"x0", {x0}},      {"y0", {y0}}, {"z0", {z0}},
                {"xdot0", {xdot0}}, {"zdot0", {zdot0}}};
    }
};

Setup randomSetup(std::mt19937& rng, double mass)
{
    std::uniform_real_distribution<double> f(-3, 3), a(0, 2), x(-5, 5), v(-4, 4);
    Setup s;
    s.mass = mass;
    s.fx = f(rng), s.fy = f(rng), s.fz = f(rng), s.a0 = a(rng);
    s.x0 = x(rng), s.y0 = x(rng), s.z0 = x(rng), s.xdot0 = v(rng), s.zdot0 = v(rng);
    return s;
}

void expectInvalid(const ParameterValues& v, const QString& mustMention)
{
    try {
        NonholonomicParticle::definition().create(v);
        QFAIL(qPrintable("no error for " + mustMention));
    } catch (const ConstraintLabError& e) {
        QCOMPARE(e.kind(), ConstraintLabError::Kind::InvalidParameter);
        QVERIFY2(QString::fromUtf8(e.what()).contains(mustMention), e.what());
    }
}

} // namespace

class TestNonholonomicParticle : public QObject {
    Q_OBJECT

private slots:
    // Users' scripts and scene files name these parameters: renaming one breaks them.
    void parametersKeepTheirNamesAndUnits()
    {
        const SceneDefinition d = NonholonomicParticle::definition();
        QCOMPARE(testing::namesAndUnits(d), (testing::NamesAndUnits{{"mass", "kg"},
                                                                    {"fx", "N"},
                                                                    {"fy", "N"},
                                                                    {"fz", "N"},
                                                                    {"a0", "N"},
                                                                    {"x0", "m"},
                                                                    {"y0", "m"},
                                                                    {"z0", "m"},
                                                                    {"xdot0", "m/s"},
                                                                    {"zdot0", "m/s"}}));
    }

    void forcesMatchClosedForm();
    void accelerationMatchesClosedForm();
    void forcesScaleWithMass();
    void rosenbergAccelerationWithoutForces();
    void initialStateSatisfiesConstraints();
    void invalidParametersAreRejected();
    void rosenbergTrajectoryInClosedForm();
    void energyBalanceHolds();
    void dragStopsParticleInFiniteTimeAndHoldsIt_data();
    void dragStopsParticleInFiniteTimeAndHoldsIt();
    void forceWithinDragCannotMoveParticleAtRest();
    void forceBeyondDragStartsMotionAlongItsAllowedPart();
};

// docs/MATH.md §5 for m = 1: Qᶜᵢ = (−z, 1, 0)(ẋż + z f_x − f_y)/(1 + z²),
// Qᶜₙᵢ = −a₀ (ẋ + z ẏ, z ẋ + z² ẏ, ż (1 + z²)) / (‖q̇‖ (1 + z²)).
void TestNonholonomicParticle::forcesMatchClosedForm()
{
    std::mt19937 rng(4242);
    for (int trial = 0; trial < 300; ++trial) {
        const Setup p = randomSetup(rng, 1.0);
        const auto sys = NonholonomicParticle::definition().create(p.values());
        Eigen::VectorXd q(3), qd(3);
        sys->initialState(q, qd);
        if (qd.norm() < 1e-6)
            continue;
        const Forces f = solve(*sys, q, qd, 0.0);
        const double z = q[2], xd = qd[0], yd = qd[1], zd = qd[2], w = 1 + z * z;
        const Eigen::Vector3d Qci = Eigen::Vector3d(-z, 1, 0) * (xd * zd + z * p.fx - p.fy) / w;
        const Eigen::Vector3d Qcni =
            -p.a0 * Eigen::Vector3d(xd + z * yd, z * xd + z * z * yd, zd * w) / (qd.norm() * w);
        const double scale = 1 + std::abs(xd * zd) + std::abs(z * p.fx) + std::abs(p.fy) + p.a0;
        QVERIFY2((f.acc.Qci - Qci).norm() <= 1e-12 * scale, qPrintable(QString::number(trial)));
        QVERIFY2((f.acc.Qcni - Qcni).norm() <= 1e-12 * scale, qPrintable(QString::number(trial)));
    }
}

// m = 1: q̈ = f + Qᶜᵢ + Qᶜₙᵢ with the closed forms above, which satisfies A q̈ = b.
void TestNonholonomicParticle::accelerationMatchesClosedForm()
{
    std::mt19937 rng(17);
    for (int trial = 0; trial < 300; ++trial) {
        const Setup p = randomSetup(rng, 1.0);
        const auto sys = NonholonomicParticle::definition().create(p.values());
        Eigen::VectorXd q(3), qd(3);
        sys->initialState(q, qd);
        if (qd.norm() < 1e-6)
            continue;
        const Forces f = solve(*sys, q, qd, 0.0);
        const double z = q[2], xd = qd[0], yd = qd[1], zd = qd[2], w = 1 + z * z;
        const Eigen::Vector3d expected =
            Eigen::Vector3d(p.fx, p.fy, p.fz) +
            Eigen::Vector3d(-z, 1, 0) * (xd * zd + z * p.fx - p.fy) / w -
            p.a0 * Eigen::Vector3d(xd + z * yd, z * xd + z * z * yd, zd * w) / (qd.norm() * w);
        const double scale = 1 + std::abs(xd * zd) + std::abs(z * p.fx) + std::abs(p.fy) + p.a0;
        QVERIFY2((f.acc.qdd - expected).norm() <= 1e-12 * scale,
                 qPrintable(QString::number(trial)));
        QVERIFY(std::abs(-z * f.acc.qdd[0] + f.acc.qdd[1] - xd * zd) <= 1e-12 * scale);
    }
}

// For mass m the multiplier is (m ẋż + z f_x − f_y)/(1 + z²) (solve A M⁻¹ Aᵀ λ = b − A M⁻¹ f
// by hand); the drag projection does not depend on m because M = m I.
void TestNonholonomicParticle::forcesScaleWithMass()
{
    std::mt19937 rng(8);
    std::uniform_real_distribution<double> mass(0.05, 20);
    for (int trial = 0; trial < 200; ++trial) {
        const Setup p = randomSetup(rng, mass(rng));
        const auto sys = NonholonomicParticle::definition().create(p.values());
        Eigen::VectorXd q(3), qd(3);
        sys->initialState(q, qd);
        if (qd.norm() < 1e-6)
            continue;
        const Forces f = solve(*sys, q, qd, 0.0);
        const double z = q[2], xd = qd[0], yd = qd[1], zd = qd[2], w = 1 + z * z;
        const Eigen::Vector3d Qci =
            Eigen::Vector3d(-z, 1, 0) * (p.mass * xd * zd + z * p.fx - p.fy) / w;
        const Eigen::Vector3d Qcni =
            -p.a0 * Eigen::Vector3d(xd + z * yd, z * xd + z * z * yd, zd * w) / (qd.norm() * w);
        const double scale =
            1 + p.mass * std::abs(xd * zd) + std::abs(z * p.fx) + std::abs(p.fy) + p.a0;
        QVERIFY((f.acc.Qci - Qci).norm() <= 1e-12 * scale);
        QVERIFY((f.acc.Qcni - Qcni).norm() <= 1e-12 * scale);
        QVERIFY((p.mass * f.acc.qdd - (f.Q + Qci + Qcni)).norm() <= 1e-11 * scale);
    }
}

// Paper 001, eq. (38): with no forces q̈ = ẋż/(1 + z²) (−z, 1, 0).
void TestNonholonomicParticle::rosenbergAccelerationWithoutForces()
{
    std::mt19937 rng(238);
    std::uniform_real_distribution<double> x(-5, 5), v(-4, 4);
    for (int trial = 0; trial < 300; ++trial) {
        Setup p;
        p.x0 = x(rng), p.y0 = x(rng), p.z0 = x(rng), p.xdot0 = v(rng), p.zdot0 = v(rng);
        const auto sys = NonholonomicParticle::definition().create(p.values());
        Eigen::VectorXd q(3), qd(3);
        sys->initialState(q, qd);
        const Forces f = solve(*sys, q, qd, 0.0);
        const double z = q[2];
        const Eigen::Vector3d expected = qd[0] * qd[2] / (1 + z * z) * Eigen::Vector3d(-z, 1, 0);
        QVERIFY((f.acc.qdd - expected).norm() <= 1e-13 * (1 + std::abs(qd[0] * qd[2])));
        QCOMPARE(f.acc.Qcni.norm(), 0.0);
        // The ideal force of a catastatic constraint does no work on the actual motion.
        QVERIFY(std::abs(f.acc.Qci.dot(qd)) <= 1e-12 * (1 + qd.squaredNorm()));
    }
}

void TestNonholonomicParticle::initialStateSatisfiesConstraints()
{
    std::mt19937 rng(3);
    for (int trial = 0; trial < 100; ++trial) {
        const Setup p = randomSetup(rng, 2.0);
        const auto sys = NonholonomicParticle::definition().create(p.values());
        Eigen::VectorXd q(3), qd(3), r(sys->residualCount());
        sys->initialState(q, qd);
        QVERIFY((q - Eigen::Vector3d(p.x0, p.y0, p.z0)).norm() == 0.0);
        QVERIFY((qd - Eigen::Vector3d(p.xdot0, p.z0 * p.xdot0, p.zdot0)).norm() == 0.0);
        sys->constraintResiduals(q, qd, 0.0, r);
        QVERIFY(std::abs(r[0]) <= 1e-14 * (1 + std::abs(p.z0 * p.xdot0)));
    }
    const auto sys = NonholonomicParticle::definition().create({});
    Eigen::VectorXd r(1);
    sys->constraintResiduals(Eigen::Vector3d(0, 0, 2), Eigen::Vector3d(1, 3, 0), 0.0, r);
    QCOMPARE(r[0], 1.0); // ẏ − z ẋ = 3 − 2
}

void TestNonholonomicParticle::invalidParametersAreRejected()
{
    expectInvalid({{"a0", {-0.1}}}, "a0");
    expectInvalid({{"mass", {0.0}}}, "mass");
    expectInvalid({{"fx", {std::numeric_limits<double>::infinity()}}}, "fx");
    expectInvalid({{"ydot0", {1.0}}}, "ydot0"); // follows from the constraint
    expectInvalid({{"z0", {1.0, 2.0}}}, "z0");
}

// Without forces ż is constant and, integrating q̈ = ẋż/(1 + z²)(−z, 1, 0) by hand,
// ẋ = ẋ₀ √((1 + z₀²)/(1 + z²)), x − x₀ = c (asinh z − asinh z₀), y − y₀ = c (√(1 + z²) −
// √(1 + z₀²)) with c = ẋ₀ √(1 + z₀²)/ż. The kinetic energy stays constant.
void TestNonholonomicParticle::rosenbergTrajectoryInClosedForm()
{
    Setup p;
    p.x0 = 0.3, p.y0 = -1, p.z0 = -2, p.xdot0 = 1.5, p.zdot0 = 0.8;
    const auto sys = NonholonomicParticle::definition().create(p.values());
    Simulator sim(*sys);
    SimulationOptions opt;
    opt.tEnd = 10;
    opt.dt = 0.1;
    const Trace trace = sim.run(opt);
    const double c = p.xdot0 * std::sqrt(1 + p.z0 * p.z0) / p.zdot0;
    const double T0 = trace.samples.front().T;
    for (const TraceSample& s : trace.samples) {
        const double z = p.z0 + p.zdot0 * s.t;
        const Eigen::Vector3d q(p.x0 + c * (std::asinh(z) - std::asinh(p.z0)),
                                p.y0 + c * (std::sqrt(1 + z * z) - std::sqrt(1 + p.z0 * p.z0)), z);
        const double xd = p.xdot0 * std::sqrt((1 + p.z0 * p.z0) / (1 + z * z));
        const Eigen::Vector3d qd(xd, z * xd, p.zdot0);
        // State of size ~10 integrated to rtol = 1e-9 over ~100 steps.
        QVERIFY2((s.q - q).norm() < 1e-7, qPrintable(QString::number(s.t)));
        QVERIFY2((s.qd - qd).norm() < 1e-7, qPrintable(QString::number(s.t)));
        QVERIFY(std::abs(s.T - T0) < 1e-7 * T0);
        QVERIFY(s.residualMax < 1e-7);
    }
}

// E(t) − E(0) = ∫ Qᶜₙᵢ·q̇ dt with a constant force (V = −f·q) and drag; drag only removes
// energy, at the rate a₀ ‖q̇‖ projected onto the allowed motion.
void TestNonholonomicParticle::energyBalanceHolds()
{
    Setup p;
    p.mass = 1.7, p.fx = 0.5, p.fy = -0.3, p.fz = 0.2, p.a0 = 0.4;
    p.x0 = 1, p.z0 = 0.5, p.xdot0 = 2, p.zdot0 = -1;
    const auto sys = NonholonomicParticle::definition().create(p.values());
    Simulator sim(*sys);
    SimulationOptions opt;
    opt.tEnd = 8;
    opt.dt = 0.05;
    const Trace trace = sim.run(opt);
    const TraceSample& first = trace.samples.front();
    double maxE = 0;
    for (const TraceSample& s : trace.samples)
        maxE = std::max(maxE, std::abs(s.T) + std::abs(s.V));
    double previous = 0;
    for (const TraceSample& s : trace.samples) {
        QVERIFY2(std::abs((s.E - first.E) - s.W_nonideal) <= 1e-7 * maxE,
                 qPrintable(QString::number(s.t)));
        QVERIFY(s.W_nonideal <= previous + 1e-12);
        previous = s.W_nonideal;
        QVERIFY(std::abs(s.W_ideal) <= 1e-7 * maxE);
    }
    QVERIFY(trace.samples.back().W_nonideal < -0.5);
}

void TestNonholonomicParticle::dragStopsParticleInFiniteTimeAndHoldsIt_data()
{
    QTest::addColumn<IntegratorKind>("kind");
    QTest::newRow("dopri5") << IntegratorKind::Dopri5;
    QTest::newRow("rk4") << IntegratorKind::Rk4;
}

// With no given force, d/dt ‖q̇‖ = −a₀/m (the ideal force does no work on the motion, the drag
// does −a₀‖q̇‖): the speed falls linearly to zero at t* = m ‖q̇₀‖/a₀, and then the particle stays
// put instead of being driven backwards.
void TestNonholonomicParticle::dragStopsParticleInFiniteTimeAndHoldsIt()
{
    QFETCH(IntegratorKind, kind);
    Setup p;
    p.mass = 1.3, p.a0 = 0.3, p.x0 = 0.2, p.z0 = 0.4, p.xdot0 = 1.0, p.zdot0 = 0.5;
    const double speed0 = Eigen::Vector3d(p.xdot0, p.z0 * p.xdot0, p.zdot0).norm();
    const double tStop = p.mass * speed0 / p.a0;
    const auto sys = NonholonomicParticle::definition().create(p.values());
    Simulator sim(*sys);
    SimulationOptions opt;
    opt.tEnd = 10;
    opt.dt = 0.01;
    opt.rtol = 1e-11;
    opt.atol = 1e-13;
    opt.integrator = kind;
    const Trace trace = sim.run(opt);
    QCOMPARE(trace.events.size(), std::size_t(1));
    QCOMPARE(trace.events[0].kind, ContactEvent::Kind::Stick);
    QVERIFY2(std::abs(trace.events[0].t - tStop) < 1e-7,
             qPrintable(QStringLiteral("stops at %1, closed form %2")
                            .arg(trace.events[0].t, 0, 'g', 15)
                            .arg(tStop, 0, 'g', 15)));
    Eigen::Vector3d qStop = Eigen::Vector3d::Constant(std::nan(""));
    const Eigen::Vector3d qd0(p.xdot0, p.z0 * p.xdot0, p.zdot0);
    for (const TraceSample& s : trace.samples) {
        if (s.t < tStop - 1e-6) {
            QVERIFY(std::abs(s.qd.norm() - (speed0 - p.a0 * s.t / p.mass)) < 1e-7);
            QCOMPARE(s.contacts[0], 1.0);
            // Always forwards: the direction turns (the constraint bends the path) but never
            // flips.
            QVERIFY(s.qd.dot(qd0) > 0);
        } else if (s.t > tStop + 1e-6) {
            if (std::isnan(qStop[0]))
                qStop = s.q;
            QVERIFY2(s.qd.norm() <= 1e-12, qPrintable(QString::number(s.qd.norm())));
            QVERIFY((s.q - qStop).norm() <= 1e-12);
            QCOMPARE(s.contacts[0], 0.0);
            QVERIFY(s.Qcni.norm() <= 1e-12); // nothing to hold against
        }
    }
    QVERIFY(!std::isnan(qStop[0]));
    // Drag took all the kinetic energy.
    QVERIFY(std::abs(trace.samples.back().W_nonideal + 0.5 * p.mass * speed0 * speed0) < 1e-8);
}

// At rest, static drag holds the particle while the part of the given force along the allowed
// directions (f minus its component along the constraint normal a = (−z, 1, 0)) is below a₀;
// that part is then exactly what the drag force cancels.
void TestNonholonomicParticle::forceWithinDragCannotMoveParticleAtRest()
{
    Setup p;
    p.mass = 2.0, p.fx = 0.07, p.fy = -0.05, p.fz = 0.06, p.a0 = 0.1, p.z0 = 0.8;
    const Eigen::Vector3d f(p.fx, p.fy, p.fz), a(-p.z0, 1, 0);
    const Eigen::Vector3d allowed = f - a * a.dot(f) / a.squaredNorm();
    QVERIFY(allowed.norm() < p.a0 && allowed.norm() > 0.05);
    const auto sys = NonholonomicParticle::definition().create(p.values());
    Simulator sim(*sys);
    SimulationOptions opt;
    opt.tEnd = 5;
    const Trace trace = sim.run(opt);
    QCOMPARE(trace.events.size(), std::size_t(1));
    QCOMPARE(trace.events[0].kind, ContactEvent::Kind::Stick);
    for (const TraceSample& s : trace.samples) {
        QCOMPARE(s.q, trace.samples.front().q);
        QVERIFY(s.qd.isZero(0.0));
        QVERIFY((s.Qcni + allowed).norm() < 1e-12);
        QVERIFY((s.Qci - a * a.dot(-f) / a.squaredNorm()).norm() < 1e-12);
    }
}

void TestNonholonomicParticle::forceBeyondDragStartsMotionAlongItsAllowedPart()
{
    Setup p;
    p.mass = 2.0, p.fx = 0.3, p.fy = -0.2, p.fz = 0.25, p.a0 = 0.1, p.z0 = 0.8;
    const Eigen::Vector3d f(p.fx, p.fy, p.fz), a(-p.z0, 1, 0);
    const Eigen::Vector3d allowed = f - a * a.dot(f) / a.squaredNorm();
    QVERIFY(allowed.norm() > p.a0);
    const auto sys = NonholonomicParticle::definition().create(p.values());
    Simulator sim(*sys);
    SimulationOptions opt;
    opt.tEnd = 1;
    const Trace trace = sim.run(opt);
    QCOMPARE(trace.events.size(), std::size_t(1));
    QCOMPARE(trace.events[0].kind, ContactEvent::Kind::Slip);
    // At the start it accelerates along the allowed force, reduced by the drag a₀.
    const TraceSample& s0 = trace.samples.front();
    const Eigen::Vector3d expected = (allowed.norm() - p.a0) / p.mass * allowed.normalized();
    QVERIFY2((s0.qdd - expected).norm() < 1e-12,
             qPrintable(QString::number((s0.qdd - expected).norm())));
    QCOMPARE(trace.samples.back().contacts[0], 1.0);
}

QTEST_APPLESS_MAIN(TestNonholonomicParticle)
#include "tst_NonholonomicParticle.moc"
