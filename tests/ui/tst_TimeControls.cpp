// The Time dock: the slider scrubs through the trajectory sample by sample, the label shows the
// clock's time, the speed box drives the clock, the actions carry the documented shortcuts.

#include <panels/TimeControls.h>
#include <session/PlaybackClock.h>

#include <QAction>
#include <QComboBox>
#include <QSlider>
#include <QTest>

using namespace clab;

class TimeControlsTest : public QObject {
    Q_OBJECT
private slots:
    void sliderScrubsThroughTheSamples()
    {
        PlaybackClock clock;
        TimeControls controls(&clock);
        clock.setRange(0.0, 2.0, 0.01);
        controls.updateRange();
        controls.setTrajectoryAvailable(true);
        QCOMPARE(controls.timeSlider()->maximum(), 200);
        controls.timeSlider()->setValue(137);
        QCOMPARE(clock.time(), 1.37);
        QCOMPARE(controls.timeText(), QStringLiteral("t = 1.370 s"));
        clock.setTime(0.5);
        QCOMPARE(controls.timeSlider()->value(), 50);
        QCOMPARE(controls.timeText(), QStringLiteral("t = 0.500 s"));
    }

    void actionsDriveTheClock()
    {
        PlaybackClock clock;
        TimeControls controls(&clock);
        clock.setRange(0.0, 1.0, 0.1);
        controls.updateRange();
        controls.setTrajectoryAvailable(true);
        controls.stepForwardAction()->trigger();
        controls.stepForwardAction()->trigger();
        QCOMPARE(clock.time(), 0.2);
        controls.stepBackwardAction()->trigger();
        QCOMPARE(clock.time(), 0.1);
        controls.playPauseAction()->trigger();
        QVERIFY(clock.isPlaying());
        QCOMPARE(controls.playPauseAction()->text(), QStringLiteral("&Pause"));
        controls.playPauseAction()->trigger();
        QVERIFY(!clock.isPlaying());
        controls.resetAction()->trigger();
        QCOMPARE(clock.time(), 0.0);
    }

    void speedBoxCoversTenthToTenfold()
    {
        PlaybackClock clock;
        TimeControls controls(&clock);
        QComboBox* speed = controls.speedBox();
        QCOMPARE(speed->itemData(0).toDouble(), 0.1);
        QCOMPARE(speed->itemData(speed->count() - 1).toDouble(), 10.0);
        QCOMPARE(clock.speed(), 1.0);
        speed->setCurrentIndex(speed->count() - 1);
        QCOMPARE(clock.speed(), 10.0);
        speed->setCurrentIndex(0);
        QCOMPARE(clock.speed(), 0.1);
    }

    void shortcutsAreTheDocumentedKeys()
    {
        PlaybackClock clock;
        TimeControls controls(&clock);
        QVERIFY(controls.playPauseAction()->shortcuts().contains(QKeySequence(Qt::Key_Space)));
        QVERIFY(controls.stepForwardAction()->shortcuts().contains(QKeySequence(Qt::Key_Right)));
        QVERIFY(controls.stepForwardAction()->shortcuts().contains(QKeySequence(Qt::Key_Period)));
        QVERIFY(controls.resetAction()->shortcuts().contains(QKeySequence(Qt::Key_Home)));
        QVERIFY(controls.resetAction()->shortcuts().contains(QKeySequence(Qt::Key_R)));
    }

    void nothingToPlayDisablesTheControls()
    {
        PlaybackClock clock;
        TimeControls controls(&clock);
        QVERIFY(!controls.playPauseAction()->isEnabled());
        QVERIFY(!controls.timeSlider()->isEnabled());
        controls.setTrajectoryAvailable(true);
        QVERIFY(controls.playPauseAction()->isEnabled());
    }
};

QTEST_MAIN(TimeControlsTest)
#include "tst_TimeControls.moc"
