#include "study/BoundedParameter.h"

#include <algorithm>
#include <cmath>

namespace clab {

double BoundedParameter::internal(double p) const
{
    const bool low = std::isfinite(lower_), high = std::isfinite(upper_);
    constexpr double tiny = 1e-300;
    if (low && high) {
        const double s = (p - lower_) / (upper_ - lower_);
        return std::log(std::max(s, tiny)) - std::log(std::max(1.0 - s, tiny));
    }
    if (low)
        return std::log(std::max(p - lower_, tiny));
    if (high)
        return std::log(std::max(upper_ - p, tiny));
    return p;
}

double BoundedParameter::external(double x) const
{
    const bool low = std::isfinite(lower_), high = std::isfinite(upper_);
    if (low && high)
        return std::clamp(lower_ + (upper_ - lower_) / (1.0 + std::exp(-x)), lower_, upper_);
    if (low)
        return lower_ + std::exp(x);
    if (high)
        return upper_ - std::exp(x);
    return x;
}

double BoundedParameter::derivative(double x) const
{
    const bool low = std::isfinite(lower_), high = std::isfinite(upper_);
    if (low && high) {
        const double s = 1.0 / (1.0 + std::exp(-x));
        return (upper_ - lower_) * s * (1.0 - s);
    }
    if (low)
        return std::exp(x);
    if (high)
        return -std::exp(x);
    return 1.0;
}

} // namespace clab
