// SpringDrag: a hand's spring on the double pendulum's lower bob does work that the energy
// audit counts with the given forces (W_given_nc), and the audit still closes; the spring's
// generalized force is Pᵀ k (target − p).
#include "solve/SpringDrag.h"

#include "integrate/Simulator.h"
#include "symbolic/SymbolicModel.h"

#include "../../support/SystemDescriptions.h"

#include <QtTest>

#include <cmath>

using namespace clab;

class TestSpringDrag : public QObject {
    Q_OBJECT

private slots:
    void springWorkIsCountedAndTheAuditCloses();
    void springForceActsOnTheCoordinatesOfItsPoint();
};

namespace {

ConfigurationProjection::Point lowerBob()
{
    return [](const Eigen::VectorXd& q) {
        return Eigen::Vector3d(q[2], q[3], 0.0);
    };
}

} // namespace

void TestSpringDrag::springWorkIsCountedAndTheAuditCloses()
{
    const auto model = SymbolicModel::create(test::doublePendulum());
    const auto pendulum = model->definition().create(model->definition().defaults());
    Eigen::VectorXd q0, qd0;
    pendulum->initialState(q0, qd0);
    const double k = SpringDrag::stiffnessFor(*pendulum, lowerBob(), q0, 0.0, 1.5);
    QVERIFY(k > 0.0);
    // Taken hold of at t = 0.5 s and pulled up and to the left.
    const SpringDrag dragged(*pendulum, lowerBob(), k, {-0.5, 1.0, 0.0}, q0, qd0, 0.5);
    SimulationOptions options;
    options.tEnd = 2.5;
    options.dt = 0.01;
    const Trace trace = Simulator(dragged).run(options);
    QCOMPARE(trace.samples.front().t, 0.5);
    double largestWork = 0.0, largestError = 0.0;
    for (const TraceSample& s : trace.samples) {
        largestWork = std::max(largestWork, std::abs(s.W_given_nc));
        largestError = std::max(largestError, std::abs(s.E_error));
        // The audit by hand: E(t) − E(0) is the spring's work.
        QVERIFY(std::abs(s.E - trace.samples.front().E - s.W_given_nc) <= 1e-6);
    }
    QVERIFY2(largestWork > 1.0, qPrintable(QString::number(largestWork)));
    QVERIFY2(largestError <= 1e-6, qPrintable(QString::number(largestError, 'g', 3)));
}

void TestSpringDrag::springForceActsOnTheCoordinatesOfItsPoint()
{
    const auto model = SymbolicModel::create(test::doublePendulum());
    const auto pendulum = model->definition().create(model->definition().defaults());
    Eigen::VectorXd q0, qd0;
    pendulum->initialState(q0, qd0);
    const SpringDrag dragged(*pendulum, lowerBob(), 10.0, {1.7, 1.0, 0.0}, q0, qd0, 0.0);
    // The bob at (1.7, 0): the spring pulls it up by k · 1 m.
    const Eigen::VectorXd Q = dragged.generalizedSpringForce(q0);
    QVERIFY((Q - Eigen::Vector4d(0.0, 0.0, 0.0, 10.0)).norm() <= 1e-8);
    Eigen::VectorXd withGravity(4), gravity(4);
    dragged.givenForce(q0, qd0, 0.0, withGravity);
    pendulum->givenForce(q0, qd0, 0.0, gravity);
    QVERIFY((withGravity - gravity - Q).norm() <= 1e-12);
}

QTEST_APPLESS_MAIN(TestSpringDrag)
#include "tst_SpringDrag.moc"
