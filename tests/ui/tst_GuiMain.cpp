// The desktop program as a user starts it: a bad scene file opens the window anyway, with the
// reason in the banner; a screenshot that cannot be written says so and exits 1.
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include "../support/DeviceNodes.h"
#include "../support/ProcessRunner.h"

namespace {

const QString gui = QStringLiteral(CLAB_BINARY_DIR "/app/constraintlab");

using Result = clab::testing::ProcessResult;

Result runGui(const QStringList& args)
{
    return clab::testing::runProcess(gui, args);
}

QString describe(const Result& r)
{
    return r.describe();
}

} // namespace

class GuiMainTest : public QObject {
    Q_OBJECT

private slots:
    void badSceneFileOpensTheDefaultSceneAndSaysWhy();
    void screenshotOfABadSceneFileExitsWithThree();
    void screenshotOntoAFullDeviceExitsWithOne();
    void screenshotOntoANullDeviceKeepsTheDevice();
    void screenshotAfterTheEndOfTheTrackSaysWhereTheRunEnded();
    void screenshotTooLargeForTheMemoryIsRefusedBeforeRendering();
    void versionAndHelpNeedNoDisplay();
    void largeTextOptionStartsTheWindowWithLargeText();
    void presentStartsFullScreenInPresentationMode();
    void badLessonOnTheCommandLineNamesKeyAndReason();
};

void GuiMainTest::badSceneFileOpensTheDefaultSceneAndSaysWhy()
{
    QTemporaryDir dir;
    const QString scene = dir.filePath("broken.json");
    QFile file(scene);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"format": 1, "scene": "ring", "parameters": {"mu": 5, "mu": 0.2}})");
    file.close();
    const QString image = dir.filePath("window.png");
    // --grab-window shows the window a user gets and saves what the screen shows.
    const Result r = runGui({scene, "--grab-window", image, "--size", "1280x800"});
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    QVERIFY2(r.err.contains(scene) && r.err.contains("duplicate key \"mu\""), qPrintable(r.err));
    const QImage grabbed(image);
    QVERIFY(!grabbed.isNull());
    QVERIFY(grabbed.width() >= 1000);
}

void GuiMainTest::screenshotOfABadSceneFileExitsWithThree()
{
    QTemporaryDir dir;
    const QString scene = dir.filePath("missing.json");
    const Result r = runGui({scene, "--screenshot", dir.filePath("x.png")});
    QVERIFY2(r.exitCode == 3, qPrintable(describe(r)));
    QVERIFY2(r.err.contains(scene), qPrintable(r.err));
    QVERIFY(!QFile::exists(dir.filePath("x.png")));
}

void GuiMainTest::screenshotOntoAFullDeviceExitsWithOne()
{
    QTemporaryDir dir;
    const QString full = dir.filePath("full");
    if (!clab::testing::makeDevice(full, 7))
        QSKIP("mknod needs root");
    const Result r = runGui({"ring", "--screenshot", full, "--size", "320x200"});
    QVERIFY2(r.exitCode == 1, qPrintable(describe(r)));
    QVERIFY2(r.err.contains("No space left on device"), qPrintable(r.err));
}

void GuiMainTest::screenshotOntoANullDeviceKeepsTheDevice()
{
    QTemporaryDir dir;
    const QString null = dir.filePath("null");
    if (!clab::testing::makeDevice(null, 3))
        QSKIP("mknod needs root");
    const Result r = runGui({"ring", "--screenshot", null, "--size", "320x200"});
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    QVERIFY(clab::testing::isCharacterDevice(null));
}

// Issue 34: --size 16384x16384 under a 4 GB limit died of SIGSEGV or bad_alloc while
// rendering; it is refused first, with the sizes (exit 2), and no file is written.
void GuiMainTest::screenshotTooLargeForTheMemoryIsRefusedBeforeRendering()
{
    const QString prlimit = QStandardPaths::findExecutable(QStringLiteral("prlimit"));
    if (prlimit.isEmpty())
        QSKIP("prlimit (util-linux) is not installed");
    QTemporaryDir dir;
    const QString image = dir.filePath("huge.png");
    const Result r = clab::testing::runProcess(
        prlimit, {"--as=4294967296", gui, "ring", "--screenshot", image, "--size", "16384x16384"});
    QVERIFY2(r.exitCode == 2, qPrintable(describe(r)));
    QVERIFY2(
        r.err.contains("--size 16384x16384: rendering an image of this size needs about 5.4 GB"),
        qPrintable(r.err));
    QVERIFY(!QFile::exists(image));
}

void GuiMainTest::screenshotAfterTheEndOfTheTrackSaysWhereTheRunEnded()
{
    // The built-in bead stops at the foot of its wire (t = 1.117 s): a later --time is refused
    // with the reason, not just a span shorter than the file's t_end.
    QTemporaryDir dir;
    const QString image = dir.filePath("late.png");
    const Result r = runGui({"bead-on-wire", "--screenshot", image, "--time", "1.5"});
    QVERIFY2(r.exitCode == 2, qPrintable(describe(r)));
    QVERIFY2(r.err.contains("outside the simulated span [0, 1.11701] s") &&
                 r.err.contains("the run ends at t = 1.11701 s, where the bead reaches the foot"),
             qPrintable(r.err));
    QVERIFY(!QFile::exists(image));
}

void GuiMainTest::versionAndHelpNeedNoDisplay()
{
    // On a machine without X (a server, a package build making the man pages) the text
    // options still answer, and both programs give the one version of the project.
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.remove(QStringLiteral("DISPLAY"));
    environment.remove(QStringLiteral("WAYLAND_DISPLAY"));
    environment.remove(QStringLiteral("QT_QPA_PLATFORM"));
    const Result version = clab::testing::runProcess(gui, {"--version"}, environment);
    QVERIFY2(version.exitCode == 0, qPrintable(describe(version)));
    QCOMPARE(QString::fromUtf8(version.out), QStringLiteral("ConstraintLab " CLAB_VERSION "\n"));
    const Result cliVersion = clab::testing::runProcess(
        QStringLiteral(CLAB_BINARY_DIR "/app/constraintlab-cli"), {"--version"}, environment);
    QCOMPARE(QString::fromUtf8(cliVersion.out),
             QStringLiteral("constraintlab-cli " CLAB_VERSION "\n"));
    const Result help = clab::testing::runProcess(gui, {"--help"}, environment);
    QVERIFY2(help.exitCode == 0, qPrintable(describe(help)));
    QVERIFY(help.out.contains("--screenshot"));
    QVERIFY(help.out.contains("--large-text"));
}

void GuiMainTest::largeTextOptionStartsTheWindowWithLargeText()
{
    // The window a teacher gets with --large-text, in settings of its own.
    QTemporaryDir dir;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.path());
    const QString image = dir.filePath("window.png");
    const Result r = clab::testing::runProcess(
        gui, {"--large-text", "--grab-window", image, "--size", "1024x768"}, environment);
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    QCOMPARE(QImage(image).size(), QSize(1024, 768));
}

void GuiMainTest::presentStartsFullScreenInPresentationMode()
{
    QTemporaryDir dir;
    // The window asked for is 1024×768; presentation mode fills the test's 1920×1080 screen.
    for (const QString& what :
         {QStringLiteral("ring"),
          QStringLiteral(CLAB_SOURCE_DIR "/scenes/lessons/ring-sliding-sticking-energy.json")}) {
        const QString image = dir.filePath("present.png");
        QFile::remove(image);
        const Result r = runGui(
            {what, "--present", "--grab-window", image, "--size", "1024x768", "--time", "1"});
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        const QImage grabbed(image);
        QCOMPARE(grabbed.size(), QSize(1920, 1080));
    }
    const Result both = runGui({"ring", "--present", "--screenshot", dir.filePath("x.png")});
    QCOMPARE(both.exitCode, 2);
    QVERIFY(runGui({"--help"}).out.contains("--present"));
}

void GuiMainTest::badLessonOnTheCommandLineNamesKeyAndReason()
{
    QTemporaryDir dir;
    const QString lesson = dir.filePath("lesson.json");
    QFile file(lesson);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"lesson": 1, "steps": [{"scene": "ring", "plot": "nope"}]})");
    file.close();
    const Result r = runGui({lesson, "--grab-window", dir.filePath("w.png")});
    QCOMPARE(r.exitCode, 3);
    QVERIFY2(r.err.contains("steps[0].plot") && r.err.contains("unknown plot"), qPrintable(r.err));
}

QTEST_GUILESS_MAIN(GuiMainTest)
#include "tst_GuiMain.moc"
