// An impact's impulse arrow as a class reads it on a projector: with Large Text in the main
// window's view and in presentation mode at 1024×768, the label of each built-in example's
// first impact ("0.664 N·s") is at least 18 px high and overlaps no other text of the view;
// and the arrow stands at the point that was struck (the ladder's end that lands, not its
// other end), along the floor's normal.
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

/// A built-in example with one-sided contacts and its run with its own settings.
struct Example {
    SceneDocument document;
    std::shared_ptr<const Trace> trace;
};

Example run(const QString& file)
{
    Example example{SceneFile::load(QStringLiteral(CLAB_SOURCE_DIR "/scenes/systems/") + file),
                    nullptr};
    example.trace = std::make_shared<const Trace>(
        testing::runDocument(example.document, example.document.parameters, 0.0).trace);
    return example;
}

} // namespace

class TestImpulseArrow : public QObject {
    Q_OBJECT

private slots:
    void impulseLabelIsLegibleAndClearOfOtherTexts_data();
    void impulseLabelIsLegibleAndClearOfOtherTexts();
    void ladderLandingShowsTheFloorsImpulseUpwardsAtAnEndOnTheFloor();
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
    const Example example = run(file);
    const SceneDocument& document = example.document;
    const std::shared_ptr<const Trace>& trace = example.trace;
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
    // The first impact that draws an arrow (the ramp's launch records one of rounding size).
    const ImpulseArrow& arrow = content.contactMarks().impulse();
    for (std::size_t i = 0; i < impacts.size() && !arrow.isShown(); ++i)
        content.setTime(impacts[i] + 0.02);
    const QImage image = window.render(size);
    QVERIFY2(!image.isNull(), qPrintable(window.errorString()));
    // For looking at: CLAB_SCREENSHOT_DIR=/tmp/shots keeps each frame checked.
    if (const QString dir = qEnvironmentVariable("CLAB_SCREENSHOT_DIR"); !dir.isEmpty())
        image.save(QStringLiteral("%1/impulse-%2-%3.png")
                       .arg(dir, QString(file).remove(QStringLiteral(".json")))
                       .arg(presenting ? QStringLiteral("presenting") : QStringLiteral("large")));

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

void TestImpulseArrow::ladderLandingShowsTheFloorsImpulseUpwardsAtAnEndOnTheFloor()
{
    const Example example = run(QStringLiteral("ladder.json"));
    const SceneDocument& document = example.document;
    const std::shared_ptr<const Trace>& trace = example.trace;
    const std::vector<double> impacts = testing::eventTimes(*trace, ContactEvent::Kind::Impact);
    QVERIFY(!impacts.empty());
    OffscreenRenderWindow window;
    SceneViewContent content;
    content.attachTo(window.window());
    content.setScene(document);
    content.setTrace(trace);
    content.setTime(impacts[0]);
    const ImpulseArrow& arrow = content.contactMarks().impulse();
    QVERIFY(arrow.isShown());
    // Floor impulses are vertical: so is the arrow, pointing up ...
    const Eigen::Vector3d direction = arrow.shownImpulse().normalized();
    QVERIFY2(direction.y() > 1.0 - 1e-9,
             qPrintable(QStringLiteral("(%1, %2)").arg(direction.x()).arg(direction.y())));
    // ... from the ladder's end that was struck, on the floor (y = 0): the top or the foot.
    const Eigen::VectorXd q = ContactMarks::positionAt(*trace, impacts[0]);
    const double L = document.parameters.at("L")[0];
    const Eigen::Vector2d top(q[0] - L / 2 * std::sin(q[2]), q[1] + L / 2 * std::cos(q[2]));
    const Eigen::Vector2d foot(q[0] + L / 2 * std::sin(q[2]), q[1] - L / 2 * std::cos(q[2]));
    const Eigen::Vector3d base = arrow.arrow().tip() - arrow.arrow().vector();
    const double fromTop = std::hypot(base.x() - top.x(), base.z());
    const double fromFoot = std::hypot(base.x() - foot.x(), base.z());
    QVERIFY2(std::min(fromTop, fromFoot) < 1e-9,
             qPrintable(QStringLiteral("base at x = %1; top %2, foot %3")
                            .arg(base.x())
                            .arg(top.x())
                            .arg(foot.x())));
    QVERIFY(std::abs(fromTop < fromFoot ? top.y() : foot.y()) < 1e-6);
}

QTEST_MAIN(TestImpulseArrow)
#include "tst_ImpulseArrow.moc"
