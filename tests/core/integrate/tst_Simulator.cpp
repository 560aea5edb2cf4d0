#include "model/ConstraintLabError.h"
#include "model/ContactEvent.h"
#include "scenes/SceneRegistry.h"
#include "integrate/Simulator.h"

#include "../../support/AllocationCounter.h"
#include "../../support/RunOptions.h"
#include "../../support/ToySystems.h"
#include "../../support/TraceResiduals.h"

#include <QtTest>

#include <boost/numeric/odeint.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <numbers>
#include <string>
#include <vector>

using namespace clab;
using clab::testing::FreeParticle;
using clab::testing::g_allocations;
using clab::testing::g_countAllocations;
using clab::testing::HarmonicOscillator;
using clab::testing::MasslessFollower;
using clab::testing::maxResidual;
using clab::testing::ParticleOnCircle;
using clab::testing::RampedBlock;
using clab::testing::runOptions;
using clab::testing::TwoBeads;

namespace {

namespace odeint = boost::numeric::odeint;

/// Reduced one-coordinate model of ParticleOnCircle, θ measured from the downward vertical:
/// d/dt (m L² θ̇) = −m g L sin θ + tangential friction and drag, integrated on (θ, θ̇) alone.
struct ReducedPendulum {
    ParticleOnCircle::Params p;

    void operator()(const std::array<double, 2>& s, std::array<double, 2>& ds, double t) const
    {
        const double L = p.L + p.radiusRate * t;
        const double theta = s[0], w = s[1];
        // Radial balance: the ideal (normal) force magnitude, with the radial acceleration
        // L̈ − L θ̇² and L̈ = 0.
        const double normal = p.m * std::abs(L * w * w + p.g * std::cos(theta));
        ds[0] = w;
        ds[1] = (-p.g * std::sin(theta) - 2.0 * p.radiusRate * w) / L - p.d / p.m * w -
                p.c / p.m * normal * w;
    }

    /// θ(t) at the given times, integrated independently to tight tolerance.
    std::vector<std::array<double, 2>> solve(const std::vector<double>& times) const
    {
        std::array<double, 2> s{p.theta0, p.omega0};
        std::vector<std::array<double, 2>> out;
        auto stepper = odeint::make_controlled(1e-13, 1e-13,
                                               odeint::runge_kutta_dopri5<std::array<double, 2>>());
        odeint::integrate_times(
            stepper, *this, s, times.begin(), times.end(), 1e-3,
            [&out](const std::array<double, 2>& x, double) { out.push_back(x); });
        return out;
    }
};

// Energy scale of a run for the audit: the largest of |E(0)|, T, |V − V(0)| and the works.
double energyScale(const Trace& trace)
{
    const TraceSample& first = trace.samples.front();
    double scale = std::abs(first.E);
    for (const TraceSample& s : trace.samples)
        scale = std::max({scale, s.T, std::abs(s.V - first.V), std::abs(s.W_nonideal),
                          std::abs(s.W_given_nc), std::abs(s.W_ideal)});
    return scale;
}

std::vector<double> sampleTimes(const Trace& trace)
{
    std::vector<double> times;
    for (const TraceSample& s : trace.samples)
        times.push_back(s.t);
    return times;
}

// Largest |x(t) − exact| over a harmonic-oscillator trace.
double oscillatorError(const Trace& trace, const HarmonicOscillator& osc)
{
    double err = 0.0;
    for (const TraceSample& s : trace.samples)
        err = std::max({err, std::abs(s.q[0] - osc.x(s.t)), std::abs(s.qd[0] - osc.v(s.t))});
    return err;
}

// The time printed after "at t = " in an error message, or NaN.
double timeInMessage(const std::string& message)
{
    const std::string key = "at t = ";
    const auto pos = message.find(key);
    if (pos == std::string::npos)
        return std::nan("");
    return std::strtod(message.c_str() + pos + key.size(), nullptr);
}

} // namespace

class TestSimulator : public QObject {
    Q_OBJECT

private slots:
    void freeFallMatchesClosedForm_data();
    void freeFallMatchesClosedForm();
    void harmonicOscillatorMatchesCosSolution_data();
    void harmonicOscillatorMatchesCosSolution();
    void harmonicOscillatorConservesEnergy_data();
    void harmonicOscillatorConservesEnergy();
    void pendulumAsConstrainedParticleMatchesReducedModel_data();
    void pendulumAsConstrainedParticleMatchesReducedModel();
    void energyBalanceHoldsWithNonIdealForce();
    void idealForceDoesWorkOnlyOnMovingConstraint();
    void masslessCoordinateFollowsThroughSingularMass();
    void outputGridIncludesEndTime_data();
    void outputGridIncludesEndTime();
    void cancellationStopsRun();
    void invalidOptionsAreRejected_data();
    void invalidOptionsAreRejected();
    void nonFiniteStateIsReportedWithTime_data();
    void nonFiniteStateIsReportedWithTime();
    void stepLimitIsReportedAsIntegrationFailure();
    void rightHandSideDoesNotAllocatePerStep();
    void projectionRemovesDriftThatNoneShows();
    void baumgarteDampsDrift();
    void energyAuditStaysAtToleranceLevel_data();
    void energyAuditStaysAtToleranceLevel();
    void invalidStabilizationSettingsAreRejected();
    void everySceneBalancesItsEnergy_data();
    void everySceneBalancesItsEnergy();
    void streamedRunDoesNotAllocatePerSample();
    void bodyAtRestOnItsConstraintStaysForEveryMassAndRadius();
    void streamedRunHandsEverySampleToTheSinkAndKeepsNone();
    void nonFiniteEnergyStopsTheRunNamingItAndWhen();
    void stepBudgetCoversEverySampleTheLimitAllows();
    void stepsFollowTheErrorControlNotTheOutputInterval_data();
    void stepsFollowTheErrorControlNotTheOutputInterval();
    void beadStopsAtTheFootOfItsWireAtTheClosedFormTime_data();
    void beadStopsAtTheFootOfItsWireAtTheClosedFormTime();
    void beadHeldByStaticFrictionNeverReachesTheFoot();
    void footReachedAfterTheEndTimeDoesNotLengthenTheRun();
    void runWithoutStopAtEndPassesTheFoot();
};

void TestSimulator::freeFallMatchesClosedForm_data()
{
    QTest::addColumn<IntegratorKind>("kind");
    QTest::newRow("dopri5") << IntegratorKind::Dopri5;
    QTest::newRow("rk4") << IntegratorKind::Rk4;
}

void TestSimulator::freeFallMatchesClosedForm()
{
    QFETCH(IntegratorKind, kind);
    const double m = 2.0, g = 9.81;
    const Eigen::Vector2d q0(0.3, 10.0), v0(1.5, 2.0);
    FreeParticle particle(m, g, q0, v0);
    Simulator sim(particle);
    const Trace trace = sim.run(runOptions(kind, 2.0, 0.1));

    QCOMPARE(trace.samples.size(), std::size_t(21));
    const double E0 = 0.5 * m * v0.squaredNorm() + m * g * q0.y();
    for (const TraceSample& s : trace.samples) {
        const double t = s.t;
        // Both methods are exact on quadratics, so only rounding remains.
        QVERIFY(std::abs(s.q[0] - (q0.x() + v0.x() * t)) < 1e-12);
        QVERIFY(std::abs(s.q[1] - (q0.y() + v0.y() * t - 0.5 * g * t * t)) < 1e-10);
        QVERIFY(std::abs(s.qd[0] - v0.x()) < 1e-12);
        QVERIFY(std::abs(s.qd[1] - (v0.y() - g * t)) < 1e-10);
        QVERIFY(std::abs(s.qdd[1] + g) < 1e-12);
        QCOMPARE(s.Q[1], -m * g);
        QVERIFY(s.Qci.isZero(0.0) && s.Qcni.isZero(0.0));
        QVERIFY(std::abs(s.E - E0) < 1e-9 * std::abs(E0));
        QCOMPARE(s.W_nonideal, 0.0);
        QCOMPARE(s.residualMax, 0.0);
    }
}

void TestSimulator::harmonicOscillatorMatchesCosSolution_data()
{
    QTest::addColumn<IntegratorKind>("kind");
    QTest::addColumn<double>("dt");
    QTest::addColumn<double>("tolerance");
    QTest::newRow("dopri5") << IntegratorKind::Dopri5 << 0.05 << 1e-8;
    // RK4 global error ≈ T ω⁵ h⁴ / 120 ≈ 3e-8 for h = 0.01.
    QTest::newRow("rk4") << IntegratorKind::Rk4 << 0.01 << 1e-6;
}

void TestSimulator::harmonicOscillatorMatchesCosSolution()
{
    QFETCH(IntegratorKind, kind);
    QFETCH(double, dt);
    QFETCH(double, tolerance);
    HarmonicOscillator osc(0.5, 2.0, 0.7, -0.3); // ω = 2
    Simulator sim(osc);
    const Trace trace = sim.run(runOptions(kind, 10.0, dt));
    QVERIFY(trace.samples.size() > 100);
    const double err = oscillatorError(trace, osc);
    QVERIFY2(err < tolerance, qPrintable(QStringLiteral("max error %1").arg(err)));
    // q̈ is −ω² x at every sample.
    for (const TraceSample& s : trace.samples)
        QVERIFY(std::abs(s.qdd[0] + 4.0 * s.q[0]) < 1e-12);
}

void TestSimulator::harmonicOscillatorConservesEnergy_data()
{
    harmonicOscillatorMatchesCosSolution_data();
}

void TestSimulator::harmonicOscillatorConservesEnergy()
{
    QFETCH(IntegratorKind, kind);
    QFETCH(double, dt);
    QFETCH(double, tolerance);
    HarmonicOscillator osc(0.5, 2.0, 0.7, -0.3);
    Simulator sim(osc);
    const Trace trace = sim.run(runOptions(kind, 20.0, dt));
    const double E0 = 0.5 * 0.5 * 0.3 * 0.3 + 0.5 * 2.0 * 0.7 * 0.7;
    QVERIFY(std::abs(trace.samples.front().E - E0) < 1e-15);
    for (const TraceSample& s : trace.samples) {
        QVERIFY2(std::abs(s.E - E0) < tolerance * E0,
                 qPrintable(QStringLiteral("E drift %1 at t = %2").arg(s.E - E0).arg(s.t)));
        QCOMPARE(s.T + s.V, s.E);
    }
}

void TestSimulator::pendulumAsConstrainedParticleMatchesReducedModel_data()
{
    QTest::addColumn<double>("c");
    QTest::addColumn<double>("d");
    QTest::newRow("ideal") << 0.0 << 0.0;
    QTest::newRow("nonIdealFrictionAndGivenDrag") << 0.05 << 0.3;
}

void TestSimulator::pendulumAsConstrainedParticleMatchesReducedModel()
{
    QFETCH(double, c);
    QFETCH(double, d);
    ParticleOnCircle::Params p;
    p.m = 0.8;
    p.L = 1.3;
    p.theta0 = 1.0; // large amplitude: far from the linear regime
    p.omega0 = 0.4;
    p.c = c;
    p.d = d;
    ParticleOnCircle pendulum(p);
    Simulator sim(pendulum);
    const Trace trace = sim.run(runOptions(IntegratorKind::Dopri5, 5.0, 0.05));
    const auto reference = ReducedPendulum{p}.solve(sampleTimes(trace));
    QCOMPARE(reference.size(), trace.samples.size());

    for (std::size_t k = 0; k < reference.size(); ++k) {
        const TraceSample& s = trace.samples[k];
        const double theta = reference[k][0], w = reference[k][1];
        const double x = p.L * std::sin(theta), y = -p.L * std::cos(theta);
        QVERIFY2(std::abs(s.q[0] - x) < 1e-7 && std::abs(s.q[1] - y) < 1e-7,
                 qPrintable(QStringLiteral("t = %1: x %2 vs %3, y %4 vs %5")
                                .arg(s.t)
                                .arg(s.q[0])
                                .arg(x)
                                .arg(s.q[1])
                                .arg(y)));
        QVERIFY(std::abs(s.qd[0] - p.L * w * std::cos(theta)) < 1e-6);
        // The ideal force is the rod tension along −r̂: m (L θ̇² + g cos θ).
        const double tension = p.m * (p.L * w * w + p.g * std::cos(theta));
        QVERIFY(std::abs(s.Qci[0] + tension * std::sin(theta)) < 1e-6);
        QVERIFY(std::abs(s.Qci[1] - tension * std::cos(theta)) < 1e-6);
        // C is tangent, so all of it is non-ideal force: Qᶜₙᵢ = −c ‖Qᶜᵢ‖ q̇.
        QVERIFY((s.Qcni + c * std::abs(tension) * s.qd).norm() < 1e-6);
        QVERIFY(s.residualMax < 1e-7);
        QCOMPARE(s.extra.size(), Eigen::Index(1));
        QVERIFY(std::abs(s.extra[0] - theta) < 1e-6);
        // Ideal force on a fixed constraint does no work.
        QVERIFY(std::abs(s.W_ideal) < 1e-8);
    }
}

void TestSimulator::energyBalanceHoldsWithNonIdealForce()
{
    ParticleOnCircle::Params p;
    p.m = 1.5;
    p.L = 0.9;
    p.theta0 = 1.2;
    p.omega0 = 1.0;
    p.c = 0.08;
    p.d = 0.2;
    ParticleOnCircle bead(p);
    Simulator sim(bead);
    const Trace trace = sim.run(runOptions(IntegratorKind::Dopri5, 10.0, 0.02));
    const double E0 = trace.samples.front().E;
    for (const TraceSample& s : trace.samples) {
        // E − E0 = work of Qᶜₙᵢ + work of the non-conservative given force.
        const double imbalance = s.E - E0 - s.W_nonideal - s.W_given_nc;
        QVERIFY2(std::abs(imbalance) < 1e-7 * std::abs(E0),
                 qPrintable(QStringLiteral("imbalance %1 at t = %2").arg(imbalance).arg(s.t)));
    }
    // Both dissipate a real share of the energy, so the balance is not vacuous.
    const TraceSample& last = trace.samples.back();
    const double lost = E0 - last.E;
    QVERIFY(lost > 0.0);
    QVERIFY(-last.W_nonideal > 0.1 * lost);
    QVERIFY(-last.W_given_nc > 0.1 * lost);
    // Monotone dissipation.
    for (std::size_t k = 1; k < trace.samples.size(); ++k)
        QVERIFY(trace.samples[k].E <= trace.samples[k - 1].E + 1e-9);
}

void TestSimulator::idealForceDoesWorkOnlyOnMovingConstraint()
{
    // Radius growing at 0.2 m/s: the ideal constraint force does work on the actual motion.
    ParticleOnCircle::Params p;
    p.m = 1.2;
    p.L = 1.0;
    p.theta0 = 0.6;
    p.omega0 = 0.5;
    p.radiusRate = 0.2;
    ParticleOnCircle bead(p);
    Simulator sim(bead);
    const Trace trace = sim.run(runOptions(IntegratorKind::Dopri5, 4.0, 0.05));
    QVERIFY(trace.hasIdealWork());
    const auto reference = ReducedPendulum{p}.solve(sampleTimes(trace));
    const double E0 = trace.samples.front().E;
    for (std::size_t k = 0; k < trace.samples.size(); ++k) {
        const TraceSample& s = trace.samples[k];
        QVERIFY(std::abs(s.E - E0 - s.W_ideal) < 1e-8);
        QVERIFY(std::abs(s.W_nonideal) < 1e-12);
        const double L = p.L + p.radiusRate * s.t;
        QVERIFY(std::abs(s.q[0] - L * std::sin(reference[k][0])) < 1e-7);
        QVERIFY(std::abs(s.q[1] + L * std::cos(reference[k][0])) < 1e-7);
        QVERIFY(s.residualMax < 1e-7);
    }
    QVERIFY(std::abs(trace.samples.back().W_ideal) > 0.1);
}

void TestSimulator::masslessCoordinateFollowsThroughSingularMass()
{
    const double m = 3.0, g = 9.81, x0 = 1.0, v0 = 2.5;
    MasslessFollower follower(m, g, x0, v0);
    Simulator sim(follower);
    const Trace trace = sim.run(runOptions(IntegratorKind::Dopri5, 1.5, 0.1));
    for (const TraceSample& s : trace.samples) {
        const double x = x0 + v0 * s.t - 0.5 * g * s.t * s.t;
        QVERIFY(std::abs(s.q[0] - x) < 1e-9);
        QVERIFY(std::abs(s.q[1] - x) < 1e-9);
        QVERIFY(std::abs(s.qdd[0] + g) < 1e-9);
        // The constraint carries the weight of y over to the massive x.
        QVERIFY(std::abs(s.Qci[0] + m * g) < 1e-9);
        QVERIFY(std::abs(s.Qci[1] - m * g) < 1e-9);
        QVERIFY(std::abs(s.E - trace.samples.front().E) < 1e-9);
    }
}

void TestSimulator::outputGridIncludesEndTime_data()
{
    QTest::addColumn<IntegratorKind>("kind");
    QTest::addColumn<double>("tEnd");
    QTest::addColumn<double>("dt");
    QTest::addColumn<std::vector<double>>("expected");
    const std::vector<double> thirds{0.0, 0.3, 0.6, 0.9, 1.0};
    std::vector<double> tenths;
    for (int k = 0; k <= 10; ++k)
        tenths.push_back(0.1 * k);
    QTest::newRow("dopri5 uneven") << IntegratorKind::Dopri5 << 1.0 << 0.3 << thirds;
    QTest::newRow("rk4 uneven") << IntegratorKind::Rk4 << 1.0 << 0.3 << thirds;
    QTest::newRow("dopri5 even") << IntegratorKind::Dopri5 << 1.0 << 0.1 << tenths;
    QTest::newRow("rk4 even") << IntegratorKind::Rk4 << 1.0 << 0.1 << tenths;
    QTest::newRow("rk4 span below dt")
        << IntegratorKind::Rk4 << 0.05 << 0.1 << std::vector<double>{0.0, 0.05};
}

void TestSimulator::outputGridIncludesEndTime()
{
    QFETCH(IntegratorKind, kind);
    QFETCH(double, tEnd);
    QFETCH(double, dt);
    QFETCH(std::vector<double>, expected);
    HarmonicOscillator osc(1.0, 1.0, 1.0, 0.0);
    Simulator sim(osc);
    const Trace trace = sim.run(runOptions(kind, tEnd, dt));
    QCOMPARE(trace.samples.size(), expected.size());
    QCOMPARE(trace.samples.back().t, tEnd); // exactly
    for (std::size_t k = 0; k < expected.size(); ++k) {
        QVERIFY(std::abs(trace.samples[k].t - expected[k]) < 1e-12);
        // The state belongs to the time stamped on it (RK4 steps of 0.3 s: error ~ 1e-4).
        QVERIFY(std::abs(trace.samples[k].q[0] - osc.x(trace.samples[k].t)) < 2e-4);
    }
    QVERIFY(!trace.cancelled);
}

void TestSimulator::cancellationStopsRun()
{
    HarmonicOscillator osc(1.0, 1.0, 1.0, 0.0);
    Simulator sim(osc);
    SimulationOptions o = runOptions(IntegratorKind::Rk4, 2.0, 0.01);
    int calls = 0;
    const RunControl halfway{[&calls](double t) {
        ++calls;
        return t < 0.5;
    }};
    const Trace trace = sim.run(o, {}, halfway);
    QVERIFY(trace.cancelled);
    // Stops at the first step that reaches 0.5 s, with every sample up to it.
    QVERIFY(trace.samples.back().t >= 0.5 && trace.samples.back().t < 0.52);
    QCOMPARE(std::size_t(calls) + 1, trace.samples.size());
    for (const TraceSample& s : trace.samples)
        QVERIFY(std::abs(s.q[0] - std::cos(s.t)) < 1e-8);

    const RunControl always{[](double) {
        return true;
    }};
    const Trace full = sim.run(o, {}, always);
    QVERIFY(!full.cancelled);
    QCOMPARE(full.samples.size(), std::size_t(201));
}

void TestSimulator::invalidOptionsAreRejected_data()
{
    QTest::addColumn<double>("tEnd");
    QTest::addColumn<double>("dt");
    QTest::addColumn<double>("rtol");
    QTest::addColumn<double>("atol");
    const double nan = std::nan(""), inf = INFINITY;
    QTest::newRow("tEnd at t0") << 0.0 << 0.1 << 1e-9 << 1e-12;
    QTest::newRow("tEnd before t0") << -1.0 << 0.1 << 1e-9 << 1e-12;
    QTest::newRow("tEnd infinite") << inf << 0.1 << 1e-9 << 1e-12;
    QTest::newRow("tEnd NaN") << nan << 0.1 << 1e-9 << 1e-12;
    QTest::newRow("dt zero") << 1.0 << 0.0 << 1e-9 << 1e-12;
    QTest::newRow("dt negative") << 1.0 << -0.1 << 1e-9 << 1e-12;
    QTest::newRow("dt NaN") << 1.0 << nan << 1e-9 << 1e-12;
    QTest::newRow("dt far too small") << 1e3 << 1e-9 << 1e-9 << 1e-12;
    QTest::newRow("rtol zero") << 1.0 << 0.1 << 0.0 << 1e-12;
    QTest::newRow("rtol infinite") << 1.0 << 0.1 << inf << 1e-12;
    QTest::newRow("atol negative") << 1.0 << 0.1 << 1e-9 << -1e-12;
    QTest::newRow("atol NaN") << 1.0 << 0.1 << 1e-9 << nan;
}

void TestSimulator::invalidOptionsAreRejected()
{
    QFETCH(double, tEnd);
    QFETCH(double, dt);
    QFETCH(double, rtol);
    QFETCH(double, atol);
    HarmonicOscillator osc(1.0, 1.0, 1.0, 0.0);
    Simulator sim(osc);
    SimulationOptions o;
    o.tEnd = tEnd;
    o.dt = dt;
    o.rtol = rtol;
    o.atol = atol;
    try {
        sim.run(o);
        QFAIL("run() accepted invalid options");
    } catch (const ConstraintLabError& e) {
        QCOMPARE(e.kind(), ConstraintLabError::Kind::InvalidParameter);
    }
}

void TestSimulator::nonFiniteStateIsReportedWithTime_data()
{
    QTest::addColumn<IntegratorKind>("kind");
    QTest::newRow("dopri5") << IntegratorKind::Dopri5;
    QTest::newRow("rk4") << IntegratorKind::Rk4;
}

void TestSimulator::nonFiniteStateIsReportedWithTime()
{
    QFETCH(IntegratorKind, kind);
    HarmonicOscillator osc(1.0, 1.0, 1.0, 0.0);
    osc.poisonAfter(0.5);
    Simulator sim(osc);
    try {
        sim.run(runOptions(kind, 2.0, 0.01));
        QFAIL("a NaN force went unnoticed");
    } catch (const ConstraintLabError& e) {
        QCOMPARE(e.kind(), ConstraintLabError::Kind::NonFinite);
        const double t = timeInMessage(e.what());
        QVERIFY2(t > 0.5 && t < 0.6, e.what());
    }
}

void TestSimulator::stepLimitIsReportedAsIntegrationFailure()
{
    HarmonicOscillator osc(1.0, 1.0, 1.0, 0.0);
    Simulator sim(osc);
    SimulationOptions o = runOptions(IntegratorKind::Dopri5, 100.0, 10.0);
    o.maxSteps = 20;
    try {
        sim.run(o);
        QFAIL("the step limit was ignored");
    } catch (const ConstraintLabError& e) {
        QCOMPARE(e.kind(), ConstraintLabError::Kind::IntegrationFailure);
        const double t = timeInMessage(e.what());
        QVERIFY2(t > 0.0 && t < 100.0, e.what());
    }
}

void TestSimulator::rightHandSideDoesNotAllocatePerStep()
{
    if (!CLAB_COUNT_MALLOC)
        QSKIP("malloc cannot be counted here (sanitizer or non-glibc C library)");
    // Same number of output samples, twice the span: twice the steps, the same allocations.
    ParticleOnCircle::Params p;
    p.theta0 = 1.0;
    p.c = 0.02;
    p.d = 0.05;
    ParticleOnCircle bead(p);
    std::array<long, 2> allocations{};
    std::array<long, 2> steps{};
    for (int run = 0; run < 2; ++run) {
        Simulator sim(bead);
        SimulationOptions o = runOptions(IntegratorKind::Dopri5, 10.0 * (run + 1), 5.0 * (run + 1));
        long count = 0;
        const RunControl counting{[&count](double) {
            ++count;
            return true;
        }};
        g_allocations = 0;
        g_countAllocations = true;
        const Trace trace = sim.run(o, {}, counting);
        g_countAllocations = false;
        allocations[run] = g_allocations;
        steps[run] = count;
        QCOMPARE(trace.samples.size(), std::size_t(3));
    }
    QVERIFY2(steps[1] > steps[0] + 100,
             qPrintable(QStringLiteral("steps %1 and %2").arg(steps[0]).arg(steps[1])));
    QVERIFY(allocations[0] > 0); // the counter does see the run's own allocations
    QCOMPARE(allocations[1], allocations[0]);
}

// Over 100 s at a loose tolerance the pendulum's φ and φ̇ drift visibly when nothing corrects
// them, and stay at rounding level with the default projection.
void TestSimulator::projectionRemovesDriftThatNoneShows()
{
    ParticleOnCircle::Params p;
    p.theta0 = 1.0;
    p.omega0 = 2.0;
    ParticleOnCircle pendulum(p);
    SimulationOptions o = runOptions(IntegratorKind::Dopri5, 100.0, 0.1);
    o.rtol = 1e-6;
    o.atol = 1e-8;
    QCOMPARE(SimulationOptions().stabilization, Stabilization::Projection); // the default
    Simulator sim(pendulum);
    o.stabilization = Stabilization::None;
    const Trace free = sim.run(o);
    const double none = maxResidual(free);
    o.stabilization = Stabilization::Projection;
    const Trace projected = sim.run(o);
    const double projection = maxResidual(projected);
    QVERIFY2(none > 1e-6, qPrintable(QStringLiteral("drift without stabilization %1").arg(none)));
    QVERIFY2(projection <= 1e-10,
             qPrintable(QStringLiteral("residual with projection %1").arg(projection)));
    // Projection does not change the physics: the angle follows the reduced model at least as
    // well as without it (both carry the phase error of rtol 1e-6 over some 50 periods).
    const auto reference = ReducedPendulum{p}.solve(sampleTimes(projected));
    double errorProjected = 0.0, errorFree = 0.0;
    for (std::size_t k = 0; k < reference.size(); ++k) {
        errorProjected =
            std::max(errorProjected, std::abs(projected.samples[k].extra[0] - reference[k][0]));
        errorFree = std::max(errorFree, std::abs(free.samples[k].extra[0] - reference[k][0]));
    }
    QVERIFY2(errorProjected <= 2.0 * errorFree + 1e-6 && errorProjected < 0.05,
             qPrintable(QStringLiteral("angle error %1 with projection, %2 without")
                            .arg(errorProjected)
                            .arg(errorFree)));
}

void TestSimulator::baumgarteDampsDrift()
{
    ParticleOnCircle::Params p;
    p.theta0 = 1.0;
    p.omega0 = 2.0;
    ParticleOnCircle pendulum(p);
    SimulationOptions o = runOptions(IntegratorKind::Dopri5, 100.0, 0.1);
    o.rtol = 1e-6;
    o.atol = 1e-8;
    Simulator sim(pendulum);
    o.stabilization = Stabilization::None;
    const double none = maxResidual(sim.run(o));
    o.stabilization = Stabilization::Baumgarte;
    o.baumgarteAlpha = 10.0;
    o.baumgarteBeta = 10.0;
    const double baumgarte = maxResidual(sim.run(o));
    QVERIFY2(baumgarte < 1e-2 * none,
             qPrintable(QStringLiteral("none %1, Baumgarte %2").arg(none).arg(baumgarte)));
}

void TestSimulator::energyAuditStaysAtToleranceLevel_data()
{
    QTest::addColumn<int>("system");
    QTest::newRow("pendulum, friction and drag") << 0;
    QTest::newRow("growing pendulum (W_ideal)") << 1;
    QTest::newRow("ramped block, stick then slip") << 2;
    QTest::newRow("two beads, reversal and stick") << 3;
}

// E_error = E − E(0) − W_nonideal − W_given_nc − W_ideal is zero in exact arithmetic; at
// rtol 1e-10 it stays below 1e-8 of the run's energy scale over 10 s, projection included.
void TestSimulator::energyAuditStaysAtToleranceLevel()
{
    QFETCH(int, system);
    ParticleOnCircle::Params rough;
    rough.theta0 = 1.2;
    rough.omega0 = 1.0;
    rough.c = 0.08;
    rough.d = 0.2;
    ParticleOnCircle::Params growing;
    growing.theta0 = 0.6;
    growing.omega0 = 0.5;
    growing.radiusRate = 0.2;
    ParticleOnCircle pendulum(rough), growingPendulum(growing);
    RampedBlock block(2.0, 9.81, 3.0, 0.3, 0.5, 0.25);
    TwoBeads beads(0.7, 9.81, {.theta = 0.7, .mu = 0.3, .muS = 0.5, .s0 = 1.0, .v0 = 2.0},
                   {.theta = 0.35, .mu = 0.3, .muS = 0.4, .s0 = 0.5, .v0 = 1.5});
    const MechanicalSystem* systems[] = {&pendulum, &growingPendulum, &block, &beads};
    Simulator sim(*systems[system]);
    SimulationOptions o = runOptions(IntegratorKind::Dopri5, 10.0, 0.01);
    o.rtol = 1e-10;
    o.atol = 1e-12;
    const Trace trace = sim.run(o);
    const double scale = energyScale(trace);
    QVERIFY(scale > 0.1);
    QCOMPARE(trace.columnIndex("E_error"), trace.columnIndex("residual_max") + 1);
    double worst = 0.0;
    for (const TraceSample& s : trace.samples) {
        // The column is the balance it claims to be ...
        QVERIFY(std::abs(s.E_error - (s.E - trace.samples.front().E - s.W_nonideal - s.W_given_nc -
                                      s.W_ideal)) <= 1e-12 * scale);
        worst = std::max(worst, std::abs(s.E_error));
    }
    // ... and the balance holds.
    QVERIFY2(worst <= 1e-8 * scale,
             qPrintable(QStringLiteral("|E_error| up to %1 of a scale %2").arg(worst).arg(scale)));
    // Not vacuous: energy really changes hands.
    const TraceSample& last = trace.samples.back();
    QVERIFY(std::abs(last.E - trace.samples.front().E) > 1e-3 * scale);
}

void TestSimulator::invalidStabilizationSettingsAreRejected()
{
    ParticleOnCircle pendulum(ParticleOnCircle::Params{});
    Simulator sim(pendulum);
    for (const auto& [alpha, beta] : std::vector<std::pair<double, double>>{
             {-1.0, 1.0}, {1.0, -0.5}, {std::nan(""), 1.0}, {1.0, INFINITY}}) {
        SimulationOptions o = runOptions(IntegratorKind::Dopri5, 1.0, 0.1);
        o.stabilization = Stabilization::Baumgarte;
        o.baumgarteAlpha = alpha;
        o.baumgarteBeta = beta;
        try {
            sim.run(o);
            QFAIL("run() accepted an invalid Baumgarte parameter");
        } catch (const ConstraintLabError& e) {
            QCOMPARE(e.kind(), ConstraintLabError::Kind::InvalidParameter);
            // The message names the setting.
            QVERIFY2(std::string(e.what()).find("baumgarte_") != std::string::npos, e.what());
        }
    }

    // A system that does not provide φ(q, t) cannot be projected: said clearly, not ignored.
    struct Opaque : ParticleOnCircle {
        using ParticleOnCircle::ParticleOnCircle;
        bool providesConstraintFunctions() const override { return false; }
    } opaque(ParticleOnCircle::Params{});
    Simulator opaqueSim(opaque);
    SimulationOptions o = runOptions(IntegratorKind::Dopri5, 1.0, 0.1);
    try {
        opaqueSim.run(o);
        QFAIL("projection without constraint functions was accepted");
    } catch (const ConstraintLabError& e) {
        QCOMPARE(e.kind(), ConstraintLabError::Kind::InvalidParameter);
        QVERIFY2(std::string(e.what()).find("stabilization") != std::string::npos, e.what());
    }
    o.stabilization = Stabilization::None;
    QCOMPARE(opaqueSim.run(o).samples.size(), std::size_t(11));
}

void TestSimulator::everySceneBalancesItsEnergy_data()
{
    QTest::addColumn<QByteArray>("sceneName");
    for (const SceneDefinition& d : SceneRegistry::builtIn())
        QTest::newRow(d.name.c_str()) << QByteArray::fromStdString(d.name);
}

// The energy audit of every built-in scene over 10 s at rtol 1e-10: |E_error| ≤ 1e-8 of the
// energy scale (the largest of |E(0)|, T, |V − V(0)| and the works).
void TestSimulator::everySceneBalancesItsEnergy()
{
    QFETCH(QByteArray, sceneName);
    const std::string scene = sceneName.toStdString();
    const auto system = SceneRegistry::find(scene)->create({});
    Simulator sim(*system);
    SimulationOptions o;
    o.tEnd = system->initialTime() + 10.0;
    o.rtol = 1e-10;
    o.atol = 1e-12;
    const Trace trace = sim.run(o);
    const double scale = energyScale(trace);
    double worst = 0.0;
    for (const TraceSample& s : trace.samples)
        worst = std::max(worst, std::abs(s.E_error));
    QVERIFY2(worst <= 1e-8 * scale,
             qPrintable(QStringLiteral("|E_error| up to %1 of a scale %2").arg(worst).arg(scale)));
}

// A streamed run (the CLI's) reuses one sample: twice the samples, the same allocations.
void TestSimulator::streamedRunDoesNotAllocatePerSample()
{
    if (!CLAB_COUNT_MALLOC)
        QSKIP("malloc cannot be counted here (sanitizer or non-glibc C library)");
    const auto ring = SceneRegistry::find("ring")->create({{"mu", {0.2}}});
    std::array<long, 2> allocations{};
    std::array<std::size_t, 2> samples{};
    for (int run = 0; run < 2; ++run) {
        Simulator sim(*ring);
        // Same end time and so the same steps and events; only the output is finer.
        SimulationOptions o = runOptions(IntegratorKind::Dopri5, 10.0, run == 0 ? 0.01 : 0.005);
        std::size_t count = 0;
        g_allocations = 0;
        g_countAllocations = true;
        const Trace trace = sim.run(o, [&count](const TraceSample&) { ++count; });
        g_countAllocations = false;
        allocations[run] = g_allocations;
        samples[run] = count;
    }
    QCOMPARE(samples[0], std::size_t(1001));
    QCOMPARE(samples[1], std::size_t(2001));
    QCOMPARE(allocations[1], allocations[0]);
}

// Exact equilibria: the bead on a horizontal wire and the particle at the bottom of the ring,
// for masses 0.1 … 10 kg and radii 0.1 … 10 m (the consistency test of the fundamental
// equation once failed at some of them, e.g. m = 2.5 kg or R = 2.3 m).
void TestSimulator::bodyAtRestOnItsConstraintStaysForEveryMassAndRadius()
{
    int runs = 0;
    for (int i = 1; i <= 100; ++i) {
        const double value = 0.1 * i;
        const std::vector<std::pair<std::string, ParameterValues>> cases{
            {"bead-on-wire", {{"angle_deg", {0.0}}, {"v0", {0.0}}, {"mass", {value}}}},
            {"ring", {{"phi0_deg", {0.0}}, {"v0", {0.0}}, {"mass", {value}}}},
            {"ring", {{"phi0_deg", {0.0}}, {"v0", {0.0}}, {"radius", {value}}}},
        };
        for (const auto& [scene, values] : cases) {
            const auto system = SceneRegistry::find(scene)->create(values);
            Simulator sim(*system);
            SimulationOptions options;
            options.tEnd = 0.5;
            options.dt = 0.1;
            Trace trace;
            try {
                trace = sim.run(options);
            } catch (const ConstraintLabError& e) {
                QFAIL(qPrintable(QStringLiteral("%1 with value %2: %3")
                                     .arg(QString::fromStdString(scene))
                                     .arg(value)
                                     .arg(QString::fromUtf8(e.what()))));
            }
            QCOMPARE(trace.samples.size(), std::size_t(6));
            for (const TraceSample& sample : trace.samples) {
                QVERIFY((sample.q - trace.samples.front().q).norm() <= 1e-12 * (1 + value));
                QVERIFY(sample.qd.norm() <= 1e-12);
            }
            ++runs;
        }
    }
    QCOMPARE(runs, 300);
}

// With a sink the run keeps no samples (flat memory for long CLI runs) and hands over exactly
// the samples it would have stored, bit for bit, events included.
void TestSimulator::streamedRunHandsEverySampleToTheSinkAndKeepsNone()
{
    const auto ring = SceneRegistry::find("ring")->create({{"mu", {0.2}}});
    SimulationOptions options;
    options.tEnd = 8.0;
    Simulator stored(*ring);
    const Trace reference = stored.run(options);
    Simulator streaming(*ring);
    std::vector<TraceSample> received;
    const Trace streamed =
        streaming.run(options, [&](const TraceSample& s) { received.push_back(s); });
    QVERIFY(streamed.samples.empty());
    QCOMPARE(received.size(), reference.samples.size());
    QVERIFY(!reference.events.empty());
    QCOMPARE(streamed.events.size(), reference.events.size());
    std::vector<double> a, b;
    for (std::size_t k = 0; k < received.size(); ++k) {
        reference.row(k, a);
        streamed.row(received[k], b);
        QVERIFY2(a == b, qPrintable(QStringLiteral("sample %1 differs").arg(k)));
    }
}

namespace {

// An oscillator whose potential energy overflows from t = 0.5 s on, as a position of 1e200 m
// squared would.
class OverflowingOscillator : public HarmonicOscillator {
public:
    OverflowingOscillator() : HarmonicOscillator(1.0, 1.0, 1.0, 0.0) {}
    double potentialEnergy(const Eigen::VectorXd& q, double t) const override
    {
        return t > 0.5 ? std::numeric_limits<double>::infinity()
                       : HarmonicOscillator::potentialEnergy(q, t);
    }
};

} // namespace

// A sample with an infinite energy is a numerical failure, not a CSV full of inf and nan.
void TestSimulator::nonFiniteEnergyStopsTheRunNamingItAndWhen()
{
    OverflowingOscillator oscillator;
    Simulator sim(oscillator);
    try {
        sim.run(runOptions(IntegratorKind::Dopri5, 2.0, 0.01));
        QFAIL("an infinite energy went unnoticed");
    } catch (const ConstraintLabError& e) {
        QCOMPARE(e.kind(), ConstraintLabError::Kind::NonFinite);
        QVERIFY2(QString(e.what()).contains("the potential energy V is not finite"), e.what());
        QCOMPARE(timeInMessage(e.what()), 0.51);
        QVERIFY(!e.hint().empty());
    }
}

// The automatic step limit grows with the number of samples: where contacts cap the step at
// dt, a run of the largest accepted length (1e7 output intervals) needs about 1e7 steps, which
// the former fixed limit of 1e7 steps cut short at its very end.
void TestSimulator::stepBudgetCoversEverySampleTheLimitAllows()
{
    SimulationOptions options;
    options.tEnd = 100000.0;
    options.dt = 0.01;
    QCOMPARE(SimulationOptions::outputIntervals(0.0, options.tEnd, options.dt),
             SimulationOptions::maxIntervals);
    QVERIFY(options.stepLimit(0.0) >= 10 * SimulationOptions::maxIntervals);
    options.tEnd = 10.0;
    QCOMPARE(options.stepLimit(0.0), 1e7);

    // An explicit limit still applies (the ring swings: hundreds of steps in 100 s).
    const auto ring = SceneRegistry::find("ring")->create({});
    options.tEnd = 100.0;
    options.maxSteps = 50;
    Simulator sim(*ring);
    try {
        sim.run(options, [](const TraceSample&) {});
        QFAIL("the explicit step limit was ignored");
    } catch (const ConstraintLabError& e) {
        QCOMPARE(e.kind(), ConstraintLabError::Kind::IntegrationFailure);
        QVERIFY2(QString(e.what()).contains("more than 50 integrator steps"), e.what());
    }
}

void TestSimulator::stepsFollowTheErrorControlNotTheOutputInterval_data()
{
    QTest::addColumn<QByteArray>("scene");
    QTest::addColumn<int>("maxEvaluations");
    // The bead slides on a parabola: Dormand–Prince (exact for it up to rounding) needs few
    // steps however fine the output; 10 s at rtol 1e-9 once took 6 030 evaluations.
    QTest::newRow("bead-on-wire") << QByteArray("bead-on-wire") << 600;
    QTest::newRow("ring") << QByteArray("ring") << 12000;
}

void TestSimulator::stepsFollowTheErrorControlNotTheOutputInterval()
{
    QFETCH(QByteArray, scene);
    QFETCH(int, maxEvaluations);
    const auto system = SceneRegistry::find(scene.toStdString())->create({});
    SimulationOptions options;
    options.tEnd = 10.0;
    options.dt = 0.01;
    options.rtol = 1e-9;
    Simulator sim(*system);
    const Trace trace = sim.run(options);
    const RunStats& s = trace.stats;
    QCOMPARE(trace.samples.size(), std::size_t(1001));
    qInfo("%s: %zu accepted, %zu rejected steps, %zu evaluations, %zu events, %zu restarts, "
          "%zu projections",
          scene.constData(), s.acceptedSteps, s.rejectedSteps, s.rhsEvaluations, s.events,
          s.restarts, s.projections);
    QVERIFY2(s.rhsEvaluations <= static_cast<std::size_t>(maxEvaluations),
             qPrintable(QStringLiteral("%1 evaluations").arg(s.rhsEvaluations)));
    QVERIFY(s.acceptedSteps < 1000); // fewer steps than output intervals
    QCOMPARE(s.events, trace.events.size());
    QVERIFY(s.wallSeconds > 0.0);
    // Every output sample lies on the constraints, projected or not the integrated state.
    QVERIFY2(maxResidual(trace) <= 1e-10, qPrintable(QString::number(maxResidual(trace))));
}

void TestSimulator::beadStopsAtTheFootOfItsWireAtTheClosedFormTime_data()
{
    QTest::addColumn<double>("mu");
    QTest::addColumn<double>("v0");
    QTest::addColumn<IntegratorKind>("kind");
    QTest::newRow("mu 0.2 from rest") << 0.2 << 0.0 << IntegratorKind::Dopri5;
    QTest::newRow("smooth from rest") << 0.0 << 0.0 << IntegratorKind::Dopri5;
    QTest::newRow("smooth, thrown up first") << 0.0 << 3.0 << IntegratorKind::Dopri5;
    QTest::newRow("mu 0.2 from rest, rk4") << 0.2 << 0.0 << IntegratorKind::Rk4;
}

void TestSimulator::beadStopsAtTheFootOfItsWireAtTheClosedFormTime()
{
    // Sliding down (μ < tan θ), the bead moves as s(t) = s0 + v0 t − ½ a t² with
    // a = g (sin θ − μ cos θ); thrown up a smooth wire it comes back through s0 and reaches the
    // foot s = 0 at the larger root t* = (v0 + √(v0² + 2 a s0)) / a.
    QFETCH(double, mu);
    QFETCH(double, v0);
    QFETCH(IntegratorKind, kind);
    QVERIFY(mu == 0.0 || v0 == 0.0); // friction would change sides at the top
    const double g = 9.81, theta = std::numbers::pi / 6.0, s0 = 2.0;
    const auto system =
        SceneRegistry::find("bead-on-wire")
            ->create({{"angle_deg", {30.0}}, {"mu", {mu}}, {"s0", {s0}}, {"v0", {v0}}, {"g", {g}}});
    QVERIFY(system->hasEnd());
    const double a = g * (std::sin(theta) - mu * std::cos(theta));
    const double tStar = (v0 + std::sqrt(v0 * v0 + 2.0 * a * s0)) / a;
    Simulator sim(*system);
    SimulationOptions options = runOptions(kind, 10.0, 0.01);
    options.stopAtEnd = true;
    const Trace trace = sim.run(options);

    QVERIFY(trace.stopAtEnd);
    QVERIFY(trace.reachedEnd);
    const double tolerance = kind == IntegratorKind::Rk4 ? 1e-7 : 1e-9;
    const TraceSample& last = trace.samples.back();
    QVERIFY2(std::abs(last.t - tStar) < tolerance,
             qPrintable(QStringLiteral("stopped at %1 s, closed form %2 s")
                            .arg(last.t, 0, 'g', 17)
                            .arg(tStar, 0, 'g', 17)));
    // There, the bead is at the foot with the closed-form speed, on the wire.
    const double s = last.q[0] * std::cos(theta) + last.q[1] * std::sin(theta);
    QVERIFY2(std::abs(s) < 10.0 * tolerance, qPrintable(QString::number(s)));
    QVERIFY(std::abs(last.qd.norm() - a * tStar + v0) < 10.0 * tolerance);
    // Every sample before it is on the dt grid, and none lies past the foot.
    for (std::size_t i = 0; i + 1 < trace.samples.size(); ++i) {
        QVERIFY(std::abs(trace.samples[i].t - 0.01 * static_cast<double>(i)) < 1e-12);
        QVERIFY(trace.samples[i].t < last.t);
    }
    QCOMPARE(trace.samples.size(), static_cast<std::size_t>(std::ceil(tStar / 0.01)) + 1);
}

void TestSimulator::beadHeldByStaticFrictionNeverReachesTheFoot()
{
    // μₛ = 0.7 > tan 30°: static friction holds the bead where it starts, for the whole run.
    const auto system = SceneRegistry::find("bead-on-wire")->create({{"mu", {0.7}}});
    Simulator sim(*system);
    SimulationOptions options;
    options.tEnd = 3.0;
    options.stopAtEnd = true;
    const Trace trace = sim.run(options);
    QVERIFY(trace.stopAtEnd);
    QVERIFY(!trace.reachedEnd);
    QCOMPARE(trace.samples.back().t, 3.0);
    QVERIFY(trace.samples.back().qd.norm() == 0.0);
}

void TestSimulator::footReachedAfterTheEndTimeDoesNotLengthenTheRun()
{
    // Thrown up the wire at 1.5 m/s, the bead reaches the foot only at
    // t* = (v0 + √(v0² + 2 a s0)) / a ≈ 1.39 s; a run to t_end = 0.5 s ends at 0.5 s on its grid,
    // however long the integrator's last step (which does reach past t*).
    const double g = 9.81, theta = std::numbers::pi / 6.0, s0 = 2.0, v0 = 1.5;
    const auto system =
        SceneRegistry::find("bead-on-wire")
            ->create(
                {{"angle_deg", {30.0}}, {"mu", {0.0}}, {"s0", {s0}}, {"v0", {v0}}, {"g", {g}}});
    const double a = g * std::sin(theta);
    const double tStar = (v0 + std::sqrt(v0 * v0 + 2.0 * a * s0)) / a;
    QVERIFY(tStar > 1.0);
    Simulator sim(*system);
    SimulationOptions options;
    options.tEnd = 0.5;
    options.dt = 0.1;
    options.stopAtEnd = true;
    const Trace trace = sim.run(options);
    QVERIFY(trace.stopAtEnd);
    QVERIFY(!trace.reachedEnd);
    QCOMPARE(trace.samples.size(), std::size_t{6});
    QCOMPARE(trace.samples.back().t, 0.5);
    // Still above the foot there: s(0.5) = s0 + v0 t − a t² / 2 > 0.
    const TraceSample& last = trace.samples.back();
    const double s = last.q[0] * std::cos(theta) + last.q[1] * std::sin(theta);
    QVERIFY(std::abs(s - (s0 + v0 * 0.5 - 0.5 * a * 0.25)) < 1e-8);
}

void TestSimulator::runWithoutStopAtEndPassesTheFoot()
{
    // The wire itself is infinite: without the option the bead slides on below s = 0.
    const auto system = SceneRegistry::find("bead-on-wire")->create({});
    Simulator sim(*system);
    SimulationOptions options;
    options.tEnd = 3.0;
    const Trace trace = sim.run(options);
    QVERIFY(!trace.stopAtEnd);
    QVERIFY(!trace.reachedEnd);
    QCOMPARE(trace.samples.back().t, 3.0);
    QVERIFY(trace.samples.back().q[1] < 0.0);
    // A scene without an end ignores the option.
    const auto ring = SceneRegistry::find("ring")->create({});
    Simulator ringSim(*ring);
    options.stopAtEnd = true;
    const Trace ringTrace = ringSim.run(options);
    QVERIFY(!ring->hasEnd());
    QVERIFY(!ringTrace.stopAtEnd);
    QCOMPARE(ringTrace.samples.back().t, 3.0);
}

QTEST_APPLESS_MAIN(TestSimulator)
#include "tst_Simulator.moc"
