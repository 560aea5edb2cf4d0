// Playback time: stepping lands on the output grid, playing advances at speed × wall time and
// stops at the end, new ranges keep the current time.

#include <session/PlaybackClock.h>

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace clab;

class PlaybackClockTest : public QObject {
    Q_OBJECT
private slots:
    void singleStepsLandOnTheOutputGrid()
    {
        PlaybackClock clock;
        clock.setRange(0.0, 1.0, 0.1);
        for (int k = 1; k <= 10; ++k) {
            clock.stepForward();
            // k·dt exactly as the simulator's grid t0 + k·dt, not an accumulated sum.
            QCOMPARE(clock.time(), 0.0 + k * 0.1);
        }
        clock.stepForward();
        QCOMPARE(clock.time(), 1.0); // clamped at the end
        clock.setTime(0.55);
        clock.stepForward();
        QCOMPARE(clock.time(), 0.6);
        clock.setTime(0.55);
        clock.stepBackward();
        QCOMPARE(clock.time(), 0.5);
        clock.reset();
        clock.stepBackward();
        QCOMPARE(clock.time(), 0.0);
    }

    void playingAdvancesAtSpeedTimesWallTime()
    {
        PlaybackClock clock;
        clock.setRange(0.0, 100.0, 0.01);
        clock.setSpeed(5.0);
        QElapsedTimer wall;
        wall.start();
        clock.play();
        QTest::qWait(400);
        const double elapsed = wall.nsecsElapsed() * 1e-9;
        const double t = clock.time();
        clock.pause();
        // Up to one frame behind the wall clock, never ahead of it.
        QVERIFY2(t <= 5.0 * elapsed + 1e-9, qPrintable(QString::number(t)));
        QVERIFY2(t >= 5.0 * (elapsed - 0.15), qPrintable(QString::number(t)));
    }

    void playingStopsAtTheEndAndRestartsFromTheStart()
    {
        PlaybackClock clock;
        clock.setRange(0.0, 0.2, 0.01);
        clock.setSpeed(10.0);
        QSignalSpy playing(&clock, &PlaybackClock::playingChanged);
        clock.play();
        QTRY_VERIFY_WITH_TIMEOUT(!clock.isPlaying(), 5000);
        QCOMPARE(clock.time(), 0.2);
        QCOMPARE(playing.count(), 2);
        clock.play();
        QVERIFY(clock.time() < 0.2);
        clock.pause();
    }

    void loopingShowsTheEndThenStartsOver()
    {
        PlaybackClock clock;
        clock.setRange(0.0, 0.2, 0.01);
        clock.setSpeed(10.0);
        clock.setLooping(true);
        QVERIFY(clock.isLooping());
        std::vector<double> times;
        connect(&clock, &PlaybackClock::timeChanged, this, [&](double t) { times.push_back(t); });
        clock.play();
        // Three passes of 0.02 s of wall time each: it keeps playing, and every pass shows the
        // end before it starts again.
        QTRY_VERIFY_WITH_TIMEOUT(std::count(times.begin(), times.end(), 0.0) >= 3, 5000);
        QVERIFY(clock.isPlaying());
        for (std::size_t i = 1; i < times.size(); ++i)
            if (times[i] == 0.0)
                QCOMPARE(times[i - 1], 0.2);
        clock.pause();
    }

    void speedIsLimitedToTenfold()
    {
        PlaybackClock clock;
        clock.setSpeed(50.0);
        QCOMPARE(clock.speed(), 10.0);
        clock.setSpeed(0.01);
        QCOMPARE(clock.speed(), 0.1);
        clock.setSpeed(-1.0);
        QCOMPARE(clock.speed(), 0.1);
        clock.setSpeed(std::nan(""));
        QCOMPARE(clock.speed(), 0.1);
    }

    void newRangeKeepsTheTimeWhereItFits()
    {
        PlaybackClock clock;
        clock.setRange(0.0, 10.0, 0.01);
        clock.setTime(4.0);
        QSignalSpy changed(&clock, &PlaybackClock::timeChanged);
        clock.setRange(0.0, 8.0, 0.01);
        QCOMPARE(clock.time(), 4.0);
        QCOMPARE(changed.count(), 0);
        clock.setRange(0.0, 3.0, 0.01);
        QCOMPARE(clock.time(), 3.0);
        QCOMPARE(changed.count(), 1);
    }
};

QTEST_GUILESS_MAIN(PlaybackClockTest)
#include "tst_PlaybackClock.moc"
