#include "study/FitProblem.h"

#include "integrate/Simulator.h"
#include "model/ConstraintLabError.h"
#include "scenes/SceneStart.h"
#include "trace/TraceSeries.h"

#include <algorithm>
#include <cmath>
#include <exception>

namespace clab {

namespace {

std::string number(double v)
{
    return ConstraintLabError::number(v);
}

} // namespace

void FitProblem::invalid(const std::string& message)
{
    throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter, "fit: " + message);
}

double FitProblem::sampleAt(const std::vector<double>& ts, const std::vector<double>& ys,
                            std::size_t stride, std::size_t column, double t)
{
    const std::size_t count = ts.size();
    const auto y = [&](std::size_t k) {
        return ys[k * stride + column];
    };
    const double slack = 1e-9 * (1.0 + std::abs(t));
    if (t >= ts.back() - slack)
        return y(count - 1);
    const std::size_t k = static_cast<std::size_t>(
        std::upper_bound(ts.begin(), ts.end(), t + slack) - ts.begin() - 1); // ts[k] ≤ t
    if (std::abs(t - ts[k]) <= slack)
        return y(k);
    if (count < 4)
        return y(k) + (y(k + 1) - y(k)) * (t - ts[k]) / (ts[k + 1] - ts[k]);
    const std::size_t first = std::min(k > 0 ? k - 1 : 0, count - 4);
    double value = 0.0;
    for (std::size_t i = first; i < first + 4; ++i) {
        double weight = 1.0;
        for (std::size_t j = first; j < first + 4; ++j)
            if (j != i)
                weight *= (t - ts[j]) / (ts[i] - ts[j]);
        value += weight * y(i);
    }
    return value;
}

// A stored start (a drag's) replaces the start the parameters give: fitting s0 would move
// nothing, and the fit would call s0 undetermined. A parameter sets the start when a small
// change of it, in either direction that still makes a system, does not keep the stored start.
void FitProblem::checkStoredStart(const SceneDocument& document) const
{
    if (!document.simulation.start)
        return;
    for (const std::string& name : fitted_) {
        const auto it = document.parameters.find(name);
        if (it == document.parameters.end() || it->second.empty())
            continue;
        for (const double sign : {1.0, -1.0}) {
            SceneDocument moved = document;
            double& value = moved.parameters[name][0];
            value += sign * (0.01 * std::abs(value) + 1e-3);
            try {
                definition_->create(definition_->complete(moved.parameters));
            } catch (const std::exception&) {
                continue;
            }
            if (!SceneStart::keepsStoredStart(document, moved))
                invalid(name +
                        " sets where the run starts, but the scene has a stored start (a "
                        "dragged or pulled state), which the runs use instead; clear it "
                        "(Edit > Reset Start, or the file's \"start\" key) to fit " +
                        name);
            break;
        }
    }
}

FitProblem::FitProblem(const SceneDocument& document, const Measurements& measurements,
                       const std::vector<std::string>& fitted)
    : measurements_(measurements), fitted_(fitted)
{
    definition_ = document.definition();
    if (!definition_)
        invalid("unknown scene '" + document.scene + "'");
    checkMeasurements();
    given_ = definition_->untieFollowers(document.parameters, fitted_);
    checkStoredStart(document);

    // The document's own values must make a system; its trace names the quantities.
    const std::unique_ptr<MechanicalSystem> system =
        definition_->create(definition_->complete(given_));
    shape_ = Simulator::emptyTrace(*system);
    const double t0 = document.simulation.startTime(system->initialTime());
    for (const Measurements::Column& column : measurements_.columns) {
        const int index = shape_.columnIndex(column.quantity);
        if (index < 0) {
            std::string names;
            for (const std::string& name : shape_.columnNames())
                names += (names.empty() ? "" : ", ") + name;
            invalid("measured column '" + column.name() + "': the scene has no trace quantity '" +
                    column.quantity + "' (its quantities: " + names + ")");
        }
        columns_.push_back(index);
        weights_.push_back(column.sigma > 0.0 ? 1.0 / column.sigma : 1.0);
    }
    const std::vector<double>& times = measurements_.times;
    const double slack = 1e-9 * (1.0 + std::abs(t0));
    if (times.front() < t0 - slack)
        invalid("the first measured time, t = " + number(times.front()) +
                " s, is before the scene's start t0 = " + number(t0) +
                " s (shift the times with a time offset)");
    if (times.back() <= t0 + slack)
        invalid("the last measured time, t = " + number(times.back()) +
                " s, must be after the scene's start t0 = " + number(t0) + " s");

    options_ = document.simulation;
    options_.tEnd = times.back();
    options_.dt = outputInterval(t0);
}

std::vector<std::string> FitProblem::units() const
{
    std::vector<std::string> units;
    for (const Measurements::Column& column : measurements_.columns)
        units.push_back(TraceSeries::unit(shape_, column.quantity));
    return units;
}

std::unique_ptr<MechanicalSystem> FitProblem::build(const Eigen::VectorXd& p) const
{
    ParameterValues values = given_;
    for (std::size_t i = 0; i < fitted_.size(); ++i)
        values[fitted_[i]] = {p[static_cast<Eigen::Index>(i)]};
    values = definition_->complete(values);
    for (const ParameterSpec& spec : definition_->parameters) {
        if (spec.notBelow.empty())
            continue;
        auto self = values.find(spec.name);
        const auto floor = values.find(spec.notBelow);
        if (self != values.end() && floor != values.end() && self->second.size() == 1 &&
            floor->second.size() == 1 && self->second[0] < floor->second[0])
            self->second[0] = floor->second[0];
    }
    return definition_->create(values);
}

Eigen::VectorXd FitProblem::simulate(const MechanicalSystem& system,
                                     const RunControl& control) const
{
    const std::size_t stride = columns_.size();
    std::vector<double> ts, ys, row;
    ts.reserve(static_cast<std::size_t>(SimulationOptions::outputIntervals(
                   options_.startTime(system.initialTime()), options_.tEnd, options_.dt)) +
               2);
    ys.reserve(ts.capacity() * stride);
    Simulator simulator(system);
    const Trace trace = simulator.run(
        options_,
        [&](const TraceSample& sample) {
            shape_.row(sample, row);
            ts.push_back(sample.t);
            for (int index : columns_)
                ys.push_back(row[static_cast<std::size_t>(index)]);
        },
        control);
    if (trace.cancelled)
        throw Cancelled{};

    const std::vector<double>& times = measurements_.times;
    Eigen::VectorXd r(size());
    Eigen::Index k = 0;
    for (std::size_t c = 0; c < stride; ++c) {
        const Measurements::Column& column = measurements_.columns[c];
        for (std::size_t i = 0; i < times.size(); ++i)
            r[k++] = (sampleAt(ts, ys, stride, c, times[i]) - column.values[i]) * weights_[c];
    }
    return r;
}

void FitProblem::checkMeasurements() const
{
    const std::vector<double>& times = measurements_.times;
    if (measurements_.columns.empty())
        invalid("no measured columns");
    if (times.empty())
        invalid("no measured times");
    for (std::size_t i = 0; i < times.size(); ++i) {
        if (!std::isfinite(times[i]))
            invalid("measured time #" + std::to_string(i + 1) + " is not finite");
        if (i > 0 && times[i] <= times[i - 1])
            invalid("measured time #" + std::to_string(i + 1) + " (t = " + number(times[i]) +
                    " s) is not after the one before (t = " + number(times[i - 1]) + " s)");
    }
    std::size_t withSigma = 0;
    for (const Measurements::Column& column : measurements_.columns) {
        if (column.values.size() != times.size())
            invalid("measured column '" + column.name() + "' has " +
                    std::to_string(column.values.size()) + " values for " +
                    std::to_string(times.size()) + " times");
        for (std::size_t i = 0; i < times.size(); ++i)
            if (!std::isfinite(column.values[i]))
                invalid("measured column '" + column.name() + "': value #" + std::to_string(i + 1) +
                        " (t = " + number(times[i]) + " s) is not finite");
        checkRange(column);
        if (!std::isfinite(column.sigma) || column.sigma < 0.0)
            invalid("measured column '" + column.name() +
                    "': the standard deviation must be a finite number ≥ 0, got " +
                    number(column.sigma));
        withSigma += column.sigma > 0.0 ? 1 : 0;
    }
    if (withSigma != 0 && withSigma != measurements_.columns.size())
        invalid("a standard deviation is given for some measured columns but not for all; "
                "give one for every column or for none");
}

// The fit minimizes a sum of squared residuals: a value whose square (over σ²) overflows a
// double makes every trial equally infinite, and the minimizer would stop at the start
// reporting convergence (issue 34: data near 1e308).
void FitProblem::checkRange(const Measurements::Column& column) const
{
    const double scale = column.sigma > 0.0 ? column.sigma : 1.0;
    const double limit = 1e150; // squared and summed over many points, still finite
    for (std::size_t i = 0; i < column.values.size(); ++i)
        if (!(std::abs(column.values[i] / scale) <= limit))
            invalid("measured column '" + column.name() + "': value #" + std::to_string(i + 1) +
                    " (t = " + number(measurements_.times[i]) + " s) is " +
                    number(column.values[i]) +
                    (column.sigma > 0.0 ? " (σ = " + number(column.sigma) + ")" : "") +
                    ", out of the numeric range of a fit: its squared residual would "
                    "overflow (beyond about 1.8e308); give the data in a larger unit");
}

// The output interval: the measured spacing when the times lie on a regular grid from t0
// (every time is then an output sample), else a quarter of the smallest spacing.
double FitProblem::outputInterval(double t0) const
{
    const std::vector<double>& times = measurements_.times;
    const double span = times.back() - t0;
    double spacing = span;
    for (std::size_t i = 1; i < times.size(); ++i)
        spacing = std::min(spacing, times[i] - times[i - 1]);
    bool regular = true;
    for (double t : times) {
        const double k = (t - t0) / spacing;
        regular = regular && std::abs(k - std::round(k)) <= 1e-6;
    }
    const double dt = regular ? spacing : std::min(spacing, span / 100.0) / 4.0;
    return std::max(dt, span / 1e6); // at most a million output intervals
}

} // namespace clab
