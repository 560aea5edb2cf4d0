// Rk4Stepper alone, on problems with closed-form solutions: fourth-order convergence of the
// steps and of the Hermite interpolant between them, and steps that land exactly on tStop.
#include "integrate/Rk4Stepper.h"

#include <QtTest>

#include <cmath>
#include <vector>

using namespace clab;

namespace {

using State = Stepper::State;

// x'' = −ω² x as (x, v), from (1, 0): x = cos ωt, v = −ω sin ωt.
Stepper::Rhs oscillator(double omega)
{
    return [omega](const State& x, State& dxdt, double) {
        dxdt[0] = x[1];
        dxdt[1] = -omega * omega * x[0];
    };
}

// Largest error of the steps' ends and of the interpolant at the midpoints over [0, tEnd].
struct Errors {
    double steps = 0.0, midpoints = 0.0;
};

Errors oscillatorErrors(double omega, double h, double tEnd)
{
    const Stepper::Rhs rhs = oscillator(omega);
    Rk4Stepper stepper(rhs, h, 2);
    stepper.initialize({1.0, 0.0}, 0.0, h);
    Errors e;
    State mid(2);
    while (stepper.currentTime() < tEnd) {
        stepper.doStep(tEnd);
        const double t = stepper.currentTime();
        const State& x = stepper.currentState();
        e.steps = std::max(
            e.steps, std::hypot(x[0] - std::cos(omega * t), x[1] + omega * std::sin(omega * t)));
        const double tm = 0.5 * (stepper.previousTime() + t);
        stepper.calcState(tm, mid);
        e.midpoints = std::max(e.midpoints, std::abs(mid[0] - std::cos(omega * tm)));
    }
    return e;
}

} // namespace

class TestRk4Stepper : public QObject {
    Q_OBJECT

private slots:
    void convergesAtFourthOrderOnStepsAndBetweenThem();
    void stepLandsExactlyOnTheStopTime_data();
    void stepLandsExactlyOnTheStopTime();
    void interpolantMatchesTheStepEnds();
};

void TestRk4Stepper::convergesAtFourthOrderOnStepsAndBetweenThem()
{
    // Halving h divides the global error of a fourth-order method by 2⁴ = 16; the cubic Hermite
    // interpolant's own error is O(h⁴) per step too, so the midpoints follow at the same rate.
    std::vector<Errors> errors;
    for (double h : {0.1, 0.05, 0.025})
        errors.push_back(oscillatorErrors(2.0, h, 2.0));
    for (std::size_t k = 1; k < errors.size(); ++k) {
        const double steps = errors[k - 1].steps / errors[k].steps;
        const double midpoints = errors[k - 1].midpoints / errors[k].midpoints;
        QVERIFY2(steps > 14.0 && steps < 18.0 && midpoints > 12.0 && midpoints < 20.0,
                 qPrintable(QStringLiteral("error ratios %1 (steps), %2 (midpoints) when halving h")
                                .arg(steps)
                                .arg(midpoints)));
    }
}

void TestRk4Stepper::stepLandsExactlyOnTheStopTime_data()
{
    QTest::addColumn<double>("h");
    QTest::addColumn<double>("tStop");
    QTest::addColumn<int>("steps");
    QTest::newRow("uneven: 0.3 into 1") << 0.3 << 1.0 << 4;
    QTest::newRow("even: 0.1 into 1") << 0.1 << 1.0 << 10;
    // A step that would stop within 1e-6 h of tStop stretches onto it instead of leaving a sliver.
    QTest::newRow("just short") << 0.25 << 1.0 + 1e-9 << 4;
    QTest::newRow("span below h") << 0.1 << 0.05 << 1;
}

void TestRk4Stepper::stepLandsExactlyOnTheStopTime()
{
    QFETCH(double, h);
    QFETCH(double, tStop);
    QFETCH(int, steps);
    // y' = −y: whatever the step, the state at tStop is e^{−tStop} to RK4's accuracy, a local
    // error of h⁵/120 per step (times e^{−t} ≤ 1), so below tStop h⁴/100 in all.
    const Stepper::Rhs decay = [](const State& x, State& dxdt, double) {
        dxdt[0] = -x[0];
    };
    Rk4Stepper stepper(decay, h, 1);
    stepper.initialize({1.0}, 0.0, h);
    int taken = 0;
    while (stepper.currentTime() < tStop) {
        stepper.doStep(tStop);
        ++taken;
        QVERIFY(stepper.currentTime() <= tStop);
    }
    QCOMPARE(taken, steps);
    QCOMPARE(stepper.currentTime(), tStop); // exactly
    QVERIFY(std::abs(stepper.currentState()[0] - std::exp(-tStop)) <
            tStop * std::pow(h, 4) / 100.0);
    QCOMPARE(stepper.stepSize(), h);
}

void TestRk4Stepper::interpolantMatchesTheStepEnds()
{
    const Stepper::Rhs rhs = oscillator(1.0);
    Rk4Stepper stepper(rhs, 0.2, 2);
    stepper.initialize({1.0, 0.0}, 0.0, 0.2);
    // Before the first step the interval is empty: the state is the initial one.
    State x;
    stepper.calcState(0.0, x);
    QCOMPARE(x, (State{1.0, 0.0}));
    stepper.doStep(10.0);
    stepper.doStep(10.0);
    const State end = stepper.currentState();
    stepper.calcState(stepper.currentTime(), x);
    QVERIFY(std::abs(x[0] - end[0]) < 1e-15 && std::abs(x[1] - end[1]) < 1e-15);
    stepper.calcState(stepper.previousTime(), x);
    QVERIFY(std::abs(x[0] - std::cos(0.2)) < 1e-6);
    QCOMPARE(stepper.previousTime(), 0.2);
    QVERIFY(std::abs(stepper.currentTime() - 0.4) < 1e-15);
}

QTEST_APPLESS_MAIN(TestRk4Stepper)
#include "tst_Rk4Stepper.moc"
