// The seed scenes written as equations (scenes/systems/*.json) against the hand-coded scenes:
// the same motion to 1e-10, the same stick–slip events at the same times, the same end, the
// same extra columns.
#include "SceneFile.h"
#include "scenes/SceneRegistry.h"
#include "integrate/Simulator.h"
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

/// Sets "NAME=VALUE NAME=VALUE" in a document's parameters (scalars).
void setParameters(SceneDocument& document, const QString& assignments)
{
    for (const QString& assignment : assignments.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        const QStringList parts = assignment.split(QLatin1Char('='));
        QVERIFY2(parts.size() == 2, qPrintable(assignment));
        bool ok = false;
        const double value = parts[1].toDouble(&ok);
        QVERIFY2(ok, qPrintable(assignment));
        document.parameters[parts[0].toStdString()] = {value};
    }
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
    // Parameters set in both, "NAME=VALUE ..." (the names of both scenes must agree).
    QTest::addColumn<QString>("set");
    // The run must hold a contact stuck at least once (so that the stick rows are compared).
    QTest::addColumn<bool>("mustStick");
    QTest::newRow("bead on an inclined wire, to the foot of the wire")
        << "bead-on-wire.json"
        << "bead-on-wire" << 10.0 << "" << false;
    QTest::newRow("particle on a ring, swinging to a stop") << "ring.json"
                                                            << "ring" << 10.0 << "" << true;
    QTest::newRow("nonholonomic particle, pushed on against its drag")
        << "nonholonomic-particle.json"
        << "nonholonomic-particle" << 10.0 << "" << false;
    // The drag's two-component slip velocity stuck: the file's orthonormalized rows against the
    // hand-coded (1, z, 0)/√(1 + z²), (0, 0, 1); the particle stops near t = 9.46 s.
    QTest::newRow("nonholonomic particle, stopped and held by its drag")
        << "nonholonomic-particle.json"
        << "nonholonomic-particle" << 10.0 << "fx=0.05 fz=0.2 a0=0.3" << true;
    QTest::newRow("acatastatic particle, a constraint that moves with time")
        << "acatastatic-particle.json"
        << "acatastatic-particle" << 10.0 << "" << false;
    // Singular M = 4 Eᵀ J E from the kinetic energy, over the scene's whole 20 s: two flips of
    // w2, which magnify any difference in rounding a hundredfold (the scene against itself with
    // ω0 one ulp larger differs by 2e-12 at 20 s).
    QTest::newRow("rigid body in quaternions, tumbling about its intermediate axis")
        << "rigid-body.json"
        << "rigid-body" << 20.0 << "" << false;
}

void TestSystemScenes::seedFileFollowsTheHandCodedScene()
{
    QFETCH(QString, file);
    QFETCH(QString, scene);
    QFETCH(double, seconds);
    QFETCH(QString, set);
    QFETCH(bool, mustStick);
    SceneDocument fromEquations = SceneFile::load(systemsDir() + file);
    QVERIFY(fromEquations.system);
    SceneDocument handCoded = SceneFile::loadBuiltIn(scene);
    setParameters(fromEquations, set);
    setParameters(handCoded, set);
    if (QTest::currentTestFailed())
        return;
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
    if (mustStick)
        QVERIFY(std::ranges::any_of(
            b.events, [](const ContactEvent& e) { return e.kind == ContactEvent::Kind::Stick; }));
    // The file's columns are the scene's own (s along the wire, φ on the ring, the rigid body's
    // ω and ‖u‖) with the same values, and besides them only N_name of its named constraints.
    const std::vector<std::string>& fileColumns = a.extraNames();
    const std::vector<std::string>& sceneColumns = b.extraNames();
    for (const std::string& name : fileColumns)
        QVERIFY2(name.starts_with("N_") || std::ranges::count(sceneColumns, name) == 1,
                 name.c_str());
    for (std::size_t j = 0; j < sceneColumns.size(); ++j) {
        const auto found = std::ranges::find(fileColumns, sceneColumns[j]);
        QVERIFY2(found != fileColumns.end(), sceneColumns[j].c_str());
        const auto k = static_cast<Eigen::Index>(found - fileColumns.begin());
        double column = 0.0;
        for (std::size_t i = 0; i < a.samples.size(); ++i)
            column = std::max(column, std::abs(a.samples[i].extra[k] -
                                               b.samples[i].extra[static_cast<Eigen::Index>(j)]));
        QVERIFY2(column <= 1e-10, qPrintable(QStringLiteral("column %1: largest difference %2")
                                                 .arg(QString::fromStdString(sceneColumns[j]))
                                                 .arg(column)));
    }
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
