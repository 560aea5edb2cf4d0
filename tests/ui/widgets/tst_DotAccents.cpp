// DotAccents: the dots of q̇ and q̈ are drawn by hand above the letter's ink, centred on its top,
// whatever the font does with combining marks; the text keeps its marks for copying. Checked on
// rendered pixels: a page with the dotted letter minus the same page with the bare letter leaves
// only the dots.
#include "widgets/DotAccents.h"

#include <SceneFile.h>
#include <panels/DerivationPanel.h>
#include <session/SimulationWorker.h>
#include <trace/Trace.h>

#include <QAbstractTextDocumentLayout>
#include <QApplication>
#include <QFile>
#include <QImage>
#include <QPainter>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextLayout>

#include <algorithm>

using namespace clab;

namespace {

QImage render(QTextDocument& document)
{
    document.setTextWidth(400);
    QImage image(400, static_cast<int>(document.size().height()) + 4, QImage::Format_RGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    document.drawContents(&painter);
    return image;
}

bool dark(QRgb c)
{
    return qGray(c) < 128;
}

struct Measured {
    int dotPixels = 0;
    int dotBottom = -1;        ///< lowest row of the dots
    int inkTop = 1 << 30;      ///< top row of the bare letter's ink
    double dotCentre = 0.0;    ///< mean column of the dots
    double inkTopCentre = 0.0; ///< mean column of the top fifth of the letter's ink
    int left = 0, right = 0;   ///< the letter's advance, in columns
    int groups = 0;            ///< separate runs of columns holding dots
};

/// "x␣LETTER+MARK␣x" in `font` (italic when asked), against the same with the bare letter.
Measured measure(const QString& letter, QChar mark, bool italic, int points, int* objects = nullptr)
{
    const QString style = italic ? QStringLiteral("font-style: italic;") : QString();
    auto page = [&](const QString& middle) {
        auto document = std::make_unique<QTextDocument>();
        // A size in pixels, or in points as the panel's font is (0: 40 px).
        QFont font(QStringLiteral("DejaVu Sans"));
        if (points > 0)
            font.setPointSize(points);
        else
            font.setPixelSize(40);
        document->setDefaultFont(font);
        // In a table cell, as the derivation panel sets its entries.
        document->setHtml(QStringLiteral("<table><tr><td valign=\"middle\" style=\"white-space: "
                                         "nowrap;\">x <span style=\"%1\">%2²</span> x</td></tr>"
                                         "</table>")
                              .arg(style, middle.toHtmlEscaped()));
        return document;
    };
    auto dotted = page(letter + mark);
    auto bare = page(letter);
    const int n = DotAccents::apply(dotted.get());
    if (objects)
        *objects = n;
    const QImage a = render(*dotted), b = render(*bare);
    if (const QString shots = qEnvironmentVariable("CLAB_SCREENSHOT_DIR"); !shots.isEmpty()) {
        const QString name = QStringLiteral("%1/dots-%2-%3%4")
                                 .arg(shots)
                                 .arg(letter)
                                 .arg(mark.unicode(), 0, 16)
                                 .arg(italic ? QStringLiteral("-italic") : QString());
        a.save(name + QStringLiteral(".png"));
        b.save(name + QStringLiteral("-bare.png"));
    }
    Measured m;
    // The letter's columns: its advance in the bare page's layout (position 2 of "x q x").
    const QTextBlock block = bare->find(letter).block();
    const QTextLine line = block.layout()->lineAt(0);
    const double x0 = bare->documentLayout()->blockBoundingRect(block).left();
    m.left = static_cast<int>(x0 + line.cursorToX(2));
    m.right = static_cast<int>(x0 + line.cursorToX(3));
    for (int y = 0; y < b.height(); ++y)
        for (int x = m.left; x < m.right; ++x)
            if (dark(b.pixel(x, y)))
                m.inkTop = std::min(m.inkTop, y);
    // The line may grow to make room for the dots: the pages are compared with their first
    // "x" (the text before the letter) on top of each other.
    auto firstInkRow = [&](const QImage& image) {
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < m.left; ++x)
                if (dark(image.pixel(x, y)))
                    return y;
        return 0;
    };
    const int shift = firstInkRow(a) - firstInkRow(b);
    m.inkTop += shift;
    double sum = 0.0;
    std::vector<bool> column(a.width(), false);
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x) {
            const int yb = y - shift;
            const bool blank = yb < 0 || yb >= b.height() || qGray(b.pixel(x, yb)) > 230;
            // Dark here, blank on the bare page: not an edge drawn at another sub-pixel offset.
            if (dark(a.pixel(x, y)) && blank) {
                ++m.dotPixels;
                m.dotBottom = std::max(m.dotBottom, y);
                sum += x;
                column[x] = true;
            }
        }
    m.dotCentre = m.dotPixels ? sum / m.dotPixels : 0.0;

    for (int x = 0; x < a.width(); ++x)
        if (column[x] && (x == 0 || !column[x - 1]))
            ++m.groups;
    double inkSum = 0.0;
    int inkCount = 0;
    for (int y = m.inkTop - shift; y < m.inkTop - shift + 8; ++y)
        for (int x = m.left; x < m.right; ++x)
            if (dark(b.pixel(x, y))) {
                inkSum += x;
                ++inkCount;
            }
    m.inkTopCentre = inkCount ? inkSum / inkCount : 0.0;
    return m;
}

} // namespace

class DotAccentsTest : public QObject {
    Q_OBJECT

private slots:
    void dotsLieAboveTheLettersInkAndCentredOnIt_data()
    {
        QTest::addColumn<QString>("letter");
        QTest::addColumn<int>("mark");
        QTest::addColumn<bool>("italic");
        QTest::addColumn<int>("dots");
        QTest::addColumn<int>("points");
        QTest::newRow("q dot") << "q" << 0x0307 << false << 1 << 0;
        QTest::newRow("q double dot") << "q" << 0x0308 << false << 2 << 0;
        QTest::newRow("italic q dot") << "q" << 0x0307 << true << 1 << 0;
        QTest::newRow("italic x double dot") << "x" << 0x0308 << true << 2 << 0;
        QTest::newRow("x dot, 12 pt") << "x" << 0x0307 << false << 1 << 12;
    }

    void dotsLieAboveTheLettersInkAndCentredOnIt()
    {
        QFETCH(QString, letter);
        QFETCH(int, mark);
        QFETCH(bool, italic);
        QFETCH(int, dots);
        QFETCH(int, points);
        int objects = 0;
        const Measured m = measure(letter, QChar(mark), italic, points, &objects);
        QCOMPARE(objects, 1);
        const QString report = QStringLiteral("dots %1 px, bottom %2, ink top %3, centre %4 vs %5, "
                                              "columns %6–%7, groups %8")
                                   .arg(m.dotPixels)
                                   .arg(m.dotBottom)
                                   .arg(m.inkTop)
                                   .arg(m.dotCentre)
                                   .arg(m.inkTopCentre)
                                   .arg(m.left)
                                   .arg(m.right)
                                   .arg(m.groups);
        QVERIFY2(m.dotPixels >= 3 * dots, qPrintable(report));
        QVERIFY2(m.dotBottom < m.inkTop, qPrintable(report));       // above the letter, not in it
        QVERIFY2(m.dotBottom >= m.inkTop - 12, qPrintable(report)); // and close to it
        QVERIFY2(std::abs(m.dotCentre - m.inkTopCentre) <= 0.15 * (m.right - m.left),
                 qPrintable(report));
        QCOMPARE(m.groups, dots);
    }

    void textKeepsItsMarks()
    {
        QTextDocument document;
        document.setHtml(QStringLiteral("<p>M q\u0308 − Q, <i>x\u0307</i>₁</p>"));
        QCOMPARE(DotAccents::apply(&document), 2);
        QVERIFY(!document.toPlainText().contains(QChar(0x0307)));
        QCOMPARE(DotAccents::plainText(&document), QStringLiteral("M q\u0308 − Q, x\u0307₁"));
        QCOMPARE(DotAccents::apply(&document), 0); // nothing left to set
    }

    void derivationPanelSetsEveryDot()
    {
        const SceneDocument document =
            SceneFile::load(QStringLiteral(CLAB_SOURCE_DIR "/scenes/templates/pendulum.json"));
        const Trace trace = SimulationWorker::simulate(document, [](double) { return true; });
        DerivationPanel panel;
        panel.resize(700, 900);
        panel.setVisible(true);
        panel.show(document, trace.samples.front());
        const QString laidOut = panel.document()->toPlainText();
        QVERIFY(!laidOut.contains(QChar(0x0307)) && !laidOut.contains(QChar(0x0308)));
        const QString text = panel.plainText();
        QVERIFY2(text.contains(QStringLiteral("M q\u0308 − Q")), qPrintable(text.right(300)));
        QVERIFY(text.contains(QStringLiteral("x\u0307")));
        // Its exports draw the same page: a PNG twice the size, a PDF.
        QTemporaryDir dir;
        panel.exportPage(dir.filePath(QStringLiteral("derivation.png")));
        const QImage png(dir.filePath(QStringLiteral("derivation.png")));
        QCOMPARE(png.width(), 2 * static_cast<int>(panel.document()->size().width()));
        panel.exportPage(dir.filePath(QStringLiteral("derivation.pdf")));
        QFile pdf(dir.filePath(QStringLiteral("derivation.pdf")));
        QVERIFY(pdf.open(QIODevice::ReadOnly));
        QVERIFY(pdf.read(5) == "%PDF-");
        if (const QString shots = qEnvironmentVariable("CLAB_SCREENSHOT_DIR"); !shots.isEmpty()) {
            QFile::remove(shots + QStringLiteral("/derivation-export.png"));
            QFile::copy(dir.filePath(QStringLiteral("derivation.png")),
                        shots + QStringLiteral("/derivation-export.png"));
            QFile::remove(shots + QStringLiteral("/derivation-export.pdf"));
            QFile::copy(dir.filePath(QStringLiteral("derivation.pdf")),
                        shots + QStringLiteral("/derivation-export.pdf"));
        }
    }
};

QTEST_MAIN(DotAccentsTest)
#include "tst_DotAccents.moc"
