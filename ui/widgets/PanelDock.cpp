#include "widgets/PanelDock.h"

#include <QStyleOptionDockWidget>
#include <QStylePainter>

namespace clab {

PanelDock::PanelDock(const QString& title, QWidget* parent) : QDockWidget(title, parent)
{
}

void PanelDock::paintEvent(QPaintEvent* event)
{
    // A floating dock may have the window manager's title bar or a title widget: Qt's own.
    if (isFloating() || titleBarWidget()) {
        QDockWidget::paintEvent(event);
        return;
    }
    // As QDockWidget draws a docked title, with the font it has now (QStylePainter starts
    // with the widget's font, the option's font metrics are the widget's).
    QStylePainter painter(this);
    QStyleOptionDockWidget option;
    initStyleOption(&option);
    painter.drawControl(QStyle::CE_DockWidgetTitle, option);
}

} // namespace clab
