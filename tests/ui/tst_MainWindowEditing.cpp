// The main window while a scene is edited: parameter edits with undo, live re-simulation (checked
// against the bead's closed form), refused values, the integrator and the stop at the end of the
// wire. The shared setup is in support/MainWindowTestCase.h.

#include <MainWindow.h>
#include <SceneFile.h>
#include <panels/ParameterEditor.h>
#include <panels/TimeControls.h>
#include <scenes/SceneRegistry.h>
#include <session/PlaybackClock.h>
#include <session/SceneSession.h>
#include <session/SimulationWorker.h>
#include <view3d/SceneView.h>

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QSignalSpy>
#include <QSlider>
#include <QTest>
#include <QUndoStack>

#include "../support/MainWindowTestCase.h"

#include <cmath>
#include <numbers>

using namespace clab;

namespace {

[[maybe_unused]] const bool surfaceFormatSet = testing::setSurfaceFormat();

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

class MainWindowEditingTest : public QObject, private testing::MainWindowTestCase {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY2(settings_.start(), qPrintable(settings_.problem())); }

    void cleanup() { closeWindow(); }

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
};

QTEST_MAIN(MainWindowEditingTest)
#include "tst_MainWindowEditing.moc"
