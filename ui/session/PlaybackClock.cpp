#include "session/PlaybackClock.h"

#include <algorithm>
#include <cmath>

namespace clab {

PlaybackClock::PlaybackClock(QObject* parent) : QObject(parent)
{
    // About 60 frames per second; the view renders once per tick.
    timer_.setInterval(16);
    timer_.setTimerType(Qt::PreciseTimer);
    connect(&timer_, &QTimer::timeout, this, &PlaybackClock::tick);
}

void PlaybackClock::setRange(double start, double end, double step)
{
    start_ = start;
    end_ = std::max(start, end);
    step_ = step > 0.0 ? step : 0.01;
    const double clamped = std::clamp(time_, start_, end_);
    if (clamped != time_) {
        time_ = clamped;
        emit timeChanged(time_);
    }
}

void PlaybackClock::setTime(double t)
{
    if (!std::isfinite(t))
        return;
    const double clamped = std::clamp(t, start_, end_);
    if (clamped == time_)
        return;
    time_ = clamped;
    emit timeChanged(time_);
}

void PlaybackClock::play()
{
    if (isPlaying())
        return;
    // Playing from the end starts over, as media players do.
    if (time_ >= end_)
        setTime(start_);
    wall_.start();
    timer_.start();
    emit playingChanged(true);
}

void PlaybackClock::pause()
{
    if (!isPlaying())
        return;
    timer_.stop();
    emit playingChanged(false);
}

void PlaybackClock::togglePlaying()
{
    if (isPlaying())
        pause();
    else
        play();
}

void PlaybackClock::stepForward()
{
    pause();
    // Snap to the output grid so that repeated steps land exactly on samples.
    const double k = std::floor((time_ - start_) / step_ + 1e-9) + 1.0;
    setTime(start_ + k * step_);
}

void PlaybackClock::stepBackward()
{
    pause();
    const double k = std::ceil((time_ - start_) / step_ - 1e-9) - 1.0;
    setTime(start_ + std::max(0.0, k) * step_);
}

void PlaybackClock::reset()
{
    setTime(start_);
    if (isPlaying())
        wall_.restart();
}

void PlaybackClock::setSpeed(double speed)
{
    if (!std::isfinite(speed) || speed <= 0.0)
        return;
    speed_ = std::clamp(speed, 0.1, 10.0);
}

void PlaybackClock::tick()
{
    const double elapsed = wall_.nsecsElapsed() * 1e-9;
    wall_.restart();
    const double next = time_ + elapsed * speed_;
    if (next >= end_) {
        if (looping_ && end_ > start_) {
            // The last frame shows the end; the next tick starts over.
            setTime(time_ >= end_ ? start_ : end_);
            return;
        }
        setTime(end_);
        pause();
        return;
    }
    setTime(next);
}

void PlaybackClock::setLooping(bool looping)
{
    looping_ = looping;
}

} // namespace clab
