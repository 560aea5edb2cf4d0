// Presentation mode as a teacher uses it: F5 or View → Present enters, Escape gives back the
// window as it was; the key parameters' sliders change the run; a lesson steps with Page Down;
// the current state becomes a lesson step that saves and opens again.
#include "../support/MainWindowFixture.h"
#include "../support/PresentationChecks.h"

#include <LessonFile.h>
#include <panels/PlotsPanel.h>
#include <present/PresentationPanel.h>
#include <session/PlaybackClock.h>
#include <session/RunModel.h>
#include <widgets/MessageBanner.h>

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QMenuBar>
#include <QSlider>
#include <QTemporaryDir>
#include <QToolBar>
#include <QWheelEvent>

using namespace clab;

namespace {

const bool surfaceFormatSet = testing::setSurfaceFormat();
const QString lessons = QStringLiteral(CLAB_SOURCE_DIR "/scenes/lessons");

QStringList visibleDocks(const MainWindow& window)
{
    QStringList names;
    for (const QDockWidget* dock : window.findChildren<QDockWidget*>())
        if (dock->isVisible())
            names << dock->objectName();
    return names;
}

double value(const MainWindow& window, const char* key)
{
    return window.session()->value(QString::fromLatin1(key)).front();
}

// Waits until the run on screen has `key` = `wanted`.
bool shownWith(MainWindow& window, const char* key, double wanted)
{
    return QTest::qWaitFor(
        [&] {
            const auto& p = window.shownDocument().parameters;
            return window.trace() && p.count(key) && p.at(key).front() == wanted;
        },
        20000);
}

} // namespace

class PresentationModeTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir settingsDir_;
    std::unique_ptr<MainWindow> window_;

private slots:
    void initTestCase()
    {
        QVERIFY(surfaceFormatSet);
        QVERIFY(testing::isolateSettings(settingsDir_));
    }

    void init()
    {
        MainWindow& window = testing::newWindow(window_);
        window.setUnsavedChangesPrompt(
            [](const QString&) { return MainWindow::UnsavedChoice::Discard; });
    }

    void cleanup() { window_.reset(); }

    void f5AndViewPresentEnterAndEscapeRestoresTheWindow();
    void everyTextIsLegibleAtFullHd();
    void keyParameterSlidersChangeTheRunsParameter();
    void clickerKeysBlankPlayAndStep();
    void pageDownStepsALesson();
    void addCurrentStateSavesAndOpensTheSameSteps();
    void badLessonNamesKeyAndReasonAndChangesNothing();
};

void PresentationModeTest::f5AndViewPresentEnterAndEscapeRestoresTheWindow()
{
    MainWindow& window = *window_;
    testing::showDocument(window, SceneDocument::fromDefinition(*SceneRegistry::find("ring")));
    window.setLargeText(true);
    window.activateWindow(); // window shortcuts (F5) go to the active window
    QVERIFY(QTest::qWaitForWindowActive(&window));
    QTest::qWait(200);
    const QRect geometry = window.geometry();
    const QStringList docks = visibleDocks(window);
    QVERIFY(!docks.isEmpty());
    const double textScale = window.sceneView()->textScale();

    QAction* present = window.findChild<QAction*>(QStringLiteral("presentAction"));
    QVERIFY(present);
    for (const bool byKey : {true, false}) {
        if (byKey)
            QTest::keyClick(&window, Qt::Key_F5);
        else
            present->trigger(); // View → Present
        QTRY_VERIFY(window.isPresenting());
        QTRY_COMPARE(window.geometry(), window.screen()->geometry());
        QVERIFY(window.presentationPanel()->isVisible());
        QVERIFY(visibleDocks(window).isEmpty());
        QVERIFY(!window.menuBar()->isVisible());
        const SceneView* view = window.sceneView();
        QVERIFY(view->content().fontPixelsFor(view->width(), view->height()) >= 24);

        QTest::keyClick(&window, Qt::Key_Escape);
        QVERIFY(!window.isPresenting());
        QTRY_VERIFY(!window.isFullScreen());
        QTRY_COMPARE(window.geometry(), geometry);
        QCOMPARE(visibleDocks(window), docks);
        QVERIFY(window.menuBar()->isVisible());
        QVERIFY(!window.presentationPanel()->isVisible());
        QVERIFY(window.isLargeText());
        QCOMPARE(window.sceneView()->textScale(), textScale);
    }
}

void PresentationModeTest::everyTextIsLegibleAtFullHd()
{
    QVERIFY(testing::presentRing(*window_));
    testing::checkLegible(*window_);
}

void PresentationModeTest::keyParameterSlidersChangeTheRunsParameter()
{
    MainWindow& window = *window_;
    QVERIFY(testing::presentRing(window));
    PresentationPanel* panel = window.presentationPanel();
    QCOMPARE(panel->sliderNames(), SceneRegistry::find("ring")->keyParameters);
    QSlider* mu = panel->slider("mu");
    QVERIFY(mu && mu->isVisible());
    const double before = value(window, "mu");

    // The wheel over a slider that was not clicked changes nothing.
    const QPointF centre = mu->rect().center();
    QWheelEvent wheel(centre, mu->mapToGlobal(centre), QPoint(), QPoint(0, 120), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(mu, &wheel);
    QCOMPARE(value(window, "mu"), before);

    // A click gives it the keys; End moves it to the top of μ's range.
    QTest::mouseClick(mu, Qt::LeftButton, Qt::NoModifier,
                      QPoint(mu->width() - 4, mu->height() / 2));
    QVERIFY(mu->hasFocus());
    QTest::keyClick(mu, Qt::Key_End);
    const double top = SceneRegistry::find("ring")->parameter("mu")->highest();
    QCOMPARE(value(window, "mu"), top);
    QVERIFY(shownWith(window, "mu", top));
    QVERIFY(panel->findChild<QLabel*>(QStringLiteral("presentLabel_mu"))->text().contains("= 2"));
}

void PresentationModeTest::clickerKeysBlankPlayAndStep()
{
    MainWindow& window = *window_;
    QVERIFY(testing::presentRing(window));
    PresentationMode* mode = window.presentation();
    window.clock()->pause();
    QTest::keyClick(&window, Qt::Key_B);
    QVERIFY(mode->isBlank());
    QVERIFY(!window.sceneView()->isVisible());
    QTest::keyClick(&window, Qt::Key_B);
    QVERIFY(!mode->isBlank());
    QVERIFY(window.sceneView()->isVisible());
    // Without a lesson Page Down steps the run.
    const double t0 = window.clock()->time();
    QTest::keyClick(&window, Qt::Key_PageDown);
    QVERIFY(window.clock()->time() > t0);
    QTest::keyClick(&window, Qt::Key_Home);
    QCOMPARE(window.clock()->time(), window.clock()->start());
    QTest::keyClick(&window, Qt::Key_Space);
    QVERIFY(window.clock()->isPlaying());
    QTest::keyClick(&window, Qt::Key_Space);
    QVERIFY(!window.clock()->isPlaying());
}

void PresentationModeTest::pageDownStepsALesson()
{
    MainWindow& window = *window_;
    window.resize(1200, 800);
    window.show();
    const QString path = lessons + QStringLiteral("/friction-on-an-incline.json");
    const Lesson lesson = LessonFile::load(path);
    QVERIFY(window.openLesson(path));
    QVERIFY(window.isPresenting());
    QCOMPARE(window.presentation()->stepIndex(), 0);
    QVERIFY(shownWith(window, "mu", 0.0));
    QCOMPARE(window.presentationPanel()->caption(),
             QString::fromStdString(lesson.steps[0].caption));

    QTest::keyClick(&window, Qt::Key_PageDown);
    QCOMPARE(window.presentation()->stepIndex(), 1);
    QCOMPARE(value(window, "mu"), 0.3);
    QCOMPARE(window.presentationPanel()->caption(),
             QString::fromStdString(lesson.steps[1].caption));
    QVERIFY(shownWith(window, "mu", 0.3));
    // The step's ghost (μ = 0) is on screen with its label.
    QTRY_COMPARE(window.runModel()->ghosts().size(), std::size_t(1));
    QVERIFY(window.sceneView()->ghostLabels().front().contains("0"));

    QTest::keyClick(&window, Qt::Key_PageDown);
    QCOMPARE(value(window, "mu"), 0.8);
    QVERIFY(shownWith(window, "mu", 0.8));
    QTRY_COMPARE(window.presentationPanel()->contactText(), QStringLiteral("stuck"));
    QTest::keyClick(&window, Qt::Key_PageUp);
    QCOMPARE(window.presentation()->stepIndex(), 1);
    QCOMPARE(value(window, "mu"), 0.3);
}

void PresentationModeTest::addCurrentStateSavesAndOpensTheSameSteps()
{
    MainWindow& window = *window_;
    QVERIFY(testing::presentRing(window));
    QVERIFY(window.addLessonStep());
    window.session()->edit(QStringLiteral("mu"), {0.3});
    QVERIFY(shownWith(window, "mu", 0.3));
    QVERIFY(window.addLessonStep());
    const Lesson lesson = window.presentation()->lesson();
    QCOMPARE(lesson.steps.size(), std::size_t(2));
    QCOMPARE(lesson.steps[1].document.parameters.at("mu"), std::vector<double>{0.3});
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("mine.json"));
    QVERIFY(window.saveLesson(path));

    MainWindow& other = testing::newWindow(window_);
    other.show();
    QVERIFY(other.openLesson(path));
    const Lesson opened = other.presentation()->lesson();
    QCOMPARE(opened.steps.size(), lesson.steps.size());
    for (std::size_t i = 0; i < lesson.steps.size(); ++i) {
        const LessonStep& a = opened.steps[i];
        const LessonStep& b = lesson.steps[i];
        QCOMPARE(a.scene, b.scene);
        QCOMPARE(a.parameters, b.parameters);
        QCOMPARE(a.compare, b.compare);
        QCOMPARE(a.camera, b.camera);
        QCOMPARE(a.plot, b.plot);
        QCOMPARE(a.caption, b.caption);
        QCOMPARE(a.document.parameters, b.document.parameters);
        QCOMPARE(a.document.simulation, b.document.simulation);
        QCOMPARE(a.document.title, b.document.title);
        QCOMPARE(a.document.notes, b.document.notes);
    }
    QCOMPARE(opened, lesson);
}

void PresentationModeTest::badLessonNamesKeyAndReasonAndChangesNothing()
{
    MainWindow& window = *window_;
    testing::showDocument(window, SceneDocument::fromDefinition(*SceneRegistry::find("ring")));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("bad.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"lesson": 1, "steps": [{"scene": "ring", "parameters": {"mu": "high"}}]})");
    file.close();
    QVERIFY(!window.openFile(path) || !window.isPresenting());
    QVERIFY(!window.isPresenting());
    QVERIFY2(window.banner()->text().contains("steps[0].parameters.mu"),
             qPrintable(window.banner()->text()));
}

QTEST_MAIN(PresentationModeTest)
#include "tst_PresentationMode.moc"
