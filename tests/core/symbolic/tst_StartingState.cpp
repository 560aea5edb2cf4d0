// withStartingState: a system written as equations, given a dragged state, starts exactly
// there (its initial values are the state's numbers, read back without rounding).
#include "symbolic/StartingState.h"

#include "symbolic/SymbolicModel.h"

#include "../../support/SystemDescriptions.h"

#include <QtTest>

#include <cmath>

using namespace clab;

class TestStartingState : public QObject {
    Q_OBJECT

private slots:
    void systemStartsExactlyInTheDraggedState();
    void stateOfTheWrongSizeIsRefused();
};

void TestStartingState::systemStartsExactlyInTheDraggedState()
{
    const SystemDescription pendulum = test::doublePendulum();
    const double a = 0.3, b = -1.1;
    Eigen::VectorXd q(4), qd(4);
    q << std::sin(a), -std::cos(a), std::sin(a) + 0.7 * std::sin(b),
        -std::cos(a) - 0.7 * std::cos(b);
    qd << 0.25 * std::cos(a), 0.25 * std::sin(a), 0.25 * std::cos(a), 0.25 * std::sin(a);
    const SystemDescription started = withStartingState(pendulum, q, qd);
    QCOMPARE(started.coordinates, pendulum.coordinates);
    QCOMPARE(started.initial.size(), std::size_t{8}); // x1…y2 and their _dot
    const auto model = SymbolicModel::create(started);
    const auto system = model->definition().create(model->definition().defaults());
    Eigen::VectorXd q0, qd0;
    system->initialState(q0, qd0);
    QVERIFY(q0 == q);
    QVERIFY(qd0 == qd);
}

void TestStartingState::stateOfTheWrongSizeIsRefused()
{
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             withStartingState(test::doublePendulum(), Eigen::VectorXd::Zero(3),
                                               Eigen::VectorXd::Zero(4)));
}

QTEST_APPLESS_MAIN(TestStartingState)
#include "tst_StartingState.moc"
