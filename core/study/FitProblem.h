#pragma once

#include "integrate/RunControl.h"
#include "integrate/SimulationOptions.h"
#include "model/MechanicalSystem.h"
#include "scenes/SceneDefinition.h"
#include "scenes/SceneDocument.h"
#include "study/Measurements.h"
#include "trace/Trace.h"

#include <Eigen/Core>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace clab {

/// \brief Everything a run of the fit needs, checked once: the scene, the fixed values, the
/// measured columns' places in a trace row, the output grid.
///
/// A private header of core/study: a part of ParameterFit, which FitEngine runs.
class FitProblem {
public:
    /// Thrown by a run that FitControl::keepGoing cancelled; caught by the fit itself.
    struct Cancelled {};

    /// Throws ConstraintLabError(InvalidParameter): "fit: " and the message.
    [[noreturn]] static void invalid(const std::string& message);
    /// The value of one column at time t from samples at times ts (increasing): the sample itself
    /// when t is on it, 4-point Lagrange interpolation between samples, the last sample after the
    /// end of the run (the body stays at the end of its track).
    static double sampleAt(const std::vector<double>& ts, const std::vector<double>& ys,
                           std::size_t stride, std::size_t column, double t);

    FitProblem(const SceneDocument& document, const Measurements& measurements,
               const std::vector<std::string>& fitted);
    const SceneDefinition& definition() const { return *definition_; }
    const ParameterValues& given() const { return given_; }
    const SimulationOptions& simulation() const { return options_; }
    Eigen::Index size() const { return static_cast<Eigen::Index>(measurements_.valueCount()); }
    double weight(std::size_t column) const { return weights_[column]; }
    /// The SI units of the measured quantities, column by column.
    std::vector<std::string> units() const;
    /// The system for fitted values p (on the calling thread: factories need not be
    /// thread-safe). A value below the one its notBelow names is raised to it.
    std::unique_ptr<MechanicalSystem> build(const Eigen::VectorXd& p) const;
    /// Weighted residuals (simulated − measured) / σ of one run, column after column; any
    /// thread.
    Eigen::VectorXd simulate(const MechanicalSystem& system, const RunControl& control) const;

private:
    void checkMeasurements() const;
    /// Refuses to fit a start parameter that a stored start (SimulationOptions::start) overrides.
    void checkStoredStart(const SceneDocument& document) const;
    void checkRange(const Measurements::Column& column) const;
    double outputInterval(double t0) const;

    const Measurements& measurements_;
    std::vector<std::string> fitted_;
    const SceneDefinition* definition_ = nullptr;
    ParameterValues given_;
    Trace shape_;
    std::vector<int> columns_;
    std::vector<double> weights_;
    SimulationOptions options_;
};

} // namespace clab
