#include "widgets/ParameterSpinBox.h"

#include <QApplication>
#include <QKeyEvent>

#include <algorithm>
#include <cmath>

namespace clab {

ParameterSpinBox::ParameterSpinBox(QWidget* parent) : QDoubleSpinBox(parent)
{
    setDecimals(maxDecimals);
}

QString ParameterSpinBox::textFromValue(double value) const
{
    // Fixed notation rounded to the kept decimals, trailing zeros dropped.
    QString text = locale().toString(value, 'f', decimals());
    const QChar point = locale().decimalPoint().front();
    if (text.contains(point)) {
        while (text.endsWith(u'0'))
            text.chop(1);
        if (text.endsWith(point))
            text.chop(1);
    }
    if (text == QLatin1String("-0"))
        text = QStringLiteral("0");
    return text;
}

QSize ParameterSpinBox::sizeHint() const
{
    QSize hint = QDoubleSpinBox::sizeHint();
    // The text plus what the frame and the arrows take beside it.
    const int frame = hint.width() - fontMetrics().horizontalAdvance(textFromValue(maximum()));
    hint.setWidth(fontMetrics().horizontalAdvance(QStringLiteral("-0000.0000")) +
                  std::clamp(frame, 24, 48));
    return hint;
}

QSize ParameterSpinBox::minimumSizeHint() const
{
    QSize hint = sizeHint();
    hint.setWidth(hint.width() - fontMetrics().horizontalAdvance(QStringLiteral("0000")));
    return hint;
}

void ParameterSpinBox::stepBy(int steps)
{
    // Shift: ten times finer, for tuning μ to the third decimal.
    step(steps, QApplication::keyboardModifiers() & Qt::ShiftModifier);
}

void ParameterSpinBox::step(int steps, bool fine)
{
    const double size = fine ? singleStep() / 10.0 : singleStep();
    const double scale = std::pow(10.0, decimals());
    // Rounded to the kept decimals, so that 0.1 + 0.01 shows 0.11 and not 0.10999999.
    setValue(std::round((value() + steps * size) * scale) / scale);
    selectAll();
}

void ParameterSpinBox::keyPressEvent(QKeyEvent* event)
{
    if (event->key() == Qt::Key_Space) {
        event->accept();
        return;
    }
    if ((event->key() == Qt::Key_Up || event->key() == Qt::Key_Down) &&
        (event->modifiers() & Qt::ShiftModifier)) {
        step(event->key() == Qt::Key_Up ? 1 : -1, true);
        event->accept();
        return;
    }
    QDoubleSpinBox::keyPressEvent(event);
}

} // namespace clab
