// Presentation mode on a projector: tests/CMakeLists.txt runs this program on a 1024×768 screen
// and, as tst_PresentationProjector720, on a 1280×720 one. Every text at least 18 px high, the
// 3D view most of the screen.
#include "../support/MainWindowFixture.h"
#include "../support/PresentationChecks.h"

#include <session/PlaybackClock.h>

#include <QTemporaryDir>

using namespace clab;

namespace {
[[maybe_unused]] const bool surfaceFormatSet = testing::setSurfaceFormat();
}

class PresentationProjectorTest : public QObject {
    Q_OBJECT

private:
    testing::IsolatedSettings settings_;

private slots:
    void initTestCase()
    {
        QVERIFY2(settings_.start({QSize(1024, 768), QSize(1280, 720)}),
                 qPrintable(settings_.problem()));
    }

    void everyTextIsLegibleAndTheViewTakesMostOfTheScreen()
    {
        MainWindow window(std::make_shared<GuiSceneStore>());
        QVERIFY(testing::presentRing(window));
        testing::checkLegible(window);
    }

    // Each step of a shipped lesson, reached with Page Down, is legible too. With
    // CLAB_PRESENT_SHOTS set, each step's screen is saved there as lesson-stepN.png.
    void everyLessonStepIsLegible()
    {
        MainWindow window(std::make_shared<GuiSceneStore>());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const QString path = QStringLiteral(CLAB_SOURCE_DIR "/scenes/lessons/"
                                                            "friction-on-an-incline.json");
        QVERIFY(window.openLesson(path));
        const int steps = static_cast<int>(window.presentation()->lesson().steps.size());
        for (int i = 0; i < steps; ++i) {
            if (i > 0)
                QTest::keyClick(&window, Qt::Key_PageDown);
            QCOMPARE(window.presentation()->stepIndex(), i);
            QVERIFY(QTest::qWaitFor(
                [&] {
                    return window.trace() && window.shownDocument() == window.session()->document();
                },
                20000));
            window.clock()->pause();
            window.clock()->setTime(1.0);
            QTest::qWait(400);
            testing::checkLegible(window);
            const QString shots = qEnvironmentVariable("CLAB_PRESENT_SHOTS");
            if (!shots.isEmpty())
                QVERIFY(window.screen()
                            ->grabWindow(window.winId())
                            .save(QStringLiteral("%1/lesson-%2x%3-step%4.png")
                                      .arg(shots)
                                      .arg(window.width())
                                      .arg(window.height())
                                      .arg(i + 1)));
        }
    }
};

QTEST_MAIN(PresentationProjectorTest)
#include "tst_PresentationProjector.moc"
