// The runs on screen: the newest request's result shows, compare mode keeps earlier runs of the
// same scene as labelled ghosts (each set of values once), and every change is signalled once.

#include <session/RunModel.h>

#include <scenes/SceneRegistry.h>

#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace clab;

namespace {

SceneDocument ring(double mu)
{
    SceneDocument document = SceneDocument::fromDefinition(*SceneRegistry::find("ring"));
    // mu_s follows mu, as an edit of mu in the Scene dock moves it.
    document.parameters["mu"] = {mu};
    document.parameters["mu_s"] = {mu};
    return document;
}

std::shared_ptr<const Trace> someTrace()
{
    auto trace = std::make_shared<Trace>();
    trace->samples.resize(2);
    trace->samples[1].t = 1.0;
    return trace;
}

QStringList labels(const std::vector<LabelledTrace>& runs)
{
    QStringList result;
    for (const LabelledTrace& run : runs)
        result << QString::fromStdString(run.label);
    return result;
}

} // namespace

class RunModelTest : public QObject {
    Q_OBJECT
private:
    // Requests and shows one run per value of mu, each at its own edit serial.
    static void showRuns(RunModel& model, std::initializer_list<double> mus, bool compare)
    {
        quint64 serial = model.pendingSerial();
        for (double mu : mus) {
            model.request(ring(mu), ++serial);
            model.show(someTrace(), compare);
        }
    }

private slots:
    void labelsNameEachParameterByItsSymbol()
    {
        // Captions read "μ = 0.3", as the Scene dock writes the parameter, not "mu = 0.3".
        SceneDocument stuck = ring(0.1);
        stuck.parameters["mu_s"] = {0.4};
        QCOMPARE(RunModel::changedValues(stuck, ring(0.1)),
                 QStringList({QStringLiteral("μₛ = 0.4")}));
        SceneDocument bead = SceneDocument::fromDefinition(*SceneRegistry::find("bead-on-wire"));
        SceneDocument steeper = bead;
        steeper.parameters["angle_deg"] = {45.0};
        QCOMPARE(RunModel::changedValues(steeper, bead), QStringList({QStringLiteral("θ = 45")}));
    }

    void aNewerRequestSupersedesAnOlderOne()
    {
        RunModel model;
        QSignalSpy shown(&model, &RunModel::shownRunChanged);
        QSignalSpy changed(&model, &RunModel::runsChanged);
        QVERIFY(model.runs().empty());
        model.request(ring(0.1), 1);
        model.request(ring(0.2), 2);
        const auto trace = someTrace();
        model.show(trace, true);
        // The result belongs to the newest request.
        QCOMPARE(model.shownDocument(), ring(0.2));
        QCOMPARE(model.shownSerial(), quint64(2));
        QCOMPARE(model.trace(), trace);
        QCOMPARE(shown.count(), 1);
        QCOMPARE(changed.count(), 1);
        // A lone run is labelled by its scene.
        QCOMPARE(labels(model.runs()), QStringList({QStringLiteral("ring")}));
        QVERIFY(model.ghosts().empty());
    }

    void compareKeepsTheReplacedRunAsALabelledGhost()
    {
        RunModel model;
        showRuns(model, {0.1}, true);
        QSignalSpy shown(&model, &RunModel::shownRunChanged);
        QSignalSpy changed(&model, &RunModel::runsChanged);
        const auto first = model.trace();
        showRuns(model, {0.2}, true);
        QCOMPARE(shown.count(), 1);
        QCOMPARE(changed.count(), 1);
        // Other parameters (the geometry changes), and the ghosts changed with the run.
        QCOMPARE(shown.front().at(0).toBool(), false);
        QCOMPARE(shown.front().at(1).toBool(), true);
        QCOMPARE(model.ghosts().size(), std::size_t(1));
        QCOMPARE(model.ghosts().front().trace, first);
        QCOMPARE(labels(model.runs()),
                 QStringList({QStringLiteral("μ = 0.1"), QStringLiteral("μ = 0.2")}));
        const auto trails = model.ghostTrails();
        QCOMPARE(trails.size(), std::size_t(1));
        QCOMPARE(trails.front().second, QStringLiteral("μ = 0.1"));
    }

    void withoutCompareNoGhostIsKept()
    {
        RunModel model;
        QSignalSpy shown(&model, &RunModel::shownRunChanged);
        showRuns(model, {0.1, 0.2, 0.3}, false);
        QVERIFY(model.ghosts().empty());
        QCOMPARE(model.runs().size(), std::size_t(1));
        QCOMPARE(shown.count(), 3);
        QCOMPARE(shown.back().at(1).toBool(), false);
    }

    void aRerunOfTheSameEditOrAnotherSceneLeavesNoGhost()
    {
        RunModel model;
        model.request(ring(0.1), 7);
        model.show(someTrace(), true);
        // The same edit computed again (a re-run at the same serial).
        model.request(ring(0.1), 7);
        model.show(someTrace(), true);
        QVERIFY(model.ghosts().empty());
        // Another scene: its runs do not compare with the ring's.
        QSignalSpy shown(&model, &RunModel::shownRunChanged);
        model.request(SceneDocument::fromDefinition(*SceneRegistry::find("bead-on-wire")), 8);
        model.show(someTrace(), true);
        QVERIFY(model.ghosts().empty());
        QCOMPARE(shown.count(), 1);
        QCOMPARE(shown.front().at(0).toBool(), false);
    }

    void aSettingChangeKeepsTheGeometryAndLabelsBySetting()
    {
        RunModel model;
        SceneDocument document = ring(0.1);
        model.request(document, 1);
        model.show(someTrace(), true);
        document.simulation.tEnd = 5.0;
        QSignalSpy shown(&model, &RunModel::shownRunChanged);
        model.request(document, 2);
        model.show(someTrace(), true);
        QCOMPARE(shown.front().at(0).toBool(), true); // same scene and parameters
        const QStringList runLabels = labels(model.runs());
        QCOMPARE(runLabels.size(), 2);
        QVERIFY2(runLabels.front().startsWith(QStringLiteral("t_end = 10")),
                 qPrintable(runLabels.join(QStringLiteral(" | "))));
        QVERIFY2(runLabels.back().startsWith(QStringLiteral("t_end = 5")),
                 qPrintable(runLabels.join(QStringLiteral(" | "))));
    }

    void eachSetOfValuesShowsOnce()
    {
        RunModel model;
        // Back to an earlier mu: the current run replaces the ghost of the same values.
        showRuns(model, {0.1, 0.2, 0.3, 0.2}, true);
        QCOMPARE(labels(model.runs()),
                 QStringList({QStringLiteral("μ = 0.1"), QStringLiteral("μ = 0.3"),
                              QStringLiteral("μ = 0.2")}));
        // Undo to the first value: one ghost of each other value, oldest first.
        showRuns(model, {0.1}, true);
        QCOMPARE(labels(model.runs()),
                 QStringList({QStringLiteral("μ = 0.3"), QStringLiteral("μ = 0.2"),
                              QStringLiteral("μ = 0.1")}));
    }

    void clearingGhostsSignalsOnceAndOnlyWhenThereWereAny()
    {
        RunModel model;
        showRuns(model, {0.1, 0.2}, true);
        QSignalSpy cleared(&model, &RunModel::ghostsCleared);
        QSignalSpy changed(&model, &RunModel::runsChanged);
        QVERIFY(model.clearGhosts());
        QCOMPARE(cleared.count(), 1);
        QCOMPARE(changed.count(), 1);
        QVERIFY(model.ghosts().empty());
        // The current run stays, labelled by its scene again.
        QCOMPARE(labels(model.runs()), QStringList({QStringLiteral("ring")}));
        QVERIFY(!model.clearGhosts());
        QCOMPARE(cleared.count(), 1);
        QCOMPARE(changed.count(), 1);
    }

    void resetForgetsTheRunAndItsGhosts()
    {
        RunModel model;
        showRuns(model, {0.1, 0.2}, true);
        QSignalSpy changed(&model, &RunModel::runsChanged);
        model.reset();
        QVERIFY(!model.trace());
        QVERIFY(model.ghosts().empty());
        QVERIFY(model.runs().empty());
        QCOMPARE(changed.count(), 1);
        model.reset();
        QCOMPARE(changed.count(), 1);
        // The next run of the same scene is not compared with the forgotten one.
        showRuns(model, {0.3}, true);
        QVERIFY(model.ghosts().empty());
    }
};

QTEST_GUILESS_MAIN(RunModelTest)
#include "tst_RunModel.moc"
