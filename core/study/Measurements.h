#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace clab {

/// \brief Measured values of trace quantities at common times, in SI units and simulation
/// time: what ParameterFit compares a run with (formats/MeasurementFile reads them from a file
/// and applies the user's unit scale and time offset).
struct Measurements {
    /// One measured quantity.
    struct Column {
        std::string quantity;       ///< the trace column it measures: "s", "x", "phi", ...
        std::vector<double> values; ///< one per time, in the quantity's SI unit
        /// Standard deviation of one value (same unit); 0 when unknown: the fit then weighs
        /// every value alike and estimates the noise from the residuals.
        double sigma = 0.0;
        std::string label; ///< how messages name it, e.g. the file's column "pos"; may be empty

        /// label, or the quantity when there is no label.
        const std::string& name() const { return label.empty() ? quantity : label; }
    };

    std::vector<double> times; ///< strictly increasing, at or after the scene's initial time
    std::vector<Column> columns;

    /// Number of measured values over all columns.
    std::size_t valueCount() const { return times.size() * columns.size(); }
};

} // namespace clab
