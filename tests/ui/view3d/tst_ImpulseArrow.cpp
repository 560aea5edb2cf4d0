// An impact's impulse arrow as a class reads it on a projector: with Large Text in the main
// window's view and in presentation mode at 1024×768, the label of each built-in example's
// first impact ("0.664 N·s") is at least 18 px high and overlaps no other text of the view.
#include <MainWindowActions.h>
#include <SceneFile.h>
#include <render/OffscreenRenderWindow.h>
#include <render/VtkSurfaceFormat.h>
#include <view3d/ContactMarks.h>
#include <view3d/ImpulseArrow.h>
#include <view3d/SceneViewContent.h>
#include <view3d/ViewStyle.h>

#include <QImage>
#include <QtTest>

#include <vtkRenderWindow.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>

#include "../../support/ContactEventTimes.h"
#include "../../support/SceneRuns.h"
#include "../../support/ShownTexts.h"

#include <memory>

using namespace clab;

namespace {

const bool surfaceFormatSet = [] {
    VtkSurfaceFormat::makeDefault();
    return true;
}();

} // namespace

class TestImpulseArrow : public QObject {
    Q_OBJECT

private slots:
    void impulseLabelIsLegibleAndClearOfOtherTexts_data();
    void impulseLabelIsLegibleAndClearOfOtherTexts();
};

void TestImpulseArrow::impulseLabelIsLegibleAndClearOfOtherTexts_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QSize>("size");
    QTest::addColumn<bool>("presenting");
    // The view's part of a 1024×768 main window (docks beside it) with Large Text, and the
    // whole screen in presentation mode (its text at 24 px, PresentationMode).
    for (const char* file :
         {"bouncing-ball.json", "curved-ramp.json", "ladder.json", "loop-the-loop.json"}) {
        QTest::addRow("%s large text", file)
            << QString::fromLatin1(file) << QSize(620, 560) << false;
        QTest::addRow("%s presenting", file)
            << QString::fromLatin1(file) << QSize(1024, 768) << true;
    }
}

void TestImpulseArrow::impulseLabelIsLegibleAndClearOfOtherTexts()
{
    QFETCH(QString, file);
    QFETCH(QSize, size);
    QFETCH(bool, presenting);
    const SceneDocument document =
        SceneFile::load(QStringLiteral(CLAB_SOURCE_DIR "/scenes/systems/") + file);
    auto trace = std::make_shared<const Trace>(
        testing::runDocument(document, document.parameters, 0.0).trace);
    const std::vector<double> impacts = testing::eventTimes(*trace, ContactEvent::Kind::Impact);
    QVERIFY(!impacts.empty());

    OffscreenRenderWindow window;
    SceneViewContent content;
    content.attachTo(window.window());
    const double normal = ViewStyle::fontPixelsFor(size.width(), size.height());
    content.setTextScale(presenting ? 24.0 / normal : MainWindowActions::largeViewTextFactor);
    content.setScene(document);
    content.setTrace(trace);
    content.setMagnitudesVisible(true);
    content.frameCamera(size.width(), size.height());
    content.setTime(impacts[0] + 0.02);
    const QImage image = window.render(size);
    QVERIFY2(!image.isNull(), qPrintable(window.errorString()));
    // For looking at: CLAB_SCREENSHOT_DIR=/tmp/shots keeps each frame checked.
    if (const QString dir = qEnvironmentVariable("CLAB_SCREENSHOT_DIR"); !dir.isEmpty())
        image.save(QStringLiteral("%1/impulse-%2-%3.png")
                       .arg(dir, QString(file).remove(QStringLiteral(".json")))
                       .arg(presenting ? QStringLiteral("presenting") : QStringLiteral("large")));

    const ImpulseArrow& arrow = content.contactMarks().impulse();
    QVERIFY(arrow.isShown());
    QVERIFY2(!arrow.labelText().isEmpty(), "the label found no room");
    const double dpi = window.window()->GetDPI();
    const double pixels = arrow.label().textProperty()->GetFontSize() * dpi / 72.0;
    QVERIFY2(pixels >= 18.0 - 0.5, qPrintable(QStringLiteral("the label is %1 px").arg(pixels)));
    const std::vector<testing::ShownText> texts = testing::shownTexts(window.window());
    QVERIFY(std::any_of(texts.begin(), texts.end(),
                        [&](const testing::ShownText& t) { return t.text == arrow.labelText(); }));
    const QString problem = testing::collision(texts, size);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
}

QTEST_MAIN(TestImpulseArrow)
#include "tst_ImpulseArrow.moc"
