// A scene file with a stored start (docs/FORMATS.md "start"): saved and loaded again it is the
// same document, bit for bit, and written again the same bytes; `constraintlab-cli run` on it
// starts at the stored time and state, not at the scene's own start, and says so in the CSV's
// --comment-header, as `describe` does.
#include "../support/ProcessRunner.h"

#include <SceneFile.h>
#include <scenes/SceneRegistry.h>

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace clab;

class TestCliStart : public QObject {
    Q_OBJECT

private slots:
    void aSceneFileWithAStartRoundTripsBitForBitAndTheCliRunsFromIt();
    void aSetOfAStartParameterRunsFromTheParametersStart();
};

namespace {

const QString cli = QStringLiteral(CLAB_BINARY_DIR "/app/constraintlab-cli");

// The time of the CSV's first sample of `run ARGS`, or NaN when it failed.
double firstTime(const QStringList& args)
{
    const testing::ProcessResult r = testing::runProcess(cli, QStringList{"run"} + args);
    if (r.exitCode != 0)
        return std::nan("");
    QStringList rows;
    for (const QString& line : QString::fromUtf8(r.out).split(QLatin1Char('\n')))
        if (!line.isEmpty() && !line.startsWith(QLatin1Char('#')))
            rows << line;
    const int t = rows.front().split(QLatin1Char(',')).indexOf(QStringLiteral("t"));
    return rows.size() > 1 ? rows.at(1).split(QLatin1Char(',')).at(t).toDouble() : std::nan("");
}

QByteArray contents(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// A chain of 4 links turned 0.7 rad about its pivot and spinning at 1.3 rad/s, at t = 0.75 s:
// on its links, with numbers that need all their digits.
SceneDocument turnedChain()
{
    SceneDocument d = SceneDocument::fromDefinition(*SceneRegistry::find("chain"));
    d.parameters["links"] = {4.0};
    d.simulation.tEnd = 1.5;
    d.simulation.dt = 0.25;
    Eigen::VectorXd q, qd;
    d.definition()->create(d.parameters)->initialState(q, qd);
    const double c = std::cos(0.7), s = std::sin(0.7), omega = 1.3;
    for (Eigen::Index i = 0; i < q.size(); i += 2) {
        const double x = c * q[i] - s * q[i + 1], y = s * q[i] + c * q[i + 1];
        q[i] = x;
        q[i + 1] = y;
        qd[i] = -omega * y;
        qd[i + 1] = omega * x;
    }
    d.simulation.start = StartState(0.75, q, qd);
    return d;
}

} // namespace

void TestCliStart::aSceneFileWithAStartRoundTripsBitForBitAndTheCliRunsFromIt()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const SceneDocument document = turnedChain();
    const QString first = dir.filePath(QStringLiteral("chain.json"));
    const QString second = dir.filePath(QStringLiteral("again.json"));
    SceneFile::save(document, first);
    const SceneDocument loaded = SceneFile::load(first);
    QVERIFY(loaded.simulation.start.has_value());
    QCOMPARE(loaded.simulation.start->t0, 0.75);
    QVERIFY(loaded.simulation.start->q == document.simulation.start->q);   // bit for bit
    QVERIFY(loaded.simulation.start->qd == document.simulation.start->qd); // bit for bit
    QVERIFY(loaded == document);
    SceneFile::save(loaded, second);
    QCOMPARE(contents(second), contents(first));

    const testing::ProcessResult r = testing::runProcess(cli, {QStringLiteral("run"), first});
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
    const testing::ProcessResult commented = testing::runProcess(
        cli, {QStringLiteral("run"), first, QStringLiteral("--comment-header")});
    QVERIFY2(commented.out.contains("# start: stored, at t0 = 0.75 s"),
             commented.out.left(2000).constData());
    QStringList rows;
    for (const QString& line : QString::fromUtf8(r.out).split(QLatin1Char('\n')))
        if (!line.isEmpty() && !line.startsWith(QLatin1Char('#')))
            rows << line;
    QVERIFY(rows.size() >= 3);
    const QStringList header = rows.front().split(QLatin1Char(','));
    const QStringList start = rows.at(1).split(QLatin1Char(','));
    QCOMPARE(start.at(header.indexOf(QStringLiteral("t"))).toDouble(), 0.75);
    for (int i = 0; i < 4; ++i) {
        const int x = header.indexOf(QStringLiteral("x%1").arg(i + 1));
        const int y = header.indexOf(QStringLiteral("y%1").arg(i + 1));
        QVERIFY(x >= 0 && y >= 0);
        QVERIFY(std::abs(start.at(x).toDouble() - document.simulation.start->q[2 * i]) <= 1e-12);
        QVERIFY(std::abs(start.at(y).toDouble() - document.simulation.start->q[2 * i + 1]) <=
                1e-12);
    }
    QCOMPARE(rows.back().split(QLatin1Char(',')).at(header.indexOf(QStringLiteral("t"))).toDouble(),
             1.5);
    QCOMPARE(rows.size(), 1 + 4); // 0.75, 1, 1.25, 1.5
    const testing::ProcessResult described =
        testing::runProcess(cli, {QStringLiteral("describe"), first});
    QVERIFY2(described.out.contains("start: stored, at t0 = 0.75 s"), described.out.constData());
}

void TestCliStart::aSetOfAStartParameterRunsFromTheParametersStart()
{
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("chain.json"));
    SceneFile::save(turnedChain(), file);
    QCOMPARE(firstTime({file, QStringLiteral("--set"), QStringLiteral("g=3.7")}), 0.75);
    QCOMPARE(firstTime({file, QStringLiteral("--set"), QStringLiteral("omega0=1")}), 0.0);
}

QTEST_GUILESS_MAIN(TestCliStart)
#include "tst_CliStart.moc"
