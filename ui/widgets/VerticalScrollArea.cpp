#include "VerticalScrollArea.h"

#include <QEvent>
#include <QScrollBar>

#include <algorithm>

namespace clab {

VerticalScrollArea::VerticalScrollArea(QWidget* parent) : QScrollArea(parent)
{
    setWidgetResizable(true);
    setFrameShape(QFrame::NoFrame);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
}

void VerticalScrollArea::setContent(QWidget* content)
{
    setWidget(content);
    // A new minimum width of the content (a font, a rebuilt panel) is the area's too.
    content->installEventFilter(this);
    updateGeometry();
}

QSize VerticalScrollArea::minimumSizeHint() const
{
    QSize hint = QScrollArea::minimumSizeHint();
    if (widget()) {
        // Room for the vertical scroll bar whether it shows or not: its coming and going must
        // not push the content beyond the edge.
        const int content = widget()->minimumSizeHint().width() +
                            verticalScrollBar()->sizeHint().width() + 2 * frameWidth();
        hint.setWidth(std::max(hint.width(), content));
    }
    return hint;
}

QSize VerticalScrollArea::sizeHint() const
{
    QSize hint = QScrollArea::sizeHint();
    hint.setWidth(std::max(hint.width(), minimumSizeHint().width()));
    return hint;
}

bool VerticalScrollArea::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == widget() && event->type() == QEvent::LayoutRequest)
        updateGeometry();
    return QScrollArea::eventFilter(watched, event);
}

} // namespace clab
