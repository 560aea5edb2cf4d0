#pragma once

#include "trace/PlotSpec.h"
#include "trace/Trace.h"

#include <string>
#include <vector>

namespace clab {

/// \brief The ready-made plots for a trace, decided by what the trace contains.
///
/// Every trace: "energy" (energy audit: T, V, E, W_nonideal, W_ideal when the constraints are
/// rheonomic, E_balance), "forces" (|Q|, |Qci|, |Qcni|), "residual" (residual_max, log axis).
/// Traces with a quaternion (a "quat_norm" column): also "omega" (w1, w2, w3), "quat-norm"
/// (quat_norm_error) and "rigid-energy" (T, V, E). Planar or spatial particle traces (at least two
/// coordinates in metres, no quaternion): "path" (the second such coordinate against the first).
class PlotCatalog {
public:
    static std::vector<PlotSpec> presets(const Trace& trace);
    /// Every id presets() can return, for files that name a plot before there is a trace.
    static const std::vector<std::string>& ids();
    /// The preset with this id, or nullptr.
    static const PlotSpec* find(const std::vector<PlotSpec>& presets, const std::string& id);
};

} // namespace clab
