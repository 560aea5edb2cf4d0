// EventLocator on functions whose crossing is known: the located time is within the tolerance
// of the true one, on the side where the event has happened, in a bounded number of calls; and
// on the interpolants of the steppers, as the simulator uses it, against closed-form crossings.
#include "integrate/Dopri5Stepper.h"
#include "integrate/EventLocator.h"
#include "integrate/Rk4Stepper.h"

#include <QtTest>

#include <cmath>
#include <limits>
#include <memory>
#include <numbers>

using namespace clab;

class TestEventLocator : public QObject {
    Q_OBJECT

private slots:
    void locatesTheZeroOfASmoothFunctionOnItsFarSide();
    void locatesAJumpByBisection();
    void startOnTheBoundaryCountsAsBefore();
    void toleranceIsRelativeToTheStepWithAnUlpFloor();
    void locatesACrossingOnAStepperInterpolant_data();
    void locatesACrossingOnAStepperInterpolant();
    void findsTheCrossingBeforeWhereTheFunctionTurnsNaN_data();
    void findsTheCrossingBeforeWhereTheFunctionTurnsNaN();
    void saysWhenTheFunctionTurnsNaNWithoutCrossing();
};

void TestEventLocator::locatesTheZeroOfASmoothFunctionOnItsFarSide()
{
    // cos t crosses zero at π/2 inside the step [1, 2].
    int calls = 0;
    const auto g = [&calls](double t) {
        ++calls;
        return std::cos(t);
    };
    const auto crossed = [](double value) {
        return value <= 0.0;
    };
    const double tol = EventLocator::tolerance(1.0, 2.0);
    const double t = EventLocator::locate(g, crossed, 1.0, std::cos(1.0), 2.0, std::cos(2.0), tol);
    QVERIFY2(std::abs(t - std::numbers::pi / 2) <= tol,
             qPrintable(QString::number(t - std::numbers::pi / 2, 'g', 3)));
    // The far end of the bracket: the event has happened there.
    QVERIFY(crossed(std::cos(t)));
    // Regula falsi converges superlinearly on a smooth function: a handful of calls.
    QVERIFY2(calls <= 20, qPrintable(QString::number(calls)));
}

void TestEventLocator::locatesAJumpByBisection()
{
    // A function that jumps from 1 to -1 at 1.3 gives the secant nothing to work with: the
    // bisection every fourth iteration still closes the bracket around the jump.
    const auto g = [](double t) {
        return t < 1.3 ? 1.0 : -1.0;
    };
    const auto crossed = [](double value) {
        return value < 0.0;
    };
    const double tol = 1e-10;
    const double t = EventLocator::locate(g, crossed, 1.0, 1.0, 2.0, -1.0, tol);
    QVERIFY(t >= 1.3 && t - 1.3 <= tol);
}

void TestEventLocator::startOnTheBoundaryCountsAsBefore()
{
    // A mode may start exactly on its boundary (g(a) = 0, e.g. a contact breaking away with
    // zero slip velocity): the search still finds the later crossing, not the start.
    const auto g = [](double t) {
        return (t - 1.0) * (1.5 - t);
    }; // 0 at 1, > 0 until 1.5
    const auto crossed = [](double value) {
        return value < 0.0;
    };
    const double tol = 1e-12;
    const double t = EventLocator::locate(g, crossed, 1.0, 0.0, 2.0, g(2.0), tol);
    QVERIFY2(t >= 1.5 && t - 1.5 <= 2 * tol, qPrintable(QString::number(t - 1.5, 'g', 3)));
}

void TestEventLocator::toleranceIsRelativeToTheStepWithAnUlpFloor()
{
    QCOMPARE(EventLocator::tolerance(0.0, 0.5), 0.5 * EventLocator::relativeTolerance);
    // Late in a long run a tiny step's relative tolerance is below the spacing of doubles at
    // t: a few units in the last place of t instead, so that the bracket can still close.
    const double t = 1e6;
    const double floor = 4.0 * std::numeric_limits<double>::epsilon() * (t + 1e-3);
    QCOMPARE(EventLocator::tolerance(t, t + 1e-3), floor);
    QVERIFY(EventLocator::tolerance(t, t + 1e-3) > 1e-3 * EventLocator::relativeTolerance);
}

void TestEventLocator::locatesACrossingOnAStepperInterpolant_data()
{
    QTest::addColumn<bool>("adaptive");
    QTest::addColumn<bool>("oscillator");
    QTest::addColumn<double>("expected");
    QTest::addColumn<double>("accuracy");
    // A body dropped from 2 m under g = 9.81 reaches the ground at √(2 h / g); its height is
    // quadratic in t, which both interpolants reproduce exactly, so only the locator's tolerance
    // and rounding remain. x = cos t crosses zero at π/2; there the interpolant's error counts.
    const double fall = std::sqrt(2.0 * 2.0 / 9.81);
    QTest::newRow("free fall, dopri5") << true << false << fall << 1e-12;
    QTest::newRow("free fall, rk4") << false << false << fall << 1e-12;
    QTest::newRow("oscillator, dopri5") << true << true << std::numbers::pi / 2 << 1e-9;
    QTest::newRow("oscillator, rk4 h 0.01") << false << true << std::numbers::pi / 2 << 1e-9;
}

void TestEventLocator::locatesACrossingOnAStepperInterpolant()
{
    QFETCH(bool, adaptive);
    QFETCH(bool, oscillator);
    QFETCH(double, expected);
    QFETCH(double, accuracy);
    using State = Stepper::State;
    const Stepper::Rhs rhs = [oscillator](const State& x, State& dxdt, double) {
        dxdt[0] = x[1];
        dxdt[1] = oscillator ? -x[0] : -9.81;
    };
    std::size_t rejected = 0;
    std::unique_ptr<Stepper> stepper;
    if (adaptive)
        stepper = std::make_unique<Dopri5Stepper>(rhs, 1e-12, 1e-12, &rejected);
    else
        stepper = std::make_unique<Rk4Stepper>(rhs, 0.01, 2);
    stepper->initialize({oscillator ? 1.0 : 2.0, 0.0}, 0.0, 0.01);
    // Step until the height is no longer positive at a step's end, as the simulator does.
    while (stepper->currentState()[0] > 0.0)
        stepper->doStep(10.0);
    const double a = stepper->previousTime(), b = stepper->currentTime();
    State x(2);
    stepper->calcState(a, x);
    const double ga = x[0];
    const double t = EventLocator::locate(
        [&](double time) {
            stepper->calcState(time, x);
            return x[0];
        },
        [](double g) { return g <= 0.0; }, a, ga, b, stepper->currentState()[0],
        EventLocator::tolerance(a, b));
    QVERIFY2(std::abs(t - expected) <= accuracy,
             qPrintable(QStringLiteral("crossing at %1, expected %2")
                            .arg(t, 0, 'g', 17)
                            .arg(expected, 0, 'g', 17)));
    QVERIFY(t > a && t <= b);
}

void TestEventLocator::findsTheCrossingBeforeWhereTheFunctionTurnsNaN_data()
{
    // The end condition sqrt(x + 1) − 0.5 of a body falling as x = −t²/2 (g = 1): zero at
    // t = √1.5, NaN from t = √2 on. A step [1, 2] ends where it is NaN. The contacts' rules:
    // a sliding contact has stopped at g <= 0, a stuck one breaks away at g < 0.
    QTest::addColumn<bool>("strict");
    QTest::newRow("end, or a sliding contact (g <= 0)") << false;
    QTest::newRow("a stuck contact (g < 0)") << true;
}

void TestEventLocator::findsTheCrossingBeforeWhereTheFunctionTurnsNaN()
{
    QFETCH(bool, strict);
    const auto g = [](double t) {
        return std::sqrt(1.0 - 0.5 * t * t) - 0.5;
    };
    const auto crossed = [strict](double value) {
        return strict ? value < 0.0 : value <= 0.0;
    };
    const double tol = EventLocator::tolerance(1.0, 2.0);
    QVERIFY(std::isnan(g(2.0)));
    const EventLocator::Crossing c =
        EventLocator::locateCrossing(g, crossed, 1.0, g(1.0), 2.0, g(2.0), tol);
    QVERIFY2(std::isfinite(c.g) && crossed(c.g), qPrintable(QString::number(c.g)));
    QVERIFY2(std::abs(c.t - std::sqrt(1.5)) <= 2.0 * tol,
             qPrintable(QStringLiteral("crossing at %1").arg(c.t, 0, 'g', 17)));
    QCOMPARE(EventLocator::locate(g, crossed, 1.0, g(1.0), 2.0, g(2.0), tol), c.t);
}

void TestEventLocator::saysWhenTheFunctionTurnsNaNWithoutCrossing()
{
    // sqrt(1 − t) + 0.5 stays positive up to t = 1 and is NaN beyond: no crossing to find.
    const auto g = [](double t) {
        return std::sqrt(1.0 - t) + 0.5;
    };
    const double tol = EventLocator::tolerance(0.0, 2.0);
    const EventLocator::Crossing c = EventLocator::locateCrossing(
        g, [](double value) { return value <= 0.0; }, 0.0, g(0.0), 2.0, g(2.0), tol);
    QVERIFY(!std::isfinite(c.g));
    QVERIFY2(c.t >= 1.0 && c.t <= 1.0 + 2.0 * tol, qPrintable(QString::number(c.t, 'g', 17)));
}

QTEST_APPLESS_MAIN(TestEventLocator)
#include "tst_EventLocator.moc"
