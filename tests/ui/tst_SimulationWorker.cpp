// The worker thread: results match a synchronous run, a newer request supersedes an older one
// (whose result is never reported), failures are reported with the reason, the GUI thread is
// never blocked.

#include <session/SimulationWorker.h>

#include <scenes/SceneRegistry.h>

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

#include <cmath>
#include <numbers>

using namespace clab;

namespace {

// A run that takes many seconds of CPU (about 10⁶ adaptive steps) but keeps few samples.
SceneDocument slowRun()
{
    SceneDocument document = SceneDocument::fromDefinition(*SceneRegistry::find("rigid-body"));
    document.simulation.tEnd = 20000.0;
    document.simulation.dt = 1.0;
    return document;
}

SceneDocument bead(double mu, double tEnd)
{
    const SceneDefinition& definition = *SceneRegistry::find("bead-on-wire");
    SceneDocument document = SceneDocument::fromDefinition(definition);
    // mu_s follows mu, as in a scene file that gives only mu.
    document.parameters = definition.complete({{"mu", {mu}}});
    document.simulation.tEnd = tEnd;
    return document;
}

} // namespace

class SimulationWorkerTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { qRegisterMetaType<std::shared_ptr<const clab::Trace>>(); }

    void backgroundResultMatchesTheClosedForm()
    {
        SimulationWorker worker;
        QSignalSpy finished(&worker, &SimulationWorker::finished);
        QSignalSpy failed(&worker, &SimulationWorker::failed);
        const quint64 generation = worker.request(bead(0.3, 2.0));
        QVERIFY(worker.isBusy());
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() + failed.count() > 0, 60000);
        QVERIFY2(failed.isEmpty(),
                 failed.isEmpty() ? "" : qPrintable(failed.front().at(1).toString()));
        QCOMPARE(finished.count(), 1);
        QCOMPARE(finished.front().at(0).value<quint64>(), generation);
        const auto trace = finished.front().at(1).value<std::shared_ptr<const Trace>>();
        QVERIFY(trace);
        QVERIFY(!worker.isBusy());
        // Along-wire distance ½ g (sin θ − μ cos θ) t² (docs/MATH.md §5).
        const double theta = 30.0 * std::numbers::pi / 180.0;
        const TraceSample& last = trace->samples.back();
        const double s = last.q[0] * std::cos(theta) + last.q[1] * std::sin(theta);
        const double expected = 2.0 - 0.5 * 9.81 * (std::sin(theta) - 0.3 * std::cos(theta)) * 4.0;
        QVERIFY2(std::abs(s - expected) < 1e-6,
                 qPrintable(QStringLiteral("%1 vs %2").arg(s).arg(expected)));
    }

    void newerRequestSupersedesOlder()
    {
        SimulationWorker worker;
        QSignalSpy finished(&worker, &SimulationWorker::finished);
        QSignalSpy failed(&worker, &SimulationWorker::failed);
        QSignalSpy progress(&worker, &SimulationWorker::progress);
        // A long run, then a short one while it runs: only the short one may be reported, and
        // it arrives long before the long run could have finished.
        const quint64 first = worker.request(slowRun());
        QTRY_VERIFY_WITH_TIMEOUT(!progress.isEmpty() || !failed.isEmpty(), 60000);
        QVERIFY(failed.isEmpty());
        QCOMPARE(progress.front().at(0).value<quint64>(), first);
        QElapsedTimer timer;
        timer.start();
        const quint64 newest = worker.request(bead(0.5, 1.0));
        QVERIFY(newest > first);
        QVERIFY(finished.wait(60000));
        QVERIFY2(timer.elapsed() < 5000, qPrintable(QString::number(timer.elapsed())));
        QTest::qWait(300);
        QCOMPARE(finished.count(), 1);
        QCOMPARE(failed.count(), 0);
        QCOMPARE(finished.front().at(0).value<quint64>(), newest);
        const auto trace = finished.front().at(1).value<std::shared_ptr<const Trace>>();
        QCOMPARE(trace->samples.back().t, 1.0);
    }

    void guiThreadStaysResponsive()
    {
        SimulationWorker worker;
        QElapsedTimer timer;
        timer.start();
        worker.request(slowRun());
        // request() only queues the work.
        QVERIFY2(timer.elapsed() < 50, qPrintable(QString::number(timer.elapsed())));
        worker.cancel();
        QVERIFY(!worker.isBusy());
    }

    void failureIsReportedWithTheReason()
    {
        SimulationWorker worker;
        QSignalSpy finished(&worker, &SimulationWorker::finished);
        QSignalSpy failed(&worker, &SimulationWorker::failed);
        SceneDocument bad = bead(0.2, 1.0);
        bad.parameters["mass"] = {-1.0};
        worker.request(bad);
        QVERIFY(failed.wait(60000));
        QCOMPARE(finished.count(), 0);
        QVERIFY2(failed.front().at(1).toString().contains(QStringLiteral("mass")),
                 qPrintable(failed.front().at(1).toString()));
        SceneDocument unknown = bead(0.2, 1.0);
        unknown.scene = "no-such-scene";
        worker.request(unknown);
        QVERIFY(failed.wait(60000));
        QVERIFY(failed.back().at(1).toString().contains(QStringLiteral("no-such-scene")));
    }

    void destructionCancelsARunningJob()
    {
        QElapsedTimer timer;
        {
            SimulationWorker worker;
            QSignalSpy progress(&worker, &SimulationWorker::progress);
            QSignalSpy failed(&worker, &SimulationWorker::failed);
            worker.request(slowRun());
            QTRY_VERIFY_WITH_TIMEOUT(!progress.isEmpty() || !failed.isEmpty(), 60000);
            QVERIFY(failed.isEmpty());
            timer.start();
        }
        // The run was cancelled through keepGoing, not completed.
        QVERIFY2(timer.elapsed() < 2000, qPrintable(QString::number(timer.elapsed())));
    }
};

QTEST_GUILESS_MAIN(SimulationWorkerTest)
#include "tst_SimulationWorker.moc"
