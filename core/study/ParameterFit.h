#pragma once

#include "scenes/SceneDocument.h"
#include "study/FitControl.h"
#include "study/FitOptions.h"
#include "study/FitResult.h"
#include "study/Measurements.h"
#include "study/SweepAxis.h"
#include "trace/Trace.h"

#include <cstddef>

#include <vector>

namespace clab {

/// \brief Fits scene parameters (μ, μₛ, an angle, initial conditions, ...) to measured trace
/// values by nonlinear least squares (docs/MATH.md §9).
///
/// Each evaluation simulates the document from its initial time to the last measured time and
/// samples the measured quantities at the measured times (interpolated on the run's output
/// grid, which the fit chooses; measured times on a regular grid from the initial time are hit
/// exactly). After a run that ends early at the end of its track (stop_at_end), the body stays
/// there: later times take the last sample's value, which keeps the misfit continuous as the
/// end time moves. The weighted residuals r = (simulated − measured) / σ are minimized by
/// Levenberg–Marquardt from Eigen's MINPACK port (unsupported/Eigen/NonLinearOptimization),
/// chosen over Ceres (Debian's libceres-dev) because it is header-only in the libeigen3-dev the
/// project already needs, where Ceres brings glog, gflags, ATLAS and SuiteSparse for problems of
/// a few parameters, and because it steps one iteration at a time, which progress and cancel
/// need. Bounds by a change of variable (BoundedParameter); the Jacobian by central
/// differences of whole runs, run in parallel (ParallelRuns).
///
/// Parameters that follow a fitted one (mu_s follows mu) follow its fitted value unless they
/// are fitted themselves or the document gives them another value. A trial with a parameter
/// below the one its notBelow names (mu_s < mu) runs with it raised to that value.
///
/// The document is never changed; the caller applies FitResult::values if it wants them.
class ParameterFit {
public:
    /// Runs the fit. Throws ConstraintLabError(InvalidParameter) naming what is wrong before
    /// any run: an unknown scene or parameter, a vector parameter, a parameter given twice, a
    /// bound that is empty or excludes the start, measurements without columns or times,
    /// times not strictly increasing or before the scene's start, a non-finite value, a
    /// quantity the trace does not have, fewer values than parameters, σ given for some
    /// columns but not all. A run that fails where there is no way round it (at the starting
    /// values, on both sides of a difference) throws its error prefixed with the parameter
    /// values ("mu=0.3: ..."); any other failing run is a rejected step or a one-sided
    /// difference, counted in a warning. Cancelling (FitControl::keepGoing)
    /// returns the best values so far with `cancelled` set and no covariance. Best values
    /// that leave the model farther from the data than their mean come with
    /// FitResult::failure (FitDiagnosis): the caller must not use them.
    static FitResult run(const SceneDocument& document, const Measurements& measurements,
                         const FitOptions& options, const FitControl& control = {});

    /// The weighted residuals (simulated − measured) / σ (σ = 1 when not given) of one run of
    /// `document` as it is, in column-major order (all times of the first column, then the
    /// next); for misfit landscapes. Validates like run().
    static std::vector<double> residuals(const SceneDocument& document,
                                         const Measurements& measurements);

    /// The values of `trace` at the measured times, one per measured value in column-major
    /// order, sampled as run() samples its runs (interpolated between samples, the last sample
    /// after the end): what a GUI compares with the measurements after each re-simulation.
    /// Throws ConstraintLabError(InvalidParameter) naming a quantity the trace does not have,
    /// or an empty trace.
    static std::vector<double> simulatedAt(const Trace& trace, const Measurements& measurements);
    /// residuals() at the points [first, last) of the product grid of `axes`
    /// (ParameterSweep::gridPoint), the runs in parallel: a misfit landscape. The swept
    /// parameters are checked as fitted ones are in run(), and their followers follow them.
    static std::vector<std::vector<double>> residualGrid(const SceneDocument& document,
                                                         const Measurements& measurements,
                                                         const std::vector<SweepAxis>& axes,
                                                         std::size_t first, std::size_t last,
                                                         int threads = 0);
};

} // namespace clab
