#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

namespace clab {

/// \brief The playback time of a computed trajectory: play, pause, single step, speed.
///
/// Time runs from start() to end(); playing advances it by the wall-clock time elapsed times
/// speed(), so playback speed does not depend on the frame rate. At the end it stops, or starts
/// over from the start when looping (a classroom watches a two-second slide more than once).
class PlaybackClock : public QObject {
    Q_OBJECT
public:
    explicit PlaybackClock(QObject* parent = nullptr);

    /// The span of the trajectory and its output interval (the single-step size).
    void setRange(double start, double end, double step);
    double start() const { return start_; }
    double end() const { return end_; }
    double stepSize() const { return step_; }

    double time() const { return time_; }
    bool isPlaying() const { return timer_.isActive(); }
    double speed() const { return speed_; }
    bool isLooping() const { return looping_; }

public slots:
    /// Clamped to [start, end].
    void setTime(double t);
    void play();
    void pause();
    void togglePlaying();
    /// Pauses and advances by one output interval.
    void stepForward();
    /// Pauses and goes back by one output interval.
    void stepBackward();
    /// Back to the start; keeps playing if it was playing.
    void reset();
    /// Factor of simulated seconds per wall-clock second (0.1 to 10).
    void setSpeed(double speed);
    void setLooping(bool looping);

signals:
    void timeChanged(double t);
    void playingChanged(bool playing);

private:
    void tick();

    QTimer timer_;
    QElapsedTimer wall_;
    double start_ = 0.0;
    double end_ = 0.0;
    double step_ = 0.01;
    double time_ = 0.0;
    double speed_ = 1.0;
    bool looping_ = false;
};

} // namespace clab
