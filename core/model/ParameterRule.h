#pragma once

#include "model/ParameterSpec.h"

#include <optional>
#include <string>
#include <vector>

namespace clab {

/// \brief The rules of a ParameterSpec, each stated once: scene definitions, scene files and
/// the Scene dock check values with these and only choose how to word and show a violation.
struct ParameterRule {
    /// Which rule a value breaks.
    enum class Kind {
        ComponentCount, ///< not spec.size() components
        NotFinite,      ///< a component is NaN or infinite
        OutOfRange,     ///< a component outside [lowest(), highest()]
        NotWhole,       ///< a count (wholeNumber) with a fractional part
        AllZero,        ///< every component 0 where the spec says nonZero
        Below           ///< below the value of the parameter that notBelow names
    };

    /// What is wrong with a parameter's value: its key and why. `reason` is core's wording,
    /// to follow the parameter's name ("= 5 kg is out of range; allowed: in [0, 2] kg"); the
    /// other fields let a caller word it in its own way.
    struct Violation {
        std::string key; ///< the parameter's name
        std::string reason;
        Kind kind = Kind::OutOfRange;
        /// The offending component of NotFinite, OutOfRange and NotWhole; -1 for the value as
        /// a whole.
        int component = -1;
        /// The offending component's value; for ComponentCount the number of components given.
        double value = 0.0;
        /// Below: the value of the parameter named by notBelow, at that component.
        double floor = 0.0;
    };

    /// Every rule `value` breaks on its own, in this order: the number of components (alone
    /// when it is wrong); for each component the first of not finite, out of range, not whole;
    /// all zero. Empty when `value` is valid.
    static std::vector<Violation> check(const ParameterSpec& spec,
                                        const std::vector<double>& value);
    /// The rule between parameters: the first component of `value` below that of the
    /// parameter spec.notBelow names in `values`; nullopt when none is, or when that parameter
    /// is missing from `values` or has another number of components.
    static std::optional<Violation> checkFloor(const ParameterSpec& spec,
                                               const std::vector<double>& value,
                                               const ParameterValues& values);

    /// The shortest text that reads back as the same double ("0.25", "1e+12").
    static std::string number(double v);
    /// A value as messages show it: "0.5", or "(1, 0, 0)" for a vector.
    static std::string valueText(const std::vector<double>& value);
    /// The allowed range with its unit: "in [0, 2] kg", "in (0, 1e+12] m".
    static std::string rangeText(const ParameterSpec& spec);
};

} // namespace clab
