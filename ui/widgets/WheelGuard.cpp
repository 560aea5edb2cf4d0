#include "WheelGuard.h"

#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QLineEdit>
#include <QPointer>
#include <QScrollBar>
#include <QWheelEvent>

namespace clab {

namespace {

QPointer<WheelGuard>& installedGuard()
{
    static QPointer<WheelGuard> guard;
    return guard;
}

bool changesValueOnWheel(const QWidget* widget)
{
    if (qobject_cast<const QAbstractSpinBox*>(widget) || qobject_cast<const QComboBox*>(widget))
        return true;
    // A scroll bar is how a panel scrolls: it keeps the wheel.
    if (qobject_cast<const QAbstractSlider*>(widget))
        return !qobject_cast<const QScrollBar*>(widget);
    const auto* edit = qobject_cast<const QLineEdit*>(widget);
    return edit && edit->validator();
}

/// Focus by click or Tab only: with Qt::WheelFocus the wheel would first give the focus.
void takeFocusOnlyByClick(QWidget* widget)
{
    if (widget->focusPolicy() == Qt::WheelFocus && changesValueOnWheel(widget))
        widget->setFocusPolicy(Qt::StrongFocus);
}

} // namespace

WheelGuard::WheelGuard(QObject* parent) : QObject(parent)
{
}

void WheelGuard::install()
{
    if (installedGuard() || !qApp)
        return;
    installedGuard() = new WheelGuard(qApp);
    qApp->installEventFilter(installedGuard());
    // Widgets already polished get no Polish event any more.
    for (QWidget* widget : QApplication::allWidgets())
        takeFocusOnlyByClick(widget);
}

bool WheelGuard::isInstalled()
{
    return !installedGuard().isNull();
}

QWidget* WheelGuard::guardedControl(QWidget* widget)
{
    // The outermost control within the window: a spin box rather than its line edit.
    QWidget* control = nullptr;
    for (QWidget* w = widget; w; w = w->parentWidget()) {
        if (changesValueOnWheel(w))
            control = w;
        if (w->isWindow())
            break;
    }
    return control;
}

bool WheelGuard::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::Polish) {
        if (auto* widget = qobject_cast<QWidget*>(watched))
            takeFocusOnlyByClick(widget);
        return false;
    }
    if (event->type() != QEvent::Wheel || !watched->isWidgetType())
        return false;
    QWidget* control = guardedControl(static_cast<QWidget*>(watched));
    if (!control)
        return false;
    const QWidget* focus = QApplication::focusWidget();
    if (focus && (focus == control || control->isAncestorOf(focus)))
        return false;
    // Filtered but not accepted: QApplication hands the event on to the parents, up to the
    // scroll area around the panel.
    event->ignore();
    return true;
}

} // namespace clab
