#include "panels/TimeControls.h"

#include <QEvent>

#include "session/PlaybackClock.h"

#include <QAction>
#include <QComboBox>
#include <QHBoxLayout>
#include <QIcon>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QToolButton>

#include <cmath>

namespace clab {

namespace {

QIcon themed(const char* themeName, const char* resource)
{
    return QIcon::fromTheme(QLatin1String(themeName), QIcon(QLatin1String(resource)));
}

QToolButton* bigButton(QAction* action, QWidget* parent)
{
    auto* button = new QToolButton(parent);
    button->setDefaultAction(action);
    button->setIconSize(QSize(28, 28));
    button->setAutoRaise(true);
    return button;
}

} // namespace

TimeControls::TimeControls(PlaybackClock* clock, QWidget* parent)
    : QWidget(parent), clock_(clock), playPause_(new QAction(this)),
      stepForward_(new QAction(themed("media-seek-forward", ":/icons/step-forward.svg"),
                               tr("Step &Forward"), this)),
      stepBackward_(new QAction(themed("media-seek-backward", ":/icons/step-backward.svg"),
                                tr("Step &Backward"), this)),
      reset_(
          new QAction(themed("media-skip-backward", ":/icons/reset.svg"), tr("&Reset Time"), this)),
      loop_(new QAction(themed("media-playlist-repeat", ":/icons/loop.svg"), tr("&Loop"), this)),
      slider_(new QSlider(Qt::Horizontal, this)), speed_(new QComboBox(this)),
      time_(new QLabel(this)), end_(new QLabel(this))
{
    setUpActions();
    setUpFields();
    buildLayout();
    connectClock();
    showPlaying(clock_->isPlaying());
    updateRange();
    setTrajectoryAvailable(false);
}

void TimeControls::setUpActions()
{
    playPause_->setObjectName(QStringLiteral("playPauseAction"));
    playPause_->setProperty("helpText", tr("Play / pause"));
    playPause_->setShortcuts(
        {QKeySequence(Qt::Key_Space), QKeySequence(Qt::Key_MediaTogglePlayPause)});
    stepForward_->setObjectName(QStringLiteral("stepForwardAction"));
    stepForward_->setShortcuts({QKeySequence(Qt::Key_Right), QKeySequence(Qt::Key_Period)});
    stepForward_->setToolTip(tr("One output interval forward (Right or .)"));
    stepForward_->setIconText(tr("Step"));
    stepBackward_->setObjectName(QStringLiteral("stepBackwardAction"));
    stepBackward_->setShortcuts({QKeySequence(Qt::Key_Left), QKeySequence(Qt::Key_Comma)});
    stepBackward_->setToolTip(tr("One output interval back (Left or ,)"));
    reset_->setObjectName(QStringLiteral("resetTimeAction"));
    reset_->setShortcuts({QKeySequence(Qt::Key_Home), QKeySequence(Qt::Key_R)});
    reset_->setToolTip(tr("Back to the start (Home or R)"));
    reset_->setIconText(tr("Reset"));
    loop_->setObjectName(QStringLiteral("loopAction"));
    loop_->setCheckable(true);
    loop_->setChecked(true);
    loop_->setShortcut(QKeySequence(Qt::Key_L));
    loop_->setToolTip(tr("Start over at the end (L)"));
    clock_->setLooping(true);
    connect(loop_, &QAction::toggled, clock_, &PlaybackClock::setLooping);
    // The shortcuts work anywhere in the main window, not only when this dock has focus.
    for (QAction* action : {playPause_, stepForward_, stepBackward_, reset_, loop_}) {
        action->setShortcutContext(Qt::WindowShortcut);
        addAction(action);
    }
}

void TimeControls::setUpFields()
{
    slider_->setObjectName(QStringLiteral("timeSlider"));
    slider_->setToolTip(tr("Drag to move through the computed trajectory"));
    // Narrow enough for a 1024-pixel projector with large text; it grows with the window.
    slider_->setMinimumWidth(100);
    // Keep keyboard focus away so Left/Right stay single steps.
    slider_->setFocusPolicy(Qt::ClickFocus);

    speed_->setObjectName(QStringLiteral("speedBox"));
    speed_->setToolTip(tr("Playback speed: simulated seconds per second"));
    for (double s : {0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0})
        speed_->addItem(QStringLiteral("×%1").arg(s), s);
    speed_->setCurrentIndex(3);
    speed_->setFocusPolicy(Qt::ClickFocus);

    time_->setObjectName(QStringLiteral("timeLabel"));
    time_->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    updateTimeFont();
    end_->setObjectName(QStringLiteral("endLabel"));
}

void TimeControls::buildLayout()
{
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 2, 6, 2);
    layout->addWidget(bigButton(reset_, this));
    layout->addWidget(bigButton(stepBackward_, this));
    layout->addWidget(bigButton(playPause_, this));
    layout->addWidget(bigButton(stepForward_, this));
    layout->addWidget(bigButton(loop_, this));
    layout->addSpacing(8);
    layout->addWidget(time_);
    layout->addWidget(slider_, 1);
    layout->addWidget(end_);
    layout->addSpacing(8);
    auto* speedLabel = new QLabel(tr("&Speed:"), this);
    speedLabel->setBuddy(speed_);
    layout->addWidget(speedLabel);
    layout->addWidget(speed_);
}

void TimeControls::connectClock()
{
    connect(playPause_, &QAction::triggered, clock_, &PlaybackClock::togglePlaying);
    connect(stepForward_, &QAction::triggered, clock_, &PlaybackClock::stepForward);
    connect(stepBackward_, &QAction::triggered, clock_, &PlaybackClock::stepBackward);
    connect(reset_, &QAction::triggered, clock_, &PlaybackClock::reset);
    connect(clock_, &PlaybackClock::timeChanged, this, &TimeControls::showTime);
    connect(clock_, &PlaybackClock::playingChanged, this, &TimeControls::showPlaying);
    connect(slider_, &QSlider::valueChanged, this, [this](int position) {
        clock_->setTime(clock_->start() + position * clock_->stepSize());
    });
    // Scrubbing pauses playback, as in a video player.
    connect(slider_, &QSlider::sliderPressed, clock_, &PlaybackClock::pause);
    connect(speed_, &QComboBox::currentIndexChanged, this,
            [this](int index) { clock_->setSpeed(speed_->itemData(index).toDouble()); });
}

void TimeControls::updateTimeFont()
{
    // The clock reads from the back of the room: 1.5 times the panel's font, which follows
    // Large Text.
    QFont big = font();
    if (big.pointSizeF() > 0)
        big.setPointSizeF(big.pointSizeF() * 1.5);
    else
        big.setPixelSize(qRound(big.pixelSize() * 1.5));
    big.setBold(true);
    big.setFamily(QStringLiteral("monospace"));
    big.setStyleHint(QFont::Monospace);
    time_->setFont(big);
    time_->setMinimumWidth(QFontMetrics(big).horizontalAdvance(QStringLiteral("t = 000.000 s")));
}

void TimeControls::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        updateTimeFont();
}

void TimeControls::setTrajectoryAvailable(bool available)
{
    for (QAction* action : {playPause_, stepForward_, stepBackward_, reset_})
        action->setEnabled(available);
    slider_->setEnabled(available);
}

void TimeControls::updateRange()
{
    const double span = clock_->end() - clock_->start();
    const int steps = span > 0.0 ? static_cast<int>(std::lround(span / clock_->stepSize())) : 0;
    {
        const QSignalBlocker block(slider_);
        slider_->setRange(0, steps);
        slider_->setPageStep(std::max(1, steps / 20));
    }
    end_->setText(tr("%1 s").arg(clock_->end(), 0, 'f', 2));
    showTime(clock_->time());
}

QString TimeControls::timeText() const
{
    return time_->text();
}

void TimeControls::showTime(double t)
{
    time_->setText(QStringLiteral("t = %1 s").arg(t, 0, 'f', 3));
    const QSignalBlocker block(slider_);
    slider_->setValue(static_cast<int>(std::lround((t - clock_->start()) / clock_->stepSize())));
}

void TimeControls::showPlaying(bool playing)
{
    if (playing) {
        playPause_->setIcon(themed("media-playback-pause", ":/icons/pause.svg"));
        playPause_->setText(tr("&Pause"));
        playPause_->setToolTip(tr("Pause (Space)"));
    } else {
        playPause_->setIcon(themed("media-playback-start", ":/icons/play.svg"));
        playPause_->setText(tr("&Play"));
        playPause_->setToolTip(tr("Play (Space)"));
    }
}

} // namespace clab
