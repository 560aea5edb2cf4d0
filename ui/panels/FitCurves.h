#pragma once

#include "plots/PlotData.h"

#include <study/Measurements.h>

#include <string>
#include <utility>
#include <vector>

namespace clab {

/// \brief The Fit dock's measurements and residuals as plot curves (markers), each with the
/// trace quantity it belongs to, for PlotsPanel::setMeasured and setResiduals.
class FitCurves {
public:
    /// Each measured column against time, dark markers: "pos_cm (measured)".
    static std::vector<std::pair<std::string, PlotCurve>> measured(const Measurements& measured);
    /// Measured − simulated per column against time: "pos_cm − simulated s".
    static std::vector<std::pair<std::string, PlotCurve>>
    residuals(const Measurements& measured, const std::vector<std::vector<double>>& residuals);
};

} // namespace clab
