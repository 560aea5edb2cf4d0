#include "widgets/ScientificSpinBox.h"

#include <QLocale>
#include <QRegularExpression>

#include <cmath>

namespace clab {

ScientificSpinBox::ScientificSpinBox(QWidget* parent) : QDoubleSpinBox(parent)
{
    // QDoubleSpinBox rounds values to `decimals`; tolerances need far more.
    setDecimals(300);
    setRange(1e-15, 1e-1);
    setValue(1e-9);
}

QString ScientificSpinBox::textFromValue(double value) const
{
    // Always the C locale: tolerances are typed as in papers and scene files.
    return QString::number(value, 'g', 3);
}

double ScientificSpinBox::valueFromText(const QString& text) const
{
    QString body = text;
    body.remove(prefix());
    body.remove(suffix());
    return body.trimmed().toDouble();
}

QValidator::State ScientificSpinBox::validate(QString& text, int& pos) const
{
    (void)pos;
    QString body = text;
    body.remove(prefix());
    body.remove(suffix());
    body = body.trimmed();
    if (body.isEmpty())
        return QValidator::Intermediate;
    bool ok = false;
    const double value = body.toDouble(&ok);
    if (ok && value >= minimum() && value <= maximum())
        return QValidator::Acceptable;
    // Partial input such as "1e" or "1e-" while typing.
    static const QRegularExpression partial(QStringLiteral("^[0-9]*\\.?[0-9]*([eE][-+]?[0-9]*)?$"));
    return partial.match(body).hasMatch() ? QValidator::Intermediate : QValidator::Invalid;
}

void ScientificSpinBox::stepBy(int steps)
{
    const double current = value() > 0.0 ? value() : minimum();
    // Whole decades: 1e-9 → 1e-8 → 1e-7.
    const double exponent = std::round(std::log10(current)) + steps;
    setValue(std::pow(10.0, exponent));
}

} // namespace clab
