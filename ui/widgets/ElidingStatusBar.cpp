#include "widgets/ElidingStatusBar.h"

#include <QChildEvent>
#include <QPainter>
#include <QSizeGrip>
#include <QStyleOption>

namespace clab {

ElidingStatusBar::ElidingStatusBar(QWidget* parent) : QStatusBar(parent)
{
    connect(this, &QStatusBar::messageChanged, this, &ElidingStatusBar::updateToolTip);
}

QRect ElidingStatusBar::messageRect() const
{
    // As QStatusBar lays its message out: 6 px in, up to the leftmost widget that stays shown
    // beside a message (the permanent ones: a message hides the others) or the size grip.
    int right = width() - 12;
    for (const QWidget* child : findChildren<QWidget*>(Qt::FindDirectChildrenOnly))
        if (child->isVisible() && !child->isWindow())
            right = std::min(right, child->x() - 6);
    return QRect(6, 0, std::max(0, right - 6), height());
}

QString ElidingStatusBar::shownMessage() const
{
    return fontMetrics().elidedText(currentMessage(), Qt::ElideRight, messageRect().width());
}

void ElidingStatusBar::updateToolTip()
{
    const QString message = currentMessage();
    setToolTip(shownMessage() == message ? QString() : message);
}

void ElidingStatusBar::childEvent(QChildEvent* event)
{
    QStatusBar::childEvent(event);
    if (event->added() && event->child()->isWidgetType())
        event->child()->installEventFilter(this);
}

bool ElidingStatusBar::eventFilter(QObject* watched, QEvent* event)
{
    // A readout beside the message that grows, shrinks, shows or hides changes the room left.
    switch (event->type()) {
    case QEvent::Resize:
    case QEvent::Move:
    case QEvent::Show:
    case QEvent::Hide:
        updateToolTip();
        break;
    default:
        break;
    }
    return QStatusBar::eventFilter(watched, event);
}

void ElidingStatusBar::resizeEvent(QResizeEvent* event)
{
    QStatusBar::resizeEvent(event);
    updateToolTip();
}

void ElidingStatusBar::paintEvent(QPaintEvent* event)
{
    if (currentMessage().isEmpty()) {
        QStatusBar::paintEvent(event);
        return;
    }
    // QStatusBar's own painting with the message elided: the panel, the frames of the widgets
    // shown beside the message, the text.
    QPainter painter(this);
    QStyleOption option;
    option.initFrom(this);
    style()->drawPrimitive(QStyle::PE_PanelStatusBar, &option, &painter, this);
    for (QWidget* child : findChildren<QWidget*>(Qt::FindDirectChildrenOnly)) {
        if (!child->isVisible() || child->isWindow() || qobject_cast<QSizeGrip*>(child))
            continue;
        QStyleOption frame(0);
        frame.rect = child->geometry().adjusted(-2, -1, 2, 1);
        frame.palette = palette();
        frame.state = QStyle::State_None;
        style()->drawPrimitive(QStyle::PE_FrameStatusBarItem, &frame, &painter, child);
    }
    painter.setPen(palette().windowText().color());
    painter.drawText(messageRect(), Qt::AlignLeading | Qt::AlignVCenter | Qt::TextSingleLine,
                     shownMessage());
}

} // namespace clab
