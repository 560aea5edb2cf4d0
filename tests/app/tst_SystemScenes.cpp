// The seed scenes written as equations (scenes/systems/*.json) against the hand-coded scenes:
// the same motion to 1e-10, the same stick–slip events at the same times, the same end.
#include "SceneFile.h"
#include "SceneRegistry.h"
#include "Simulator.h"
#include "symbolic/SymbolicModel.h"

#include <QtTest>

using namespace clab;

class TestSystemScenes : public QObject {
    Q_OBJECT

private slots:
    void seedFileFollowsTheHandCodedScene_data();
    void seedFileFollowsTheHandCodedScene();
    void everySystemFileLoadsAndRuns();
};

namespace {

QString systemsDir()
{
    return QStringLiteral(CLAB_SOURCE_DIR "/scenes/systems/");
}

Trace runTight(const SceneDefinition& definition, const SceneDocument& document, double tEnd)
{
    const auto system = definition.create(document.parameters);
    Simulator simulator(*system);
    SimulationOptions options = document.simulation;
    options.tEnd = tEnd;
    options.rtol = 1e-11;
    options.atol = 1e-13;
    return simulator.run(options);
}

} // namespace

void TestSystemScenes::seedFileFollowsTheHandCodedScene_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("scene");
    QTest::addColumn<double>("seconds");
    QTest::newRow("bead on an inclined wire, to the foot of the wire") << "bead-on-wire.json"
                                                                       << "bead-on-wire" << 10.0;
    QTest::newRow("particle on a ring, swinging to a stop") << "ring.json"
                                                            << "ring" << 10.0;
}

void TestSystemScenes::seedFileFollowsTheHandCodedScene()
{
    QFETCH(QString, file);
    QFETCH(QString, scene);
    QFETCH(double, seconds);
    const SceneDocument fromEquations = SceneFile::load(systemsDir() + file);
    QVERIFY(fromEquations.system);
    const SceneDocument handCoded = SceneFile::loadBuiltIn(scene);
    const Trace a = runTight(*fromEquations.definition(), fromEquations, seconds);
    const Trace b = runTight(*handCoded.definition(), handCoded, seconds);

    QCOMPARE(a.samples.size(), b.samples.size());
    QCOMPARE(a.reachedEnd, b.reachedEnd);
    double worst = 0.0;
    for (std::size_t i = 0; i < a.samples.size(); ++i) {
        QCOMPARE(a.samples[i].t, b.samples[i].t);
        worst =
            std::max({worst, (a.samples[i].q - b.samples[i].q).lpNorm<Eigen::Infinity>(),
                      (a.samples[i].qd - b.samples[i].qd).lpNorm<Eigen::Infinity>(),
                      (a.samples[i].Qcni - b.samples[i].Qcni).lpNorm<Eigen::Infinity>() / 10.0});
    }
    QVERIFY2(worst <= 1e-10, qPrintable(QStringLiteral("largest difference %1").arg(worst)));
    QCOMPARE(a.events.size(), b.events.size());
    for (std::size_t i = 0; i < a.events.size(); ++i)
        QVERIFY(std::abs(a.events[i].t - b.events[i].t) <= 1e-10);
    // The extra column the file computes (s along the wire, φ on the ring) is the scene's own.
    const auto names =
        fromEquations.definition()->create(fromEquations.parameters)->extraColumnNames();
    QVERIFY(!names.empty());
    QVERIFY(std::abs(a.samples.back().extra[static_cast<Eigen::Index>(names.size()) - 1] -
                     b.samples.back().extra[0]) <= 1e-10);
}

void TestSystemScenes::everySystemFileLoadsAndRuns()
{
    const QStringList files = QDir(systemsDir()).entryList({QStringLiteral("*.json")});
    QVERIFY(files.size() >= 3);
    for (const QString& file : files) {
        const SceneDocument document = SceneFile::load(systemsDir() + file);
        QVERIFY2(document.system, qPrintable(file));
        const Trace trace = runTight(*document.definition(), document, 1.0);
        QVERIFY2(trace.samples.size() > 10, qPrintable(file));
        for (const TraceSample& s : trace.samples)
            QVERIFY2(std::abs(s.E_error) < 1e-6, qPrintable(file));
    }
}

QTEST_APPLESS_MAIN(TestSystemScenes)
#include "tst_SystemScenes.moc"
