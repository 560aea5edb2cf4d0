#pragma once

#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace clab {

/// \brief What ParameterFit fits and how far it may go; a setting of one fit, not of the scene.
struct FitOptions {
    /// Scalar scene parameters to fit (at least one); their values in the document are the
    /// starting point. The others keep the document's values.
    std::vector<std::string> parameters;
    /// Bounds of fitted parameters, {lower, upper} (either may be infinite); every parameter
    /// is also kept inside its scene range (ParameterSpec).
    std::map<std::string, std::pair<double, double>> bounds;
    int maxIterations = 100; ///< Levenberg–Marquardt iterations (accepted steps)
    /// Relative change of the misfit and of the parameters below which the fit has converged.
    double tolerance = 1e-10;
    int threads = 0; ///< parallel runs for the Jacobian; 0: one per hardware thread

    static constexpr double unbounded = std::numeric_limits<double>::infinity();
};

} // namespace clab
