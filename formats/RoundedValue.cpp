#include "RoundedValue.h"

#include <cmath>

namespace clab {

namespace {

// v rounded to `decimals` decimal places (negative: to tens, hundreds, ...).
double roundedTo(double v, int decimals)
{
    const double scale = std::pow(10.0, decimals);
    return std::round(v * scale) / scale;
}

} // namespace

RoundedValue::RoundedValue(double value, double error)
    : value_(value), error_(error), rounded_(value),
      known_(std::isfinite(error) && error > 0.0 && std::isfinite(value))
{
    if (!known_)
        return;
    // Two significant digits of the error; rounding may carry into a new digit (0.000996 →
    // 0.0010), which then sets the place.
    decimals_ = 1 - static_cast<int>(std::floor(std::log10(error)));
    roundedError_ = roundedTo(error, decimals_);
    decimals_ = 1 - static_cast<int>(std::floor(std::log10(roundedError_)));
    rounded_ = roundedTo(value, decimals_);
}

QString RoundedValue::valueText() const
{
    if (!known_)
        return std::isfinite(value_) ? QString::number(value_, 'g', 6) : QStringLiteral("-");
    // Fixed notation while the digits stay readable, else one exponent for both.
    if (decimals_ >= 0 && decimals_ <= 9 && std::abs(rounded_) < 1e9)
        return QString::number(rounded_, 'f', decimals_);
    const int exponent =
        rounded_ == 0.0 ? 0 : static_cast<int>(std::floor(std::log10(std::abs(rounded_))));
    return QString::number(rounded_, 'e', std::max(0, exponent + decimals_));
}

QString RoundedValue::errorText() const
{
    if (!std::isfinite(error_))
        return QStringLiteral("-");
    if (!known_)
        return QString::number(error_, 'g', 2);
    if (decimals_ >= 0 && decimals_ <= 9)
        return QString::number(roundedError_, 'f', decimals_);
    return QString::number(roundedError_, 'g', 2);
}

QString RoundedValue::text() const
{
    return known_ ? valueText() + QStringLiteral(" ± ") + errorText() : valueText();
}

} // namespace clab
