// A stored start (SimulationOptions::start): a run from the state and time a run reached goes on
// as that run did (the acatastatic particle, whose constraint ẋ − t ẏ = a(t) changes with time,
// sees the right t), a start of the wrong length, with a value that is not finite or off the
// constraints is refused with its key, and an edit keeps the stored start only when the start
// the parameters give stays the same (SceneStart::keepsStoredStart).
#include "integrate/Simulator.h"
#include "integrate/StartState.h"
#include "model/ConstraintLabError.h"
#include "scenes/SceneDocument.h"
#include "scenes/SceneRegistry.h"
#include "scenes/SceneStart.h"

#include <QtTest>

#include <cmath>
#include <limits>
#include <memory>

using namespace clab;

class TestStartState : public QObject {
    Q_OBJECT

private slots:
    void aRunFromAStoredStartGoesOnAtItsTimeAsTheRunItCameFrom();
    void theSameStateAtAnotherTimeIsOffTheAcatastaticConstraint();
    void aStartOfTheWrongLengthIsRefusedWithItsKey();
    void aStartWithANonFiniteValueIsRefusedWithItsKey();
    void aChainStartOffItsLinksIsRefusedByTheRun();
    void editingAStartParameterClearsTheStoredStartAndOthersKeepIt();
};

namespace {

SceneDocument document(const char* scene)
{
    return SceneDocument::fromDefinition(*SceneRegistry::find(scene));
}

std::unique_ptr<MechanicalSystem> systemOf(const SceneDocument& d)
{
    return d.definition()->create(d.parameters);
}

} // namespace

void TestStartState::aRunFromAStoredStartGoesOnAtItsTimeAsTheRunItCameFrom()
{
    const SceneDocument d = document("acatastatic-particle");
    const auto system = systemOf(d);
    SimulationOptions options;
    options.tEnd = 2.0;
    options.dt = 0.25;
    const Trace whole = Simulator(*system).run(options);
    const TraceSample& middle = whole.samples.at(4);
    QCOMPARE(middle.t, 1.0);

    options.start = StartState(middle.t, middle.q, middle.qd);
    const Trace rest = Simulator(*system).run(options);
    QCOMPARE(rest.samples.front().t, 1.0);
    QCOMPARE(rest.samples.size(), whole.samples.size() - 4);
    QVERIFY((rest.samples.front().q - middle.q).norm() <= 1e-12);
    for (std::size_t k = 0; k < rest.samples.size(); ++k) {
        const TraceSample& a = rest.samples[k];
        const TraceSample& b = whole.samples[k + 4];
        QCOMPARE(a.t, b.t);
        QVERIFY2(
            (a.q - b.q).norm() <= 1e-7 && (a.qd - b.qd).norm() <= 1e-7,
            qPrintable(QStringLiteral("at t = %1: |Δq| = %2").arg(a.t).arg((a.q - b.q).norm())));
    }
}

void TestStartState::theSameStateAtAnotherTimeIsOffTheAcatastaticConstraint()
{
    const SceneDocument d = document("acatastatic-particle");
    const auto system = systemOf(d);
    SimulationOptions options;
    options.tEnd = 1.0;
    options.dt = 0.5;
    const TraceSample end = Simulator(*system).run(options).samples.back();
    QVERIFY(!StartState(end.t, end.q, end.qd).problem(*system));
    const auto problem = StartState(0.0, end.q, end.qd).problem(*system);
    QVERIFY(problem.has_value());
    QCOMPARE(problem->key, std::string("start"));
    QVERIFY2(problem->reason.find("off the constraints at t0 = 0") != std::string::npos,
             problem->reason.c_str());
}

void TestStartState::aStartOfTheWrongLengthIsRefusedWithItsKey()
{
    const auto system = systemOf(document("bead-on-wire"));
    StartState start;
    start.q = {1.0, 2.0, 3.0};
    start.qd = {0.0, 0.0};
    auto problem = start.problem(*system);
    QVERIFY(problem.has_value());
    QCOMPARE(problem->key, std::string("start.q"));
    QCOMPARE(problem->reason, std::string("has 3 values; the system has 2 coordinates"));
    start.q = {0.0, 0.0};
    start.qd = {0.0};
    problem = start.problem(*system);
    QVERIFY(problem.has_value());
    QCOMPARE(problem->key, std::string("start.qdot"));
}

void TestStartState::aStartWithANonFiniteValueIsRefusedWithItsKey()
{
    const auto system = systemOf(document("bead-on-wire"));
    StartState start;
    start.q = {0.0, 0.0};
    start.qd = {0.0, std::numeric_limits<double>::quiet_NaN()};
    auto problem = start.problem(*system);
    QVERIFY(problem.has_value());
    QCOMPARE(problem->key, std::string("start.qdot"));
    QCOMPARE(problem->reason, std::string("value 2 is not finite"));
    start.qd = {0.0, 0.0};
    start.t0 = std::numeric_limits<double>::infinity();
    problem = start.problem(*system);
    QVERIFY(problem.has_value());
    QCOMPARE(problem->key, std::string("start.t0"));
}

void TestStartState::aChainStartOffItsLinksIsRefusedByTheRun()
{
    SceneDocument d = document("chain");
    d.parameters["links"] = {3.0};
    const auto system = systemOf(d);
    Eigen::VectorXd q, qd;
    system->initialState(q, qd);
    q[0] += 0.01; // the first link a centimetre too long
    SimulationOptions options;
    options.tEnd = 0.1;
    options.start = StartState(0.0, q, qd);
    try {
        Simulator(*system).run(options);
        QFAIL("the run started off the constraints");
    } catch (const ConstraintLabError& e) {
        QCOMPARE(e.kind(), ConstraintLabError::Kind::InvalidInitialState);
        QVERIFY2(std::string(e.what()).find("start: the state is off the constraints") !=
                     std::string::npos,
                 e.what());
    }
}

void TestStartState::editingAStartParameterClearsTheStoredStartAndOthersKeepIt()
{
    SceneDocument before = document("chain");
    before.parameters["links"] = {4.0};
    Eigen::VectorXd q, qd;
    systemOf(before)->initialState(q, qd);
    // The chain turned a little about its pivot: still on its links.
    const double c = std::cos(0.3), s = std::sin(0.3);
    for (Eigen::Index i = 0; i < q.size(); i += 2) {
        const double x = q[i], y = q[i + 1];
        q[i] = c * x - s * y;
        q[i + 1] = s * x + c * y;
    }
    before.simulation.start = StartState(0.0, q, qd);
    QVERIFY(!before.simulation.start->problem(*systemOf(before)));

    SceneDocument after = before;
    after.parameters["g"] = {1.62};
    QVERIFY(SceneStart::keepsStoredStart(before, after)); // the Moon's gravity: same start
    after = before;
    after.parameters["omega0"] = {1.0};
    QVERIFY(!SceneStart::keepsStoredStart(before, after)); // a start parameter
    after = before;
    after.parameters["links"] = {5.0};
    QVERIFY(!SceneStart::keepsStoredStart(before, after)); // another shape and size
    after = before;
    after.simulation.start.reset();
    QVERIFY(!SceneStart::keepsStoredStart(after, before)); // nothing to keep
}

QTEST_APPLESS_MAIN(TestStartState)
#include "tst_StartState.moc"
