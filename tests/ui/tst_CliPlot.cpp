// `constraintlab-cli plot`: the built executable writes real PNG/SVG/PDF plots of a scene,
// rejects what it cannot write, and says what to do when there is no display for OpenGL.
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>

#include "../support/DeviceNodes.h"
#include "../support/ProcessRunner.h"

namespace {

const QString cli = QStringLiteral(CLAB_BINARY_DIR "/app/constraintlab-cli");

using Result = clab::testing::ProcessResult;

Result runCli(const QStringList& args,
              const QProcessEnvironment& environment = QProcessEnvironment::systemEnvironment())
{
    return clab::testing::runProcess(cli, args, environment);
}

QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class TestCliPlot : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void plotWritesAPngOfTheRequestedSize();
    void plotWritesAnSvgWithTheSeries();
    void plotWritesAPdf();
    void unknownSuffixIsAUsageError();
    void noDisplayFailsWithAHint();
    void plotThroughALinkToADeviceIsWrittenInPlace_data();
    void plotThroughALinkToADeviceIsWrittenInPlace();

private:
    QTemporaryDir dir_;
};

void TestCliPlot::initTestCase()
{
    QVERIFY2(QFile::exists(cli), qPrintable(cli + " has not been built"));
    QVERIFY(dir_.isValid());
}

void TestCliPlot::plotWritesAPngOfTheRequestedSize()
{
    const QString path = dir_.filePath("energy.png");
    const Result r = runCli({"plot", "bead-on-wire", "--y", "E,T,V", "--output", path});
    QVERIFY2(r.exitCode == 0, qPrintable(QString::number(r.exitCode) + ": " + r.err));
    const QImage image(path);
    QVERIFY2(!image.isNull(), qPrintable(path + " is not a PNG"));
    QCOMPARE(image.size(), QSize(1200, 800)); // PlotRequest's default size
    // Not blank: some clearly coloured pixels (the curves).
    int coloured = 0;
    for (int y = 0; y < image.height(); y += 2) {
        for (int x = 0; x < image.width(); x += 2) {
            coloured += QColor(image.pixel(x, y)).hsvSaturation() > 120 ? 1 : 0;
        }
    }
    QVERIFY2(coloured > 200, qPrintable(QString::number(coloured)));
}

void TestCliPlot::plotWritesAnSvgWithTheSeries()
{
    const QString path = dir_.filePath("energy.svg");
    const Result r = runCli({"plot", "bead-on-wire", "--y", "E,T,V", "--output", path});
    QVERIFY2(r.exitCode == 0, qPrintable(QString::number(r.exitCode) + ": " + r.err));
    QXmlStreamReader xml(readAll(path));
    QStringList texts;
    while (!xml.atEnd()) {
        if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == u"text") {
            texts << xml.readElementText(QXmlStreamReader::IncludeChildElements);
        }
    }
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    for (const char* series : {"E", "T", "V"}) {
        QVERIFY2(texts.contains(QString::fromLatin1(series)), qPrintable(texts.join(" | ")));
    }
}

void TestCliPlot::plotWritesAPdf()
{
    const QString path = dir_.filePath("energy.pdf");
    const Result r = runCli({"plot", "bead-on-wire", "--y", "E,T,V", "--output", path});
    QVERIFY2(r.exitCode == 0, qPrintable(QString::number(r.exitCode) + ": " + r.err));
    QVERIFY(readAll(path).startsWith("%PDF"));
}

void TestCliPlot::unknownSuffixIsAUsageError()
{
    const QString path = dir_.filePath("energy.bmp");
    const Result r = runCli({"plot", "bead-on-wire", "--y", "E,T,V", "--output", path});
    QCOMPARE(r.exitCode, 2);
    // Qt may warn on stderr first (XDG_RUNTIME_DIR): look for the CLI's own line.
    QVERIFY2(r.err.contains("constraintlab-cli: ") && r.err.contains(".png, .svg or .pdf"),
             qPrintable(r.err));
    QVERIFY(!QFileInfo::exists(path));
}

void TestCliPlot::noDisplayFailsWithAHint()
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.remove("DISPLAY");
    environment.remove("WAYLAND_DISPLAY");
    environment.remove("QT_QPA_PLATFORM");
    const QString path = dir_.filePath("nodisplay.png");
    const Result r =
        runCli({"plot", "bead-on-wire", "--y", "E,T,V", "--output", path}, environment);
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("xvfb-run"), qPrintable(r.err));
    QVERIFY(!QFileInfo::exists(path));
}

void TestCliPlot::plotThroughALinkToADeviceIsWrittenInPlace_data()
{
    QTest::addColumn<QString>("suffix");
    QTest::newRow("png") << "png";
    QTest::newRow("svg") << "svg";
    QTest::newRow("pdf") << "pdf";
}

// A plot file name that links to /dev/null or /dev/full (private copies): the device is written
// in place and stays a device; a full one fails with exit 1 and the system's reason.
void TestCliPlot::plotThroughALinkToADeviceIsWrittenInPlace()
{
    QFETCH(QString, suffix);
    QTemporaryDir dir;
    const QString null = dir.filePath("null"), full = dir.filePath("full");
    if (!clab::testing::makeDevice(null, 3) || !clab::testing::makeDevice(full, 7))
        QSKIP("mknod needs root");
    const QString toNull = dir.filePath("plot." + suffix), toFull = dir.filePath("full." + suffix);
    QVERIFY(QFile::link(null, toNull) && QFile::link(full, toFull));
    const Result ok = runCli({"plot", "ring", "--preset", "energy", "--output", toNull});
    QVERIFY2(ok.exitCode == 0, qPrintable(QString::number(ok.exitCode) + ": " + ok.err));
    QVERIFY(clab::testing::isCharacterDevice(null));
    const Result failed = runCli({"plot", "ring", "--preset", "energy", "--output", toFull});
    QVERIFY2(failed.exitCode == 1,
             qPrintable(QString::number(failed.exitCode) + ": " + failed.err));
    QVERIFY2(failed.err.contains("No space left on device"), qPrintable(failed.err));
    QVERIFY(clab::testing::isCharacterDevice(full));
}

QTEST_GUILESS_MAIN(TestCliPlot)
#include "tst_CliPlot.moc"
