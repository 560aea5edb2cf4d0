#include "CliApplication.h"

#include "integrate/SimulationOptions.h"
#include "scenes/SceneRegistry.h"

#include "../support/DeviceNodes.h"
#include "../support/ProcessRunner.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTextStream>
#include <QtTest>

#include <unistd.h>

#include <charconv>
#include <cmath>
#include <future>

using namespace clab;

namespace {

const QString cli = QStringLiteral(CLAB_BINARY_DIR "/app/constraintlab-cli");

using Result = testing::ProcessResult;

Result runCli(const QStringList& args, const QString& standardOutputFile = {})
{
    return testing::runProcess(cli, args, QProcessEnvironment::systemEnvironment(),
                               standardOutputFile);
}

QByteArray readFile(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

QString describe(const Result& r)
{
    return r.describe();
}

// A parsed CSV: header and rows of doubles.
struct Table {
    QStringList header;
    std::vector<std::vector<double>> rows;
    int column(const QString& name) const { return static_cast<int>(header.indexOf(name)); }
};

bool parseCsv(const QByteArray& csv, Table& table)
{
    QList<QByteArray> lines = csv.split('\n');
    if (!lines.isEmpty() && lines.last().isEmpty())
        lines.removeLast();
    if (lines.isEmpty())
        return false;
    for (const QByteArray& name : lines[0].trimmed().split(','))
        table.header << QString::fromLatin1(name);
    for (int i = 1; i < lines.size(); ++i) {
        std::vector<double> row;
        for (const QByteArray& field : lines[i].trimmed().split(',')) {
            double v = 0;
            const auto r = std::from_chars(field.constData(), field.constData() + field.size(), v);
            if (r.ec != std::errc() || r.ptr != field.constData() + field.size())
                return false;
            row.push_back(v);
        }
        if (row.size() != static_cast<std::size_t>(table.header.size()))
            return false;
        table.rows.push_back(row);
    }
    return true;
}

// The columns Trace.h promises, spelled out independently: `contacts` frictional contacts add
// "contact" (one) or "contact_NAME" (several) after W_ideal.
QStringList expectedColumns(const QStringList& coords, bool rheonomic, const QStringList& extras,
                            const QStringList& contacts)
{
    QStringList names{"t"};
    for (const QString& c : coords)
        names << c << c + "_dot" << c + "_ddot"
              << "Q_" + c << "Qci_" + c << "Qcni_" + c;
    names << "T"
          << "V"
          << "E"
          << "W_nonideal"
          << "residual_max"
          << "E_error";
    if (rheonomic)
        names << "W_ideal";
    if (contacts.size() == 1)
        names << "contact";
    else
        for (const QString& c : contacts)
            names << "contact_" + c;
    return names + extras;
}

// The frictional contacts a scene declares (which scenes have them is the scene's business;
// how they appear in the CSV is checked above).
QStringList contactsOf(const QString& scene)
{
    const SceneDefinition* definition = SceneRegistry::find(scene.toStdString());
    const auto system = definition->create(definition->defaults());
    QStringList names;
    for (int c = 0; c < system->contactCount(); ++c)
        names << QString::fromStdString(system->contactName(c));
    return names;
}

// Largest deviation of the bead's trace from s(t) = s0 + v0 t − ½ g (sin θ − μ cos θ) t² along
// the wire while it slides down (v0 <= 0, tan θ > μ), x = s cos θ, y = s sin θ.
double beadDeviation(const Table& table, double g, double angleDeg, double mu, double s0,
                     double v0 = 0.0)
{
    const double theta = angleDeg * M_PI / 180.0;
    const double a = g * (std::sin(theta) - mu * std::cos(theta));
    const int t = table.column("t"), x = table.column("x"), y = table.column("y");
    const int xd = table.column("x_dot"), yd = table.column("y_dot");
    double worst = 0;
    for (const std::vector<double>& row : table.rows) {
        const double s = s0 + v0 * row[t] - 0.5 * a * row[t] * row[t];
        const double v = v0 - a * row[t];
        worst = std::max(
            {worst, std::abs(row[x] - s * std::cos(theta)), std::abs(row[y] - s * std::sin(theta)),
             std::abs(row[xd] - v * std::cos(theta)), std::abs(row[yd] - v * std::sin(theta))});
    }
    return worst;
}

} // namespace

class CliApplicationTest : public QObject {
    Q_OBJECT

private slots:
    void commentHeaderDescribesTheRunAndLeavesTheRowsAlone();
    void initTestCase();
    void listShowsEveryBuiltInScene();
    void runCommandsLoadNeitherGuiNorOpenGLNorVtk_data();
    void runCommandsLoadNeitherGuiNorOpenGLNorVtk();
    void describeShowsUnitsDefaultsAndRanges();
    void helpAndVersionSucceed();
    void usageErrorsExitWithTwo_data();
    void usageErrorsExitWithTwo();
    void invalidScenesAndParametersExitWithThree_data();
    void invalidScenesAndParametersExitWithThree();
    void numericalFailuresExitWithFourAndSayWhen_data();
    void numericalFailuresExitWithFourAndSayWhen();
    void everyEngineErrorKindHasAnExitCode();
    void unwritableOutputExitsWithOne();
    void fullStandardOutputExitsWithOne();
    void csvHeaderOfEveryScene_data();
    void csvHeaderOfEveryScene();
    void everyBuiltInSceneRunsToItsEnd();
    void beadSlidesAsTheClosedFormSays();
    void stopAtEndOptionsOverrideTheFile();
    void sceneFileWithOverridesSlidesAsTheClosedFormSays();
    void staticFrictionHoldsTheBeadAtRest();
    void inProcessRunMatchesTheProcess();
    void stabilizationOptionShowsOrRemovesDrift();
    void unknownStabilizationIsAUsageError();
    void eventsFileRecordsWhenTheBeadSticks();
    void eventsFileRecordsReversalAndStickOfTheRing();
    void energyAuditColumnStaysSmall();
    void sweepRunsEqualSingleRunsInValueOrder();
    void sweepWritesAFileAtomically();
    void sweepFollowerFollowsTheSweptValue();
    void plotPassesTheRequestToTheWriter();
    void plotPresetIsTheCatalogsPlot();
    void plotUnknownQuantityListsTheAvailableOnes();
    void plotWithoutWriterIsNotAvailable();
    void plotWriterFailureExitsWithOne();
    void helpDescribesSweepAndPlot();
    void outputOntoADeviceIsWrittenInPlace();
    void fullDeviceExitsWithOneSayingWhy();
    void fifoReceivesTheTraceAndTheEvents();
    void bodiesAtRestOnTheirConstraintRunToTheEnd_data();
    void bodiesAtRestOnTheirConstraintRunToTheEnd();
    void streamedTraceEqualsTheFileBitForBit();
    void longRunIsAcceptedUpToTheSampleLimit();
    void fileTextInMessagesIsEscapedAndBounded_data();
    void fileTextInMessagesIsEscapedAndBounded();
    void duplicateKeysAndLooseJsonAreRefused_data();
    void duplicateKeysAndLooseJsonAreRefused();
    void statsReportTheRunsCost();
    void systemFileRunsWithItsOwnColumnsAndParameters();
    void deriveShowsTheRowsOfAAndBOfASystemFile();
    void describeListsASystemFilesParameters();
    void badSystemFilesExitWithThreeNamingKeyAndColumn();
    void initialValuesLeftOutAreReported();
    void sweepRunsASystemFilesParameter();
    void sweepShardsConcatenateIntoTheWholeGrid();
    void sweepWithDataMapsTheMisfitLandscape();
    void fitRecoversTheFrictionOfTheExampleMeasurements();
    void fitGoesOnWhenTrialRunsFail();
    void fitFromAStartThatCannotReachTheDataFails();
    void fitReadsTrackerAndSemicolonFilesMappedByName();
    void fitErrorsExitWithTheirCodes_data();
    void fitErrorsExitWithTheirCodes();
};

void CliApplicationTest::initTestCase()
{
    QVERIFY2(QFile::exists(cli), qPrintable(cli + " has not been built"));
}

void CliApplicationTest::listShowsEveryBuiltInScene()
{
    const Result r = runCli({"list"});
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    const QString out = QString::fromUtf8(r.out);
    QCOMPARE(out.count('\n'), static_cast<qsizetype>(SceneRegistry::builtIn().size()));
    for (const SceneDefinition& d : SceneRegistry::builtIn()) {
        QVERIFY(out.contains(QString::fromStdString(d.name)));
        QVERIFY(out.contains(QString::fromStdString(d.title)));
    }
}

void CliApplicationTest::describeShowsUnitsDefaultsAndRanges()
{
    const Result r = runCli({"describe", "bead-on-wire"});
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    const QStringList lines = QString::fromUtf8(r.out).split('\n');
    // Rows of the parameter table, which follows the "Parameters" heading.
    const QStringList table = lines.mid(lines.indexOf(QRegularExpression("^Parameters.*")));
    auto line = [&](const QString& name) {
        for (const QString& l : table)
            if (l.simplified().startsWith(name + " "))
                return l.simplified();
        return QString();
    };
    QCOMPARE(line("mass"), QStringLiteral("mass kg 1 [1e-12, 1e+12] mass of the bead"));
    QVERIFY2(line("mu").startsWith("mu - 0.2 [0, 2]"), qPrintable(line("mu")));
    QVERIFY2(line("angle_deg").startsWith("angle_deg deg 30 [0, 90]"),
             qPrintable(line("angle_deg")));
    QVERIFY(QString::fromUtf8(r.out).contains("t_end = 10 s"));

    const Result rigid = runCli({"describe", "rigid-body"});
    QVERIFY2(rigid.exitCode == 0, qPrintable(describe(rigid)));
    QVERIFY(QString::fromUtf8(rigid.out).contains("1,2,3"));
    QVERIFY(QString::fromUtf8(rigid.out).contains("(3 components)"));
}

void CliApplicationTest::helpAndVersionSucceed()
{
    Result r = runCli({"--help"});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.contains("Exit codes") && r.out.contains("run SCENE"));
    r = runCli({"--version"});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(QRegularExpression("^constraintlab-cli \\d+\\.\\d+\\.\\d+\\n$")
                .match(QString::fromUtf8(r.out))
                .hasMatch());
    r = runCli({"help", "run"});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.contains("--set NAME=VALUE") && r.out.contains("standard output"));
    r = runCli({"run", "--help"});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.contains("--integrator"));
    r = runCli({"help", "fit"});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.contains("Usage: constraintlab-cli fit") && r.out.contains("--bounds N=LO:HI"));
}

void CliApplicationTest::usageErrorsExitWithTwo_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("mentions");
    QTest::newRow("no command") << QStringList{} << "Usage";
    QTest::newRow("unknown command") << QStringList{"simulate"} << "simulate";
    QTest::newRow("unknown option") << QStringList{"--frobnicate"} << "--frobnicate";
    QTest::newRow("unknown run option") << QStringList{"run", "ring", "--speed", "2"} << "--speed";
    QTest::newRow("missing value") << QStringList{"run", "ring", "--t-end"} << "--t-end";
    QTest::newRow("set without =") << QStringList{"run", "ring", "--set", "mu"} << "NAME=VALUE";
    QTest::newRow("set empty name") << QStringList{"run", "ring", "--set", "=1"} << "NAME=VALUE";
    QTest::newRow("set not a number") << QStringList{"run", "ring", "--set", "mu=0,3x"} << "0,3x";
    QTest::newRow("set missing value") << QStringList{"run", "ring", "--set", "mu="} << "mu=";
    QTest::newRow("dt not a number") << QStringList{"run", "ring", "--dt", "0,01"} << "0,01";
    QTest::newRow("unknown integrator")
        << QStringList{"run", "ring", "--integrator", "euler"} << "euler";
    QTest::newRow("missing scene") << QStringList{"run"} << "SCENE";
    QTest::newRow("two scenes") << QStringList{"run", "ring", "bead-on-wire"} << "bead-on-wire";
    QTest::newRow("unknown column") << QStringList{"run", "ring", "--columns", "t,z"} << "\"z\"";
    QTest::newRow("help unknown") << QStringList{"help", "fly"} << "fly";
    QTest::newRow("list argument") << QStringList{"list", "all"} << "all";
    QTest::newRow("sweep without --param")
        << QStringList{"sweep", "bead-on-wire", "--values", "0,0.1"} << "--param";
    QTest::newRow("sweep without --values")
        << QStringList{"sweep", "bead-on-wire", "--param", "mu"} << "--values";
    QTest::newRow("sweep malformed value")
        << QStringList{"sweep", "bead-on-wire", "--param", "mu", "--values", "0,0.1x"} << "0.1x";
    QTest::newRow("sweep empty list")
        << QStringList{"sweep", "bead-on-wire", "--param", "mu", "--values", ""} << "empty value";
    QTest::newRow("sweep empty item")
        << QStringList{"sweep", "bead-on-wire", "--param", "mu", "--values", "0,,1"}
        << "empty value";
    QTest::newRow("sweep unknown option")
        << QStringList{"sweep", "bead-on-wire", "--param", "mu", "--values", "0", "--events", "-"}
        << "--events";
    QTest::newRow("sweep unknown column")
        << QStringList{"sweep", "bead-on-wire", "--param", "mu", "--values",
                       "0",     "--columns",    "t,z"}
        << "\"z\"";
    QTest::newRow("plot without quantities")
        << QStringList{"plot", "ring", "--output", "ring.png"} << "--preset";
    QTest::newRow("plot without output") << QStringList{"plot", "ring", "--y", "E"} << "--output";
    QTest::newRow("plot bad suffix")
        << QStringList{"plot", "ring", "--y", "E", "--output", "ring.jpg"} << "ring.jpg";
    QTest::newRow("plot y and preset")
        << QStringList{"plot", "ring", "--y", "E", "--preset", "energy", "-o", "r.png"}
        << "not both";
    QTest::newRow("plot bad size")
        << QStringList{"plot", "ring", "--y", "E", "--size", "12x", "-o", "r.png"} << "12x";
    QTest::newRow("plot bad scale")
        << QStringList{"plot", "ring", "--y", "E", "--scale", "0", "-o", "r.png"} << "--scale";
    QTest::newRow("plot flag with value")
        << QStringList{"plot", "ring", "--y", "E", "--log-y=yes", "-o", "r.png"} << "--log-y";
}

void CliApplicationTest::usageErrorsExitWithTwo()
{
    QFETCH(QStringList, args);
    QFETCH(QString, mentions);
    const Result r = runCli(args);
    QVERIFY2(r.exitCode == 2, qPrintable(describe(r)));
    QVERIFY2(r.err.contains(mentions), qPrintable(r.err));
    QVERIFY2(r.err.startsWith("constraintlab-cli: "), qPrintable(r.err));
    QVERIFY(r.out.isEmpty());
}

void CliApplicationTest::invalidScenesAndParametersExitWithThree_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QStringList>("mentions");
    QTest::newRow("out of range") << QStringList{"run", "bead-on-wire", "--set", "mu=5"}
                                  << QStringList{"--set mu=5", "between 0 and 2"};
    QTest::newRow("unknown parameter")
        << QStringList{"run", "ring", "--set", "length=2"} << QStringList{"length", "radius"};
    QTest::newRow("not finite") << QStringList{"run", "ring", "--set", "v0=nan"}
                                << QStringList{"v0", "finite"};
    QTest::newRow("overflow") << QStringList{"run", "ring", "--set", "v0=1e999"}
                              << QStringList{"v0", "finite"};
    QTest::newRow("vector length")
        << QStringList{"run", "rigid-body", "--set", "J=1,2"} << QStringList{"J", "3 components"};
    QTest::newRow("zero quaternion") << QStringList{"run", "rigid-body", "--set", "quat0=0,0,0,0"}
                                     << QStringList{"quat0", "zero"};
    // Values whose products overflow or underflow double precision (a position of 1e308 m made
    // the energy infinite, a mass of 1e-165 kg made the friction test stick the bead).
    QTest::newRow("huge radius") << QStringList{"run", "ring", "--set", "radius=1e200"}
                                 << QStringList{"--set radius=1e200", "between 1e-12 and 1e+12 m"};
    QTest::newRow("huge position") << QStringList{"run", "bead-on-wire", "--set", "s0=1e308"}
                                   << QStringList{"s0", "between -1e+12 and 1e+12 m"};
    QTest::newRow("tiny mass") << QStringList{"run", "bead-on-wire", "--set", "mass=1e-165"}
                               << QStringList{"mass", "between 1e-12 and 1e+12 kg"};
    QTest::newRow("huge velocity")
        << QStringList{"run", "nonholonomic-particle", "--set", "xdot0=1e200"}
        << QStringList{"xdot0", "1e+12"};
    QTest::newRow("not a rigid body") << QStringList{"run", "rigid-body", "--set", "J=1,1e6,3"}
                                      << QStringList{"J", "triangle", "not the inertia"};
    QTest::newRow("tolerance below double precision")
        << QStringList{"run", "bead-on-wire", "--rtol", "1e-89"}
        << QStringList{"--rtol 1e-89", "1e-15", "double precision"};
    QTest::newRow("too many samples")
        << QStringList{"run", "bead-on-wire", "--t-end", "1e9", "--dt", "0.01"}
        << QStringList{"--dt 0.01", "1e+11 output intervals", "more than 1e+07"};
    QTest::newRow("negative t-end")
        << QStringList{"run", "ring", "--t-end", "-1"} << QStringList{"--t-end -1"};
    QTest::newRow("zero dt") << QStringList{"run", "ring", "--dt", "0"} << QStringList{"--dt 0"};
    QTest::newRow("unknown scene")
        << QStringList{"run", "pendulum"} << QStringList{"pendulum", "bead-on-wire"};
    QTest::newRow("describe unknown")
        << QStringList{"describe", "pendulum"} << QStringList{"pendulum"};
    QTest::newRow("missing file") << QStringList{"run", "no/such/scene.json"}
                                  << QStringList{"no/such/scene.json"};
    QTest::newRow("sweep invalid value")
        << QStringList{"sweep", "bead-on-wire", "--param", "mu", "--values", "0.1,-1"}
        << QStringList{"mu=-1", "'mu'"};
    QTest::newRow("sweep unknown parameter")
        << QStringList{"sweep", "bead-on-wire", "--param", "friction", "--values", "0.1"}
        << QStringList{"friction", "mu_s"};
    QTest::newRow("sweep vector parameter")
        << QStringList{"sweep", "rigid-body", "--param", "J", "--values", "1"}
        << QStringList{"'J'", "scalar"};
    QTest::newRow("sweep unknown scene")
        << QStringList{"sweep", "pendulum", "--param", "mu", "--values", "0.1"}
        << QStringList{"pendulum"};
}

void CliApplicationTest::invalidScenesAndParametersExitWithThree()
{
    QFETCH(QStringList, args);
    QFETCH(QStringList, mentions);
    const Result r = runCli(args);
    QVERIFY2(r.exitCode == 3, qPrintable(describe(r)));
    QVERIFY2(r.err.startsWith("constraintlab-cli: "), qPrintable(r.err));
    for (const QString& m : mentions)
        QVERIFY2(r.err.contains(m), qPrintable(r.err));
    QVERIFY(r.out.isEmpty());
}

void CliApplicationTest::numericalFailuresExitWithFourAndSayWhen_data()
{
    QTest::addColumn<QStringList>("args");
    // A body spinning at |ω| ≈ 374 rad/s stepped by RK4 with h = 5 s: hω ≈ 1900 lies far
    // outside RK4's stability region and the state explodes (the run stops when it overflows
    // or when it can no longer be brought back onto the constraint).
    QTest::newRow("rk4 unstable") << QStringList{
        "run", "rigid-body", "--integrator", "rk4",   "--dt",
        "5",   "--t-end",    "1000",         "--set", "omega0=100,200,300"};
    QTest::newRow("sweep rk4 unstable")
        << QStringList{"sweep", "ring", "--param", "mu",      "--values", "0,0.1", "--integrator",
                       "rk4",   "--dt", "5",       "--t-end", "1000",     "--set", "v0=300"};
}

void CliApplicationTest::numericalFailuresExitWithFourAndSayWhen()
{
    QFETCH(QStringList, args);
    const Result r = runCli(args);
    QVERIFY2(r.exitCode == 4, qPrintable(describe(r)));
    // "constraintlab-cli: SCENE: KIND: at t = T s: what failed", then the likely cause and what
    // to try, in the user's terms: no internal names, no "0.000000".
    static const QRegularExpression message(
        "^constraintlab-cli: scene [a-z-]+: (non-finite value|integration failure|singular mass "
        "matrix|inconsistent constraints): .*at t = [0-9.e+-]+ s: .+\n"
        "constraintlab-cli: hint: .*try .+\n$");
    QVERIFY2(message.match(r.err).hasMatch(), qPrintable(r.err));
    QVERIFY2(!r.err.contains("::") && !r.err.contains("0.000000"), qPrintable(r.err));
    // Rows go out in 64 kB chunks of whole rows: a run that fails this early printed none.
    QVERIFY(r.out.isEmpty());
}

void CliApplicationTest::everyEngineErrorKindHasAnExitCode()
{
    using K = ConstraintLabError::Kind;
    QCOMPARE(CliApplication::exitCodeFor(K::InvalidParameter), 3);
    QCOMPARE(CliApplication::exitCodeFor(K::InvalidInitialState), 3);
    QCOMPARE(CliApplication::exitCodeFor(K::InconsistentConstraints), 4);
    QCOMPARE(CliApplication::exitCodeFor(K::SingularMass), 4);
    QCOMPARE(CliApplication::exitCodeFor(K::NonFinite), 4);
    QCOMPARE(CliApplication::exitCodeFor(K::IntegrationFailure), 4);
}

void CliApplicationTest::unwritableOutputExitsWithOne()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("missing/trace.csv");
    const Result r = runCli({"run", "bead-on-wire", "--t-end", "0.1", "--output", path});
    QVERIFY2(r.exitCode == 1, qPrintable(describe(r)));
    QVERIFY2(r.err.startsWith("constraintlab-cli: " + path), qPrintable(r.err));
    QVERIFY(!QFile::exists(path));
}

void CliApplicationTest::fullStandardOutputExitsWithOne()
{
    if (!QFile::exists("/dev/full"))
        QSKIP("no /dev/full on this system");
    const Result r = runCli({"run", "bead-on-wire", "--t-end", "0.1"}, "/dev/full");
    QVERIFY2(r.exitCode == 1, qPrintable(describe(r)));
    QVERIFY2(r.err.startsWith("constraintlab-cli: ") && r.err.contains("standard output"),
             qPrintable(r.err));
}

void CliApplicationTest::commentHeaderDescribesTheRunAndLeavesTheRowsAlone()
{
    const QStringList args = {"run",     "bead-on-wire", "--set",     "mu=0.3",
                              "--t-end", "0.5",          "--columns", "t,x,E"};
    const Result plain = runCli(args);
    QVERIFY2(plain.exitCode == 0, qPrintable(describe(plain)));
    QVERIFY(plain.out.startsWith("t,x,E\r\n"));
    const Result commented = runCli(args + QStringList{"--comment-header"});
    QVERIFY2(commented.exitCode == 0, qPrintable(describe(commented)));
    const QList<QByteArray> lines = commented.out.split('\n');
    QVERIFY(lines.size() > 4);
    QCOMPARE(lines[0], QByteArray("# ConstraintLab trace of scene bead-on-wire (Bead sliding down "
                                  "a rough inclined wire)\r"));
    // In the scene's order, with units, in UTF-8.
    QVERIFY2(lines[1].startsWith("# parameters: mass = 1 kg, g = 9.81 m/s\xc2\xb2,") &&
                 lines[1].contains("mu = 0.3,") && lines[1].contains("angle_deg = 30 deg"),
             lines[1].constData());
    QVERIFY2(lines[2].startsWith("# simulation: t_end = 0.5 s"), lines[2].constData());
    QCOMPARE(lines[3], QByteArray("# units: t [s], x [m], E [J]\r"));
    // Below the comment: the same CSV, byte for byte.
    const qsizetype header = commented.out.indexOf("t,x,E\r\n");
    QVERIFY(header > 0);
    QCOMPARE(commented.out.mid(header), plain.out);
}

void CliApplicationTest::csvHeaderOfEveryScene_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QStringList>("columns");
    for (const SceneDefinition& d : SceneRegistry::builtIn()) {
        const QString scene = QString::fromStdString(d.name);
        // The scene's moving example, which its expected columns are for.
        QStringList args{"run", scene};
        for (const auto& [name, value] : d.expected.moving) {
            QStringList components;
            for (double v : value)
                components << QString::number(v, 'g', 17);
            args << "--set" << QString::fromStdString(name) + "=" + components.join(',');
        }
        QStringList coordinates, extras;
        for (const std::string& c : d.expected.coordinates)
            coordinates << QString::fromStdString(c);
        for (const std::string& c : d.expected.extraColumns)
            extras << QString::fromStdString(c);
        QTest::newRow(qPrintable(scene))
            << args
            << expectedColumns(coordinates, d.expected.rheonomic, extras, contactsOf(scene));
    }
}

void CliApplicationTest::csvHeaderOfEveryScene()
{
    QFETCH(QStringList, args);
    QFETCH(QStringList, columns);
    // To t_end whatever the scene's track: the header is the point here, not where runs end.
    const Result r =
        runCli(args + QStringList{"--t-end", "0.5", "--dt", "0.1", "--no-stop-at-end"});
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    QVERIFY(r.err.isEmpty());
    Table table;
    QVERIFY(parseCsv(r.out, table));
    QCOMPARE(table.header, columns);
    QCOMPARE(table.rows.size(), std::size_t(6)); // t = 0, 0.1, ..., 0.5
    QCOMPARE(table.rows.back()[0], 0.5);
}

void CliApplicationTest::everyBuiltInSceneRunsToItsEnd()
{
    // What a teacher gets from `run NAME` with nothing else: the built-in file as shipped.
    QTemporaryDir dir;
    for (const SceneDefinition& d : SceneRegistry::builtIn()) {
        const QString name = QString::fromStdString(d.name);
        const QString path = dir.filePath(name + ".csv");
        const Result r = runCli({"run", name, "--output", path});
        QVERIFY2(r.exitCode == 0, qPrintable(name + ": " + describe(r)));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        Table table;
        QVERIFY(parseCsv(file.readAll(), table));
        const QJsonObject simulation =
            QJsonDocument::fromJson(readFile(CLAB_SOURCE_DIR "/scenes/" + name + ".json"))
                .object()
                .value("simulation")
                .toObject();
        // To t_end, or to the end of the scene's track when the file stops there.
        if (simulation.value("stop_at_end").toBool()) {
            QVERIFY(table.rows.back()[0] < simulation.value("t_end").toDouble());
            QVERIFY2(r.err.contains("the run ended at t = "), qPrintable(r.err));
        } else {
            QCOMPARE(table.rows.back()[0], simulation.value("t_end").toDouble());
        }
        // The constraints hold along the whole run.
        const int residual = table.column("residual_max");
        for (const std::vector<double>& row : table.rows)
            QVERIFY2(row[residual] < 1e-6, qPrintable(name));
    }
}

void CliApplicationTest::beadSlidesAsTheClosedFormSays()
{
    // The built-in file: m = 1, g = 9.81, θ = 30°, μ = 0.2 < tan θ, s0 = 2, at rest, until the
    // bead reaches the foot of the wire: s(t) = s0 − ½ a t², a = g (sin θ − μ cos θ), so at
    // t* = √(2 s0 / a).
    QTemporaryDir dir;
    const QString path = dir.filePath("bead.csv");
    const Result r = runCli({"run", "bead-on-wire", "--output", path});
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    QVERIFY(r.out.isEmpty());
    const double a = 9.81 * (0.5 - 0.2 * std::cos(M_PI / 6));
    const double tStar = std::sqrt(2.0 * 2.0 / a);
    QVERIFY2(r.err.startsWith("constraintlab-cli: the run ended at t = 1.117012013666") &&
                 r.err.contains("where the bead reaches the foot of the wire") &&
                 r.err.contains("wrote 113 samples"),
             qPrintable(r.err));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    Table table;
    QVERIFY(parseCsv(file.readAll(), table));
    QCOMPARE(table.rows.size(), std::size_t(113)); // t = 0, 0.01, ..., 1.11, t*
    QVERIFY(std::abs(table.rows.back()[table.column("t")] - tStar) < 1e-9);
    QVERIFY(std::abs(table.rows.back()[table.column("s")]) < 1e-9);
    const double deviation = beadDeviation(table, 9.81, 30.0, 0.2, 2.0);
    QVERIFY2(deviation < 1e-6, qPrintable(QString::number(deviation)));
    // Friction does negative work μ m g cos θ × distance: E falls by exactly that.
    const double work = -0.2 * 9.81 * std::cos(M_PI / 6) * 2.0;
    QVERIFY(std::abs(table.rows.back()[table.column("W_nonideal")] - work) < 1e-6);
}

void CliApplicationTest::stopAtEndOptionsOverrideTheFile()
{
    // --no-stop-at-end: the wire is infinite, the run goes on to t_end.
    Result r = runCli({"run", "bead-on-wire", "--no-stop-at-end", "--t-end", "3", "--dt", "0.5",
                       "--columns", "t,s"});
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    Table table;
    QVERIFY(parseCsv(r.out, table));
    QCOMPARE(table.rows.back()[0], 3.0);
    QVERIFY(table.rows.back()[1] < 0.0);
    QVERIFY(r.err.isEmpty());
    // --stop-at-end on a scene file that has it off.
    QTemporaryDir dir;
    const QString scene = dir.filePath("bead.json");
    QFile file(scene);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"format": 1, "scene": "bead-on-wire", "simulation": {"t_end": 5}})");
    file.close();
    r = runCli({"run", scene, "--stop-at-end", "--columns", "t"});
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    Table stopped;
    QVERIFY(parseCsv(r.out, stopped));
    QVERIFY(std::abs(stopped.rows.back()[0] - 1.1170120136662) < 1e-9);
    // A scene without an end: the option is refused, naming it and the scenes that have one.
    r = runCli({"run", "ring", "--stop-at-end"});
    QCOMPARE(r.exitCode, 3);
    QVERIFY2(r.err.contains("--stop-at-end") && r.err.contains("bead-on-wire"), qPrintable(r.err));
    QVERIFY(r.out.isEmpty());
    // A flag takes no value.
    r = runCli({"run", "bead-on-wire", "--stop-at-end=no"});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("takes no value"), qPrintable(r.err));
    // describe says what the end is and whether the file stops there.
    r = runCli({"describe", "bead-on-wire"});
    QVERIFY2(r.out.contains("stop_at_end = on: when on, a run ends early where the bead reaches "
                            "the foot of the wire (s = 0)"),
             qPrintable(r.out));
    r = runCli({"describe", "ring"});
    QVERIFY(!r.out.contains("stop_at_end"));
}

void CliApplicationTest::sceneFileWithOverridesSlidesAsTheClosedFormSays()
{
    QTemporaryDir dir;
    const QString scene = dir.filePath("steep.json");
    QFile file(scene);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"format": 1, "scene": "bead-on-wire", "title": "Steep wire",
                   "parameters": {"angle_deg": 60, "mu": 3, "s0": 1, "g": 1.62},
                   "simulation": {"t_end": 3, "dt": 0.05}})");
    file.close();
    // The file's mu = 3 is out of range on its own; the command line overrides it.
    const Result bad = runCli({"run", scene});
    QVERIFY2(bad.exitCode == 3, qPrintable(describe(bad)));
    QVERIFY2(bad.err.contains(scene + ": parameters.mu: "), qPrintable(bad.err));
    // Already sliding down at the start, so friction points the same way throughout.
    const Result r = runCli({"run", scene, "--set", "mu=0.4", "--set=v0=-0.5", "--t-end=1.5",
                             "--dt", "0.1", "--integrator", "rk4", "--output", "-"});
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    Table table;
    QVERIFY(parseCsv(r.out, table));
    QCOMPARE(table.rows.size(), std::size_t(16));
    // RK4 with h = 0.1 is exact for a constant acceleration, up to rounding.
    const double deviation = beadDeviation(table, 1.62, 60.0, 0.4, 1.0, -0.5);
    QVERIFY2(deviation < 1e-6, qPrintable(QString::number(deviation)));
}

void CliApplicationTest::staticFrictionHoldsTheBeadAtRest()
{
    // mu_s = 0.7 > tan 30°: the bead never moves, and friction carries m g sin θ up the wire.
    const Result r = runCli({"run", "bead-on-wire", "--set", "mu_s=0.7", "--t-end", "1"});
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    Table table;
    QVERIFY(parseCsv(r.out, table));
    const double theta = M_PI / 6, g = 9.81;
    for (const std::vector<double>& row : table.rows) {
        QVERIFY(std::abs(row[table.column("x")] - 2 * std::cos(theta)) < 1e-9);
        QVERIFY(std::abs(row[table.column("y")] - 2 * std::sin(theta)) < 1e-9);
        const double friction =
            std::hypot(row[table.column("Qcni_x")], row[table.column("Qcni_y")]);
        QVERIFY(std::abs(friction - g * std::sin(theta)) < 1e-9);
    }
}

void CliApplicationTest::inProcessRunMatchesTheProcess()
{
    const QStringList args{"run",      "nonholonomic-particle", "--t-end", "1", "--columns",
                           "t,x,y,z,E"};
    QString out, err;
    QTextStream outStream(&out), errStream(&err);
    CliApplication app;
    QCOMPARE(app.run(args, outStream, errStream), 0);
    const Result r = runCli(args);
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(out.toUtf8(), r.out);
    QVERIFY(out.startsWith("t,x,y,z,E\r\n"));
}

// The ring without friction loops for 100 s at a loose tolerance: with --stabilization none the
// constraint drift shows in residual_max, with the default projection it stays at rounding.
void CliApplicationTest::stabilizationOptionShowsOrRemovesDrift()
{
    const QStringList common{"run",     "ring", "--set",     "mu=0",          "--set",  "v0=4",
                             "--t-end", "100",  "--dt",      "0.5",           "--rtol", "1e-6",
                             "--atol",  "1e-9", "--columns", "t,residual_max"};
    double worst[2] = {0, 0};
    for (int k = 0; k < 2; ++k) {
        QStringList args = common;
        if (k == 0)
            args << "--stabilization"
                 << "none";
        const Result r = runCli(args);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        Table table;
        QVERIFY(parseCsv(r.out, table));
        QCOMPARE(table.rows.size(), std::size_t(201));
        for (const auto& row : table.rows)
            worst[k] = std::max(worst[k], row[1]);
    }
    QVERIFY2(worst[0] > 1e-6 && worst[1] <= 1e-10,
             qPrintable(QStringLiteral("none %1, projection %2").arg(worst[0]).arg(worst[1])));
    // Baumgarte from the command line, with its parameters.
    const Result b = runCli({"run",
                             "ring",
                             "--set",
                             "mu=0",
                             "--set",
                             "v0=4",
                             "--t-end",
                             "100",
                             "--dt",
                             "0.5",
                             "--rtol",
                             "1e-6",
                             "--atol",
                             "1e-9",
                             "--stabilization",
                             "baumgarte",
                             "--baumgarte-alpha",
                             "10",
                             "--baumgarte-beta",
                             "10",
                             "--columns",
                             "residual_max"});
    QVERIFY2(b.exitCode == 0, qPrintable(describe(b)));
    Table table;
    QVERIFY(parseCsv(b.out, table));
    double baumgarte = 0;
    for (const auto& row : table.rows)
        baumgarte = std::max(baumgarte, row[0]);
    QVERIFY2(baumgarte < 1e-2 * worst[0], qPrintable(QString::number(baumgarte)));
}

void CliApplicationTest::unknownStabilizationIsAUsageError()
{
    Result r = runCli({"run", "ring", "--stabilization", "stiff"});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("--stabilization stiff") && r.err.contains("projection"),
             qPrintable(r.err));
    r = runCli({"run", "ring", "--stabilization", "baumgarte", "--baumgarte-alpha", "-1"});
    QCOMPARE(r.exitCode, 3);
    QVERIFY2(r.err.contains("--baumgarte-alpha -1"), qPrintable(r.err));
    r = runCli({"run", "ring", "--events", "-"});
    QCOMPARE(r.exitCode, 2);
}

// A bead launched down a wire with μ > tan θ stops at t* = |v0|/(g (μ cos θ − sin θ)): the event
// file says so (to 1e-10), and the contact column switches from 1 to 0 there.
void CliApplicationTest::eventsFileRecordsWhenTheBeadSticks()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString events = dir.filePath("events.csv"), trace = dir.filePath("bead.csv");
    const Result r = runCli({"run", "bead-on-wire", "--set", "mu=0.8", "--set", "mu_s=0.9", "--set",
                             "v0=-2", "--t-end", "3", "--events", events, "--output", trace});
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    QVERIFY2(r.err.contains("1 contact event"), qPrintable(r.err));
    const double th = 30 * M_PI / 180, g = 9.81;
    const double tStop = 2.0 / (g * (0.8 * std::cos(th) - std::sin(th)));

    const QList<QByteArray> lines = readFile(events).split('\n');
    QCOMPARE(lines.size(), 3); // header, one event, empty after the last CRLF
    QCOMPARE(lines[0], QByteArray("t,scene,contact,contact_name,event\r"));
    const QList<QByteArray> fields = lines[1].trimmed().split(',');
    QCOMPARE(fields.size(), 5);
    QVERIFY2(std::abs(fields[0].toDouble() - tStop) < 1e-10, lines[1].constData());
    QCOMPARE(fields[1], QByteArray("bead-on-wire"));
    QCOMPARE(fields[2], QByteArray("0"));
    QCOMPARE(fields[3], QByteArray("bead"));
    QCOMPARE(fields[4], QByteArray("stick"));

    Table table;
    QVERIFY(parseCsv(readFile(trace), table));
    const int t = table.column("t"), contact = table.column("contact");
    const int xd = table.column("x_dot"), yd = table.column("y_dot");
    QVERIFY(contact > table.column("E_error"));
    for (const auto& row : table.rows) {
        QCOMPARE(row[contact], row[t] < tStop ? 1.0 : 0.0);
        if (row[t] > tStop)
            QVERIFY(std::hypot(row[xd], row[yd]) <= 1e-12);
    }
}

// The ring released from 90°: it swings, reverses and sticks where tan φ ≤ μₛ; the event file
// lists each change in time order and ends with "stick".
void CliApplicationTest::eventsFileRecordsReversalAndStickOfTheRing()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString events = dir.filePath("ring-events.csv");
    const Result r = runCli({"run", "ring", "--set", "mu=0.2", "--set", "mu_s=0.3", "--t-end", "10",
                             "--columns", "t", "--events", events, "-o", dir.filePath("ring.csv")});
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    QList<QByteArray> lines = readFile(events).split('\n');
    lines.removeAll(QByteArray());
    QVERIFY(lines.size() >= 4);
    QVERIFY(lines[1].trimmed().endsWith(",ring,0,ring,slip")); // released at rest at 90°
    QCOMPARE(lines[1].split(',')[0], QByteArray("0"));
    double previous = -1;
    for (int i = 1; i < lines.size(); ++i) {
        const QList<QByteArray> fields = lines[i].trimmed().split(',');
        QVERIFY(fields[0].toDouble() > previous);
        previous = fields[0].toDouble();
        if (i > 1 && i + 1 < lines.size())
            QCOMPARE(fields[4], QByteArray("reversal"));
    }
    QVERIFY(lines.last().trimmed().endsWith(",stick"));
}

// E_error = E − E(0) − works stays at the tolerance level for a run with friction and sticking.
void CliApplicationTest::energyAuditColumnStaysSmall()
{
    const Result r = runCli({"run", "ring", "--set", "mu=0.2", "--t-end", "10", "--rtol", "1e-10",
                             "--columns", "E,W_nonideal,E_error"});
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    Table table;
    QVERIFY(parseCsv(r.out, table));
    const double E0 = table.rows.front()[0];
    double worst = 0, scale = std::abs(E0);
    for (const auto& row : table.rows) {
        QVERIFY(std::abs(row[2] - (row[0] - E0 - row[1])) <= 1e-12 * (1 + std::abs(E0)));
        worst = std::max(worst, std::abs(row[2]));
        scale = std::max(scale, std::abs(row[1]));
    }
    QVERIFY(scale > 1.0); // friction took a real share
    QVERIFY2(worst <= 1e-8 * scale, qPrintable(QString::number(worst)));
}

namespace {

// `constraintlab-cli ARGS` in process, with an optional plot writer.
struct InProcess {
    int code = -1;
    QString out, err;
};

InProcess runInProcess(const QStringList& args,
                       CliApplication::PlotWriter writer = CliApplication::PlotWriter())
{
    InProcess r;
    QTextStream outStream(&r.out), errStream(&r.err);
    CliApplication app;
    if (writer)
        app.setPlotWriter(std::move(writer));
    r.code = app.run(args, outStream, errStream);
    return r;
}

// Splits the sweep CSV into the records of each run label, in order of appearance.
QList<QPair<QByteArray, QList<QByteArray>>> recordsByRun(const QByteArray& csv)
{
    QList<QPair<QByteArray, QList<QByteArray>>> runs;
    QList<QByteArray> lines = csv.split('\n');
    lines.removeFirst(); // header
    for (const QByteArray& line : lines) {
        if (line.isEmpty())
            continue;
        const qsizetype comma = line.indexOf(',');
        const QByteArray label = line.left(comma);
        if (runs.isEmpty() || runs.last().first != label)
            runs.append({label, {}});
        runs.last().second.append(line.mid(comma + 1));
    }
    return runs;
}

} // namespace

void CliApplicationTest::sweepRunsEqualSingleRunsInValueOrder()
{
    const QStringList columns{"--t-end", "1", "--columns", "t,x,x_dot,W_nonideal"};
    const Result sweep = runCli(
        QStringList{"sweep", "bead-on-wire", "--param", "mu", "--values", "0.3,0,0.1"} + columns);
    QVERIFY2(sweep.exitCode == 0, qPrintable(describe(sweep)));
    QVERIFY(sweep.out.startsWith("run,t,x,x_dot,W_nonideal\r\n"));
    const auto runs = recordsByRun(sweep.out);
    QCOMPARE(runs.size(), 3);
    const QStringList values{"0.3", "0", "0.1"};
    for (int i = 0; i < 3; ++i) {
        QCOMPARE(runs[i].first, ("mu=" + values[i]).toUtf8());
        // The same digits as a single run: the sweep changes nothing but the value.
        const Result single =
            runCli(QStringList{"run", "bead-on-wire", "--set", "mu=" + values[i]} + columns);
        QVERIFY2(single.exitCode == 0, qPrintable(describe(single)));
        QList<QByteArray> lines = single.out.split('\n');
        lines.removeFirst();
        lines.removeAll(QByteArray());
        QCOMPARE(runs[i].second, lines);
    }
    QVERIFY(runs[0].second != runs[2].second);
}

void CliApplicationTest::sweepWritesAFileAtomically()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("sweep.csv");
    const Result r = runCli({"sweep", "ring", "--param", "mu", "--values", "0,0.2", "--t-end",
                             "0.5", "--dt", "0.1", "--columns", "t,E", "--output", path});
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    QVERIFY(r.out.isEmpty());
    QVERIFY2(r.err.contains("2 runs") && r.err.contains(path), qPrintable(r.err));
    const QByteArray csv = readFile(path);
    QVERIFY(csv.startsWith("run,t,E\r\n"));
    QCOMPARE(csv.count('\n'), 1 + 2 * 6);
    // A refused sweep leaves the file alone.
    const Result bad =
        runCli({"sweep", "ring", "--param", "mu", "--values", "0,5", "--output", path});
    QCOMPARE(bad.exitCode, 3);
    QCOMPARE(readFile(path), csv);
    // An unwritable destination is an output failure.
    const Result unwritable = runCli({"sweep", "ring", "--param", "mu", "--values", "0", "--t-end",
                                      "0.1", "--output", dir.filePath("no/dir.csv")});
    QVERIFY2(unwritable.exitCode == 1, qPrintable(describe(unwritable)));
}

void CliApplicationTest::sweepFollowerFollowsTheSweptValue()
{
    // The bead starts at rest on a 30° wire (tan 30° ≈ 0.577). With mu_s following mu = 0.5
    // it slides; with --set mu_s=0.7 it stays stuck for every mu.
    const QStringList common{"sweep", "bead-on-wire", "--param", "mu",        "--values",
                             "0.5",   "--t-end",      "1",       "--columns", "x_dot"};
    const Result follows = runCli(common);
    QVERIFY2(follows.exitCode == 0, qPrintable(describe(follows)));
    const Result held = runCli(common + QStringList{"--set", "mu_s=0.7"});
    QVERIFY2(held.exitCode == 0, qPrintable(describe(held)));
    const QList<QByteArray> slid = recordsByRun(follows.out).first().second;
    const QList<QByteArray> stuck = recordsByRun(held.out).first().second;
    // ẋ = −g (sin θ − μ cos θ) t cos θ at t = 1 s with μ = 0.5.
    const double theta = M_PI / 6;
    const double expected = -9.81 * (std::sin(theta) - 0.5 * std::cos(theta)) * std::cos(theta);
    QVERIFY(std::abs(slid.last().trimmed().toDouble() - expected) < 1e-6);
    QCOMPARE(stuck.last().trimmed().toDouble(), 0.0);
}

void CliApplicationTest::plotPassesTheRequestToTheWriter()
{
    std::vector<CliApplication::PlotRequest> requests;
    const auto writer = [&](const CliApplication::PlotRequest& request, QString*) {
        requests.push_back(request);
        return true;
    };
    const InProcess r = runInProcess(
        {"plot",   "bead-on-wire", "--set",   "mu=0.1",   "--t-end",  "2",       "--no-stop-at-end",
         "--dt",   "0.1",          "--y",     "E,|Qcni|", "--x",      "x",       "--log-y",
         "--size", "640x480",      "--scale", "2",        "--output", "bead.svg"},
        writer);
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QCOMPARE(requests.size(), std::size_t(1));
    const CliApplication::PlotRequest& request = requests.front();
    QCOMPARE(request.spec.y, (std::vector<std::string>{"E", "|Qcni|"}));
    QCOMPARE(request.spec.x, std::string("x"));
    QVERIFY(request.spec.logY);
    QCOMPARE(request.path, QStringLiteral("bead.svg"));
    QCOMPARE(request.size, QSize(640, 480));
    QCOMPARE(request.scale, 2.0);
    QCOMPARE(request.runs.size(), std::size_t(1));
    QCOMPARE(request.runs.front().label, std::string("bead-on-wire"));
    const Trace& trace = *request.runs.front().trace;
    QCOMPARE(trace.samples.size(), std::size_t(21)); // t = 0, 0.1, ..., 2
    QCOMPARE(trace.samples.back().t, 2.0);
    // The run used --set: friction's normal force is m g cos θ, so |Qcni| = μ m g cos θ.
    QVERIFY(std::abs(trace.samples[5].Qcni.norm() - 0.1 * 9.81 * std::cos(M_PI / 6)) < 1e-9);

    // Defaults: x = t, linear axis, 1200x800 at scale 1.
    requests.clear();
    const InProcess d = runInProcess(
        {"plot", "ring", "--t-end", "0.5", "--y", "T", "--output", "ring.PNG"}, writer);
    QVERIFY2(d.code == 0, qPrintable(d.err));
    QCOMPARE(requests.front().spec.x, std::string("t"));
    QVERIFY(!requests.front().spec.logY);
    QCOMPARE(requests.front().size, QSize(1200, 800));
    QCOMPARE(requests.front().scale, 1.0);
}

void CliApplicationTest::plotPresetIsTheCatalogsPlot()
{
    std::vector<CliApplication::PlotRequest> requests;
    const auto writer = [&](const CliApplication::PlotRequest& request, QString*) {
        requests.push_back(request);
        return true;
    };
    const InProcess r = runInProcess(
        {"plot", "rigid-body", "--t-end", "0.5", "--preset", "quat-norm", "-o", "q.pdf"}, writer);
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QCOMPARE(requests.front().spec.id, std::string("quat-norm"));
    QCOMPARE(requests.front().spec.y, std::vector<std::string>{"quat_norm_error"});
    // A rigid-body preset does not exist for a particle: exit 3 listing what does.
    const InProcess bad = runInProcess(
        {"plot", "ring", "--t-end", "0.1", "--preset", "omega", "-o", "r.png"}, writer);
    QCOMPARE(bad.code, 3);
    QVERIFY2(bad.err.contains("omega") && bad.err.contains("energy") && bad.err.contains("path"),
             qPrintable(bad.err));
    QCOMPARE(requests.size(), std::size_t(1));
}

void CliApplicationTest::plotUnknownQuantityListsTheAvailableOnes()
{
    bool called = false;
    const auto writer = [&](const CliApplication::PlotRequest&, QString*) {
        called = true;
        return true;
    };
    const InProcess r = runInProcess(
        {"plot", "bead-on-wire", "--t-end", "0.1", "--y", "E,speed", "-o", "b.png"}, writer);
    QCOMPARE(r.code, 3);
    for (const char* listed : {"speed", "x_dot", "E_balance", "|Qci|"})
        QVERIFY2(r.err.contains(listed), qPrintable(r.err));
    QVERIFY2(r.err.startsWith("constraintlab-cli: "), qPrintable(r.err));
    const InProcess x = runInProcess(
        {"plot", "bead-on-wire", "--t-end", "0.1", "--y", "E", "--x", "w1", "-o", "b.png"}, writer);
    QCOMPARE(x.code, 3);
    QVERIFY2(x.err.contains("--x w1"), qPrintable(x.err));
    QVERIFY(!called);
}

void CliApplicationTest::plotWithoutWriterIsNotAvailable()
{
    const InProcess r = runInProcess({"plot", "ring", "--y", "E", "--output", "ring.png"});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("plotting is not available in this build"), qPrintable(r.err));
    QVERIFY(r.out.isEmpty());
}

void CliApplicationTest::plotWriterFailureExitsWithOne()
{
    const auto failing = [](const CliApplication::PlotRequest& request, QString* error) {
        *error = request.path + QStringLiteral(": cannot write the plot: disk full");
        return false;
    };
    const InProcess r =
        runInProcess({"plot", "ring", "--t-end", "0.1", "--y", "E", "-o", "ring.svg"}, failing);
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("ring.svg: cannot write the plot: disk full"), qPrintable(r.err));
}

void CliApplicationTest::helpDescribesSweepAndPlot()
{
    QVERIFY(CliApplication::usage().contains("sweep SCENE --param NAME --values"));
    QVERIFY(CliApplication::usage().contains("plot SCENE"));
    QVERIFY(CliApplication::commandHelp("sweep").contains("--values V1,V2,..."));
    QVERIFY(CliApplication::commandHelp("plot").contains("--preset ID"));
    const Result r = runCli({"help", "sweep"});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.startsWith("Usage: constraintlab-cli sweep"));
    const Result p = runCli({"plot", "--help"});
    QCOMPARE(p.exitCode, 0);
    QVERIFY(p.out.startsWith("Usage: constraintlab-cli plot"));
}

namespace {

QString writeScene(const QTemporaryDir& dir, const QString& name, const QByteArray& json)
{
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(json) != json.size())
        return {};
    return path;
}

} // namespace

void CliApplicationTest::outputOntoADeviceIsWrittenInPlace()
{
    QTemporaryDir dir;
    const QString null = dir.filePath("null");
    if (!testing::makeDevice(null, 3))
        QSKIP("mknod needs root");
    const Result r =
        runCli({"run", "bead-on-wire", "--t-end", "1", "--output", null, "--events", null});
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    QVERIFY2(testing::isCharacterDevice(null), "the device node was replaced by a regular file");
    QCOMPARE(QDir(dir.path())
                 .entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System),
             QStringList{"null"}); // no temporary left beside it
}

void CliApplicationTest::fullDeviceExitsWithOneSayingWhy()
{
    QTemporaryDir dir;
    const QString full = dir.filePath("full");
    if (!testing::makeDevice(full, 7))
        QSKIP("mknod needs root");
    const Result r = runCli({"run", "bead-on-wire", "--output", full});
    QVERIFY2(r.exitCode == 1, qPrintable(describe(r)));
    QVERIFY2(r.err.contains(full + ": cannot write the CSV: No space left on device"),
             qPrintable(r.err));
    QVERIFY(testing::isCharacterDevice(full));
}

void CliApplicationTest::fifoReceivesTheTraceAndTheEvents()
{
    QTemporaryDir dir;
    const QString pipe = dir.filePath("trace.fifo");
    QVERIFY(::mkfifo(QFile::encodeName(pipe).constData(), 0600) == 0);
    // The reader must be there before the writer opens the pipe.
    auto reader = std::async(std::launch::async, [&] { return readFile(pipe); });
    const Result r = runCli({"run", "ring", "--t-end", "2", "--output", pipe});
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    const QByteArray piped = reader.get();
    const Result reference = runCli({"run", "ring", "--t-end", "2"});
    QCOMPARE(piped, reference.out); // every byte, as on standard output
    QVERIFY(testing::isFifo(pipe));

    auto events = std::async(std::launch::async, [&] { return readFile(pipe); });
    const Result withEvents = runCli(
        {"run", "ring", "--t-end", "2", "--output", dir.filePath("ring.csv"), "--events", pipe});
    QVERIFY2(withEvents.exitCode == 0, qPrintable(describe(withEvents)));
    QVERIFY(events.get().startsWith("t,scene,contact,contact_name,event\r\n"));
}

void CliApplicationTest::bodiesAtRestOnTheirConstraintRunToTheEnd_data()
{
    QTest::addColumn<QStringList>("args");
    // These stopped at t = 0 with "q̈ violates A q̈ = b" for some masses and radii.
    for (const char* mass : {"1.7", "2.1", "2.4", "2.5", "2.9", "5.7", "6.1", "8.4", "9.6"}) {
        QTest::addRow("bead on horizontal wire, m = %s", mass)
            << QStringList{"run",         "bead-on-wire", "--set",
                           "angle_deg=0", "--set",        QStringLiteral("mass=%1").arg(mass)};
        QTest::addRow("ring bottom, m = %s", mass) << QStringList{
            "run", "ring", "--set", "phi0_deg=0", "--set", QStringLiteral("mass=%1").arg(mass)};
        QTest::addRow("bead sliding to rest on horizontal wire, m = %s", mass) << QStringList{
            "run",  "bead-on-wire", "--set",  "angle_deg=0", "--set",
            "v0=2", "--set",        "mu=0.3", "--set",       QStringLiteral("mass=%1").arg(mass)};
    }
    for (const char* radius : {"2.3", "3.3", "3.8", "4.1"})
        QTest::addRow("ring bottom, R = %s", radius) << QStringList{
            "run", "ring", "--set", "phi0_deg=0", "--set", QStringLiteral("radius=%1").arg(radius)};
    QTest::newRow("drag stops the nonholonomic particle") << QStringList{
        "run", "nonholonomic-particle", "--set", "fx=0.1", "--set", "a0=0.2", "--t-end", "20"};
}

void CliApplicationTest::bodiesAtRestOnTheirConstraintRunToTheEnd()
{
    QFETCH(QStringList, args);
    const Result r = runCli(args);
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    Table table;
    QVERIFY(parseCsv(r.out, table));
    QVERIFY(!table.rows.empty());
    const int t = table.column("t");
    QVERIFY(table.rows.back()[static_cast<std::size_t>(t)] > 1.9);
}

void CliApplicationTest::streamedTraceEqualsTheFileBitForBit()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("ring.csv");
    // Long enough for several 64 kB chunks.
    const Result toFile = runCli({"run", "ring", "--t-end", "30", "--output", path});
    QVERIFY2(toFile.exitCode == 0, qPrintable(describe(toFile)));
    const Result toStdout = runCli({"run", "ring", "--t-end", "30"});
    QVERIFY(toStdout.out.size() > 4 * 65536);
    QCOMPARE(readFile(path), toStdout.out);
    QVERIFY(toFile.err.contains("wrote 3001 samples"));
}

void CliApplicationTest::longRunIsAcceptedUpToTheSampleLimit()
{
    // Exactly 1e7 output intervals are accepted (the limit is checked before the run), one
    // more is refused at once instead of failing at the end of a long run.
    const Result over = runCli({"run", "bead-on-wire", "--t-end", "100000.01", "--dt", "0.01"});
    QVERIFY2(over.exitCode == 3, qPrintable(describe(over)));
    QVERIFY2(over.err.contains("more than 1e+07"), qPrintable(over.err));
    SimulationOptions options;
    options.tEnd = 1e9;
    options.dt = 100;
    QCOMPARE(SimulationOptions::outputIntervals(0.0, options.tEnd, options.dt), 1e7);
}

void CliApplicationTest::fileTextInMessagesIsEscapedAndBounded_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("expected");
    QTest::newRow("NUL in the scene name") << QByteArray(R"({"format": 1, "scene": "ring\u0000x"})")
                                           << QStringLiteral("unknown scene \"ring\\u0000x\"");
    QTest::newRow("terminal title escape")
        << QByteArray(R"({"format": 1, "scene": "\u001b]0;pwned\u0007"})")
        << QStringLiteral("unknown scene \"\\u001b]0;pwned\\u0007\"");
    QTest::newRow("escape in an unknown key")
        << QByteArray(R"({"format": 1, "scene": "ring", "parameters": {"\u001b[2J": 1}})")
        << QStringLiteral("parameters.\\u001b[2J");
    QTest::newRow("huge scene name")
        << (QByteArray(R"({"format": 1, "scene": ")") + QByteArray(5'000'000, 'a') + "\"}")
        << QStringLiteral("unknown scene \"aaaa");
}

void CliApplicationTest::fileTextInMessagesIsEscapedAndBounded()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    const QString path = writeScene(dir, "s.json", json);
    const Result r = runCli({"run", path});
    QVERIFY2(r.exitCode == 3, qPrintable(describe(r)));
    QVERIFY2(r.err.contains(expected), qPrintable(r.err.left(500)));
    for (const QChar c : r.err)
        QVERIFY2(c == QLatin1Char('\n') || c.unicode() >= 0x20, qPrintable(r.err.left(500)));
    QVERIFY2(r.err.size() < 2000, qPrintable(QString::number(r.err.size())));
}

void CliApplicationTest::duplicateKeysAndLooseJsonAreRefused_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QStringList>("mentions");
    QTest::newRow("duplicate key hides an out-of-range value")
        << QByteArray("{\n  \"format\": 1,\n  \"scene\": \"bead-on-wire\",\n"
                      "  \"parameters\": {\"mu\": 5,\n                 \"mu\": 0.2}\n}\n")
        << QStringList{"line 5", "duplicate key \"mu\"", "first at line 4"};
    QTest::newRow("number without leading digit")
        << QByteArray(R"({"format": 1, "scene": "bead-on-wire", "parameters": {"mu": .3}})")
        << QStringList{"line 1, column 61", "0.3, not .3"};
    QTest::newRow("raw control character in a string")
        << QByteArray("{\"format\": 1, \"scene\": \"ring\", \"title\": \"a\tb\"}")
        << QStringList{"control character (0x09)"};
}

void CliApplicationTest::duplicateKeysAndLooseJsonAreRefused()
{
    QFETCH(QByteArray, json);
    QFETCH(QStringList, mentions);
    QTemporaryDir dir;
    const QString path = writeScene(dir, "s.json", json);
    const Result r = runCli({"run", path});
    QVERIFY2(r.exitCode == 3, qPrintable(describe(r)));
    QVERIFY2(r.err.startsWith("constraintlab-cli: " + path + ": not valid JSON: "),
             qPrintable(r.err));
    for (const QString& m : mentions)
        QVERIFY2(r.err.contains(m), qPrintable(r.err));
}

// --stats: the run's cost on standard error, the trace unchanged on standard output.
void CliApplicationTest::statsReportTheRunsCost()
{
    const Result plain = runCli({"run", "bead-on-wire", "--t-end", "10"});
    const Result r = runCli({"run", "bead-on-wire", "--t-end", "10", "--stats"});
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    QCOMPARE(r.out, plain.out);
    static const QRegularExpression line(
        "constraintlab-cli: stats: (\\d+) steps \\((\\d+) rejected\\), (\\d+) evaluations, "
        "(\\d+) events?, (\\d+) restarts \\((\\d+) projections\\), [0-9.e+-]+ ms\n");
    const QRegularExpressionMatch m = line.match(r.err);
    QVERIFY2(m.hasMatch(), qPrintable(r.err));
    // A parabola between events: a handful of steps, far below one per output interval.
    QVERIFY(m.captured(1).toInt() >= 1 && m.captured(1).toInt() < 100);
    QVERIFY(m.captured(3).toInt() <= 600);
}

void CliApplicationTest::runCommandsLoadNeitherGuiNorOpenGLNorVtk_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::newRow("list") << QStringList{"list"};
    QTest::newRow("describe") << QStringList{"describe", "ring"};
    QTest::newRow("run") << QStringList{"run", "bead-on-wire", "--output", "/dev/null"};
    QTest::newRow("sweep") << QStringList{"sweep",   "ring",    "--param", "mu",       "--values",
                                          "0.1,0.2", "--t-end", "1",       "--output", "/dev/null"};
}

void CliApplicationTest::runCommandsLoadNeitherGuiNorOpenGLNorVtk()
{
    // Only `plot` needs Qt GUI, OpenGL and VTK (constraintlab-plot): the other commands start
    // fast and run on a machine without X or OpenGL. The dynamic loader lists what it loads.
    QFETCH(QStringList, args);
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("LD_DEBUG"), QStringLiteral("files"));
    const Result r = testing::runProcess(cli, args, environment);
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r).right(2000)));
    QVERIFY2(r.err.contains(QStringLiteral("libQt6Core")), "LD_DEBUG listed nothing");
    for (const QString& library :
         {QStringLiteral("libQt6Gui"), QStringLiteral("libQt6Widgets"), QStringLiteral("libvtk"),
          QStringLiteral("libGL"), QStringLiteral("libX11"), QStringLiteral("libxcb")})
        QVERIFY2(!r.err.contains(library), qPrintable(library + " was loaded"));
}

QTEST_MAIN(CliApplicationTest)
#include "tst_CliApplication.moc"

namespace {

QString systemFile(const char* name)
{
    return QStringLiteral(CLAB_SOURCE_DIR "/scenes/systems/") + name;
}

QString writeTemporary(QTemporaryDir& dir, const QByteArray& json)
{
    const QString path = dir.filePath(QStringLiteral("system.json"));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(json) != json.size())
        return {};
    return path;
}

} // namespace

void CliApplicationTest::systemFileRunsWithItsOwnColumnsAndParameters()
{
    const Result r =
        runCli({"run", systemFile("double-pendulum.json"), "--set", "l2=0.5", "--t-end", "1"});
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    Table table;
    QVERIFY(parseCsv(r.out, table));
    for (const char* column : {"x1", "y2_dot", "Qci_x2", "E", "E_error", "N_rod1", "N_rod2"})
        QVERIFY2(table.column(QString::fromLatin1(column)) >= 0, column);
    QCOMPARE(table.rows.size(), std::size_t(101));
    // --set l2=0.5 moved the lower bob's start: x2 = l1 + l2.
    QCOMPARE(table.rows.front()[static_cast<std::size_t>(table.column("x2"))], 1.5);
    // Energy is kept (no friction): the audit column stays at round-off.
    for (const auto& row : table.rows)
        QVERIFY(std::abs(row[static_cast<std::size_t>(table.column("E_error"))]) < 1e-7);

    const Result unknown = runCli({"run", systemFile("double-pendulum.json"), "--set", "l3=1"});
    QCOMPARE(unknown.exitCode, 3);
    QVERIFY2(unknown.err.contains("has no parameter \"l3\" (its parameters: m1, m2, l1, l2, g)"),
             qPrintable(describe(unknown)));
}

void CliApplicationTest::deriveShowsTheRowsOfAAndBOfASystemFile()
{
    Result r = runCli({"derive", systemFile("double-pendulum.json")});
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    QVERIFY2(r.out.contains("rod1 (holonomic): phi = "), qPrintable(describe(r)));
    QVERIFY(r.out.contains("A row = (2*x1, 2*y1, 0, 0)"));
    QVERIFY(r.out.contains("Q = (0, -"));
    r = runCli({"derive", systemFile("double-pendulum.json"), "--format", "latex"});
    QVERIFY2(r.exitCode == 0 && r.out.contains("\\begin{pmatrix}"), qPrintable(describe(r)));
    r = runCli({"derive", systemFile("double-pendulum.json"), "--format=json"});
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    QJsonParseError error;
    const QJsonDocument json = QJsonDocument::fromJson(r.out, &error);
    QCOMPARE(error.error, QJsonParseError::NoError);
    QCOMPARE(json.object().value("constraints").toArray().size(), 2);
    // Printed in one order in every process (GiNaC's own order follows hashes that move with
    // address-space randomization): four runs of a system with many factored sums agree.
    const QByteArray first = runCli({"derive", systemFile("brachistochrone.json")}).out;
    QVERIFY(first.contains("cycloid_x (holonomic): phi = x1 - (phi - sin(phi))*R = 0"));
    for (int run = 0; run < 3; ++run)
        QCOMPARE(runCli({"derive", systemFile("brachistochrone.json"), "--format", "latex"}).out,
                 runCli({"derive", systemFile("brachistochrone.json"), "--format", "latex"}).out);
    QCOMPARE(runCli({"derive", systemFile("brachistochrone.json")}).out, first);
    r = runCli({"derive", "bead-on-wire"});
    QCOMPARE(r.exitCode, 3);
    QVERIFY2(r.err.contains("is a built-in scene written in C++"), qPrintable(describe(r)));
    r = runCli({"derive", systemFile("double-pendulum.json"), "--format", "html"});
    QCOMPARE(r.exitCode, 2);
}

void CliApplicationTest::describeListsASystemFilesParameters()
{
    const Result r = runCli({"describe", systemFile("bead-on-wire.json")});
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    QVERIFY(r.out.startsWith("system - Bead on an inclined wire (from its equations)"));
    QVERIFY(r.out.contains("angle_deg"));
    QVERIFY(r.out.contains("inclination of the wire above the horizontal"));
    QVERIFY(r.out.contains("stop_at_end = on"));
}

void CliApplicationTest::badSystemFilesExitWithThreeNamingKeyAndColumn()
{
    QTemporaryDir dir;
    QFile good(systemFile("double-pendulum.json"));
    QVERIFY(good.open(QIODevice::ReadOnly));
    const QByteArray text = good.readAll();
    const QByteArray typo = QByteArray(text).replace("(x2 - x1)^2", "(x3 - x1)^2");
    const QString path = writeTemporary(dir, typo);
    const Result r = runCli({"run", path});
    QCOMPARE(r.exitCode, 3);
    QVERIFY2(r.err.contains("system.constraints[1].holonomic: column 2: unknown symbol 'x3' "
                            "(did you mean x1 or x2?)"),
             qPrintable(describe(r)));
    QVERIFY(r.out.isEmpty());
}

void CliApplicationTest::initialValuesLeftOutAreReported()
{
    QTemporaryDir dir;
    QFile good(systemFile("double-pendulum.json"));
    QVERIFY(good.open(QIODevice::ReadOnly));
    QByteArray text = good.readAll();
    // Without x2 the lower rod fixes it: (x2 − x1)² = l2² with y2 = y1, the root nearest 0.
    text.replace("\"x2\": \"l1 + l2\", ", "");
    const Result r = runCli({"run", writeTemporary(dir, text), "--t-end", "0.1"});
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    QVERIFY2(r.err.contains("initial value x2 = 0.3 (from the constraints)"),
             qPrintable(describe(r)));
    Table table;
    QVERIFY(parseCsv(r.out, table));
    QVERIFY(std::abs(table.rows.front()[static_cast<std::size_t>(table.column("x2"))] - 0.3) <
            1e-12);
}

void CliApplicationTest::sweepRunsASystemFilesParameter()
{
    const Result r = runCli({"sweep", systemFile("double-pendulum.json"), "--param", "l2",
                             "--values", "0.5,0.7", "--t-end", "0.5", "--columns", "t,x2"});
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    const QList<QByteArray> lines = r.out.split('\n');
    QCOMPARE(lines.value(0).trimmed(), QByteArray("run,t,x2"));
    // RFC 4180: rows end in CRLF.
    QVERIFY2(r.out.contains("l2=0.5,0,1.5\r\n") && r.out.contains("l2=0.7,0,1.7\r\n"),
             qPrintable(describe(r)));
}

// The shipped example (a bead run at μ = 0.4 plus noise of 0.2 cm, in cm): the fitted μ lies
// within 3 standard errors of 0.4, and the standard error is the closed form σ/‖∂s/∂μ‖ with
// ∂s/∂μ = ½ g cos θ t².
void CliApplicationTest::fitRecoversTheFrictionOfTheExampleMeasurements()
{
    QTemporaryDir dir;
    const QString json = dir.filePath("fit.json");
    const QString data = QStringLiteral(CLAB_SOURCE_DIR "/scenes/measurements/bead-mu0.4.csv");
    const Result r =
        runCli({"fit", "bead-on-wire", "--data", data, "--map", "pos_cm=s*0.01", "--sigma", "0.002",
                "--param", "mu", "--set", "s0=25", "--output", json});
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    QVERIFY2(r.out.contains("residual RMS of pos_cm (s):"), r.out.constData());
    const QJsonObject fit = QJsonDocument::fromJson(readFile(json)).object();
    const QJsonObject mu = fit["parameters"].toArray().at(0).toObject();
    QCOMPARE(mu["name"].toString(), QString("mu"));
    double norm2 = 0.0;
    for (int i = 1; i <= 500; ++i)
        norm2 += std::pow(0.5 * 9.81 * std::cos(M_PI / 6) * (0.01 * i) * (0.01 * i), 2);
    const double error = mu["standard_error"].toDouble();
    QVERIFY(std::abs(error / (0.002 / std::sqrt(norm2)) - 1.0) < 1e-3);
    QVERIFY(std::abs(mu["value"].toDouble() - 0.4) < 3.0 * error);
    QCOMPARE(fit["covariance"].toArray().at(0).toArray().at(0).toDouble(), error * error);
    QCOMPARE(fit["command_line"].toArray().at(1).toString(), QString("fit"));
    QVERIFY(fit["converged"].toBool());
    QVERIFY(fit["warnings"].toArray().isEmpty());
}

// Issue 32: from the scene's s0 = 2 m the bead cannot reach the example's data (from 25 m):
// the fit fails with the reason and a hint, exits 4 (numerical failure) and writes no JSON.
void CliApplicationTest::fitFromAStartThatCannotReachTheDataFails()
{
    QTemporaryDir dir;
    const QString json = dir.filePath("fit.json");
    const QString data = QStringLiteral(CLAB_SOURCE_DIR "/scenes/measurements/bead-mu0.4.csv");
    const Result r = runCli({"fit", "bead-on-wire", "--data", data, "--map", "pos_cm=s*0.01",
                             "--param", "mu", "--output", json});
    QVERIFY2(r.exitCode == 4, qPrintable(describe(r)));
    QVERIFY2(r.err.contains("fit failed: the model cannot reach the data: the data of pos_cm "
                            "start at 25 m (t = 0.01 s), the model at 2 m; fit s0 too, or set it"),
             qPrintable(describe(r)));
    QVERIFY2(r.err.contains("hint: --param mu,s0"), qPrintable(describe(r)));
    QVERIFY(!QFile::exists(json));
    QVERIFY(!r.out.toLower().contains("nan"));
    // Fitting the start too succeeds.
    const Result both = runCli(
        {"fit", "bead-on-wire", "--data", data, "--map", "pos_cm=s*0.01", "--param", "mu,s0"});
    QVERIFY2(both.exitCode == 0, qPrintable(describe(both)));
}

// Data as people have them: a Tracker export (title line, tabs) and a semicolon file with
// decimal commas, their column s mapped to the bead's s by name, fit the same μ.
void CliApplicationTest::fitReadsTrackerAndSemicolonFilesMappedByName()
{
    QTemporaryDir dir;
    QFile in(QStringLiteral(CLAB_SOURCE_DIR "/scenes/measurements/bead-mu0.4.csv"));
    QVERIFY(in.open(QIODevice::ReadOnly));
    QByteArray tracker = "mass A\nt\ts\n", semicolons = "t;s\n";
    for (const QByteArray& line : in.readAll().split('\n')) {
        const QList<QByteArray> fields = line.trimmed().split(',');
        bool ok = false;
        const double cm = fields.value(1).toDouble(&ok);
        if (line.startsWith('#') || !ok)
            continue;
        const QByteArray metres = QByteArray::number(cm / 100.0, 'g', 17);
        tracker += fields[0] + "\t" + metres + "\n";
        semicolons += QByteArray(fields[0]).replace('.', ',') + ";" +
                      QByteArray(metres).replace('.', ',') + "\n";
    }
    QList<double> fitted;
    for (const auto& [name, text] : {std::pair{"tracker.txt", tracker}, {"de.csv", semicolons}}) {
        const QString path = dir.filePath(name);
        QFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(text);
        out.close();
        const QString json = dir.filePath(QStringLiteral("%1.json").arg(name));
        const Result r = runCli({"fit", "bead-on-wire", "--data", path, "--param", "mu", "--set",
                                 "s0=25", "--sigma", "0.002", "--output", json});
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QVERIFY2(r.out.contains("residual RMS of s (s):"), r.out.constData());
        fitted << QJsonDocument::fromJson(readFile(json))
                      .object()["parameters"]
                      .toArray()
                      .at(0)
                      .toObject()["value"]
                      .toDouble();
    }
    QVERIFY(std::abs(fitted[0] - 0.4) < 1e-5);
    QCOMPARE(fitted[1], fitted[0]);
}

void CliApplicationTest::fitErrorsExitWithTheirCodes_data()
{
    QTest::addColumn<QByteArray>("file");
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("message");
    const QByteArray good = "t,pos\n0.1,2\n0.2,1.9\n0.3,1.7\n";
    const QStringList fit{"fit", "bead-on-wire", "--map", "pos=s", "--param", "mu"};
    QTest::newRow("no --data") << good << QStringList{"fit", "bead-on-wire", "--param", "mu"} << 2
                               << "fit: missing --data FILE";
    QTest::newRow("--t-end") << good << (fit + QStringList{"--t-end", "3"}) << 2
                             << "fit: --t-end 3: the measured times set the end";
    QTest::newRow("bad --bounds") << good << (fit + QStringList{"--bounds", "mu=0-2"}) << 2
                                  << "--bounds mu=0-2: expected NAME=LOW:HIGH";
    QTest::newRow("unparsable row") << QByteArray("t,pos\n0.1,2\n0.2,x\n") << fit << 3
                                    << "line 3, column 2 (pos): \"x\" is not a number";
    QTest::newRow("time goes back") << QByteArray("t,pos\n0.2,2\n0.1,1\n") << fit << 3
                                    << "line 3: the time 0.10000000000000001 s is not after";
    QTest::newRow("NaN") << QByteArray("t,pos\n0.1,NaN\n0.2,1\n") << fit << 3
                         << "line 2, column 2 (pos): \"NaN\" is not a finite number";
    QTest::newRow("unknown parameter")
        << good << QStringList{"fit", "bead-on-wire", "--map", "pos=s", "--param", "friction"} << 3
        << "fit: the scene has no parameter 'friction'";
    QTest::newRow("unknown quantity")
        << good << QStringList{"fit", "bead-on-wire", "--map", "pos=height", "--param", "mu"} << 3
        << "no trace quantity 'height'";
    QTest::newRow("unwritable output")
        << good << (fit + QStringList{"--output", "/nonexistent-dir/fit.json"}) << 1
        << "cannot write the fit";
    QTest::newRow("no --map, no column named like a quantity")
        << good << QStringList{"fit", "bead-on-wire", "--param", "mu"} << 2
        << "no column is named like a trace quantity (its columns: t, pos;";
    QTest::newRow("semicolons, a field that is no number")
        << QByteArray("t;s\n0,1;2\n0,2;1.9.1\n")
        << QStringList{"fit", "bead-on-wire", "--param", "mu"} << 3
        << "line 3, column 2 (s): \"1.9.1\" is not a number";
}

void CliApplicationTest::fitErrorsExitWithTheirCodes()
{
    QFETCH(QByteArray, file);
    QFETCH(QStringList, args);
    QFETCH(int, exitCode);
    QFETCH(QString, message);
    QTemporaryDir dir;
    const QString path = dir.filePath("meas.csv");
    QFile out(path);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(file);
    out.close();
    if (QByteArray(QTest::currentDataTag()) != "no --data")
        args << "--data" << path;
    const Result r = runCli(args);
    QVERIFY2(r.exitCode == exitCode && r.err.contains(message), qPrintable(describe(r)));
}

// Two parameters sweep their product grid; shards K/N of it, concatenated in K order (only
// shard 1 has the header), are byte for byte the whole sweep's CSV.
void CliApplicationTest::sweepShardsConcatenateIntoTheWholeGrid()
{
    const QStringList sweep{"sweep",       "bead-on-wire", "--param",   "mu",       "--values",
                            "0.1,0.2,0.3", "--param",      "angle_deg", "--values", "30,45",
                            "--t-end",     "0.05",         "--columns", "t,s"};
    const Result whole = runCli(sweep);
    QVERIFY2(whole.exitCode == 0, qPrintable(describe(whole)));
    QVERIFY(whole.out.startsWith("run,t,s\r\nmu=0.1 angle_deg=30,0,2\r\n"));
    QVERIFY(whole.out.contains("\r\nmu=0.3 angle_deg=45,"));
    for (int n : {2, 4}) {
        QByteArray joined;
        for (int k = 1; k <= n; ++k) {
            const Result shard =
                runCli(sweep + QStringList{"--shard", QStringLiteral("%1/%2").arg(k).arg(n)});
            QVERIFY2(shard.exitCode == 0, qPrintable(describe(shard)));
            QCOMPARE(shard.out.startsWith("run,"), k == 1);
            joined += shard.out;
        }
        QCOMPARE(joined, whole.out);
    }
    const Result bad = runCli(sweep + QStringList{"--shard", "3/2"});
    QVERIFY2(bad.exitCode == 2 && bad.err.contains("--shard 3/2: expected K/N"),
             qPrintable(describe(bad)));
    const Result tooMany = runCli(sweep + QStringList{"--shard", "1/7"});
    QVERIFY2(tooMany.exitCode == 2 && tooMany.err.contains("7 shards for a grid of 6 points"),
             qPrintable(describe(tooMany)));
}

// With --data a grid sweep writes the misfit per point; it is smallest at the example's truth
// (mu = 0.4, 30°), where chi_square equals the fit's at that point, and shards concatenate.
void CliApplicationTest::sweepWithDataMapsTheMisfitLandscape()
{
    const QString data = QStringLiteral(CLAB_SOURCE_DIR "/scenes/measurements/bead-mu0.4.csv");
    const QStringList args{
        "sweep",         "bead-on-wire",  "--set",     "s0=25",    "--param",  "mu",     "--values",
        "0.39,0.4,0.41", "--param",       "angle_deg", "--values", "29,30,31", "--data", data,
        "--map",         "pos_cm=s*0.01", "--sigma",   "0.002"};
    const Result whole = runCli(args);
    QVERIFY2(whole.exitCode == 0, qPrintable(describe(whole)));
    Table table;
    QVERIFY(parseCsv(whole.out, table));
    QCOMPARE(table.header, (QStringList{"mu", "angle_deg", "chi_square", "rms_pos_cm"}));
    QCOMPARE(table.rows.size(), std::size_t(9));
    std::size_t best = 0;
    for (std::size_t k = 0; k < table.rows.size(); ++k)
        if (table.rows[k][2] < table.rows[best][2])
            best = k;
    QCOMPARE(table.rows[best][0], 0.4);
    QCOMPARE(table.rows[best][1], 30.0);
    // σ = 2 mm: χ² of 500 values is about 500, the RMS about 2 mm.
    QVERIFY(table.rows[best][2] > 400 && table.rows[best][2] < 700);
    QVERIFY(std::abs(table.rows[best][3] - 0.002) < 3e-4);
    QByteArray joined;
    for (int k = 1; k <= 3; ++k) {
        const Result shard = runCli(args + QStringList{"--shard", QStringLiteral("%1/3").arg(k)});
        QVERIFY2(shard.exitCode == 0, qPrintable(describe(shard)));
        joined += shard.out;
    }
    QCOMPARE(joined, whole.out);
    const Result columns = runCli(args + QStringList{"--columns", "t,s"});
    QVERIFY2(columns.exitCode == 2 && columns.err.contains("--columns goes with trace output"),
             qPrintable(describe(columns)));
}

// The ring written as equations lets mu_s lie below mu; there its contact can chatter and a
// run fail (Zeno). A fit of mu with mu_s = 0.1 meets such runs: they are rejected steps and
// one-sided differences, not the end of the fit, and the report says how many there were.
void CliApplicationTest::fitGoesOnWhenTrialRunsFail()
{
    QTemporaryDir dir;
    const QString data = dir.filePath("ring.csv");
    const Result truth = runCli({"run", "ring", "--set", "mu=0.3", "--set", "phi0_deg=60",
                                 "--t-end", "3", "--columns", "t,x", "--output", data});
    QVERIFY2(truth.exitCode == 0, qPrintable(describe(truth)));
    const Result r = runCli({"fit", systemFile("ring.json"), "--data", data, "--map", "x=x",
                             "--param", "mu,mu_s", "--set", "phi0_deg=60"});
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    QVERIFY(r.out.contains("iterations: "));
    // Before rejected trials existed this exited with 4 at the first failing run.
}
