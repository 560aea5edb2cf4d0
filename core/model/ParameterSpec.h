#pragma once

#include "model/ConstraintLabError.h"

#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace clab {

/// \brief Description of one named scene parameter: unit, default and valid range.
///
/// Scalars have one component; vectors (J, torque, quat0, ...) have `size` components, each
/// of which must lie in [min, max].
struct ParameterSpec {
    std::string name;
    std::string unit;        ///< SI unit text, e.g. "kg", "m/s", "deg"; empty if dimensionless
    std::string description; ///< one line for `describe` and tooltips
    std::vector<double> defaultValue;
    double min = -std::numeric_limits<double>::infinity();
    double max = std::numeric_limits<double>::infinity();
    bool minExclusive = false; ///< value must be strictly greater than min (e.g. mass > 0)
    bool nonZero = false;      ///< a vector that must not be all zero (e.g. a quaternion)
    bool wholeNumber = false;  ///< a count (the links of a chain): no fractional part
    /// When not empty: a value that is not given follows this other parameter's value instead
    /// of `defaultValue` (mu_s follows mu, so `--set mu=0.5` alone gives mu_s = 0.5 too).
    /// `defaultValue` is then the other parameter's default.
    std::string defaultsTo = {};
    /// When not empty: the value must not be below this other parameter's (mu_s ≥ mu).
    std::string notBelow = {};
    /// Words for people, with the symbol: "Kinetic friction μ" (the unit is shown beside it).
    /// The name stays the key of files and the command line.
    std::string label = {};

    /// label, or the name when a scene gives no label.
    const std::string& displayLabel() const { return label.empty() ? name : label; }

    /// A scalar with any real value.
    static ParameterSpec scalar(std::string name, std::string unit, std::string description,
                                double value)
    {
        return {.name = std::move(name),
                .unit = std::move(unit),
                .description = std::move(description),
                .defaultValue = {value}};
    }
    /// A scalar that must be greater than zero (a mass, a length).
    static ParameterSpec positive(std::string name, std::string unit, std::string description,
                                  double value)
    {
        ParameterSpec spec =
            scalar(std::move(name), std::move(unit), std::move(description), value);
        spec.min = 0.0;
        spec.minExclusive = true;
        return spec;
    }

    /// Values of everyday mechanics lie well within ±1e12 in SI units; beyond that, products of
    /// a few of them overflow or underflow double precision (a mass of 1e-165 kg underflowed the
    /// friction test, a position of 1e308 m overflowed the energy). Every range is clipped to it.
    static constexpr double magnitudeLimit = 1e12;

    /// The smallest admitted value: min clipped to −magnitudeLimit; a value that must be
    /// greater than 0 must be at least 1 / magnitudeLimit.
    double lowest() const
    {
        if (minExclusive && min == 0.0)
            return 1.0 / magnitudeLimit;
        return min < -magnitudeLimit ? -magnitudeLimit : min;
    }
    /// Whether lowest() itself is admitted.
    bool lowestIncluded() const { return !minExclusive || min == 0.0; }
    /// The largest admitted value: max clipped to magnitudeLimit.
    double highest() const { return max > magnitudeLimit ? magnitudeLimit : max; }
    /// Whether one component value is finite and within [lowest(), highest()].
    bool admits(double v) const
    {
        const bool aboveLow = lowestIncluded() ? v >= lowest() : v > lowest();
        return aboveLow && v <= highest(); // false for NaN
    }

    int size() const { return static_cast<int>(defaultValue.size()); }
    bool hasFiniteRange() const
    {
        return min > -std::numeric_limits<double>::infinity() &&
               max < std::numeric_limits<double>::infinity();
    }
};

/// Values of a scene's parameters by name (scalars are vectors of length one).
using ParameterValues = std::map<std::string, std::vector<double>>;

/// Component `index` of parameter `name`; throws ConstraintLabError(InvalidParameter) when the
/// parameter is missing or has too few components (scene constructors read values with it).
inline double parameterValue(const ParameterValues& values, const std::string& name, int index = 0)
{
    const auto it = values.find(name);
    if (it == values.end())
        throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter,
                                 "parameter '" + name + "' is missing");
    if (index < 0 || index >= static_cast<int>(it->second.size()))
        throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter,
                                 "parameter '" + name + "' has " +
                                     std::to_string(it->second.size()) + " components, component " +
                                     std::to_string(index) + " was asked for");
    return it->second[static_cast<std::size_t>(index)];
}

} // namespace clab
