#include "../../support/SceneForces.h"
#include "model/ConstraintLabError.h"
#include "model/ContactEvent.h"
#include "solve/FundamentalEquation.h"
#include "integrate/Simulator.h"
#include "scenes/RingWithFriction.h"

#include "../../support/SceneParameters.h"

#include <QtTest>

#include <boost/numeric/odeint.hpp>

#include <array>
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

ParameterValues values(double mass, double g, double radius, double mu, double phi0Deg, double v0)
{
    return {{"mass", {mass}},        {"g", {g}},  {"radius", {radius}}, {"mu", {mu}},
            {"phi0_deg", {phi0Deg}}, {"v0", {v0}}};
}

/// Independent reference: the ring with friction in the angle φ alone (φ from the lowest point,
/// counter-clockwise), m R φ̈ = −m g sin φ − μ sgn(φ̇) |m R φ̇² + m g cos φ|, integrated with its
/// own odeint loop until φ̇ first reaches zero; the zero is found by bisection on the dense
/// output. Returns (time, angle) of the stop.
std::array<double, 2> reducedStop(double m, double g, double R, double mu, double phi0, double w0)
{
    namespace odeint = boost::numeric::odeint;
    using S = std::array<double, 2>;
    const double sign = w0 > 0 ? 1.0 : -1.0; // the direction of motion until the stop
    const auto rhs = [&](const S& x, S& dx, double) {
        const double normal = std::abs(m * R * x[1] * x[1] + m * g * std::cos(x[0]));
        dx[0] = x[1];
        dx[1] = (-m * g * std::sin(x[0]) - mu * sign * normal) / (m * R);
    };
    auto dense = odeint::make_dense_output(1e-13, 1e-13, odeint::runge_kutta_dopri5<S>());
    dense.initialize(S{phi0, w0}, 0.0, 1e-4);
    for (int steps = 0; steps < 100000; ++steps) {
        const auto [t0, t1] = dense.do_step(rhs);
        if (sign * dense.current_state()[1] > 0)
            continue;
        double a = t0, b = t1;
        S x;
        while (b - a > 1e-14) {
            const double mid = 0.5 * (a + b);
            dense.calc_state(mid, x);
            (sign * x[1] > 0 ? a : b) = mid;
        }
        dense.calc_state(b, x);
        return {b, x[0]};
    }
    return {std::nan(""), std::nan("")};
}

double angleOf(const TraceSample& s)
{
    return std::atan2(s.q[0], -s.q[1]);
}

void expectInvalid(const ParameterValues& v, const QString& mustMention)
{
    try {
        RingWithFriction::definition().create(v);
        QFAIL(qPrintable("no error for " + mustMention));
    } catch (const ConstraintLabError& e) {
        QCOMPARE(e.kind(), ConstraintLabError::Kind::InvalidParameter);
        QVERIFY2(QString::fromUtf8(e.what()).contains(mustMention), e.what());
    }
}

} // namespace

class TestRingWithFriction : public QObject {
    Q_OBJECT

private slots:
    // Users' scripts and scene files name these parameters: renaming one breaks them.
    void parametersKeepTheirNamesAndUnits()
    {
        const SceneDefinition d = RingWithFriction::definition();
        QCOMPARE(testing::namesAndUnits(d), (testing::NamesAndUnits{{"mass", "kg"},
                                                                    {"g", "m/s²"},
                                                                    {"radius", "m"},
                                                                    {"mu", ""},
                                                                    {"mu_s", ""},
                                                                    {"phi0_deg", "deg"},
                                                                    {"v0", "m/s"}}));
    }

    void forcesMatchClosedForm();
    void accelerationMatchesClosedForm();
    void initialStateSatisfiesConstraints();
    void invalidParametersAreRejected();
    void energyBalanceHolds_data();
    void energyBalanceHolds();
    void staticFrictionBelowKineticIsRejected();
    void stopsWhereReducedModelStops_data();
    void stopsWhereReducedModelStops();
};

// docs/MATH.md §5: Qᶜᵢ = −m (ẋ² + ẏ² − g y)(x, y)/R², C = −μ ‖Qᶜᵢ‖ q̇/‖q̇‖ and Qᶜₙᵢ = C.
void TestRingWithFriction::forcesMatchClosedForm()
{
    std::mt19937 rng(31337);
    std::uniform_real_distribution<double> mass(0.1, 10), g(0.5, 25), radius(0.05, 20), mu(0, 2),
        phi(-360, 360), v(-10, 10);
    for (int trial = 0; trial < 300; ++trial) {
        const double m = mass(rng), gg = g(rng), R = radius(rng), k = mu(rng), deg = phi(rng);
        double v0 = v(rng);
        if (std::abs(v0) < 1e-3)
            v0 = 0.5;
        const auto sys = RingWithFriction::definition().create(values(m, gg, R, k, deg, v0));
        Eigen::VectorXd q(2), qd(2);
        sys->initialState(q, qd);
        const Forces f = solve(*sys, q, qd, 0.0);

        const double x = q[0], y = q[1], xd = qd[0], yd = qd[1];
        const Eigen::Vector2d Qci =
            -m * (xd * xd + yd * yd - gg * y) * Eigen::Vector2d(x, y) / (R * R);
        const Eigen::Vector2d Qcni = -k * Qci.norm() * Eigen::Vector2d(xd, yd) / std::hypot(xd, yd);
        const double scale = m * (gg + v0 * v0 / R);
        QVERIFY2((f.acc.Qci - Qci).norm() <= 1e-12 * scale, qPrintable(QString::number(trial)));
        QVERIFY2((f.acc.Qcni - Qcni).norm() <= 1e-12 * scale, qPrintable(QString::number(trial)));
        // The ideal force is normal to the ring, the friction tangent to it.
        QVERIFY(std::abs(f.acc.Qci.dot(qd)) <= 1e-12 * scale * std::abs(v0));
        QVERIFY(std::abs(f.acc.Qcni.dot(q)) <= 1e-12 * scale * R);
    }
}

// In the polar angle φ from the bottom: R φ̈ = −g sin φ − sgn(φ̇) μ |N|/m, and the radial
// acceleration is the centripetal −v²/R.
void TestRingWithFriction::accelerationMatchesClosedForm()
{
    std::mt19937 rng(99);
    std::uniform_real_distribution<double> mass(0.1, 10), g(0.5, 25), radius(0.05, 20), mu(0, 2),
        phi(-360, 360), v(-10, 10);
    for (int trial = 0; trial < 300; ++trial) {
        const double m = mass(rng), gg = g(rng), R = radius(rng), k = mu(rng), deg = phi(rng);
        double v0 = v(rng);
        if (std::abs(v0) < 1e-3)
            v0 = -0.5;
        const auto sys = RingWithFriction::definition().create(values(m, gg, R, k, deg, v0));
        Eigen::VectorXd q(2), qd(2);
        sys->initialState(q, qd);
        const Forces f = solve(*sys, q, qd, 0.0);

        const double ph = deg * kPi / 180.0;
        const Eigen::Vector2d radial(std::sin(ph), -std::cos(ph)); // outward
        const Eigen::Vector2d tangent(std::cos(ph), std::sin(ph)); // counter-clockwise
        // Radial balance −m v²/R = m g cos φ + N (N: outward component of Qᶜᵢ).
        const double Nout = -m * (v0 * v0 / R + gg * std::cos(ph));
        const double tangential =
            -gg * std::sin(ph) - (v0 > 0 ? 1.0 : -1.0) * k * std::abs(Nout) / m;
        const Eigen::Vector2d expected = tangential * tangent - (v0 * v0 / R) * radial;
        const double scale = gg + v0 * v0 / R;
        QVERIFY2((f.acc.qdd - expected).norm() <= 1e-11 * scale,
                 qPrintable(
                     QString("trial %1: |Δ| = %2").arg(trial).arg((f.acc.qdd - expected).norm())));
    }
}

void TestRingWithFriction::initialStateSatisfiesConstraints()
{
    std::mt19937 rng(5);
    std::uniform_real_distribution<double> radius(0.01, 50), phi(-360, 360), v(-30, 30);
    for (int trial = 0; trial < 100; ++trial) {
        const double R = radius(rng), deg = phi(rng), v0 = v(rng);
        const auto sys = RingWithFriction::definition().create(values(1, 9.81, R, 0.1, deg, v0));
        Eigen::VectorXd q(2), qd(2), r(sys->residualCount());
        sys->initialState(q, qd);
        const double ph = deg * kPi / 180.0;
        // On the ring, at angle φ from the lowest point (0, −R).
        QVERIFY(std::abs(q.norm() - R) <= 1e-13 * R);
        QVERIFY(std::abs(std::atan2(q[0], -q[1]) - std::remainder(ph, 2 * kPi)) < 1e-12);
        // Tangent, with speed |v0|, counter-clockwise (x ẏ − y ẋ = R v0) when v0 > 0.
        QVERIFY(std::abs(q.dot(qd)) <= 1e-13 * R * std::abs(v0));
        QVERIFY(std::abs(q[0] * qd[1] - q[1] * qd[0] - R * v0) <= 1e-12 * R * std::abs(v0));
        sys->constraintResiduals(q, qd, 0.0, r);
        QVERIFY(r.cwiseAbs().maxCoeff() <= 1e-12 * (1 + R + std::abs(v0)));
    }
    // phi0 = 90°, v0 = 0 is the default: at rest at the height of the centre, on the right.
    const auto sys = RingWithFriction::definition().create({});
    Eigen::VectorXd q(2), qd(2);
    sys->initialState(q, qd);
    QVERIFY((q - Eigen::Vector2d(1, 0)).norm() < 1e-15);
    QCOMPARE(qd.norm(), 0.0);
    // Off the ring the residuals measure the radial error and the radial velocity.
    Eigen::VectorXd r(2);
    sys->constraintResiduals(Eigen::Vector2d(0, 1.1), Eigen::Vector2d(0.3, 0.4), 0.0, r);
    QVERIFY(std::abs(r[0] - (1.21 - 1) / 2) < 1e-15 && std::abs(r[1] - 1.1 * 0.4) < 1e-15);
}

void TestRingWithFriction::invalidParametersAreRejected()
{
    expectInvalid({{"radius", {0.0}}}, "radius");
    expectInvalid({{"radius", {-2.0}}}, "-2");
    expectInvalid({{"mass", {0.0}}}, "mass");
    expectInvalid({{"mu", {-0.01}}}, "mu");
    expectInvalid({{"g", {std::nan("")}}}, "g");
    expectInvalid({{"phi0_deg", {400.0}}}, "phi0_deg");
    expectInvalid({{"v0", {1.0, 2.0}}}, "v0");
    expectInvalid({{"phi0", {30.0}}}, "phi0");
}

// E(t) − E(0) = ∫ Qᶜₙᵢ·q̇ dt (the ideal force of a fixed ring does no work); friction removes
// energy, a frictionless ring keeps it. The runs stop before the particle comes to rest, where
// Coulomb friction would stick.
void TestRingWithFriction::energyBalanceHolds_data()
{
    QTest::addColumn<double>("mu");
    QTest::addColumn<double>("phi0");
    QTest::addColumn<double>("v0");
    QTest::addColumn<double>("tEnd");
    QTest::newRow("released at the side") << 0.1 << 90.0 << 0.0 << 5.0;
    QTest::newRow("looping, then swinging") << 0.1 << 0.0 << 8.0 << 5.0;
    QTest::newRow("frictionless loops") << 0.0 << 0.0 << 8.0 << 5.0;
}

void TestRingWithFriction::energyBalanceHolds()
{
    QFETCH(double, mu);
    QFETCH(double, phi0);
    QFETCH(double, v0);
    QFETCH(double, tEnd);
    const auto sys = RingWithFriction::definition().create(values(1.2, 9.81, 1, mu, phi0, v0));
    Simulator sim(*sys);
    SimulationOptions opt;
    opt.tEnd = tEnd;
    opt.dt = 0.01;
    const Trace trace = sim.run(opt);
    const TraceSample& first = trace.samples.front();
    double maxE = 0;
    for (const TraceSample& s : trace.samples)
        maxE = std::max(maxE, std::abs(s.T) + std::abs(s.V));
    double previousWork = 0;
    for (const TraceSample& s : trace.samples) {
        // A few thousand steps at rtol = 1e-9: the two integrals agree to ~1e-9 of E.
        QVERIFY2(
            std::abs((s.E - first.E) - s.W_nonideal) <= 1e-7 * maxE,
            qPrintable(
                QString("t = %1: ΔE = %2, W = %3").arg(s.t).arg(s.E - first.E).arg(s.W_nonideal)));
        QVERIFY(s.W_nonideal <= previousWork + 1e-12 * maxE);
        previousWork = s.W_nonideal;
        QVERIFY(s.residualMax < 1e-6);
    }
    if (mu > 0)
        QVERIFY(trace.samples.back().E < first.E - 1.0);
    else
        QVERIFY(std::abs(trace.samples.back().E - first.E) < 1e-7 * maxE);
}

void TestRingWithFriction::staticFrictionBelowKineticIsRejected()
{
    expectInvalid({{"mu", {0.3}}, {"mu_s", {0.2}}}, "mu_s");
    expectInvalid({{"mu_s", {-1.0}}}, "mu_s");
    expectInvalid({{"mu", {-0.1}}}, "mu");
    QCOMPARE(static_cast<RingWithFriction&>(*RingWithFriction::definition().create({{"mu", {0.4}}}))
                 .staticFriction(),
             0.4);
}

void TestRingWithFriction::stopsWhereReducedModelStops_data()
{
    QTest::addColumn<double>("muS");
    QTest::addColumn<bool>("sticks");
    // The reference stop is at φ* ≈ 49° (tan φ* ≈ 1.15) for these parameters.
    QTest::newRow("tan φ* ≤ μs: stays") << 1.5 << true;
    QTest::newRow("tan φ* > μs: slides back") << 0.5 << false;
}

// Launched from the bottom, the particle stops at the angle the reduced model predicts; there
// it stays when tan φ* ≤ μₛ (static friction holds m g sin φ* against μₛ m g cos φ*), and
// otherwise it slides back down.
void TestRingWithFriction::stopsWhereReducedModelStops()
{
    QFETCH(double, muS);
    QFETCH(bool, sticks);
    const double m = 0.8, g = 9.81, R = 1.2, mu = 0.3, v0 = 3.2;
    const auto reference = reducedStop(m, g, R, mu, 0.0, v0 / R);
    const double tStop = reference[0], phiStop = reference[1];
    QVERIFY(phiStop > 0.6 && phiStop < 1.2); // the rows above rely on tan φ* ≈ 1.15
    QCOMPARE(std::tan(phiStop) <= muS, sticks);

    ParameterValues v = values(m, g, R, mu, 0.0, v0);
    v["mu_s"] = {muS};
    const auto sys = RingWithFriction::definition().create(v);
    Simulator sim(*sys);
    SimulationOptions o;
    o.tEnd = 4.0;
    o.dt = 0.01;
    o.rtol = 1e-11;
    o.atol = 1e-13;
    const Trace trace = sim.run(o);
    QVERIFY(!trace.events.empty());
    const ContactEvent& stop = trace.events.front();
    QCOMPARE(stop.kind, sticks ? ContactEvent::Kind::Stick : ContactEvent::Kind::Reversal);
    QVERIFY2(std::abs(stop.t - tStop) < 1e-8,
             qPrintable(QStringLiteral("stop at %1 s, reduced model %2 s")
                            .arg(stop.t, 0, 'g', 15)
                            .arg(tStop, 0, 'g', 15)));

    double latest = 0.0;
    for (const TraceSample& s : trace.samples) {
        if (s.t <= stop.t)
            continue;
        latest = angleOf(s);
        if (sticks) {
            QVERIFY2(
                std::abs(angleOf(s) - phiStop) < 1e-8,
                qPrintable(QStringLiteral("φ = %1, reference %2").arg(angleOf(s)).arg(phiStop)));
            QVERIFY(s.qd.norm() <= 1e-12);
            QCOMPARE(s.contacts[0], 0.0);
            // The phi column reads the reduced model's stopping angle too.
            QVERIFY(trace.columnIndex("phi") > trace.columnIndex("contact"));
            QVERIFY(std::abs(s.extra[0] - phiStop) < 1e-8);
            // Static friction holds the tangential weight m g sin φ*.
            QVERIFY(std::abs(s.Qcni.norm() - m * g * std::sin(phiStop)) < 1e-8);
        }
    }
    if (sticks) {
        QCOMPARE(trace.events.size(), std::size_t(1));
    } else {
        QCOMPARE(trace.samples.back().contacts[0],
                 1.0 * (trace.events.back().kind != ContactEvent::Kind::Stick));
        QVERIFY(latest < phiStop - 0.1); // it came back down
        QVERIFY(trace.events.size() >= 2);
        QVERIFY(trace.events[1].t > stop.t + 0.1);
    }
}

QTEST_APPLESS_MAIN(TestRingWithFriction)
#include "tst_RingWithFriction.moc"
