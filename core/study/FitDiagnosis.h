#pragma once

#include "scenes/SceneDefinition.h"
#include "study/FitResult.h"
#include "study/Measurements.h"

#include <string>
#include <vector>

namespace clab {

/// \brief Whether a fit's best values let the model follow the data at all (docs/FITTING.md,
/// "When the fit fails").
///
/// Least squares always returns values; from a start the model cannot bring near the data (the
/// bead started at 2 m, the data at 25 m) they are meaningless, however well they converged.
class FitDiagnosis {
public:
    /// Sets result.failure when a column's residual RMS at the best values (result.columnRms)
    /// is more than twice the spread of its data about their mean and, with σ given, more
    /// than three σ: the fitted model explains less of the data than a constant would. The
    /// reason names the gap at the first measured time when that gap is larger than the spread
    /// ("the data of pos_cm start at 25 m (t = 0.01 s), the model at 2 m"), and
    /// result.startParameters the unfitted parameters named after the quantity with a 0 (s0
    /// for s) that set its start. `units` are the columns' SI units.
    static void checkReach(const Measurements& measurements, const std::vector<std::string>& units,
                           const SceneDefinition& definition,
                           const std::vector<std::string>& fitted, FitResult& result);
};

} // namespace clab
