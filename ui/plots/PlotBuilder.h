#pragma once

#include "plots/PlotData.h"

#include <trace/LabelledTrace.h>
#include <trace/PlotSpec.h>

#include <vector>

namespace clab {

/// \brief Turns a PlotSpec and one or more runs into PlotData (TraceSeries values, labels,
/// units, colours).
///
/// Colours: |Q|, |Qci|, |Qcni| and the Q/Qci/Qcni columns use the force colours (ForceKind.h);
/// other series take a fixed colour-blind-safe palette in the order of spec.y. With several
/// runs (compare mode, sweeps) the last run is the current one, drawn solid; earlier runs are
/// drawn dashed in their run's colour (runColor, as their ghosts in the 3D view), and every
/// legend entry names its run: "E (μ = 0.1)". Axis titles carry units: "t [s]"; the y title lists
/// the unit when all series share one ("energy [J]" style: the labels joined when they differ).
/// With logY, values are |y| and zeros are clipped to the smallest positive value of the curve (or
/// 1e-300).
class PlotBuilder {
public:
    /// Throws ConstraintLabError(InvalidParameter) naming an unknown quantity or an empty run
    /// list.
    static PlotData build(const PlotSpec& spec, const std::vector<LabelledTrace>& runs);
    /// The colour of the current run's curve of `name` in a plot of `spec`; invalid when
    /// spec.y does not hold it. Measured markers of a quantity take its curve's colour.
    static QColor seriesColor(const PlotSpec& spec, const std::string& name);
};

} // namespace clab
