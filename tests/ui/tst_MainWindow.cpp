// The main window end to end: editing with undo, live re-simulation (checked against the bead's
// closed form), file round trips, bad files, the unsaved-changes prompt, drag and drop, compare
// mode and playback. Modal dialogs are replaced by the window's test hooks.

#include <GuiSceneStore.h>
#include <MainWindow.h>
#include <MainWindowActions.h>
#include <SceneFile.h>
#include <export/VideoExportDialog.h>
#include <panels/ForcesPanel.h>
#include <panels/ParameterEditor.h>
#include <panels/PlotsPanel.h>
#include <panels/TimeControls.h>
#include <plots/PlotData.h>
#include <render/VtkOpenGLWindow.h>
#include <render/VtkSurfaceFormat.h>
#include <scenes/SceneRegistry.h>
#include <session/PlaybackClock.h>
#include <session/SceneSession.h>
#include <session/SimulationWorker.h>
#include <view3d/SceneView.h>
#include <widgets/MessageBanner.h>

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QGroupBox>
#include <QImage>
#include <QLabel>
#include <QMimeData>
#include <QScrollArea>
#include <QScrollBar>
#include <QSet>
#include <QSettings>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QUndoStack>
#include <QUrl>

#include "../support/MainWindowFixture.h"

#include <cmath>
#include <numbers>

using namespace clab;

namespace {

[[maybe_unused]] const bool surfaceFormatSet = testing::setSurfaceFormat();

constexpr int timeout = 60000;

// The default bead on a short span, so each run takes milliseconds.
SceneDocument shortBead()
{
    SceneDocument document = SceneDocument::fromDefinition(*SceneRegistry::find("bead-on-wire"));
    document.simulation.tEnd = 2.0;
    document.simulation.dt = 0.01;
    return document;
}

double param(const SceneDocument& document, const char* name)
{
    return document.parameters.at(name).at(0);
}

// Distance the bead has slid down the wire by the last sample.
double distanceTravelled(const Trace& trace, double angleDeg)
{
    const double theta = angleDeg * std::numbers::pi / 180.0;
    const auto along = [&](const TraceSample& s) {
        return s.q[0] * std::cos(theta) + s.q[1] * std::sin(theta);
    };
    return along(trace.samples.front()) - along(trace.samples.back());
}

// docs/MATH.md §5: sliding down from rest, the bead's along-wire acceleration is g (sin θ − μ cos
// θ).
double closedFormDistance(double g, double angleDeg, double mu, double t)
{
    const double theta = angleDeg * std::numbers::pi / 180.0;
    return 0.5 * g * (std::sin(theta) - mu * std::cos(theta)) * t * t;
}

} // namespace

class MainWindowTest : public QObject {
    Q_OBJECT

private:
    testing::IsolatedSettings settings_;
    std::unique_ptr<MainWindow> window_;
    int prompts_ = 0;

    MainWindow& freshWindow(const SceneDocument& document = shortBead())
    {
        MainWindow& window = testing::newWindow(window_);
        prompts_ = 0;
        window.setUnsavedChangesPrompt([this](const QString&) {
            ++prompts_;
            return MainWindow::UnsavedChoice::Cancel;
        });
        return testing::showDocument(window, document);
    }

    // Waits for the trajectory computed with this μ; gives up early when a simulation fails.
    bool waitForMu(MainWindow& window, double mu)
    {
        const auto done = [&] {
            return window.trace() && param(window.shownDocument(), "mu") == mu &&
                   !window.worker()->isBusy();
        };
        const auto failed = [&] {
            return !window.worker()->isBusy() && window.banner()->isVisibleTo(&window) &&
                   window.banner()->kind() == MessageBanner::Kind::Error;
        };
        const bool finished = QTest::qWaitFor([&] { return done() || failed(); }, timeout);
        if (!finished || !done())
            qWarning("no trajectory for mu = %g: %s", mu, qPrintable(window.banner()->text()));
        return done();
    }

    // Waits for the trajectory of a chain of `links` links.
    bool waitForLinks(MainWindow& window, int links)
    {
        return QTest::qWaitFor(
            [&] {
                return window.trace() && param(window.shownDocument(), "links") == links &&
                       !window.worker()->isBusy();
            },
            timeout);
    }

private slots:
    void initTestCase() { QVERIFY2(settings_.start(), qPrintable(settings_.problem())); }

    void cleanup()
    {
        if (window_)
            window_->setUnsavedChangesPrompt(
                [](const QString&) { return MainWindow::UnsavedChoice::Discard; });
        window_.reset();
    }

    void startsWithTheDocumentAndComputesItsTrajectory()
    {
        MainWindow& window = freshWindow();
        QTRY_VERIFY_WITH_TIMEOUT(window.trace() != nullptr, timeout);
        const Trace& trace = *window.trace();
        QCOMPARE(trace.samples.size(), std::size_t(201));
        QCOMPARE(trace.samples.back().t, 2.0);
        QVERIFY(!window.isWindowModified());
        QVERIFY(window.windowTitle().contains(QStringLiteral("[*]")));
        QVERIFY(window.timeControls()->timeSlider()->isEnabled());
        QCOMPARE(window.timeControls()->timeSlider()->maximum(), 200);
    }

    void editingParameterUpdatesSceneAndUndoStack()
    {
        MainWindow& window = freshWindow();
        QVERIFY(waitForMu(window, 0.2));
        QDoubleSpinBox* spin = window.parameterEditor()->spinBox(QStringLiteral("mu"));
        QVERIFY(spin);
        spin->setValue(0.35);
        QCOMPARE(param(window.session()->document(), "mu"), 0.35);
        QCOMPARE(window.session()->undoStack()->count(), 1);
        QVERIFY(window.isWindowModified());
        QVERIFY(waitForMu(window, 0.35));
        // "About this scene" quotes the current μ, not the built-in one.
        QVERIFY2(window.parameterEditor()->aboutText().contains(QStringLiteral("\u03BC = 0.35 ")),
                 qPrintable(window.parameterEditor()->aboutText()));
        // The slider follows the spin box.
        const ParameterSpec* spec = SceneRegistry::find("bead-on-wire")->parameter("mu");
        QSlider* slider = window.parameterEditor()->slider(QStringLiteral("mu"));
        QVERIFY(slider);
        QCOMPARE(slider->value(),
                 static_cast<int>(std::lround((0.35 - spec->min) / (spec->max - spec->min) *
                                              slider->maximum())));

        window.session()->undoStack()->undo();
        QCOMPARE(param(window.session()->document(), "mu"), 0.2);
        QCOMPARE(spin->value(), 0.2);
        QVERIFY(!window.isWindowModified());
        QVERIFY(waitForMu(window, 0.2));

        window.session()->undoStack()->redo();
        QCOMPARE(spin->value(), 0.35);
        QVERIFY(window.isWindowModified());
        QVERIFY(waitForMu(window, 0.35));
    }

    void sliderDragIsOneUndoStep()
    {
        MainWindow& window = freshWindow();
        QSlider* slider = window.parameterEditor()->slider(QStringLiteral("angle_deg"));
        QVERIFY(slider);
        const double before = param(window.session()->document(), "angle_deg");
        slider->setSliderDown(true);
        for (int position : {300, 320, 350, 400})
            slider->setValue(position);
        slider->setSliderDown(false);
        QCOMPARE(window.session()->undoStack()->count(), 1);
        const double after = param(window.session()->document(), "angle_deg");
        QVERIFY(after != before);
        window.session()->undoStack()->undo();
        QCOMPARE(param(window.session()->document(), "angle_deg"), before);
        // A second drag is a second step.
        slider->setSliderDown(true);
        slider->setValue(500);
        slider->setValue(510);
        slider->setSliderDown(false);
        QCOMPARE(window.session()->undoStack()->count(), 1);
        QCOMPARE(window.session()->undoStack()->index(), 1);
    }

    void moreFrictionShortensTheSlide()
    {
        MainWindow& window = freshWindow();
        QVERIFY(waitForMu(window, 0.2));
        const SceneDocument& shown = window.shownDocument();
        const double g = param(shown, "g");
        const double angle = param(shown, "angle_deg");
        const double lowFriction = distanceTravelled(*window.trace(), angle);
        QVERIFY(std::abs(lowFriction - closedFormDistance(g, angle, 0.2, 2.0)) <
                1e-6 * lowFriction);

        // Drag the μ slider to 0.4 (still below tan 30°, so the bead keeps sliding).
        const ParameterSpec* spec = SceneRegistry::find("bead-on-wire")->parameter("mu");
        QSlider* slider = window.parameterEditor()->slider(QStringLiteral("mu"));
        const auto target = static_cast<int>(
            std::lround((0.4 - spec->min) / (spec->max - spec->min) * slider->maximum()));
        QSignalSpy shown0(&window, &MainWindow::trajectoryShown);
        slider->setSliderDown(true);
        for (int p = slider->value(); p <= target; p += 10)
            slider->setValue(p);
        slider->setValue(target);
        slider->setSliderDown(false);
        QVERIFY(waitForMu(window, 0.4));
        QVERIFY(shown0.count() >= 1);
        const double highFriction = distanceTravelled(*window.trace(), angle);
        QVERIFY2(highFriction < lowFriction,
                 qPrintable(QStringLiteral("%1 >= %2").arg(highFriction).arg(lowFriction)));
        QVERIFY(std::abs(highFriction - closedFormDistance(g, angle, 0.4, 2.0)) <
                1e-6 * highFriction);
        QCOMPARE(window.session()->undoStack()->count(), 1);
    }

    void beadRunsToTheFootOfItsWireUnlessToldToRunOn()
    {
        // The built-in bead plays until it reaches the foot of its wire (s = 0), at
        // t* = √(2 s0 / a) with a = g (sin θ − μ cos θ), or 10 s.
        MainWindow& window =
            freshWindow(SceneFile::load(SceneFile::builtInPath(QStringLiteral("bead-on-wire"))));
        QVERIFY(waitForMu(window, 0.2));
        const double tStar =
            std::sqrt(2.0 * 2.0 / (9.81 * (0.5 - 0.2 * std::cos(std::numbers::pi / 6.0))));
        const auto endsAt = [&](double t) {
            return QTest::qWaitFor(
                [&] {
                    return !window.worker()->isBusy() && window.trace() &&
                           std::abs(window.trace()->samples.back().t - t) < 1e-9 &&
                           std::abs(window.clock()->end() - t) < 1e-9;
                },
                timeout);
        };
        QVERIFY(endsAt(tStar));
        QCheckBox* stop = window.parameterEditor()->stopAtEndBox();
        QVERIFY(stop != nullptr);
        QVERIFY(stop->isChecked());
        QVERIFY(stop->toolTip().contains(QStringLiteral("foot of the wire")));

        // Unticked, the bead slides on to t_end; one undo step brings the foot back.
        stop->click();
        QVERIFY(endsAt(10.0));
        QCOMPARE(window.session()->undoStack()->count(), 1);
        QVERIFY(!window.session()->document().simulation.stopAtEnd);
        window.session()->undoStack()->undo();
        QVERIFY(endsAt(tStar));
        QVERIFY(window.parameterEditor()->stopAtEndBox()->isChecked());
        // Its words are a label beside it (they wrap with large text); a click there toggles it.
        auto* words =
            window.parameterEditor()->findChild<QLabel*>(QStringLiteral("stopAtEndBoxLabel"));
        QVERIFY(words != nullptr);
        QTest::mouseClick(words, Qt::LeftButton);
        QVERIFY(!window.parameterEditor()->stopAtEndBox()->isChecked());
        window.session()->undoStack()->undo();
        QVERIFY(endsAt(tStar));

        // A scene without an end has no such box.
        MainWindow& ring = freshWindow(SceneDocument::fromDefinition(*SceneRegistry::find("ring")));
        QVERIFY(QTest::qWaitFor([&] { return ring.trace() != nullptr; }, timeout));
        QVERIFY(ring.parameterEditor()->stopAtEndBox() == nullptr);
    }

    void videoDialogOffersTheLastVideosPath()
    {
        // The first time: a file named after the scene; the next time: the last video's path.
        MainWindow& window = freshWindow();
        QVERIFY(waitForMu(window, 0.2));
        QSettings().remove(QStringLiteral("export/videoPath"));
        QAction* exportVideo = nullptr;
        for (QAction* action : window.findChildren<QAction*>())
            if (action->text() == QStringLiteral("Export &Video…"))
                exportVideo = action;
        QVERIFY(exportVideo != nullptr && exportVideo->isEnabled());
        QTemporaryDir dir;
        const QString lesson = dir.filePath(QStringLiteral("lesson.ogv"));
        QStringList offered;
        // Records a short, small video through the modal dialog once it is up.
        const auto record = [&](const QString& path) {
            QTimer::singleShot(0, &window, [&offered, path] {
                auto* dialog = qobject_cast<VideoExportDialog*>(QApplication::activeModalWidget());
                if (dialog == nullptr)
                    return;
                offered << dialog->outputPath();
                VideoExporter::Settings s = dialog->settings();
                s.t1 = s.t0 + 0.2;
                s.fps = 10;
                s.size = QSize(160, 120);
                dialog->setSettings(s);
                dialog->setOutputPath(path);
                if (!dialog->startExport())
                    dialog->reject();
            });
            exportVideo->trigger();
        };
        record(lesson);
        QCOMPARE(offered.size(), 1);
        QVERIFY2(offered[0].endsWith(QStringLiteral("bead-on-wire.ogv")), qPrintable(offered[0]));
        QVERIFY(QFileInfo(lesson).size() > 0);
        record(dir.filePath(QStringLiteral("second.ogv")));
        QCOMPARE(offered.size(), 2);
        QCOMPARE(offered[1], lesson);
    }

    void playbackContinuesFromTheSameTime()
    {
        MainWindow& window = freshWindow();
        QVERIFY(waitForMu(window, 0.2));
        window.clock()->setTime(1.25);
        window.parameterEditor()->spinBox(QStringLiteral("mu"))->setValue(0.3);
        QVERIFY(waitForMu(window, 0.3));
        QCOMPARE(window.clock()->time(), 1.25);
        QCOMPARE(window.sceneView()->time(), 1.25);
        QCOMPARE(window.timeControls()->timeText(), QStringLiteral("t = 1.250 s"));
    }

    void refusedValueStaysAsTypedWithTheReasonAndChangesNothing()
    {
        MainWindow& window = freshWindow();
        QVERIFY(waitForMu(window, 0.2));
        const std::shared_ptr<const Trace> good = window.trace();
        ParameterEditor* editor = window.parameterEditor();
        // A negative μ is not made 0: it stays in the field, the reason beside it.
        QDoubleSpinBox* mu = editor->spinBox(QStringLiteral("mu"));
        mu->setValue(-0.1);
        QCOMPARE(mu->value(), -0.1);
        QCOMPARE(mu->text(), QStringLiteral("-0.1"));
        QVERIFY2(editor->refusal(QStringLiteral("mu")).contains(QStringLiteral("at least 0")),
                 qPrintable(editor->refusal(QStringLiteral("mu"))));
        QVERIFY(editor->refusal(QStringLiteral("mu")).contains(QStringLiteral("Kinetic friction")));
        QCOMPARE(param(window.session()->document(), "mu"), 0.2);
        QCOMPARE(window.session()->undoStack()->count(), 0);
        // μₛ below μ does not drag μ down with it.
        editor->spinBox(QStringLiteral("mu_s"))->setValue(0.1);
        QVERIFY(
            editor->refusal(QStringLiteral("mu_s")).contains(QStringLiteral("Kinetic friction")));
        QCOMPARE(param(window.session()->document(), "mu"), 0.2);
        QCOMPARE(param(window.session()->document(), "mu_s"), 0.2);
        // The μₛ slider dragged below μ goes back to μₛ's value, the reason shown.
        QSlider* muS = editor->slider(QStringLiteral("mu_s"));
        const int held = muS->value();
        muS->setValue(held - 10);
        QCOMPARE(muS->value(), held);
        QVERIFY(
            editor->refusal(QStringLiteral("mu_s")).contains(QStringLiteral("Kinetic friction")));
        QCOMPARE(param(window.session()->document(), "mu_s"), 0.2);
        // Mass must be greater than zero.
        editor->spinBox(QStringLiteral("mass"))->setValue(0.0);
        QVERIFY(editor->refusal(QStringLiteral("mass")).contains(QStringLiteral("greater than 0")));
        QCOMPARE(window.session()->undoStack()->count(), 0);
        QTest::qWait(50);
        QCOMPARE(window.trace(), good);
        // A good value clears the reason and computes.
        mu->setValue(0.25);
        QVERIFY(editor->refusal(QStringLiteral("mu")).isEmpty());
        QVERIFY(waitForMu(window, 0.25));
        // Labels read as words with the symbol; the key stays the file's name.
        auto* label = editor->findChild<QLabel*>(QStringLiteral("label_angle_deg"));
        QVERIFY(label);
        QCOMPARE(label->text(), QStringLiteral("Inclination \u03B8 [deg]"));
        QVERIFY(label->toolTip().contains(QStringLiteral("angle_deg")));
    }

    void focusedFieldKeepsItsKeysAndEscapeGivesThemBack()
    {
        MainWindow& window = freshWindow();
        QVERIFY(waitForMu(window, 0.2));
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QDoubleSpinBox* mu = window.parameterEditor()->spinBox(QStringLiteral("mu"));
        mu->setFocus();
        QTRY_VERIFY(mu->hasFocus());
        const double t = window.sceneView()->time();
        // Up steps μ by 0.01 (Shift: 0.001), and playback does not move.
        QTest::keyClick(mu, Qt::Key_Up);
        QCOMPARE(param(window.session()->document(), "mu"), 0.21);
        QTest::keyClick(mu, Qt::Key_Up, Qt::ShiftModifier);
        QCOMPARE(param(window.session()->document(), "mu"), 0.211);
        QTest::keyClick(mu, Qt::Key_Right);
        QTest::keyClick(mu, Qt::Key_Home);
        QCOMPARE(window.sceneView()->time(), t);
        // Space neither plays nor blanks the field.
        QTest::keyClick(mu, Qt::Key_Space);
        QVERIFY(!window.clock()->isPlaying());
        QCOMPARE(mu->text(), QStringLiteral("0.211"));
        // Escape hands the keys back to playback.
        QTest::keyClick(mu, Qt::Key_Escape);
        QVERIFY(!mu->hasFocus());
        QVERIFY(waitForMu(window, 0.211));
        const double before = window.sceneView()->time();
        QTest::keyClick(QApplication::focusWidget() ? QApplication::focusWidget() : &window,
                        Qt::Key_Right);
        QVERIFY2(
            window.sceneView()->time() > before,
            qPrintable(QStringLiteral("%1 -> %2").arg(before).arg(window.sceneView()->time())));
    }

    void changingTheIntegratorRecomputesTheSameMotion()
    {
        MainWindow& window = freshWindow();
        QVERIFY(waitForMu(window, 0.2));
        const std::shared_ptr<const Trace> adaptive = window.trace();
        window.parameterEditor()->integratorBox()->setCurrentIndex(1);
        QCOMPARE(window.session()->document().simulation.integrator, IntegratorKind::Rk4);
        QCOMPARE(window.session()->undoStack()->count(), 1);
        // Tolerances do not apply to the fixed-step method.
        QVERIFY(
            !window.parameterEditor()->spinBox(SceneSession::simulationKey("rtol"))->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(
            window.shownDocument().simulation.integrator == IntegratorKind::Rk4, timeout);
        const Trace& fixed = *window.trace();
        QCOMPARE(fixed.samples.size(), adaptive->samples.size());
        // Two integrators, one motion: the bead's closed form holds for both.
        const double angle = param(window.shownDocument(), "angle_deg");
        const double expected = closedFormDistance(9.81, angle, 0.2, 2.0);
        QVERIFY(std::abs(distanceTravelled(fixed, angle) - expected) < 1e-4 * expected);
        window.session()->undoStack()->undo();
        QCOMPARE(window.parameterEditor()->integratorBox()->currentIndex(), 0);
        QVERIFY(
            window.parameterEditor()->spinBox(SceneSession::simulationKey("rtol"))->isEnabled());
    }

    void saveAndOpenRoundTrip()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("rough-wire.json"));
        MainWindow& window = freshWindow();
        window.parameterEditor()->spinBox(QStringLiteral("mu"))->setValue(0.45);
        window.parameterEditor()->spinBox(QStringLiteral("angle_deg"))->setValue(40.0);
        QVERIFY(window.isWindowModified());
        QVERIFY(window.saveAs(path));
        QVERIFY(!window.isWindowModified());
        QVERIFY(window.windowTitle().startsWith(QStringLiteral("rough-wire.json")));
        QCOMPARE(window.recentFiles().value(0), path);

        // Independent reader: the file holds what the editor showed.
        const SceneDocument onDisk = SceneFile::load(path);
        QCOMPARE(param(onDisk, "mu"), 0.45);
        QCOMPARE(param(onDisk, "angle_deg"), 40.0);
        QCOMPARE(onDisk.simulation.tEnd, 2.0);

        // Change it, discard the change and open the file again.
        window.parameterEditor()->spinBox(QStringLiteral("mu"))->setValue(0.1);
        window.setUnsavedChangesPrompt(
            [](const QString&) { return MainWindow::UnsavedChoice::Discard; });
        QVERIFY(window.openFile(path));
        QCOMPARE(window.session()->document(), onDisk);
        QCOMPARE(window.parameterEditor()->spinBox(QStringLiteral("mu"))->value(), 0.45);
        QCOMPARE(window.session()->undoStack()->count(), 0);
        QVERIFY(!window.isWindowModified());
        QVERIFY(waitForMu(window, 0.45));
    }

    void badSceneFileGivesMessageAndKeepsScene()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("broken.json"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"format": 1, "scene": "bead-on-wire", "parameters": {"mu": "lots"}})");
        file.close();

        MainWindow& window = freshWindow();
        QVERIFY(waitForMu(window, 0.2));
        const SceneDocument before = window.session()->document();
        const std::shared_ptr<const Trace> trace = window.trace();
        QVERIFY(!window.openFile(path));
        QVERIFY(window.banner()->isVisibleTo(&window));
        QCOMPARE(window.banner()->kind(), MessageBanner::Kind::Error);
        QVERIFY2(window.banner()->text().contains(QStringLiteral("broken.json")),
                 qPrintable(window.banner()->text()));
        QVERIFY2(window.banner()->text().contains(QStringLiteral("parameters.mu")),
                 qPrintable(window.banner()->text()));
        QCOMPARE(window.session()->document(), before);
        QCOMPARE(window.trace(), trace);
        QVERIFY(!window.recentFiles().contains(path));

        // A file that does not exist is reported the same way.
        QVERIFY(!window.openFile(dir.filePath(QStringLiteral("missing.json"))));
        QVERIFY(window.banner()->text().contains(QStringLiteral("missing.json")));
        QCOMPARE(window.session()->document(), before);

        // The message goes once the user has moved on: the next edit that computes fine.
        window.session()->edit(QStringLiteral("mu"), {0.3});
        QTRY_VERIFY_WITH_TIMEOUT(param(window.shownDocument(), "mu") == 0.3, timeout);
        QVERIFY2(!window.banner()->isVisibleTo(&window), qPrintable(window.banner()->text()));
    }

    // A system written as equations opens like a scene file: it runs, its parameters are
    // edited in the Scene dock's session, and an edit runs it again.
    void systemFileOpensRunsAndFollowsAParameterEdit()
    {
        MainWindow& window = freshWindow();
        QVERIFY(waitForMu(window, 0.2));
        const QString path = QStringLiteral(CLAB_SOURCE_DIR "/scenes/systems/double-pendulum.json");
        QVERIFY(window.openFile(path));
        QVERIFY(window.session()->document().system);
        QTRY_VERIFY_WITH_TIMEOUT(window.trace() && window.shownDocument().system, timeout);
        QCOMPARE(window.trace()->samples.front().q.size(), 4);
        QCOMPARE(window.trace()->samples.front().q[2], 1.7); // x2 = l1 + l2
        QVERIFY(window.recentFiles().contains(QFileInfo(path).absoluteFilePath()));

        window.session()->edit(QStringLiteral("l2"), {0.5});
        QTRY_VERIFY_WITH_TIMEOUT(param(window.shownDocument(), "l2") == 0.5, timeout);
        QTRY_COMPARE_WITH_TIMEOUT(window.trace()->samples.front().q[2], 1.5, timeout);
        // The energy audit of the new run stays at round-off: no friction in this system.
        for (const TraceSample& sample : window.trace()->samples)
            QVERIFY(std::abs(sample.E_error) < 1e-6);
    }

    // File → New lists the shipped systems and starts one as a new, unsaved document.
    void newMenuStartsASystemFromEquations()
    {
        MainWindow& window = freshWindow();
        QVERIFY(waitForMu(window, 0.2));
        auto* action = window.findChild<QAction*>(QStringLiteral("newSystem_double-pendulum"));
        QVERIFY(action);
        QCOMPARE(action->text(), QStringLiteral("Double pendulum"));
        action->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(window.shownDocument().system, timeout);
        QVERIFY(window.session()->filePath().isEmpty());
        QCOMPARE(window.session()->definition()->title, std::string("Double pendulum"));
    }

    // At start-up (a scene file from the command line that cannot be opened) the message must
    // outlive the default scene's first trajectory, which the user did not ask for.
    void startUpErrorOutlivesTheFirstTrajectory()
    {
        MainWindow& window = freshWindow();
        window.showError(QStringLiteral("Could not open \"x.json\""),
                         QStringLiteral("x.json: not valid JSON"));
        QTRY_VERIFY_WITH_TIMEOUT(window.trace() != nullptr && !window.worker()->isBusy(), timeout);
        QVERIFY(window.banner()->isVisibleTo(&window));
        QVERIFY(window.banner()->text().contains(QStringLiteral("x.json")));
    }

    void unsavedChangesPromptGuardsNewOpenAndClose()
    {
        QTemporaryDir dir;
        MainWindow& window = freshWindow();
        // Unmodified: no question asked.
        QVERIFY(window.newFromBuiltIn("bead-on-wire"));
        QCOMPARE(prompts_, 0);

        window.parameterEditor()->spinBox(QStringLiteral("mu"))->setValue(0.3);
        QVERIFY(window.isWindowModified());
        // Cancel keeps everything.
        QVERIFY(!window.newFromBuiltIn("ring"));
        QCOMPARE(prompts_, 1);
        QCOMPARE(window.session()->document().scene, std::string("bead-on-wire"));
        QVERIFY(!window.close());
        QCOMPARE(prompts_, 2);
        QVERIFY(window.isVisible());

        // Save asks for a file name (the document has none) and then proceeds.
        const QString path = dir.filePath(QStringLiteral("saved-on-prompt.json"));
        window.setUnsavedChangesPrompt(
            [](const QString&) { return MainWindow::UnsavedChoice::Save; });
        window.setFileDialogs([] { return QString(); },
                              [path](const QString&, const QString&) { return path; });
        QVERIFY(window.newFromBuiltIn("ring"));
        QCOMPARE(window.session()->document().scene, std::string("ring"));
        QCOMPARE(param(SceneFile::load(path), "mu"), 0.3);

        // Cancelling the file dialog of that Save cancels the New.
        window.parameterEditor()->spinBox(QStringLiteral("mu"))->setValue(0.05);
        window.setFileDialogs([] { return QString(); },
                              [](const QString&, const QString&) { return QString(); });
        QVERIFY(!window.newFromBuiltIn("bead-on-wire"));
        QCOMPARE(window.session()->document().scene, std::string("ring"));

        // Discard throws the change away.
        window.setUnsavedChangesPrompt(
            [](const QString&) { return MainWindow::UnsavedChoice::Discard; });
        QVERIFY(window.newFromBuiltIn("bead-on-wire"));
        QVERIFY(!window.isWindowModified());
    }

    void droppingASceneFileOpensIt()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("dropped.json"));
        SceneDocument document = SceneDocument::fromDefinition(*SceneRegistry::find("ring"));
        document.simulation.tEnd = 1.0;
        SceneFile::save(document, path);

        MainWindow& window = freshWindow();
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(path)});
        QDragEnterEvent enter(QPoint(100, 100), Qt::CopyAction, &mime, Qt::LeftButton,
                              Qt::NoModifier);
        QApplication::sendEvent(&window, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(100, 100), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &drop);
        QTRY_COMPARE_WITH_TIMEOUT(window.session()->document().scene, std::string("ring"), timeout);
        QCOMPARE(window.session()->filePath(), path);

        // Something that is not a scene file is refused.
        QMimeData text;
        text.setUrls({QUrl::fromLocalFile(dir.filePath(QStringLiteral("notes.txt")))});
        QDragEnterEvent refuse(QPoint(100, 100), Qt::CopyAction, &text, Qt::LeftButton,
                               Qt::NoModifier);
        refuse.setAccepted(false);
        QApplication::sendEvent(&window, &refuse);
        QVERIFY(!refuse.isAccepted());
    }

    void droppingASceneFileOnTheViewOpensIt()
    {
        // As the platform delivers it: to the top-level window, at a point over the 3D view
        // (a native window of its own), from where it must reach the main window.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("dropped.json"));
        SceneDocument document = SceneDocument::fromDefinition(*SceneRegistry::find("ring"));
        document.simulation.tEnd = 1.0;
        SceneFile::save(document, path);
        MainWindow& window = freshWindow();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        SceneView* view = window.sceneView();
        const QPoint over = view->mapTo(&window, view->rect().center());
        QWindow* top = window.windowHandle();
        QVERIFY(top != nullptr);
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(path)});
        QDragEnterEvent enter(over, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        enter.setAccepted(false);
        QApplication::sendEvent(top, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(over), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(top, &drop);
        QTRY_COMPARE_WITH_TIMEOUT(window.session()->document().scene, std::string("ring"), timeout);
    }

    void compareModeKeepsOneGhostPerEdit()
    {
        MainWindow& window = freshWindow();
        QVERIFY(waitForMu(window, 0.2));
        window.setCompareEnabled(true);
        QCOMPARE(window.sceneView()->ghostCount(), 0);
        window.parameterEditor()->spinBox(QStringLiteral("mu"))->setValue(0.3);
        QVERIFY(waitForMu(window, 0.3));
        QCOMPARE(window.sceneView()->ghostCount(), 1);
        // A whole slider drag leaves one ghost, whatever the number of intermediate runs.
        QSlider* slider = window.parameterEditor()->slider(QStringLiteral("mu"));
        slider->setSliderDown(true);
        const int start = slider->value();
        for (int p = start + 5; p <= start + 100; p += 5) {
            slider->setValue(p);
            QTest::qWait(5);
        }
        slider->setSliderDown(false);
        const double mu = param(window.session()->document(), "mu");
        QVERIFY(waitForMu(window, mu));
        QCOMPARE(window.sceneView()->ghostCount(), 2);
        window.setCompareEnabled(false);
        QCOMPARE(window.sceneView()->ghostCount(), 0);
    }

    void forcesDockSpeaksTheScenesLanguage()
    {
        // The rigid body's arrows are torques: the dock says so, in N·m, with ω in 1/s.
        SceneDocument body = SceneDocument::fromDefinition(*SceneRegistry::find("rigid-body"));
        body.simulation.tEnd = 1.0;
        MainWindow& window = freshWindow(body);
        QVERIFY(QTest::qWaitFor([&] { return window.trace() != nullptr; }, timeout));
        ForcesPanel* forces = window.forcesPanel();
        QVERIFY(forces->description(ForceKind::Given).contains(QStringLiteral("torque")));
        QVERIFY(
            !forces->description(ForceKind::IdealConstraint).contains(QStringLiteral("normal")));
        QVERIFY(forces->magnitudeText(ForceKind::NonIdealConstraint)
                    .endsWith(QStringLiteral("N\u00B7m")));
        QVERIFY(forces->readoutText().contains(QStringLiteral(" 1/s")));

        // The bead: newtons, and the contact's state.
        MainWindow& bead = freshWindow();
        QVERIFY(waitForMu(bead, 0.2));
        forces = bead.forcesPanel();
        QVERIFY(forces->description(ForceKind::IdealConstraint).contains(QStringLiteral("normal")));
        QVERIFY(forces->magnitudeText(ForceKind::Given).endsWith(QStringLiteral(" N")));
        QVERIFY(forces->readoutText().startsWith(QStringLiteral("Contact: ")));
        // The arrows' magnitude labels follow the dock's check box.
        forces->setMagnitudeLabelsVisible(true);
        QVERIFY(bead.sceneView()->areMagnitudesVisible());
        forces->setMagnitudeLabelsVisible(false);
        QVERIFY(!bead.sceneView()->areMagnitudesVisible());
    }

    void compareModeNeverShowsTheSameValuesTwice()
    {
        MainWindow& window = freshWindow();
        QVERIFY(waitForMu(window, 0.2));
        window.setCompareEnabled(true);
        QDoubleSpinBox* mu = window.parameterEditor()->spinBox(QStringLiteral("mu"));
        mu->setValue(0.3);
        QVERIFY(waitForMu(window, 0.3));
        mu->setValue(0.1);
        QVERIFY(waitForMu(window, 0.1));
        QCOMPARE(window.sceneView()->ghostLabels(),
                 QStringList({QStringLiteral("μ = 0.2"), QStringLiteral("μ = 0.3")}));
        // Undo twice, redo twice, and choose 0.3 again by hand: every value stays once.
        QUndoStack* stack = window.session()->undoStack();
        stack->undo();
        QVERIFY(waitForMu(window, 0.3));
        stack->undo();
        QVERIFY(waitForMu(window, 0.2));
        stack->redo();
        QVERIFY(waitForMu(window, 0.3));
        stack->redo();
        QVERIFY(waitForMu(window, 0.1));
        mu->setValue(0.3);
        QVERIFY(waitForMu(window, 0.3));
        const std::vector<LabelledTrace> runs = window.runs();
        QStringList labels;
        for (const LabelledTrace& run : runs)
            labels << QString::fromStdString(run.label);
        QCOMPARE(labels.size(), 3);
        QCOMPARE(QSet<QString>(labels.begin(), labels.end()).size(), 3);
        QCOMPARE(labels.back(), QStringLiteral("μ = 0.3"));
        QVERIFY(labels.contains(QStringLiteral("μ = 0.1")));
        QVERIFY(labels.contains(QStringLiteral("μ = 0.2")));
        QCOMPARE(window.sceneView()->ghostCount(), 2);
    }

    void compareRunsAreLabelledPlottedAndExported()
    {
        MainWindow& window = freshWindow();
        QVERIFY(waitForMu(window, 0.2));
        QCOMPARE(window.runs().size(), std::size_t(1));
        QCOMPARE(window.runs().front().label, std::string("bead-on-wire"));
        window.setCompareEnabled(true);
        window.parameterEditor()->spinBox(QStringLiteral("mu"))->setValue(0.3);
        QVERIFY(waitForMu(window, 0.3));

        // The earlier run is labelled with its own μ, the current one with the new μ.
        const std::vector<LabelledTrace> runs = window.runs();
        QCOMPARE(runs.size(), std::size_t(2));
        QCOMPARE(runs[0].label, std::string("μ = 0.2"));
        QCOMPARE(runs[1].label, std::string("μ = 0.3"));
        QCOMPARE(runs[1].trace, window.trace());
        // More friction dissipates more energy over the same slide time.
        const int w = runs[0].trace->columnIndex("W_nonideal");
        QVERIFY(runs[1].trace->column(w).back() < runs[0].trace->column(w).back());

        // The plots overlay both runs, each curve naming its run.
        PlotsPanel* plots = window.plotsPanel();
        QVERIFY(plots->selectPreset("energy"));
        int labelled = 0;
        for (const PlotCurve& curve : plots->plotData().curves)
            labelled += curve.label.contains(QStringLiteral("μ = 0.2")) ||
                        curve.label.contains(QStringLiteral("μ = 0.3"));
        QCOMPARE(labelled, static_cast<int>(plots->plotData().curves.size()));
        QVERIFY(plots->plotData().curves.size() >= 2);

        // One CSV with a run column holding both runs, row for row.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("runs.csv"));
        QVERIFY(window.exportCsv(path, {"t", "x", "W_nonideal"}));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = file.readAll().split('\n');
        QCOMPARE(lines.front().trimmed(), QByteArray("run,t,x,W_nonideal"));
        int rows02 = 0, rows03 = 0;
        for (const QByteArray& line : lines) {
            rows02 += line.startsWith("μ = 0.2,");
            rows03 += line.startsWith("μ = 0.3,");
        }
        QCOMPARE(rows02, static_cast<int>(runs[0].trace->samples.size()));
        QCOMPARE(rows03, static_cast<int>(runs[1].trace->samples.size()));

        // With the optional comment header: "# ..." lines, then the same CSV.
        const QString commented = dir.filePath(QStringLiteral("commented.csv"));
        QVERIFY(window.exportCsv(commented, {"t", "x", "W_nonideal"}, false, true));
        QFile withComment(commented);
        QVERIFY(withComment.open(QIODevice::ReadOnly));
        const QByteArray text = withComment.readAll();
        QVERIFY(text.startsWith("# ConstraintLab trace of scene bead-on-wire"));
        QVERIFY(text.contains("# units: t [s], x [m], W_nonideal [J]\r\n"));
        QVERIFY(text.contains("# runs: 2, labelled in the run column\r\nrun,t,x,W_nonideal\r\n"));

        // Or one file per run.
        QVERIFY(window.exportCsv(dir.filePath(QStringLiteral("each.csv")), {}, true));
        QCOMPARE(QDir(dir.path()).entryList({QStringLiteral("each-*.csv")}).size(), 2);

        window.clearGhosts();
        QCOMPARE(window.runs().size(), std::size_t(1));
        QCOMPARE(window.sceneView()->ghostCount(), 0);
    }

    void viewImageExportHasTheChosenSizeAndFailuresAreReported()
    {
        MainWindow& window = freshWindow();
        QVERIFY(waitForMu(window, 0.2));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("view.png"));
        QVERIFY(window.exportViewImage(path, QSize(640, 360)));
        QImage image(path);
        QCOMPARE(image.size(), QSize(640, 360));
        // A folder that does not exist: a message naming the file, nothing written.
        const QString bad = dir.filePath(QStringLiteral("missing/view.png"));
        QVERIFY(!window.exportViewImage(bad, QSize(640, 360)));
        QVERIFY(window.banner()->isVisibleTo(&window));
        QVERIFY(window.banner()->text().contains(bad));
        QVERIFY(!QFile::exists(bad));
    }

    void spaceTogglesPlayback()
    {
        MainWindow& window = freshWindow();
        QVERIFY(waitForMu(window, 0.2));
        window.activateWindow();
        if (!QTest::qWaitForWindowActive(&window))
            QSKIP("the window manager does not activate windows here");
        window.sceneView()->setFocus();
        QVERIFY(!window.clock()->isPlaying());
        QTest::keyClick(&window, Qt::Key_Space);
        QVERIFY(window.clock()->isPlaying());
        QTest::keyClick(&window, Qt::Key_Space);
        QVERIFY(!window.clock()->isPlaying());
        QTest::keyClick(&window, Qt::Key_Right);
        QCOMPARE(window.clock()->time(), 0.01);
        QTest::keyClick(&window, Qt::Key_Home);
        QCOMPARE(window.clock()->time(), 0.0);
    }

    void everyParameterFieldFitsTheSceneDockAtItsSmallestWidth()
    {
        // The rigid body has the widest rows (four quaternion components): nothing may be cut
        // off, even with the dock at its smallest width.
        MainWindow& window = freshWindow(SceneFile::loadBuiltIn("rigid-body"));
        // The narrowest the user can make the dock.
        auto* dock = window.findChild<QDockWidget*>(QStringLiteral("sceneDock"));
        QVERIFY(dock != nullptr);
        QTest::qWait(100); // the first-start dock sizes are applied on the next turn
        window.resizeDocks({dock}, {dock->minimumWidth()}, Qt::Horizontal);
        QTRY_COMPARE_WITH_TIMEOUT(dock->width(), dock->minimumWidth(), 5000);
        // The editor sits in a scroll area: what its viewport shows, or can scroll to.
        auto* scroll = dock->findChild<QScrollArea*>(QStringLiteral("sceneScroll"));
        QVERIFY(scroll != nullptr);
        QWidget* viewport = scroll->viewport();
        const int scrollable = scroll->horizontalScrollBar()->maximum();
        const QList<QDoubleSpinBox*> spins =
            window.parameterEditor()->findChildren<QDoubleSpinBox*>();
        QVERIFY(spins.size() >= 4 + 3 + 3 + 3);
        for (QDoubleSpinBox* spin : spins) {
            if (!spin->isVisibleTo(&window))
                continue;
            const QRect inViewport(spin->mapTo(viewport, QPoint(0, 0)), spin->size());
            QVERIFY2(inViewport.left() >= 0 && inViewport.right() < viewport->width() + scrollable,
                     qPrintable(QStringLiteral("%1 spans x %2..%3, the dock shows 0..%4 (editor "
                                               "needs %5)")
                                    .arg(spin->objectName())
                                    .arg(inViewport.left())
                                    .arg(inViewport.right())
                                    .arg(viewport->width() - 1)
                                    .arg(window.parameterEditor()->minimumSizeHint().width())));
        }
    }

    void largeTextEnlargesEveryPanelAndPersists()
    {
        MainWindow& window = freshWindow();
        QWidget* panel = window.parameterEditor();
        const double normal = panel->font().pointSizeF();
        const double large = MainWindowActions::largeTextFactor;
        QVERIFY(normal > 0);
        QVERIFY(!window.isLargeText());
        window.setLargeText(true);
        QTRY_VERIFY(std::abs(panel->font().pointSizeF() - large * normal) < 1e-6);
        QTRY_VERIFY(std::abs(window.plotsPanel()->font().pointSizeF() - large * normal) < 1e-6);
        // The plots' VTK text, the clock of the Time dock and the dock titles grow too.
        QCOMPARE(window.plotsPanel()->textScale(), MainWindowActions::largePlotTextFactor);
        auto* clock = window.timeControls()->findChild<QLabel*>(QStringLiteral("timeLabel"));
        QVERIFY(clock);
        QTRY_VERIFY(std::abs(clock->font().pointSizeF() - 1.5 * large * normal) < 1e-6);
        for (QDockWidget* dock : window.findChildren<QDockWidget*>())
            QVERIFY2(std::abs(dock->font().pointSizeF() - large * normal) < 1e-6,
                     qPrintable(dock->objectName()));
        QVERIFY(window.close());

        // The next start shows large text again; switching it off restores the normal size.
        MainWindow& again = freshWindow();
        QVERIFY(again.isLargeText());
        QTRY_VERIFY(std::abs(again.parameterEditor()->font().pointSizeF() - large * normal) < 1e-6);
        QCOMPARE(again.plotsPanel()->textScale(), MainWindowActions::largePlotTextFactor);
        again.setLargeText(false);
        QTRY_VERIFY(std::abs(again.parameterEditor()->font().pointSizeF() - normal) < 1e-6);
        QCOMPARE(again.plotsPanel()->textScale(), 1.0);
        QVERIFY(again.close());
        MainWindow& normalAgain = freshWindow();
        QVERIFY(!normalAgain.isLargeText());
        QCOMPARE(normalAgain.parameterEditor()->font().pointSizeF(), normal);
    }

    void fitsA1024x768ScreenInBothTextSizes()
    {
        // A projector at 1024×768: the window, its docks and toolbar fit with normal and with
        // large text (docks scroll, toolbar text hides), and it takes that size.
        for (bool large : {false, true}) {
            MainWindow& window = freshWindow();
            window.setLargeText(large);
            QCoreApplication::processEvents();
            const QSize minimum = window.minimumSizeHint().expandedTo(window.minimumSize());
            QVERIFY2(minimum.width() <= 1024 && minimum.height() <= 740,
                     qPrintable(QStringLiteral("large text %1: at least %2 x %3")
                                    .arg(large)
                                    .arg(minimum.width())
                                    .arg(minimum.height())));
            window.resize(1024, 740);
            QTRY_COMPARE(window.size(), QSize(1024, 740));
            if (!large) {
                // With normal text every value shows without scrolling sideways.
                auto* dock = window.findChild<QDockWidget*>(QStringLiteral("sceneDock"));
                // The width a first start gives it at 1024 px.
                window.resizeDocks({dock}, {285}, Qt::Horizontal);
                auto* scroll = dock->findChild<QScrollArea*>(QStringLiteral("sceneScroll"));
                QTRY_COMPARE(scroll->horizontalScrollBar()->maximum(), 0);
            }
            window.setLargeText(false);
        }
    }

    void keysTypedIntoTheNativeViewReachTheShortcuts()
    {
        // The 3D view is a native window of its own: its key events must still reach the main
        // window's shortcuts (through Qt's shortcut map) and the view's own keys.
        MainWindow& window = freshWindow();
        QVERIFY(waitForMu(window, 0.2));
        window.activateWindow();
        if (!QTest::qWaitForWindowActive(&window))
            QSKIP("the window manager does not activate windows here");
        window.sceneView()->setFocus();
        VtkOpenGLWindow* view = window.sceneView()->openGLWindow();
        QVERIFY(QTest::qWaitForWindowExposed(view));
        QVERIFY(!window.clock()->isPlaying());
        QTest::keyClick(view, Qt::Key_Space);
        QVERIFY(window.clock()->isPlaying());
        QTest::keyClick(view, Qt::Key_Space);
        QVERIFY(!window.clock()->isPlaying());
        // Playback may have moved on between the two key presses: one step (10 ms) further.
        const double paused = window.clock()->time();
        QTest::keyClick(view, Qt::Key_Right);
        QVERIFY(window.clock()->time() > paused);
        QVERIFY(window.clock()->time() <= paused + 0.01 + 1e-12);
        QTest::keyClick(view, Qt::Key_Home);
        QCOMPARE(window.clock()->time(), 0.0);
        // Ctrl+K (an action of the main window's menu) switches compare mode on.
        const bool comparing = window.isCompareEnabled();
        QTest::keyClick(view, Qt::Key_K, Qt::ControlModifier);
        QCOMPARE(window.isCompareEnabled(), !comparing);
    }

    void forcesDockChoosesTheBobCarryingTheArrows()
    {
        // The Forces dock's bob chooser and arrow-field switch, for chains only: they move the
        // view's arrows and its own magnitudes to the chosen bob, and the choice outlives a
        // change of the number of links that keeps it, clamped while the chain is shorter.
        SceneDocument chain = SceneDocument::fromDefinition(*SceneRegistry::find("chain"));
        chain.simulation.tEnd = 0.5;
        MainWindow& window = freshWindow(chain);
        QVERIFY(waitForLinks(window, 20));
        ForcesPanel* forces = window.forcesPanel();
        SceneView* view = window.sceneView();
        QVERIFY(forces->bodyGroup()->isVisibleTo(forces));
        QSpinBox* spin = forces->bodySpinBox();
        QCOMPARE(spin->maximum(), 20);
        QCOMPARE(spin->value(), 20);
        QCOMPARE(view->chosenBody(), 20);

        forces->bodySlider()->setValue(7); // the slider moves the spin box, which speaks
        QCOMPARE(spin->value(), 7);
        QCOMPARE(view->chosenBody(), 7);
        // The dock's magnitude is the force on bob 7 at the time shown.
        const TraceSample& sample =
            window.trace()->samples[window.trace()->sampleIndexAt(view->time())];
        const double qci = std::hypot(sample.Qci[12], sample.Qci[13]);
        QCOMPARE(forces->magnitudeText(ForceKind::IdealConstraint),
                 QStringLiteral("%1 N").arg(qci, 0, 'f', 3));

        forces->arrowFieldCheckBox()->setChecked(true);
        QVERIFY(view->isArrowFieldVisible());

        window.session()->setValue(QStringLiteral("links"), {10.0});
        QVERIFY(waitForLinks(window, 10));
        QCOMPARE(view->chosenBody(), 7);
        QCOMPARE(spin->maximum(), 10);
        QCOMPARE(spin->value(), 7);
        window.session()->setValue(QStringLiteral("links"), {5.0});
        QVERIFY(waitForLinks(window, 5));
        QCOMPARE(view->chosenBody(), 5);
        QCOMPARE(spin->value(), 5);
        window.session()->setValue(QStringLiteral("links"), {20.0});
        QVERIFY(waitForLinks(window, 20));
        QCOMPARE(view->chosenBody(), 7);
        QCOMPARE(spin->value(), 7);
        QVERIFY(view->isArrowFieldVisible());
        QVERIFY(forces->arrowFieldCheckBox()->isChecked());

        // One body: no chooser.
        window.setDocument(shortBead());
        QVERIFY(waitForMu(window, 0.2));
        QVERIFY(!forces->bodyGroup()->isVisibleTo(forces));
        forces->arrowFieldCheckBox()->setChecked(false);
    }

    void layoutAndDisplayChoicesPersist()
    {
        {
            MainWindow& window = freshWindow();
            window.forcesPanel()->setForceVisible(ForceKind::IdealConstraint, false);
            window.forcesPanel()->setArrowScale(2.0);
            // Loop is on at first, magnitude labels off.
            QVERIFY(window.timeControls()->loopAction()->isChecked());
            QVERIFY(window.clock()->isLooping());
            QVERIFY(!window.sceneView()->areMagnitudesVisible());
            window.timeControls()->loopAction()->setChecked(false);
            window.forcesPanel()->setMagnitudeLabelsVisible(true);
            QVERIFY(!window.sceneView()->isArrowFieldVisible());
            window.forcesPanel()->setArrowFieldVisible(true);
            QVERIFY(waitForMu(window, 0.2));
            QVERIFY(window.plotsPanel()->selectPreset("residual"));
            QVERIFY(window.close());
        }
        MainWindow& again = freshWindow();
        QVERIFY(waitForMu(again, 0.2));
        QVERIFY(!again.timeControls()->loopAction()->isChecked());
        QVERIFY(!again.clock()->isLooping());
        QVERIFY(again.sceneView()->areMagnitudesVisible());
        QVERIFY(again.forcesPanel()->isArrowFieldVisible());
        QVERIFY(again.sceneView()->isArrowFieldVisible());
        again.forcesPanel()->setArrowFieldVisible(false);
        again.timeControls()->loopAction()->setChecked(true);
        again.forcesPanel()->setMagnitudeLabelsVisible(false);
        QCOMPARE(again.plotsPanel()->spec().id, std::string("residual"));
        QVERIFY(again.plotsPanel()->spec().logY);
        QVERIFY(again.plotsPanel()->selectPreset("energy"));
        QVERIFY(!again.forcesPanel()->isForceVisible(ForceKind::IdealConstraint));
        QVERIFY(again.forcesPanel()->isForceVisible(ForceKind::Given));
        QVERIFY(!again.sceneView()->isForceVisible(ForceKind::IdealConstraint));
        QVERIFY(std::abs(again.forcesPanel()->arrowScale() - 2.0) < 0.03);
        again.forcesPanel()->setForceVisible(ForceKind::IdealConstraint, true);
        again.forcesPanel()->setArrowScale(1.0);
        QVERIFY(again.close());
    }
};

QTEST_MAIN(MainWindowTest)
#include "tst_MainWindow.moc"
