#pragma once

#include <Eigen/Core>

#include <optional>
#include <string>
#include <vector>

namespace clab {

class MechanicalSystem;

/// \brief A stored start: the time, coordinates and velocities a run starts from instead of
/// the initial state the scene's parameters give (docs/GUI.md "Grab, drag and throw": a chain
/// dragged into a new shape, the state and time a pull was let go at). A scene file keeps it
/// under "start" (docs/FORMATS.md); SimulationOptions::start hands it to Simulator::run.
struct StartState {
    double t0 = 0.0;
    std::vector<double> q;  ///< one value per coordinate
    std::vector<double> qd; ///< one velocity per coordinate ("qdot" in files)

    /// What is wrong with a stored start for a system: its key ("start.t0", "start.q",
    /// "start.qdot", or "start" for a state off the constraints) and why.
    struct Problem {
        std::string key;
        std::string reason;
    };

    StartState() = default;
    StartState(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& qd);

    Eigen::VectorXd positions() const;
    Eigen::VectorXd velocities() const;

    /// Why this state cannot start `system`, or none: a length other than the system's
    /// coordinates, a value that is not finite, or a state off the constraints at t0 (a
    /// constraint residual beyond residualTolerance).
    std::optional<Problem> problem(const MechanicalSystem& system) const;

    /// How far a start's constraint residuals may be from zero: residuals are products of at
    /// most two state components, so round-off scales with them (and with t0 for the
    /// rheonomic ones).
    static double residualTolerance(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t0);

    friend bool operator==(const StartState&, const StartState&) = default;
};

} // namespace clab
