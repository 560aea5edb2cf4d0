#pragma once

#include <Eigen/Dense>

#include <string>
#include <vector>

namespace clab {

/// \brief What a fit found: best values, their standard errors and correlations, the misfit,
/// and warnings for what the data do not determine (docs/MATH.md §9).
///
/// Per-parameter vectors follow FitOptions::parameters. A parameter the data do not determine
/// has `determined` false, an infinite standard error and NaN in its covariance row and
/// column.
struct FitResult {
    std::vector<std::string> parameters;
    std::vector<double> start;          ///< the starting values
    std::vector<double> values;         ///< the best values (the last accepted ones if cancelled)
    std::vector<double> standardErrors; ///< √ of the covariance's diagonal
    std::vector<bool> determined;       ///< false: the data do not fix this parameter
    std::vector<bool> atBound;          ///< the best value lies on one of its bounds
    Eigen::MatrixXd covariance;         ///< (JᵀJ)⁻¹, times s² when no σ was given
    Eigen::MatrixXd correlation;        ///< covariance scaled to unit diagonal

    std::vector<std::string> columns; ///< the measured columns' names (Measurements::Column)
    std::vector<double> columnRms;    ///< RMS of simulated − measured per column, its SI unit
    double chiSquare = 0.0;           ///< Σ r² of the weighted residuals
    int degreesOfFreedom = 0;         ///< values − fitted parameters
    bool sigmaGiven = false;          ///< σ known: covariance not scaled by s² = χ²/dof
    /// χ²/dof; near 1 when the model and the given σ fit the data; the noise variance (squared
    /// unit of the data) when no σ was given.
    double residualVariance = 0.0;

    int iterations = 0; ///< accepted Levenberg–Marquardt steps
    int runs = 0;       ///< simulations, finite differences included
    bool converged = false;
    bool cancelled = false;
    std::string stopReason;            ///< why the iterations ended, in words
    std::vector<std::string> warnings; ///< not determined, at a bound, no degrees of freedom
    /// Not empty when the fitted model does not follow the data at all (farther from them than
    /// their mean): why, in words ("the data of pos_cm start at 25 m, the model at 2 m"). Such
    /// a result must not be applied.
    std::string failure;
    /// With a failure: unfitted parameters that set the start of a measured quantity (s0 for
    /// s), which fitting too may let the model reach the data.
    std::vector<std::string> startParameters;
    /// Simulated − measured at the best values, per column and time, in SI units: the fitted
    /// model's residuals.
    std::vector<std::vector<double>> residuals;

    bool failed() const { return !failure.empty(); }

    /// Index of a fitted parameter, or -1.
    int indexOf(const std::string& name) const
    {
        for (std::size_t i = 0; i < parameters.size(); ++i)
            if (parameters[i] == name)
                return static_cast<int>(i);
        return -1;
    }
};

} // namespace clab
