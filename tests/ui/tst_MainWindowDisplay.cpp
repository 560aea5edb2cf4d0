// What the main window shows and keeps: compare mode's ghosts, labelled runs and their export,
// playback keys (also typed into the native 3D view), the Forces dock, large text, the smallest
// dock and screen sizes, and the layout and display choices that persist. The shared setup is in
// support/MainWindowTestCase.h.

#include <MainWindow.h>
#include <MainWindowActions.h>
#include <SceneFile.h>
#include <panels/ForcesPanel.h>
#include <panels/ParameterEditor.h>
#include <panels/PlotsPanel.h>
#include <panels/TimeControls.h>
#include <plots/PlotData.h>
#include <render/VtkOpenGLWindow.h>
#include <scenes/SceneRegistry.h>
#include <session/PlaybackClock.h>
#include <session/SceneSession.h>
#include <view3d/SceneView.h>

#include <QCheckBox>
#include <QDir>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFile>
#include <QGroupBox>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QSet>
#include <QSlider>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include "../support/MainWindowTestCase.h"

#include <cmath>

using namespace clab;

namespace {

[[maybe_unused]] const bool surfaceFormatSet = testing::setSurfaceFormat();

} // namespace

class MainWindowDisplayTest : public QObject, private testing::MainWindowTestCase {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY2(settings_.start(), qPrintable(settings_.problem())); }

    void cleanup() { closeWindow(); }

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

QTEST_MAIN(MainWindowDisplayTest)
#include "tst_MainWindowDisplay.moc"
