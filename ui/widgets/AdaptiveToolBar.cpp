#include "AdaptiveToolBar.h"

#include <QEvent>
#include <QTimer>

namespace clab {

AdaptiveToolBar::AdaptiveToolBar(const QString& title, QWidget* parent) : QToolBar(title, parent)
{
    setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
}

void AdaptiveToolBar::resizeEvent(QResizeEvent* event)
{
    QToolBar::resizeEvent(event);
    // After the layout settled: a change of style inside a resize would resize again.
    scheduleAdapt();
}

void AdaptiveToolBar::scheduleAdapt()
{
    if (!adaptPending_) {
        adaptPending_ = true;
        QTimer::singleShot(0, this, &AdaptiveToolBar::adapt);
    }
}

void AdaptiveToolBar::changeEvent(QEvent* event)
{
    QToolBar::changeEvent(event);
    // Another font (Large Text) or style: the text's width is measured again.
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange) {
        textWidth_ = 0;
        scheduleAdapt();
    }
}

void AdaptiveToolBar::adapt()
{
    adaptPending_ = false;
    if (textWidth_ == 0 && toolButtonStyle() != Qt::ToolButtonTextBesideIcon) {
        // Show the text once to measure it, then decide.
        setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        scheduleAdapt();
        return;
    }
    if (toolButtonStyle() == Qt::ToolButtonTextBesideIcon)
        textWidth_ = sizeHint().width();
    const int room =
        orientation() == Qt::Horizontal && parentWidget() ? parentWidget()->width() : width();
    setToolButtonStyle(textWidth_ <= room ? Qt::ToolButtonTextBesideIcon : Qt::ToolButtonIconOnly);
}

} // namespace clab
