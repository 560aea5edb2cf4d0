#pragma once

#include <QWidget>

class QAction;
class QComboBox;
class QLabel;
class QSlider;
class QToolButton;

namespace clab {

class PlaybackClock;

/// \brief The Time dock: play/pause, single step, reset, speed ×0.1 to ×10, and a slider that
/// scrubs through the computed trajectory, with the current time.
///
/// It drives a PlaybackClock it does not own; its actions carry the keyboard shortcuts
/// (Space, Right or period, Left or comma, Home or R) and are meant for menus and toolbars too.
class TimeControls : public QWidget {
    Q_OBJECT
public:
    explicit TimeControls(PlaybackClock* clock, QWidget* parent = nullptr);

    QAction* playPauseAction() const { return playPause_; }
    QAction* stepForwardAction() const { return stepForward_; }
    QAction* stepBackwardAction() const { return stepBackward_; }
    QAction* resetAction() const { return reset_; }
    /// Checkable: playback starts over at the end (on by default).
    QAction* loopAction() const { return loop_; }

    /// Enables the controls when there is a trajectory to play.
    void setTrajectoryAvailable(bool available);
    /// Re-reads the clock's range after a new trajectory.
    void updateRange();

    QSlider* timeSlider() const { return slider_; }
    QComboBox* speedBox() const { return speed_; }
    QString timeText() const;

protected:
    void changeEvent(QEvent* event) override;

private:
    /// Play/pause, step, reset and loop, with their window-wide shortcuts.
    void setUpActions();
    /// The time slider, speed box and time labels.
    void setUpFields();
    void buildLayout();
    /// The actions and fields drive the clock; the clock's time and state show here.
    void connectClock();
    void updateTimeFont();
    void showTime(double t);
    void showPlaying(bool playing);

    PlaybackClock* clock_;
    QAction* playPause_;
    QAction* stepForward_;
    QAction* stepBackward_;
    QAction* reset_;
    QAction* loop_;
    QSlider* slider_;
    QComboBox* speed_;
    QLabel* time_;
    QLabel* end_;
};

} // namespace clab
