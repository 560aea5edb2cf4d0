#pragma once

#include "trace/Trace.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string>
#include <vector>

namespace clab {
class MechanicalSystem;
}

namespace clab::python {

/// The rows of `trace` as a float64 array, samples × columns, in the CSV's column order (the
/// numbers the CSV prints with 17 significant digits, unrounded).
pybind11::array_t<double> traceRows(const Trace& trace);

/// What Python's Result holds: "columns" (names), "data" (traceRows), "events" (dicts of t,
/// contact, contact_name, event), "stats" (the run's cost), "reached_end", "cancelled".
pybind11::dict traceDict(const Trace& trace, const MechanicalSystem& system);

/// Rows of several traces stacked, each row led by `leading` values of its trace (a sweep's
/// point index and swept values).
pybind11::array_t<double> stackedRows(const std::vector<const Trace*>& traces,
                                      const std::vector<std::vector<double>>& leading);

} // namespace clab::python
