// Presentation mode as a teacher uses it: F5 or View → Present enters, Escape gives back the
// window as it was; the key parameters' sliders change the run; a lesson steps with Page Down;
// the current state becomes a lesson step that saves and opens again.
#include "../support/MainWindowFixture.h"
#include "../support/PresentationChecks.h"

#include <LessonFile.h>
#include <panels/PlotsPanel.h>
#include <present/PresentationPanel.h>
#include <present/PresentationPlot.h>
#include <session/PlaybackClock.h>
#include <session/RunModel.h>
#include <view3d/SceneView.h>
#include <widgets/MessageBanner.h>

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QLabel>
#include <QMenuBar>
#include <QSignalSpy>
#include <QSlider>
#include <QTemporaryDir>
#include <QToolBar>
#include <QWheelEvent>

#include <chrono>

using namespace clab;

namespace {

[[maybe_unused]] const bool surfaceFormatSet = testing::setSurfaceFormat();
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
    testing::IsolatedSettings settings_;
    std::unique_ptr<MainWindow> window_;

private slots:
    void initTestCase() { QVERIFY2(settings_.start(), qPrintable(settings_.problem())); }

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
    void captionsAreTypedWhenAddingAndEditingSteps();
    void pageDownAppliesTheStepsCamera();
    void aStepsPlotShowsInPresentation();
    void comparedRunsComputeOffTheGuiThread();
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
    // The caption prompt offers the scene's title; the teacher keeps it.
    window.presentation()->setCaptionPrompt(
        [](const QString&, const QString& offered) { return std::optional<QString>(offered); });
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

void PresentationModeTest::captionsAreTypedWhenAddingAndEditingSteps()
{
    MainWindow& window = *window_;
    QVERIFY(testing::presentRing(window));
    QString offered;
    std::optional<QString> typed = QStringLiteral("  The ring at rest: μ = 0.1  ");
    window.presentation()->setCaptionPrompt([&](const QString&, const QString& caption) {
        offered = caption;
        return typed;
    });
    QVERIFY(window.addLessonStep());
    QVERIFY(!offered.isEmpty()); // the scene's title, to start from
    QCOMPARE(window.presentation()->lesson().steps.back().caption,
             std::string("The ring at rest: μ = 0.1"));
    QCOMPARE(window.presentationPanel()->caption(), QStringLiteral("The ring at rest: μ = 0.1"));
    // Cancelled: no step.
    typed.reset();
    QVERIFY(!window.addLessonStep());
    QCOMPARE(window.presentation()->lesson().steps.size(), std::size_t(1));
    // Lesson → Edit Step Caption offers the caption on screen and shows the new one at once.
    typed = QStringLiteral("Now it slides.");
    QVERIFY(window.editLessonCaption());
    QCOMPARE(offered, QStringLiteral("The ring at rest: μ = 0.1"));
    QCOMPARE(window.presentationPanel()->caption(), QStringLiteral("Now it slides."));
    QCOMPARE(window.presentation()->lesson().steps.back().caption, std::string("Now it slides."));
    // Longer than a lesson file allows: refused with the numbers, the caption kept.
    typed = QString(401, QLatin1Char('x'));
    QVERIFY(!window.editLessonCaption());
    QVERIFY2(window.banner()->text().contains("401") && window.banner()->text().contains("400"),
             qPrintable(window.banner()->text()));
    QCOMPARE(window.presentationPanel()->caption(), QStringLiteral("Now it slides."));
}

void PresentationModeTest::pageDownAppliesTheStepsCamera()
{
    MainWindow& window = *window_;
    window.resize(1200, 800);
    window.show();
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("camera.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"lesson": 1, "steps": [
        {"scene": "ring", "parameters": {"mu": 0.1}},
        {"scene": "ring", "parameters": {"mu": 0.2},
         "camera": {"position": [0.3, -0.2, 7], "focal_point": [0.3, -0.2, 0],
                    "view_up": [0, 1, 0]}}]})");
    file.close();
    QVERIFY(window.openLesson(path));
    QVERIFY(shownWith(window, "mu", 0.1));
    const std::array<Eigen::Vector3d, 3> framed = window.sceneView()->camera();
    QTest::keyClick(&window, Qt::Key_PageDown);
    QCOMPARE(window.presentation()->stepIndex(), 1);
    QVERIFY(shownWith(window, "mu", 0.2));
    QTRY_VERIFY((window.sceneView()->camera()[0] - Eigen::Vector3d(0.3, -0.2, 7)).norm() < 1e-9);
    const std::array<Eigen::Vector3d, 3> camera = window.sceneView()->camera();
    QVERIFY((camera[1] - Eigen::Vector3d(0.3, -0.2, 0)).norm() < 1e-9);
    QVERIFY((camera[2] - Eigen::Vector3d(0, 1, 0)).norm() < 1e-9);
    QVERIFY((framed[0] - camera[0]).norm() > 0.1); // the first step framed the scene itself
}

void PresentationModeTest::aStepsPlotShowsInPresentation()
{
    MainWindow& window = *window_;
    window.resize(1200, 800);
    window.show();
    QVERIFY(window.openLesson(lessons + QStringLiteral("/friction-on-an-incline.json")));
    QVERIFY(shownWith(window, "mu", 0.0));
    // Step 1 names the energy plot: it shows in the presentation, its legend under it.
    QTRY_VERIFY(window.presentation()->isPlotVisible());
    PresentationPlot* plot = window.presentationPanel()->plot();
    QVERIFY(plot->isVisible());
    QTRY_COMPARE(plot->data().title, window.plotsPanel()->plotData().title);
    QCOMPARE(window.plotsPanel()->spec().id, std::string("energy"));
    QVERIFY(!plot->legend()->text().isEmpty());
    // Step 3 names the forces plot.
    QTest::keyClick(&window, Qt::Key_PageDown);
    QTest::keyClick(&window, Qt::Key_PageDown);
    QVERIFY(shownWith(window, "mu", 0.8));
    QTRY_COMPARE(window.plotsPanel()->spec().id, std::string("forces"));
    QTRY_COMPARE(plot->data().title, window.plotsPanel()->plotData().title);
    // P hides and shows it.
    QTest::keyClick(&window, Qt::Key_P);
    QVERIFY(!window.presentation()->isPlotVisible());
    QTest::keyClick(&window, Qt::Key_P);
    QVERIFY(window.presentation()->isPlotVisible());
}

void PresentationModeTest::comparedRunsComputeOffTheGuiThread()
{
    // A step's compared runs are computed on a thread of their own: the GUI thread goes on
    // drawing while they run (the step's own run plays), and they come as ghosts when done.
    MainWindow& window = *window_;
    window.resize(1200, 800);
    window.show();
    QVERIFY(window.openLesson(lessons + QStringLiteral("/ring-sliding-sticking-energy.json")));
    QVERIFY(shownWith(window, "mu", 0.0));
    // Whether the runs were still being computed when step 2's own run came on screen.
    bool seen = false, computing = false;
    connect(&window, &MainWindow::trajectoryShown, this, [&] {
        if (!seen && window.shownDocument().parameters.at("mu").front() == 0.1) {
            seen = true;
            computing = window.presentation()->isComputingComparedRuns();
        }
    });
    QTest::keyClick(&window, Qt::Key_PageDown);
    QVERIFY(QTest::qWaitFor([&] { return seen; }, 20000));
    QVERIFY(computing);
    // What the GUI thread would have waited for: the runs' time, measured.
    const auto start = std::chrono::steady_clock::now();
    QTRY_VERIFY_WITH_TIMEOUT(!window.presentation()->isComputingComparedRuns(), 20000);
    qInfo("the compared run of the ring's step 2 took about %lld ms beside the GUI",
          static_cast<long long>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                     std::chrono::steady_clock::now() - start)
                                     .count()));
    QTRY_COMPARE(window.runModel()->ghosts().size(), std::size_t(1));
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
