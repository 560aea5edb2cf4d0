// Redundant but consistent constraints (docs/MATH.md §2): a rod written twice moves as the rod
// written once, and a point held by three constraints in the plane stays where it is, with
// every stabilization; constraints that contradict each other still stop with their message.
#include "integrate/Simulator.h"
#include "model/ConstraintLabError.h"
#include "symbolic/SymbolicModel.h"
#include "symbolic/SystemDescription.h"

#include <QtTest>

#include <cmath>

using namespace clab;

class TestRedundantConstraints : public QObject {
    Q_OBJECT

private slots:
    void rodWrittenTwiceSwingsAsTheRodWrittenOnce_data();
    void rodWrittenTwiceSwingsAsTheRodWrittenOnce();
    void pointHeldByThreeConstraintsStaysAtRest_data();
    void pointHeldByThreeConstraintsStaysAtRest();
    void contradictingAccelerationsStillStop();
};

namespace {

using Kind = SystemDescription::Constraint::Kind;

// A unit mass on a rod of length 1 under g = 9.81, released from the horizontal; `rods` are
// the constraints that hold it (one or several ways of writing the same rod).
SystemDescription pendulum(const std::vector<std::string>& rods)
{
    SystemDescription d;
    d.coordinates = {{"x"}, {"y"}};
    d.parameters = {SystemDescription::Parameter::plain("g", 9.81)};
    d.kineticEnergy = "(x_dot^2 + y_dot^2)/2";
    d.potentialEnergy = "g*y";
    for (const std::string& rod : rods)
        d.constraints.push_back({"", Kind::Holonomic, rod});
    d.initial = {{"x", "1"}, {"y", "0"}, {"x_dot", "0"}, {"y_dot", "0"}};
    return d;
}

Trace run(const SystemDescription& d, Stabilization stabilization, double tEnd)
{
    const auto model = SymbolicModel::create(d);
    const auto system = model->definition().create({});
    Simulator simulator(*system);
    SimulationOptions options;
    options.tEnd = tEnd;
    options.dt = 0.01;
    options.rtol = 1e-11;
    options.atol = 1e-13;
    options.stabilization = stabilization;
    return simulator.run(options);
}

void addStabilizations()
{
    QTest::addColumn<int>("stabilization");
    QTest::newRow("projection") << int(Stabilization::Projection);
    QTest::newRow("baumgarte") << int(Stabilization::Baumgarte);
    QTest::newRow("none") << int(Stabilization::None);
}

} // namespace

void TestRedundantConstraints::rodWrittenTwiceSwingsAsTheRodWrittenOnce_data()
{
    addStabilizations();
}

void TestRedundantConstraints::rodWrittenTwiceSwingsAsTheRodWrittenOnce()
{
    QFETCH(int, stabilization);
    const auto how = static_cast<Stabilization>(stabilization);
    const Trace once = run(pendulum({"x^2 + y^2 - 1"}), how, 5.0);
    const Trace twice = run(pendulum({"x^2 + y^2 - 1", "sqrt(x^2 + y^2) - 1"}), how, 5.0);
    QCOMPARE(twice.samples.size(), once.samples.size());
    QCOMPARE(twice.samples.back().t, 5.0);
    double worst = 0.0, energy = 0.0, radius = 0.0;
    for (std::size_t k = 0; k < once.samples.size(); ++k) {
        const TraceSample& a = once.samples[k];
        const TraceSample& b = twice.samples[k];
        worst = std::max(worst, (a.q - b.q).norm() + (a.qd - b.qd).norm());
        energy = std::max(energy, std::abs(b.E - twice.samples.front().E));
        radius = std::max(radius, std::abs(b.q.norm() - 1.0));
    }
    // The same motion to the integration's accuracy, on the rod, with its energy.
    QVERIFY2(worst < 1e-8, qPrintable(QStringLiteral("state apart by %1").arg(worst)));
    QVERIFY2(energy < 1e-8, qPrintable(QStringLiteral("energy drifted by %1 J").arg(energy)));
    QVERIFY2(radius < 1e-8, qPrintable(QStringLiteral("off the rod by %1 m").arg(radius)));
    // The tension is shared between the two ways of writing the rod, but the bob feels the
    // rod's whole pull: at the bottom (after a quarter period from the horizontal) 3 m g.
    double bottom = 0.0;
    for (const TraceSample& s : twice.samples)
        bottom = std::max(bottom, s.Qci.norm());
    QVERIFY2(std::abs(bottom - 3.0 * 9.81) < 1e-3 * 9.81, qPrintable(QString::number(bottom)));
}

void TestRedundantConstraints::pointHeldByThreeConstraintsStaysAtRest_data()
{
    addStabilizations();
}

void TestRedundantConstraints::pointHeldByThreeConstraintsStaysAtRest()
{
    QFETCH(int, stabilization);
    const Trace trace =
        run(pendulum({"x - 1", "y", "x + y - 1"}), static_cast<Stabilization>(stabilization), 3.0);
    QCOMPARE(trace.samples.back().t, 3.0);
    for (const TraceSample& s : trace.samples) {
        QVERIFY2((s.q - Eigen::Vector2d(1.0, 0.0)).norm() < 1e-12,
                 qPrintable(QString::number(s.t)));
        QVERIFY(s.qd.norm() < 1e-12);
        // The constraints carry the weight: Qci = (0, g).
        QVERIFY((s.Qci - Eigen::Vector2d(0.0, 9.81)).norm() < 1e-9);
    }
}

void TestRedundantConstraints::contradictingAccelerationsStillStop()
{
    // x = t² and x = t³ agree at t = 0 in position and velocity, not in acceleration.
    SystemDescription d = pendulum({"x - t^2", "x - t^3"});
    d.initial = {{"x", "0"}, {"y", "0"}, {"x_dot", "0"}, {"y_dot", "0"}};
    try {
        run(d, Stabilization::Projection, 1.0);
        QFAIL("contradicting constraints ran");
    } catch (const ConstraintLabError& e) {
        QCOMPARE(e.kind(), ConstraintLabError::Kind::InconsistentConstraints);
        QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("inconsistent")), e.what());
    }
}

QTEST_APPLESS_MAIN(TestRedundantConstraints)
#include "tst_RedundantConstraints.moc"
