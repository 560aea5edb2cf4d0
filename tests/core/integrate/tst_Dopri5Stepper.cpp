// Dopri5Stepper alone, on problems with closed-form solutions: the dense output follows the
// solution to the tolerance, the step size follows the error control (about tol^(1/5) for a
// fifth-order method) and not the stop time, and refused trial steps are counted.
#include "integrate/Dopri5Stepper.h"

#include <QtTest>

#include <cmath>
#include <cstddef>
#include <vector>

using namespace clab;

namespace {

using State = Stepper::State;

// x'' = −x as (x, v), from (1, 0): x = cos t, v = −sin t.
const Stepper::Rhs kOscillator = [](const State& x, State& dxdt, double) {
    dxdt[0] = x[1];
    dxdt[1] = -x[0];
};

struct Outcome {
    int steps = 0;
    double endError = 0.0;   // |x − cos t| and |v + sin t| at tEnd
    double denseError = 0.0; // the same on the dense output, 10 points per step
};

Outcome runOscillator(double tol, double tEnd)
{
    std::size_t rejected = 0;
    Dopri5Stepper stepper(kOscillator, tol, tol, &rejected);
    stepper.initialize({1.0, 0.0}, 0.0, 1e-3);
    Outcome o;
    State x(2);
    while (stepper.currentTime() < tEnd) {
        stepper.doStep(tEnd);
        ++o.steps;
        const double a = stepper.previousTime(), b = stepper.currentTime();
        for (int k = 1; k <= 10; ++k) {
            const double t = std::min(a + 0.1 * k * (b - a), tEnd);
            stepper.calcState(t, x);
            o.denseError = std::max(
                {o.denseError, std::abs(x[0] - std::cos(t)), std::abs(x[1] + std::sin(t))});
        }
    }
    stepper.calcState(tEnd, x);
    o.endError = std::max(std::abs(x[0] - std::cos(tEnd)), std::abs(x[1] + std::sin(tEnd)));
    return o;
}

} // namespace

class TestDopri5Stepper : public QObject {
    Q_OBJECT

private slots:
    void denseOutputFollowsTheOscillatorToTheTolerance_data();
    void denseOutputFollowsTheOscillatorToTheTolerance();
    void stepCountGrowsAsTheFifthRootOfTheTolerance();
    void stepsFollowTheErrorControlNotTheStopTime();
    void refusedTrialStepsAreCounted();
    void restartContinuesFromTheGivenState();
    void trialStepIntoNaNIsRetriedSmaller();
};

void TestDopri5Stepper::denseOutputFollowsTheOscillatorToTheTolerance_data()
{
    QTest::addColumn<double>("tol");
    QTest::newRow("1e-6") << 1e-6;
    QTest::newRow("1e-9") << 1e-9;
    QTest::newRow("1e-12") << 1e-12;
}

void TestDopri5Stepper::denseOutputFollowsTheOscillatorToTheTolerance()
{
    QFETCH(double, tol);
    // Over about three periods the global error stays within a small multiple of the local
    // tolerance, on the steps and on the 4th-order interpolant between them alike.
    const Outcome o = runOscillator(tol, 20.0);
    QVERIFY2(o.endError < 100.0 * tol && o.denseError < 100.0 * tol,
             qPrintable(QStringLiteral("errors %1 at the end, %2 on the dense output")
                            .arg(o.endError)
                            .arg(o.denseError)));
}

void TestDopri5Stepper::stepCountGrowsAsTheFifthRootOfTheTolerance()
{
    // A fifth-order error per step: h ∝ tol^(1/5), so 10⁵ times tighter takes ~10 times the steps.
    const int loose = runOscillator(1e-5, 20.0).steps;
    const int tight = runOscillator(1e-10, 20.0).steps;
    const double ratio = static_cast<double>(tight) / loose;
    QVERIFY2(
        ratio > 6.0 && ratio < 14.0,
        qPrintable(QStringLiteral("%1 and %2 steps, ratio %3").arg(loose).arg(tight).arg(ratio)));
}

void TestDopri5Stepper::stepsFollowTheErrorControlNotTheStopTime()
{
    // y' = −y at a loose tolerance: steps grow far beyond a stop time of 1e-3 (events and output
    // times are found on the dense output instead).
    const Stepper::Rhs decay = [](const State& x, State& dxdt, double) {
        dxdt[0] = -x[0];
    };
    std::size_t rejected = 0;
    Dopri5Stepper stepper(decay, 1e-6, 1e-6, &rejected);
    stepper.initialize({1.0}, 0.0, 1e-3);
    for (int k = 0; k < 10; ++k)
        stepper.doStep(1e-3);
    QVERIFY2(stepper.currentTime() > 0.1, qPrintable(QString::number(stepper.currentTime())));
    QVERIFY(stepper.stepSize() > 1e-3);
    // The dense output covers the last step only; inside it, it is e^{−t} to the tolerance.
    State x(1); // odeint's dense output writes into a state of the right size
    const double tm = 0.5 * (stepper.previousTime() + stepper.currentTime());
    stepper.calcState(tm, x);
    QVERIFY2(std::abs(x[0] - std::exp(-tm)) < 1e-5,
             qPrintable(QString::number(x[0] - std::exp(-tm))));
}

void TestDopri5Stepper::refusedTrialStepsAreCounted()
{
    // A first trial step of 5 on y' = −50 y at 1e-10 cannot pass the error test: odeint refuses
    // and shrinks it, and each refusal is counted.
    const Stepper::Rhs stiff = [](const State& x, State& dxdt, double) {
        dxdt[0] = -50.0 * x[0];
    };
    std::size_t rejected = 0;
    Dopri5Stepper stepper(stiff, 1e-10, 1e-10, &rejected);
    stepper.initialize({1.0}, 0.0, 5.0);
    stepper.doStep(5.0);
    QVERIFY2(rejected >= 3, qPrintable(QString::number(rejected)));
    const double t = stepper.currentTime();
    QVERIFY(t > 0.0 && t < 0.1);
    QVERIFY(std::abs(stepper.currentState()[0] - std::exp(-50.0 * t)) < 1e-9);
}

void TestDopri5Stepper::restartContinuesFromTheGivenState()
{
    // Re-initialized mid-way on the exact state (as after an event), the stepper goes on along
    // the same solution from there.
    std::size_t rejected = 0;
    Dopri5Stepper stepper(kOscillator, 1e-10, 1e-10, &rejected);
    stepper.initialize({1.0, 0.0}, 0.0, 1e-3);
    stepper.doStep(1.0);
    const double t1 = 1.0;
    stepper.initialize({std::cos(t1), -std::sin(t1)}, t1, stepper.stepSize());
    QCOMPARE(stepper.previousTime(), t1);
    QCOMPARE(stepper.currentTime(), t1);
    while (stepper.currentTime() < 3.0)
        stepper.doStep(3.0);
    State x(2);
    stepper.calcState(3.0, x);
    QVERIFY(std::abs(x[0] - std::cos(3.0)) < 1e-8 && std::abs(x[1] + std::sin(3.0)) < 1e-8);
}

void TestDopri5Stepper::trialStepIntoNaNIsRetriedSmaller()
{
    // y' = −√y · √y decays as e^−t and never reaches 0, but a first trial step of 10 takes its
    // stages below 0, where √y is NaN. That trial is refused and retried smaller, never
    // accepted with a NaN state.
    const Stepper::Rhs decay = [](const State& x, State& dxdt, double) {
        dxdt[0] = -std::sqrt(x[0]) * std::sqrt(x[0]);
    };
    std::size_t rejected = 0;
    Dopri5Stepper stepper(decay, 1e-10, 1e-10, &rejected);
    stepper.initialize({1.0}, 0.0, 10.0);
    stepper.doStep(10.0);
    QVERIFY2(rejected >= 1, qPrintable(QString::number(rejected)));
    const double t = stepper.currentTime();
    QVERIFY2(std::isfinite(stepper.currentState()[0]), qPrintable(QString::number(t)));
    QVERIFY(std::abs(stepper.currentState()[0] - std::exp(-t)) < 1e-9);
}

QTEST_APPLESS_MAIN(TestDopri5Stepper)
#include "tst_Dopri5Stepper.moc"
