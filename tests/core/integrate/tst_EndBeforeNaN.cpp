// An end condition that turns NaN soon after its zero (docs/MATH.md §6, "Events"): the run
// stops at the zero with either integrator, whether or not a step ends where it is NaN, and a
// condition that turns NaN without reaching zero stops the run with a message instead of being
// stepped over.
#include "integrate/Simulator.h"
#include "model/ConstraintLabError.h"
#include "symbolic/SymbolicModel.h"
#include "symbolic/SystemDescription.h"

#include <QtTest>

#include <cmath>

using namespace clab;

class TestEndBeforeNaN : public QObject {
    Q_OBJECT

private slots:
    void runStopsWhereTheEndConditionReachesZero_data();
    void runStopsWhereTheEndConditionReachesZero();
    void endConditionTurningNaNWithoutZeroStopsTheRun();
};

namespace {

// A body falling from x = 0 under g = 1: x = −t²/2, so sqrt(x + 1) − 0.5 is zero at t = √1.5
// and NaN from t = √2 on.
Trace fall(const std::string& end, IntegratorKind integrator)
{
    SystemDescription d;
    d.coordinates = {{"x"}};
    d.parameters = {SystemDescription::Parameter::plain("g", 1.0)};
    d.kineticEnergy = "x_dot^2/2";
    d.potentialEnergy = "g*x";
    d.initial = {{"x", "0"}, {"x_dot", "0"}};
    d.end = end;
    const auto model = SymbolicModel::create(d);
    const auto system = model->definition().create({});
    Simulator simulator(*system);
    SimulationOptions options;
    options.tEnd = 3.0;
    options.dt = 0.01;
    options.rtol = 1e-9;
    options.atol = 1e-12;
    options.integrator = integrator;
    options.stopAtEnd = true;
    return simulator.run(options);
}

} // namespace

void TestEndBeforeNaN::runStopsWhereTheEndConditionReachesZero_data()
{
    QTest::addColumn<int>("integrator");
    QTest::newRow("dopri5") << int(IntegratorKind::Dopri5);
    QTest::newRow("rk4") << int(IntegratorKind::Rk4);
}

void TestEndBeforeNaN::runStopsWhereTheEndConditionReachesZero()
{
    QFETCH(int, integrator);
    const Trace trace = fall("sqrt(x + 1) - 0.5", static_cast<IntegratorKind>(integrator));
    QVERIFY(trace.reachedEnd);
    const double t = trace.samples.back().t;
    // x is quadratic in t, which both interpolants reproduce: only the locator's tolerance
    // (1e-12 of a step) and rounding remain.
    QVERIFY2(std::abs(t - std::sqrt(1.5)) < 1e-11,
             qPrintable(QStringLiteral("ended at %1 s").arg(t, 0, 'g', 17)));
    QVERIFY(std::abs(trace.samples.back().q[0] + 0.75) < 1e-11);
}

void TestEndBeforeNaN::endConditionTurningNaNWithoutZeroStopsTheRun()
{
    // sqrt(x + 1) + 0.5 stays positive until x = −1 (t = √2) and is NaN after: never met.
    try {
        fall("sqrt(x + 1) + 0.5", IntegratorKind::Dopri5);
        QFAIL("the run went past where its end condition is NaN");
    } catch (const ConstraintLabError& e) {
        QCOMPARE(e.kind(), ConstraintLabError::Kind::NonFinite);
        QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("the end condition")),
                 e.what());
    }
}

QTEST_APPLESS_MAIN(TestEndBeforeNaN)
#include "tst_EndBeforeNaN.moc"
