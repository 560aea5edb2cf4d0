#pragma once

#include <vector>

namespace clab {

/// \brief Where a running fit stands after an iteration (FitControl::progress).
struct FitProgress {
    int iteration = 0;          ///< accepted Levenberg–Marquardt steps so far
    int runs = 0;               ///< simulations so far
    double weightedRms = 0.0;   ///< √(Σ r² / m) of the weighted residuals at `values`
    std::vector<double> values; ///< the best parameter values so far, in FitOptions order
};

} // namespace clab
