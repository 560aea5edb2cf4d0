// EventLocator on functions whose crossing is known: the located time is within the tolerance
// of the true one, on the side where the event has happened, in a bounded number of calls.
#include "EventLocator.h"

#include <QtTest>

#include <cmath>
#include <limits>
#include <numbers>

using namespace clab;

class TestEventLocator : public QObject {
    Q_OBJECT

private slots:
    void locatesTheZeroOfASmoothFunctionOnItsFarSide();
    void locatesAJumpByBisection();
    void startOnTheBoundaryCountsAsBefore();
    void toleranceIsRelativeToTheStepWithAnUlpFloor();
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

QTEST_APPLESS_MAIN(TestEventLocator)
#include "tst_EventLocator.moc"
