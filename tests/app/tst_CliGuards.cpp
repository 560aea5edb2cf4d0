// What constraintlab-cli refuses before it runs anything (docs/HARDENING.md): an output that
// would replace an input or another output (exit 2, naming both options, every input left
// as it was), a shard count beyond the grid, a column mapped twice and σ ≤ 0 (exit 2), trace
// column names a system file repeats (exit 3); and a reader that stops early (exit 1).
#include "../support/ProcessRunner.h"

#include <QCryptographicHash>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

using namespace clab;

class TestCliGuards : public QObject {
    Q_OBJECT

private slots:
    void outputsThatCollideAreRefusedBeforeTheRun_data();
    void outputsThatCollideAreRefusedBeforeTheRun();
    void distinctOutputsBesideTheInputsRun();
    void moreShardsThanGridPointsIsAUsageError();
    void fitRefusesAColumnMappedTwiceAndSigmaNotPositive_data();
    void fitRefusesAColumnMappedTwiceAndSigmaNotPositive();
    void namesThatRepeatATraceColumnExitWithThree_data();
    void namesThatRepeatATraceColumnExitWithThree();
    void readerThatStopsEarlyEndsTheRunWithOne();
    void setNaNIsBlamedOnTheOptionNotTheFile();
};

namespace {

const QString cli = QStringLiteral(CLAB_BINARY_DIR "/app/constraintlab-cli");
const QString measurements = QStringLiteral(CLAB_SOURCE_DIR "/scenes/measurements/bead-mu0.4.csv");

testing::ProcessResult runIn(const QString& directory, const QStringList& args)
{
    QProcess process;
    process.setWorkingDirectory(directory);
    process.start(cli, args);
    testing::ProcessResult r;
    if (!process.waitForFinished(180000)) {
        process.kill();
        process.waitForFinished();
        return r;
    }
    r.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -2;
    r.out = process.readAllStandardOutput();
    r.err = QString::fromUtf8(process.readAllStandardError());
    return r;
}

QByteArray digest(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QCryptographicHash::hash(file.readAll(), QCryptographicHash::Sha256);
}

bool copy(const QString& from, const QString& to)
{
    return QFile::copy(from, to);
}

} // namespace

void TestCliGuards::outputsThatCollideAreRefusedBeforeTheRun_data()
{
    // Run in a directory holding scene.json (a copy of the pendulum template), m.csv (the
    // example measurements), old.csv (a trace to keep), link.json and picture.png → scene.json.
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("first");
    QTest::addColumn<QString>("second");
    const QStringList run{"run", "scene.json", "--t-end", "0.05"};
    QTest::newRow("--output and --events one file")
        << (run + QStringList{"--output", "old.csv", "--events", "old.csv"}) << "--output old.csv"
        << "--events old.csv";
    QTest::newRow("--output and --events, one through ./")
        << (run + QStringList{"--output", "old.csv", "--events", "./sub/../old.csv"})
        << "--output old.csv"
        << "--events ./sub/../old.csv";
    QTest::newRow("--output and --events, a file not there yet")
        << (run + QStringList{"-o", "new.csv", "--events=./new.csv"}) << "--output new.csv"
        << "--events ./new.csv";
    QTest::newRow("run onto its scene")
        << (run + QStringList{"--output", "scene.json"}) << "SCENE scene.json"
        << "--output scene.json";
    QTest::newRow("run onto its scene through a link")
        << (run + QStringList{"--output", "link.json"}) << "SCENE scene.json"
        << "--output link.json";
    QTest::newRow("run of a link onto the scene")
        << QStringList{"run", "link.json", "--t-end", "0.05", "--output", "scene.json"}
        << "SCENE link.json"
        << "--output scene.json";
    QTest::newRow("sweep onto its scene")
        << QStringList{"sweep", "scene.json", "--param", "g",        "--values",
                       "9,10",  "--t-end",    "0.05",    "--output", "scene.json"}
        << "SCENE scene.json"
        << "--output scene.json";
    QTest::newRow("sweep misfit onto its data")
        << QStringList{"sweep",   "bead-on-wire", "--data",   "m.csv", "--map",    "pos_cm=s*0.01",
                       "--param", "mu",           "--values", "0.4",   "--output", "m.csv"}
        << "--data m.csv"
        << "--output m.csv";
    QTest::newRow("fit onto its data")
        << QStringList{"fit",           "bead-on-wire", "--data", "m.csv",    "--map",
                       "pos_cm=s*0.01", "--param",      "mu",     "--output", "m.csv"}
        << "--data m.csv"
        << "--output m.csv";
    QTest::newRow("plot onto its scene through a link named .png")
        << QStringList{"plot", "scene.json", "--y", "x", "--output", "picture.png"}
        << "SCENE scene.json"
        << "--output picture.png";
}

void TestCliGuards::outputsThatCollideAreRefusedBeforeTheRun()
{
    QFETCH(QStringList, args);
    QFETCH(QString, first);
    QFETCH(QString, second);
    QTemporaryDir dir;
    QVERIFY(copy(CLAB_SOURCE_DIR "/scenes/templates/pendulum.json", dir.filePath("scene.json")));
    QVERIFY(copy(measurements, dir.filePath("m.csv")));
    QVERIFY(QDir(dir.path()).mkdir("sub"));
    QVERIFY(QFile::link("scene.json", dir.filePath("link.json")));
    QVERIFY(QFile::link("scene.json", dir.filePath("picture.png")));
    {
        QFile old(dir.filePath("old.csv"));
        QVERIFY(old.open(QIODevice::WriteOnly));
        old.write("t,x\r\n0,1\r\n");
    }
    const QStringList files{"scene.json", "m.csv", "old.csv"};
    std::vector<QByteArray> before;
    for (const QString& f : files)
        before.push_back(digest(dir.filePath(f)));

    const testing::ProcessResult r = runIn(dir.path(), args);
    QVERIFY2(r.exitCode == 2, qPrintable(r.describe()));
    QVERIFY2(r.err.contains(first) && r.err.contains(second) && r.err.contains("the same file"),
             qPrintable(r.describe()));
    for (qsizetype i = 0; i < files.size(); ++i)
        QVERIFY2(digest(dir.filePath(files[i])) == before[std::size_t(i)], qPrintable(files[i]));
    QVERIFY(!QFile::exists(dir.filePath("new.csv")));
    QVERIFY(QFileInfo(dir.filePath("link.json")).isSymLink());
}

void TestCliGuards::distinctOutputsBesideTheInputsRun()
{
    // Two outputs in one directory, and /dev/null for both (a device is never replaced).
    QTemporaryDir dir;
    QVERIFY(copy(CLAB_SOURCE_DIR "/scenes/templates/pendulum.json", dir.filePath("scene.json")));
    const testing::ProcessResult r = runIn(
        dir.path(), {"run", "scene.json", "--t-end", "0.05", "-o", "a.csv", "--events", "b.csv"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
    QVERIFY(QFile::exists(dir.filePath("a.csv")) && QFile::exists(dir.filePath("b.csv")));
    const testing::ProcessResult devices = runIn(
        dir.path(), {"run", "ring", "--t-end", "0.05", "-o", "/dev/null", "--events", "/dev/null"});
    QVERIFY2(devices.exitCode == 0, qPrintable(devices.describe()));
}

void TestCliGuards::moreShardsThanGridPointsIsAUsageError()
{
    // Help says a bad --shard is a usage error (2): 5 shards of 3 points would leave two empty.
    const testing::ProcessResult r =
        runIn(QDir::tempPath(),
              {"sweep", "ring", "--param", "mu", "--values", "0.1,0.2,0.3", "--shard", "5/5"});
    QVERIFY2(r.exitCode == 2 && r.err.contains("--shard 5/5") && r.err.contains("3 points"),
             qPrintable(r.describe()));
}

void TestCliGuards::fitRefusesAColumnMappedTwiceAndSigmaNotPositive_data()
{
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<QString>("message");
    QTest::newRow("one column mapped twice")
        << QStringList{"--map", "pos_cm=s*0.01,pos_cm=s*0.01"}
        << "--map pos_cm=s*0.01: column \"pos_cm\" is already mapped";
    QTest::newRow("one column mapped twice, two options")
        << QStringList{"--map", "pos_cm=s*0.01", "--map", "pos_cm=x"}
        << "--map pos_cm=x: column \"pos_cm\" is already mapped (to s)";
    QTest::newRow("--sigma 0") << QStringList{"--map", "pos_cm=s*0.01", "--sigma", "0"}
                               << "--sigma 0: a standard deviation must be greater than 0";
    QTest::newRow("--sigma -1") << QStringList{"--map", "pos_cm=s*0.01", "--sigma", "-1"}
                                << "--sigma -1: a standard deviation must be greater than 0";
    QTest::newRow("--sigma pos_cm=0")
        << QStringList{"--map", "pos_cm=s*0.01", "--sigma", "pos_cm=0"}
        << "--sigma pos_cm=0: a standard deviation must be greater than 0";
}

void TestCliGuards::fitRefusesAColumnMappedTwiceAndSigmaNotPositive()
{
    QFETCH(QStringList, options);
    QFETCH(QString, message);
    for (const QString& command : {QStringLiteral("fit"), QStringLiteral("sweep")}) {
        QStringList args{command, "bead-on-wire", "--data", measurements, "--param", "mu"};
        if (command == QLatin1String("sweep"))
            args << "--values"
                 << "0.4";
        const testing::ProcessResult r = runIn(QDir::tempPath(), args + options);
        QVERIFY2(r.exitCode == 2 && r.err.contains(message),
                 qPrintable(command + ": " + r.describe()));
    }
}

void TestCliGuards::namesThatRepeatATraceColumnExitWithThree_data()
{
    QTest::addColumn<QString>("system");
    QTest::addColumn<QString>("key");
    const QString tail = QStringLiteral(
        R"("parameters": {"g": {"value": 9.81}}, "kinetic_energy": "(x_dot^2 + %1_dot^2)/2",
        "potential_energy": "g*x", "initial": {"x": 0, "%1": 0, "x_dot": 0, "%1_dot": 0})");
    for (const char* name : {"T", "E", "V", "Q_x", "residual_max"})
        QTest::newRow(qPrintable(QStringLiteral("coordinate %1").arg(name)))
            << QStringLiteral(R"({"coordinates": ["x", "%1"], )").arg(name) + tail.arg(name) + "}"
            << "system.coordinates[1]";
    QTest::newRow("column t") << QStringLiteral(R"({"coordinates": ["x", "y"], )") + tail.arg("y") +
                                     R"(, "columns": {"t": "x"}})"
                              << "system.columns.t";
    QTest::newRow("column E") << QStringLiteral(R"({"coordinates": ["x", "y"], )") + tail.arg("y") +
                                     R"(, "columns": {"E": "x"}})"
                              << "system.columns.E";
}

void TestCliGuards::namesThatRepeatATraceColumnExitWithThree()
{
    QFETCH(QString, system);
    QFETCH(QString, key);
    QTemporaryDir dir;
    QFile file(dir.filePath("s.json"));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(
        QStringLiteral(R"({"format": 2, "title": "names", "system": %1})").arg(system).toUtf8());
    file.close();
    const testing::ProcessResult r = runIn(dir.path(), {"run", "s.json", "--t-end", "0.05"});
    QVERIFY2(r.exitCode == 3 && r.err.contains(key) && r.err.contains("already a trace column"),
             qPrintable(r.describe()));
}

void TestCliGuards::readerThatStopsEarlyEndsTheRunWithOne()
{
    // `constraintlab-cli run … | head -c 10`: the reader closes the pipe early. The CLI must not
    // die of SIGPIPE (141 in a shell, no message) but end with exit 1 saying why. SIGPIPE is
    // left at its default for the shell and the CLI, as in a terminal.
    ::signal(SIGPIPE, SIG_DFL);
    QProcess process;
    process.start(
        QStringLiteral("/bin/sh"),
        {"-c", R"({ "$0" run chain --t-end 100; echo "cli exit $?" >&2; } | head -c 10 >/dev/null)",
         cli});
    QVERIFY(process.waitForFinished(180000));
    const QString err = QString::fromUtf8(process.readAllStandardError());
    QVERIFY2(err.contains("cli exit 1\n"), qPrintable(err));
    QVERIFY2(err.contains("standard output") && err.contains("the reader closed the pipe"),
             qPrintable(err));
}

void TestCliGuards::setNaNIsBlamedOnTheOptionNotTheFile()
{
    // A format-2 file keeps its parameters under system.parameters; a bad --set value is the
    // option's fault, as for a built-in scene (exit 3, the option, the parameter and why).
    for (const char* value : {"nan", "1e999"}) {
        const QString set = QStringLiteral("m1=%1").arg(value);
        const testing::ProcessResult r =
            runIn(QDir::tempPath(), {"run", CLAB_SOURCE_DIR "/scenes/systems/double-pendulum.json",
                                     "--set", set, "--t-end", "0.05"});
        QVERIFY2(r.exitCode == 3 && r.err.contains("--set " + set + ": m1: must be a finite") &&
                     !r.err.contains("double-pendulum.json"),
                 qPrintable(r.describe()));
    }
}

QTEST_GUILESS_MAIN(TestCliGuards)
#include "tst_CliGuards.moc"
