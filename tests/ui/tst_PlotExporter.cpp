// Plot export to PNG, SVG and PDF: the files are what they claim to be, show the data, and a
// failed export leaves the target alone.
#include <plots/PlotBuilder.h>
#include <plots/PlotChart.h>
#include <plots/PlotExporter.h>
#include <render/OffscreenRenderWindow.h>
#include <render/VtkSurfaceFormat.h>

#include <SceneFile.h>
#include <integrate/Simulator.h>
#include <scenes/SceneRegistry.h>
#include <trace/PlotCatalog.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>

#include <vtkChartLegend.h>
#include <vtkChartXY.h>
#include <vtkContextView.h>

#include "../support/ImageBaseline.h"
#include "../support/PdfText.h"
#include "../support/PlotSamples.h"

#include <cctype>
#include <cmath>
#include <numbers>
#include <unistd.h>

using namespace clab;

namespace {

using testing::pdfWords;
using testing::runTool;
using testing::sinesEverywhere;

const bool surfaceFormatSet = [] {
    VtkSurfaceFormat::makeDefault();
    return true;
}();

// Okabe–Ito blue and vermillion: hues far apart and far from the grey axes and cursor.
const QColor kBlue(0x00, 0x72, 0xB2);
const QColor kOrange(0xD5, 0x5E, 0x00);

PlotData sineAndCosine()
{
    PlotData data;
    data.title = QStringLiteral("Test signals");
    data.xTitle = QStringLiteral("t [s]");
    data.yTitle = QStringLiteral("amplitude [m]");
    PlotCurve sine{QStringLiteral("sine wave"), {}, {}, kBlue, Qt::SolidLine, 2.0};
    PlotCurve cosine{QStringLiteral("cosine wave"), {}, {}, kOrange, Qt::DashLine, 2.0};
    for (int i = 0; i <= 200; ++i) {
        const double t = 0.01 * i;
        sine.x.push_back(t);
        sine.y.push_back(std::sin(2.0 * std::numbers::pi * t));
        cosine.x.push_back(t);
        cosine.y.push_back(std::cos(2.0 * std::numbers::pi * t));
    }
    data.curves = {sine, cosine};
    return data;
}

/// A clearly coloured pixel whose hue is within `hueTolerance` degrees of `color`'s.
bool hasHue(QRgb pixel, const QColor& color, int hueTolerance = 12)
{
    const QColor c(pixel);
    if (c.hsvSaturation() < 120 || c.value() < 60) {
        return false;
    }
    int dh = std::abs(c.hsvHue() - color.hsvHue());
    dh = std::min(dh, 360 - dh);
    return dh <= hueTolerance;
}

int countPixelsOfHue(const QImage& image, const QColor& color)
{
    int count = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            count += hasHue(image.pixel(x, y), color) ? 1 : 0;
        }
    }
    return count;
}

QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

const QSize kBaselineSize(800, 500);

/// The default bead-on-wire document, run as the application runs it, but for a fixed 2 s (past
/// the foot of the wire, where the built-in run stops): 201 samples in every plot.
std::shared_ptr<const Trace> beadOnWireTrace()
{
    SceneDocument document = SceneFile::loadBuiltIn(QStringLiteral("bead-on-wire"));
    document.simulation.tEnd = 2.0;
    document.simulation.stopAtEnd = false;
    std::unique_ptr<MechanicalSystem> system =
        SceneRegistry::find(document.scene)->create(document.parameters);
    Simulator simulator(*system);
    return std::make_shared<const Trace>(simulator.run(document.simulation));
}

QImage renderPng(const QString& path, const PlotExporter::Options& options)
{
    QString error;
    if (!PlotExporter::write(sineAndCosine(), path, options, &error)) {
        qWarning("%s", qPrintable(error));
        return {};
    }
    return QImage(path);
}

/// Renders `chart` offscreen at `size` (two frames, like an export) and returns the legend.
vtkChartLegend* renderedLegend(PlotChart& chart, OffscreenRenderWindow& window, const QSize& size)
{
    if (chart.view()->GetRenderWindow() != window.window()) {
        chart.view()->SetRenderWindow(window.window());
    }
    window.render(size);
    window.render(size);
    return chart.chart()->GetLegend();
}

} // namespace

class TestPlotExporter : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void formatComesFromTheSuffixInAnyCase();
    void pngHasTheLogicalSizeTimesTheScale();
    void pngShowsEveryCurveInItsColour();
    void scaleThickensTheLines();
    void cursorIsAThinVerticalLine();
    void logAxisDrawsAnExponentialAsAStraightLine();
    void svgIsXmlWithTheSeriesAsTextAndPaths();
    void tickLabelsNeverOverlapAtAnyScale_data();
    void tickLabelsNeverOverlapAtAnyScale();
    void svgBackgroundIsOpaqueWhite();
    void compareModePdfSpellsEveryLabelInAscii();
    void exportKeepsTheScreensRange();
    void legendGoesAboveTheCurvesWhenTheyCoverEveryCorner();
    void legendKeepsItsSizeInASmallPlotAndFollowsAResize();
    void legendTakesTheCornerTheCurvesLeaveFree_data();
    void legendTakesTheCornerTheCurvesLeaveFree();
    void pdfIsSmallValidAndKeepsTheLabelsAsText_data();
    void pdfIsSmallValidAndKeepsTheLabelsAsText();
    void pdfTextWithPdfSyntaxStaysText();
    void pdfTextIsAsciiWithNormsAsWords_data();
    void pdfTextIsAsciiWithNormsAsWords();
    void exportReplacesAnExistingFileAndLeavesNoTemporaries();
    void unknownSuffixFailsAndLeavesTheTargetAlone();
    void missingDirectoryFailsNamingThePath();
    void sizeBeyondOpenGLFailsNamingTheLimit();
    void readOnlyDirectoryLeavesTheExistingFileUnchanged();
    void presetPlotsMatchTheirBaselines_data();
    void presetPlotsMatchTheirBaselines();

private:
    QTemporaryDir dir_;
};

void TestPlotExporter::initTestCase()
{
    QVERIFY(surfaceFormatSet);
    QVERIFY(dir_.isValid());
}

void TestPlotExporter::formatComesFromTheSuffixInAnyCase()
{
    PlotExporter::Format format = PlotExporter::Format::Png;
    QVERIFY(PlotExporter::formatForPath("a/b.SVG", &format));
    QCOMPARE(format, PlotExporter::Format::Svg);
    QVERIFY(PlotExporter::formatForPath("plot.pdf", &format));
    QCOMPARE(format, PlotExporter::Format::Pdf);
    QVERIFY(PlotExporter::formatForPath("plot.Png", &format));
    QCOMPARE(format, PlotExporter::Format::Png);
    QVERIFY(!PlotExporter::formatForPath("plot.jpg", &format));
    QVERIFY(!PlotExporter::formatForPath("plot", &format));
}

void TestPlotExporter::pngHasTheLogicalSizeTimesTheScale()
{
    PlotExporter::Options options;
    options.size = QSize(600, 400);
    options.scale = 2.0;
    const QImage image = renderPng(dir_.filePath("scaled.png"), options);
    QVERIFY(!image.isNull());
    QCOMPARE(image.size(), QSize(1200, 800));
    options.scale = 1.0;
    QCOMPARE(renderPng(dir_.filePath("unscaled.png"), options).size(), QSize(600, 400));
}

void TestPlotExporter::pngShowsEveryCurveInItsColour()
{
    PlotExporter::Options options;
    options.size = QSize(600, 400);
    const QImage image = renderPng(dir_.filePath("colours.png"), options);
    QVERIFY(!image.isNull());
    // A 2 px line across most of a ~500 px wide plot area covers well over 500 pixels.
    const int blue = countPixelsOfHue(image, kBlue);
    const int orange = countPixelsOfHue(image, kOrange);
    QVERIFY2(blue > 500, qPrintable(QString::number(blue)));
    QVERIFY2(orange > 300, qPrintable(QString::number(orange))); // dashed: about half inked
    // The background is white: the corner pixel.
    QCOMPARE(QColor(image.pixel(2, 2)), QColor(Qt::white));
}

void TestPlotExporter::scaleThickensTheLines()
{
    // At scale 2 a line is twice as long and twice as wide: about four times the pixels. Without
    // the width scaling it would be about twice.
    PlotExporter::Options options;
    options.size = QSize(600, 400);
    const int one = countPixelsOfHue(renderPng(dir_.filePath("s1.png"), options), kBlue);
    options.scale = 2.0;
    const int two = countPixelsOfHue(renderPng(dir_.filePath("s2.png"), options), kBlue);
    QVERIFY(one > 0);
    const double ratio = static_cast<double>(two) / one;
    QVERIFY2(ratio > 3.0 && ratio < 5.5, qPrintable(QString::number(ratio)));
}

void TestPlotExporter::cursorIsAThinVerticalLine()
{
    PlotExporter::Options options;
    options.size = QSize(600, 400);
    const QImage plain = renderPng(dir_.filePath("nocursor.png"), options);
    options.cursor = 1.0;
    const QImage withCursor = renderPng(dir_.filePath("cursor.png"), options);
    QVERIFY(!plain.isNull() && !withCursor.isNull());
    int left = plain.width();
    int right = -1;
    int top = plain.height();
    int bottom = -1;
    for (int y = 0; y < plain.height(); ++y) {
        for (int x = 0; x < plain.width(); ++x) {
            if (plain.pixel(x, y) != withCursor.pixel(x, y)) {
                left = std::min(left, x);
                right = std::max(right, x);
                top = std::min(top, y);
                bottom = std::max(bottom, y);
            }
        }
    }
    QVERIFY2(right >= 0, "the cursor changed nothing");
    QVERIFY2(right - left <= 6, qPrintable(QStringLiteral("cursor %1 px wide").arg(right - left)));
    QVERIFY2(bottom - top > plain.height() / 2,
             qPrintable(QStringLiteral("cursor only %1 px tall").arg(bottom - top)));
    // t = 1 s is the middle of 0..2 s: the line is near the middle of the plot area.
    QVERIFY2(std::abs(left - plain.width() / 2) < plain.width() / 6,
             qPrintable(QStringLiteral("cursor at x = %1 px").arg(left)));
}

void TestPlotExporter::logAxisDrawsAnExponentialAsAStraightLine()
{
    // y = 10^(3t) on a log axis is a straight line: the curve's pixel column centres lie on a line
    // through its two ends. On a linear axis the same curve bends far away from that chord.
    PlotData data;
    data.title = QStringLiteral("Exponential");
    data.xTitle = QStringLiteral("t [s]");
    data.yTitle = QStringLiteral("y");
    data.logY = true;
    PlotCurve curve{QStringLiteral("10^(3t)"), {}, {}, kBlue, Qt::SolidLine, 2.0};
    for (int i = 0; i <= 100; ++i) {
        curve.x.push_back(0.02 * i);
        curve.y.push_back(std::pow(10.0, 3.0 * 0.02 * i));
    }
    data.curves = {curve};
    const auto chordDeviation = [&](const QString& name) {
        PlotExporter::Options options;
        options.size = QSize(600, 400);
        QString error;
        if (!PlotExporter::write(data, dir_.filePath(name), options, &error)) {
            qWarning("%s", qPrintable(error));
            return -1.0;
        }
        const QImage image(dir_.filePath(name));
        std::vector<std::pair<int, double>> centres; // column, mean row of curve pixels
        for (int x = 0; x < image.width(); ++x) {
            double sum = 0.0;
            int n = 0;
            for (int y = 0; y < image.height(); ++y) {
                if (hasHue(image.pixel(x, y), kBlue)) {
                    sum += y;
                    ++n;
                }
            }
            if (n > 0 && n < 12) { // skip the legend symbol's columns (they add a few pixels)
                centres.emplace_back(x, sum / n);
            }
        }
        if (centres.size() < 100) {
            return -1.0;
        }
        // Drop the ends (legend symbol may sit there) and measure against the chord.
        const auto [x0, y0] = centres[centres.size() / 10];
        const auto [x1, y1] = centres[centres.size() * 9 / 10];
        double worst = 0.0;
        for (std::size_t i = centres.size() / 10; i <= centres.size() * 9 / 10; ++i) {
            const auto [x, y] = centres[i];
            const double chord = y0 + (y1 - y0) * (x - x0) / static_cast<double>(x1 - x0);
            worst = std::max(worst, std::abs(y - chord));
        }
        return worst;
    };
    const double logDeviation = chordDeviation("log.png");
    QVERIFY2(logDeviation >= 0.0 && logDeviation < 4.0, qPrintable(QString::number(logDeviation)));
    data.logY = false;
    const double linearDeviation = chordDeviation("linear.png");
    QVERIFY2(linearDeviation > 40.0, qPrintable(QString::number(linearDeviation)));
}

void TestPlotExporter::svgIsXmlWithTheSeriesAsTextAndPaths()
{
    const QString path = dir_.filePath("plot.svg");
    QString error;
    PlotExporter::Options options;
    options.size = QSize(800, 500);
    QVERIFY2(PlotExporter::write(sineAndCosine(), path, options, &error), qPrintable(error));
    QXmlStreamReader xml(readAll(path));
    QStringList texts;
    int shapes = 0;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement()) {
            const QStringView name = xml.name();
            if (name == u"path" || name == u"polyline" || name == u"line" || name == u"polygon") {
                ++shapes;
            } else if (name == u"text") {
                texts << xml.readElementText(QXmlStreamReader::IncludeChildElements);
            }
        }
    }
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    QVERIFY2(texts.contains("sine wave") && texts.contains("cosine wave"),
             qPrintable(texts.join(" | ")));
    QVERIFY2(texts.contains("Test signals"), qPrintable(texts.join(" | ")));
    QVERIFY2(shapes > 50, qPrintable(QString::number(shapes)));
}

void TestPlotExporter::tickLabelsNeverOverlapAtAnyScale_data()
{
    QTest::addColumn<QString>("preset");
    QTest::addColumn<double>("scale");
    for (const char* preset : {"energy", "forces"}) {
        for (double scale : {1.0, 2.0, 4.0}) {
            QTest::newRow(QStringLiteral("%1 x%2").arg(preset).arg(scale).toUtf8().constData())
                << QString::fromLatin1(preset) << scale;
        }
    }
}

void TestPlotExporter::tickLabelsNeverOverlapAtAnyScale()
{
    // The numbers along both axes, as SVG text: their boxes (width from DejaVu Sans' advance
    // widths, height the font size) are disjoint, and there are enough of them to read values.
    QFETCH(QString, preset);
    QFETCH(double, scale);
    const auto trace = beadOnWireTrace();
    const std::vector<PlotSpec> presets = PlotCatalog::presets(*trace);
    const PlotData data =
        PlotBuilder::build(*PlotCatalog::find(presets, preset.toStdString()), {{"", trace}});
    const QString path = dir_.filePath(QStringLiteral("ticks.svg"));
    PlotExporter::Options options;
    options.size = QSize(600, 400);
    options.scale = scale;
    QString error;
    QVERIFY2(PlotExporter::write(data, path, options, &error), qPrintable(error));

    struct Label {
        QString text;
        QRectF box;
    };
    std::vector<Label> labels;
    QXmlStreamReader xml(readAll(path));
    while (!xml.atEnd()) {
        xml.readNext();
        if (!xml.isStartElement() || xml.name() != u"text")
            continue;
        const auto attributes = xml.attributes();
        const double x = attributes.value(QLatin1String("x")).toDouble();
        // GL2PS sets the baseline with dy, relative to y.
        const double y = attributes.value(QLatin1String("y")).toDouble() +
                         attributes.value(QLatin1String("dy")).toDouble();
        const double size = attributes.value(QLatin1String("font-size")).toDouble();
        const QString anchor = attributes.value(QLatin1String("text-anchor")).toString();
        const QString text = xml.readElementText(QXmlStreamReader::IncludeChildElements);
        bool number = false;
        text.toDouble(&number);
        if (!number)
            continue;
        QVERIFY2(size > 0.0, qPrintable(text));
        double width = 0.0;
        for (QChar c : text)
            width += (c.isDigit() ? 0.636 : c == u'.' ? 0.318 : c == u'-' ? 0.361 : 0.615) * size;
        const double left = anchor == u"middle" ? x - width / 2 : anchor == u"end" ? x - width : x;
        // From the baseline: DejaVu Sans rises 0.76 em above it and drops 0.24 em below.
        labels.push_back({text, QRectF(left, y - 0.76 * size, width, size)});
    }
    QVERIFY2(labels.size() >= 6, qPrintable(QString::number(labels.size())));
    for (std::size_t i = 0; i < labels.size(); ++i) {
        for (std::size_t j = i + 1; j < labels.size(); ++j) {
            QVERIFY2(!labels[i].box.intersects(labels[j].box),
                     qPrintable(QStringLiteral("\"%1\" and \"%2\" overlap")
                                    .arg(labels[i].text, labels[j].text)));
        }
    }
}

void TestPlotExporter::svgBackgroundIsOpaqueWhite()
{
    // Drawn onto a transparent canvas (as a dark-themed viewer does), the plot is white paper.
    const QString path = dir_.filePath(QStringLiteral("paper.svg"));
    PlotExporter::Options options;
    options.size = QSize(400, 300);
    QString error;
    QVERIFY2(PlotExporter::write(sineAndCosine(), path, options, &error), qPrintable(error));
    QSvgRenderer svg(path);
    QVERIFY(svg.isValid());
    QImage canvas(400, 300, QImage::Format_ARGB32);
    canvas.fill(Qt::transparent);
    QPainter painter(&canvas);
    svg.render(&painter);
    painter.end();
    for (const QPoint corner : {QPoint(1, 1), QPoint(398, 1), QPoint(1, 298), QPoint(398, 298)})
        QCOMPARE(QColor::fromRgba(canvas.pixel(corner)), QColor(Qt::white));
}

void TestPlotExporter::compareModePdfSpellsEveryLabelInAscii()
{
    // Compare mode draws its legend from separate entries (one per quantity, one per run):
    // these too reach the PDF as text in their ASCII spelling ("norm(Q) ... mu = 0.3"), never
    // as UTF-8 bytes through Helvetica ("‚Äñ") nor as a MathText path.
    const auto first = beadOnWireTrace();
    const std::vector<PlotSpec> presets = PlotCatalog::presets(*first);
    const PlotData data = PlotBuilder::build(*PlotCatalog::find(presets, "forces"),
                                             {{"mu = 0.2", first}, {"mu = 0.3", first}});
    QVERIFY(!data.legend.empty());
    const QString path = dir_.filePath(QStringLiteral("compare.pdf"));
    QString error;
    QVERIFY2(PlotExporter::write(data, path, {}, &error), qPrintable(error));
    const QString words = pdfWords(path);
    QVERIFY2(!words.isEmpty(), "pdftotext (poppler-utils) read nothing");
    for (const PlotLegendEntry& entry : data.legend) {
        const QString ascii = PlotExporter::pdfText(entry.label);
        QVERIFY2(words.contains(ascii.simplified()), qPrintable(ascii + " not in: " + words));
    }
    QVERIFY2(words.contains(QStringLiteral("norm(")), qPrintable(words));
    for (const QChar c : words)
        QVERIFY2(c.unicode() < 0x80, qPrintable(words));
}

void TestPlotExporter::exportKeepsTheScreensRange()
{
    // A plot zoomed on screen is exported with the same axis ranges: the y axis of a file shows
    // what the screen showed, not what a fresh fit at another size would.
    PlotExporter::Options options;
    options.size = QSize(500, 400);
    options.range = {0.5, 1.5, -0.25, 0.75};
    const QString path = dir_.filePath(QStringLiteral("zoomed.svg"));
    QString error;
    QVERIFY2(PlotExporter::write(sineAndCosine(), path, options, &error), qPrintable(error));
    QXmlStreamReader xml(readAll(path));
    QStringList numbers;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement() && xml.name() == u"text") {
            const QString text = xml.readElementText(QXmlStreamReader::IncludeChildElements);
            bool number = false;
            const double value = text.toDouble(&number);
            if (number) {
                numbers << text;
                QVERIFY2(value >= -0.25 - 1e-9 && value <= 1.5 + 1e-9, qPrintable(text));
            }
        }
    }
    // The zoomed y range has ticks inside it only: 0.5 is there, 1 and -1 are not.
    QVERIFY2(numbers.contains(QStringLiteral("0.5")) || numbers.contains(QStringLiteral("0.50")),
             qPrintable(numbers.join(' ')));
    QVERIFY2(!numbers.contains(QStringLiteral("-1.0")) && !numbers.contains(QStringLiteral("-1")),
             qPrintable(numbers.join(' ')));
}

void TestPlotExporter::legendGoesAboveTheCurvesWhenTheyCoverEveryCorner()
{
    // Sines fill the whole plot area: any spot inside would hide data, so the y axis reaches
    // higher than the data and the legend, at full size, takes the band left free on top.
    PlotChart chart;
    chart.setData(sinesEverywhere(4));
    OffscreenRenderWindow window;
    vtkChartLegend* legend = renderedLegend(chart, window, QSize(1200, 800));
    QVERIFY(legend->GetInline());
    QCOMPARE(legend->GetVerticalAlignment(), int(vtkChartLegend::TOP));
    QVERIFY(chart.legendHeadroom() > 0.0);
    QVERIFY(chart.viewRange()[3] > 1.0 + chart.legendHeadroom()); // the sines reach 1
    QCOMPARE(legend->GetLabelSize(), 14);
}

void TestPlotExporter::legendKeepsItsSizeInASmallPlotAndFollowsAResize()
{
    // Ten entries in a 360x300 plot (a narrow dock): beside the plot the legend would squeeze
    // the curves to nothing, so it takes a deeper band on top, its text at full size. The same
    // chart placed at 1200x800 first lays the legend out again when its window shrinks.
    PlotChart chart;
    chart.setData(sinesEverywhere(10));
    OffscreenRenderWindow window;
    vtkChartLegend* legend = renderedLegend(chart, window, QSize(1200, 800));
    QVERIFY(legend->GetInline());
    const double wide = chart.legendHeadroom();
    QVERIFY(wide > 0.0);
    legend = renderedLegend(chart, window, QSize(360, 300));
    QVERIFY(legend->GetInline());
    QCOMPARE(legend->GetLabelSize(), 14);
    QVERIFY2(chart.legendHeadroom() > wide, qPrintable(QString::number(chart.legendHeadroom())));
    legend = renderedLegend(chart, window, QSize(1200, 800));
    QCOMPARE(chart.legendHeadroom(), wide);
    QCOMPARE(legend->GetLabelSize(), 14);
}

void TestPlotExporter::legendTakesTheCornerTheCurvesLeaveFree_data()
{
    QTest::addColumn<double>("rate");
    QTest::addColumn<int>("horizontal");
    // A decay fills the left and the bottom: the top right is free. A growth fills the bottom
    // and the right: the top left is free.
    QTest::newRow("decay") << -1.0 << int(vtkChartLegend::RIGHT);
    QTest::newRow("growth") << 1.0 << int(vtkChartLegend::LEFT);
}

void TestPlotExporter::legendTakesTheCornerTheCurvesLeaveFree()
{
    QFETCH(double, rate);
    QFETCH(int, horizontal);
    PlotData data;
    data.xTitle = QStringLiteral("t [s]");
    data.yTitle = QStringLiteral("E [J]");
    PlotCurve curve{QStringLiteral("energy"), {}, {}, kBlue};
    for (int i = 0; i <= 500; ++i) {
        const double t = 0.02 * i;
        curve.x.push_back(t);
        curve.y.push_back(std::exp(rate * (rate < 0 ? t : t - 10.0)));
    }
    data.curves = {curve};
    PlotChart chart;
    chart.setData(data);
    OffscreenRenderWindow window;
    vtkChartLegend* legend = renderedLegend(chart, window, QSize(800, 500));
    QVERIFY(legend->GetInline());
    QCOMPARE(legend->GetHorizontalAlignment(), horizontal);
    QCOMPARE(legend->GetVerticalAlignment(), int(vtkChartLegend::TOP));
    QCOMPARE(legend->GetLabelSize(), 14);
}

void TestPlotExporter::pdfIsSmallValidAndKeepsTheLabelsAsText_data()
{
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QString>("spelled");
    QTest::newRow("energy") << QStringLiteral("energy") << QStringLiteral("E - E0 - W_nonideal");
    // "‖Q‖" as a word: with a "|" VTK would take the label for MathText and draw it as a path.
    QTest::newRow("forces") << QStringLiteral("forces") << QStringLiteral("norm(Q)");
}

void TestPlotExporter::pdfIsSmallValidAndKeepsTheLabelsAsText()
{
    // Bead-on-wire plots at the default 1200x800: a valid PDF (qpdf), every stream compressed,
    // the curves as vectors and every label as text a reader can search (pdftotext).
    QFETCH(QString, preset);
    QFETCH(QString, spelled);
    const auto trace = beadOnWireTrace();
    const std::vector<PlotSpec> presets = PlotCatalog::presets(*trace);
    const PlotSpec* spec = PlotCatalog::find(presets, preset.toStdString());
    QVERIFY(spec != nullptr);
    const PlotData data = PlotBuilder::build(*spec, {{"", trace}});
    QVERIFY(data.curves.size() >= 3);
    const QString path = dir_.filePath(preset + ".pdf");
    QString error;
    QVERIFY2(PlotExporter::write(data, path, {}, &error), qPrintable(error));
    const QByteArray pdf = readAll(path);
    QVERIFY2(pdf.startsWith("%PDF-"), pdf.left(16).constData());
    QVERIFY2(pdf.size() < 100 * 1024, qPrintable(QString::number(pdf.size())));

    QString why;
    QVERIFY2(!runTool(QStringLiteral("qpdf"), {QStringLiteral("--check"), path}, &why).isNull(),
             qPrintable(why));
    // Every stream is compressed: as many Flate filters as streams.
    const qsizetype streams = pdf.count("endstream");
    QVERIFY(streams > 0);
    QCOMPARE(pdf.count("/FlateDecode"), streams);
    // The page is drawn with vectors: qpdf writes the content streams uncompressed, where the
    // curves' 201 samples each are line segments ("x y l").
    const QString plain = dir_.filePath(preset + "-plain.pdf");
    QVERIFY2(
        !runTool(QStringLiteral("qpdf"),
                 {QStringLiteral("--qdf"), QStringLiteral("--object-streams=disable"), path, plain},
                 &why)
             .isNull(),
        qPrintable(why));
    const QByteArray content = readAll(plain);
    QVERIFY2(content.count(" l\n") > 500, qPrintable(QString::number(content.count(" l\n"))));
    // Text stays text: title, axis titles and every series label, each in its PDF spelling.
    QStringList texts = {data.title, data.xTitle.trimmed(), data.yTitle};
    for (const PlotCurve& curve : data.curves) {
        texts << curve.label;
    }
    const QString words = pdfWords(path);
    for (const QString& text : texts) {
        const QString ascii = PlotExporter::pdfText(text).simplified();
        QVERIFY2(words.contains(ascii), qPrintable(ascii + " not in: " + words));
    }
    QVERIFY2(words.contains(spelled), qPrintable(spelled + " not in: " + words));
}

void TestPlotExporter::pdfTextWithPdfSyntaxStaysText()
{
    // PDF keywords, a backslash and unbalanced parentheses in a label are text, not structure.
    PlotData data = sineAndCosine();
    data.title = QStringLiteral("stream endstream obj >> ( \\ %");
    const QString path = dir_.filePath("keywords.pdf");
    QString error;
    QVERIFY2(PlotExporter::write(data, path, {}, &error), qPrintable(error));
    QString why;
    QVERIFY2(!runTool(QStringLiteral("qpdf"), {QStringLiteral("--check"), path}, &why).isNull(),
             qPrintable(why));
    const QString words = pdfWords(path);
    QVERIFY2(words.contains(QStringLiteral("sine wave")), qPrintable(words));
    QVERIFY2(words.contains(data.title), qPrintable(words));
}

void TestPlotExporter::pdfTextIsAsciiWithNormsAsWords_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("spelled");
    QTest::newRow("norm") << QStringLiteral("‖Qᶜᵢ‖ [N]") << QStringLiteral("norm(Qci) [N]");
    QTest::newRow("absolute value")
        << QStringLiteral("|v| [m/s]") << QStringLiteral("abs(v) [m/s]");
    QTest::newRow("lone bar") << QStringLiteral("a | b") << QStringLiteral("a / b");
    QTest::newRow("dollars") << QStringLiteral("$1 or $2") << QStringLiteral("USD1 or USD2");
    QTest::newRow("audit") << QStringLiteral("E − E₀ − W_nonideal")
                           << QStringLiteral("E - E0 - W_nonideal");
    QTest::newRow("superscript") << QStringLiteral("a [m/s²]") << QStringLiteral("a [m/s^2]");
    QTest::newRow("derivatives") << QStringLiteral("ẋ, ẍ") << QStringLiteral("x', x''");
    QTest::newRow("greek") << QStringLiteral("θ, μ, ω₁") << QStringLiteral("theta, mu, w1");
}

void TestPlotExporter::pdfTextIsAsciiWithNormsAsWords()
{
    QFETCH(QString, text);
    QFETCH(QString, spelled);
    QCOMPARE(PlotExporter::pdfText(text), spelled);
}

void TestPlotExporter::exportReplacesAnExistingFileAndLeavesNoTemporaries()
{
    QTemporaryDir dir;
    for (const QString& name : {QStringLiteral("old.svg"), QStringLiteral("old.png")}) {
        const QString path = dir.filePath(name);
        {
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("old contents");
        }
        QString error;
        QVERIFY2(PlotExporter::write(sineAndCosine(), path, {}, &error), qPrintable(error));
        QVERIFY(readAll(path) != "old contents");
    }
    const QStringList entries =
        QDir(dir.path()).entryList(QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot);
    QCOMPARE(entries, QStringList({"old.png", "old.svg"}));
}

void TestPlotExporter::unknownSuffixFailsAndLeavesTheTargetAlone()
{
    const QString path = dir_.filePath("plot.jpg");
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("keep me");
    }
    QString error;
    QVERIFY(!PlotExporter::write(sineAndCosine(), path, {}, &error));
    QVERIFY2(error.contains(path) && error.contains("jpg"), qPrintable(error));
    QCOMPARE(readAll(path), QByteArray("keep me"));
}

void TestPlotExporter::missingDirectoryFailsNamingThePath()
{
    const QString path = dir_.filePath("no/such/dir/plot.png");
    QString error;
    QVERIFY(!PlotExporter::write(sineAndCosine(), path, {}, &error));
    QVERIFY2(error.contains(path) && error.contains("does not exist"), qPrintable(error));
    QVERIFY(!QFileInfo::exists(path));
}

void TestPlotExporter::sizeBeyondOpenGLFailsNamingTheLimit()
{
    // Past llvmpipe's 16384-pixel framebuffer the render came back blank and the error blamed a
    // missing OpenGL; the exporter now refuses up front, naming the pixel size and the limit.
    const QString path = dir_.filePath("huge.png");
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("keep me");
    }
    PlotExporter::Options options;
    options.size = QSize(16385, 50);
    QString error;
    QVERIFY(!PlotExporter::write(sineAndCosine(), path, options, &error));
    QVERIFY2(error.contains(path) && error.contains("16385x50") && error.contains("16384"),
             qPrintable(error));
    // The PNG scale multiplies the pixels ...
    options.size = QSize(8193, 50);
    options.scale = 2.0;
    QVERIFY(!PlotExporter::write(sineAndCosine(), path, options, &error));
    QVERIFY2(error.contains("16386x100"), qPrintable(error));
    QCOMPARE(readAll(path), QByteArray("keep me"));
    // ... vector files are rendered at the size itself.
    options.size = QSize(20000, 50);
    const QString svg = dir_.filePath("huge.svg");
    QVERIFY(!PlotExporter::write(sineAndCosine(), svg, options, &error));
    QVERIFY2(error.contains("20000x50"), qPrintable(error));
    QVERIFY(!QFileInfo::exists(svg));
    // The limit itself still renders.
    options.size = QSize(8192, 25);
    QCOMPARE(renderPng(dir_.filePath("widest.png"), options).size(), QSize(16384, 50));
}

void TestPlotExporter::readOnlyDirectoryLeavesTheExistingFileUnchanged()
{
    if (::geteuid() == 0) {
        QSKIP("running as root: permissions are not enforced, a read-only directory is writable");
    }
    QTemporaryDir dir;
    const QString path = dir.filePath("plot.svg");
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("keep me");
    }
    QFile::setPermissions(dir.path(), QFile::ReadOwner | QFile::ExeOwner);
    QString error;
    const bool written = PlotExporter::write(sineAndCosine(), path, {}, &error);
    QFile::setPermissions(dir.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    QVERIFY(!written);
    QVERIFY2(error.contains(path) && error.contains("permission"), qPrintable(error));
    QCOMPARE(readAll(path), QByteArray("keep me"));
}

void TestPlotExporter::presetPlotsMatchTheirBaselines_data()
{
    QTest::addColumn<QString>("preset");
    QTest::newRow("energy") << QStringLiteral("energy");
    QTest::newRow("forces") << QStringLiteral("forces");
}

void TestPlotExporter::presetPlotsMatchTheirBaselines()
{
    QFETCH(QString, preset);
    const auto trace = beadOnWireTrace();
    const std::vector<PlotSpec> presets = PlotCatalog::presets(*trace);
    const PlotSpec* spec = PlotCatalog::find(presets, preset.toStdString());
    QVERIFY(spec != nullptr);
    PlotExporter::Options options;
    options.size = kBaselineSize;
    options.cursor = trace->samples.front().t + 1.0;
    const QString written = dir_.filePath("plot-" + preset + ".png");
    QString error;
    QVERIFY2(
        PlotExporter::write(PlotBuilder::build(*spec, {{"", trace}}), written, options, &error),
        qPrintable(error));
    const QImage actual = QImage(written).convertToFormat(QImage::Format_RGB32);
    QCOMPARE(actual.size(), kBaselineSize);

    const QString failure = test::compareWithBaseline("plot-" + preset, actual);
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
}

QTEST_MAIN(TestPlotExporter)
#include "tst_PlotExporter.moc"
