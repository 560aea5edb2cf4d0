#pragma once

#include <QString>

namespace clab {

/// \brief A measured or fitted value written to the digits its uncertainty allows: the
/// uncertainty to two significant digits, the value to the same decimal place (0.24993948 ±
/// 0.000121601 → 0.24994 ± 0.00012). The one rounding rule of fit reports, in the CLI's table
/// and the GUI's Fit panel alike.
class RoundedValue {
public:
    /// `value` with its standard `error`; an error that is not finite and positive leaves the
    /// value at six significant digits.
    RoundedValue(double value, double error);

    /// The value rounded to the error's last digit (as is without a usable error).
    double value() const { return rounded_; }
    /// The value as written: "0.24994".
    QString valueText() const;
    /// The error as written: "0.00012"; "-" when it is not finite.
    QString errorText() const;
    /// "0.24994 ± 0.00012", or the value alone without a usable error.
    QString text() const;

private:
    double value_ = 0.0, error_ = 0.0, rounded_ = 0.0, roundedError_ = 0.0;
    int decimals_ = 0;   ///< decimal places of the error's last digit (negative: tens, ...)
    bool known_ = false; ///< the error is finite and positive
};

} // namespace clab
