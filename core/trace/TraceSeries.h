#pragma once

#include "trace/Trace.h"

#include <string>
#include <vector>

namespace clab {

/// \brief The quantities of a trace that can be plotted: every column plus a few derived ones.
///
/// Derived quantities (present only when the trace has what they are computed from):
/// - "|Q|", "|Qci|", "|Qcni|": Euclidean norms of the generalized force vectors per sample;
/// - "E_balance": E − E(0) − W_nonideal − W_given_nc − W_ideal, the energy audit with every work
///   term the run has (equal to E_error); its label names the terms that are present;
/// - "quat_norm_error": ‖u‖ − 1 of the rigid body's quaternion (from the "quat_norm" column).
class TraceSeries {
public:
    /// Column names in trace order, then the derived quantities available for this trace.
    static std::vector<std::string> names(const Trace& trace);
    static bool contains(const Trace& trace, const std::string& name);
    /// The values over all samples. Throws ConstraintLabError(InvalidParameter) naming the
    /// unknown quantity and listing the available ones.
    static std::vector<double> values(const Trace& trace, const std::string& name);
    /// SI unit of the quantity: "m", "m/s", "m/s²", "N", "J", "1/s", "1/s²", "N·m", or "" for
    /// dimensionless quantities (quaternion components, residuals, contact modes). Unknown names
    /// throw as in values().
    static std::string unit(const Trace& trace, const std::string& name);
    /// Human label for legends and axis titles, in Unicode: "x", "ẋ", "ẍ", "Q_x", "Qᶜᵢ_x",
    /// "‖Qᶜₙᵢ‖", "E − E₀ − W_nonideal", "‖u‖ − 1", "ω₁", "max |residual|", ...
    static std::string label(const Trace& trace, const std::string& name);
};

} // namespace clab
