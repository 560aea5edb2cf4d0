#include "study/ParameterFit.h"

#include "integrate/Simulator.h"
#include "model/ConstraintLabError.h"
#include "study/BoundedParameter.h"
#include "study/FitDiagnosis.h"
#include "study/FitProblem.h"
#include "study/ParallelRuns.h"
#include "study/ParameterSweep.h"
#include "trace/TraceSeries.h"

#include <unsupported/Eigen/NonLinearOptimization>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <memory>
#include <new>
#include <optional>
#include <set>

namespace clab {

namespace {

[[noreturn]] void invalid(const std::string& message)
{
    FitProblem::invalid(message);
}

std::string number(double v)
{
    return ConstraintLabError::number(v);
}

using Cancelled = FitProblem::Cancelled;

// "mu=0.3, mu_s=0.4": the trial values, prefixed to the error of a run that failed.
std::string labelOf(const std::vector<std::string>& names, const Eigen::VectorXd& p)
{
    std::string label;
    for (std::size_t i = 0; i < names.size(); ++i)
        label += (i ? ", " : "") + ParameterSweep::label(names[i], p[static_cast<Eigen::Index>(i)]);
    return label.empty() ? std::string("the document's values") : label;
}

// Levenberg–Marquardt's view of the problem: residuals and Jacobian in the free variables x
// (BoundedParameter), runs counted, cancellation answered with −1 (Eigen's "user asked").
class FitEngine {
public:
    FitEngine(const FitProblem& problem, std::vector<std::string> names,
              std::vector<BoundedParameter> bounds, const FitOptions& options,
              const FitControl& control)
        : problem_(problem), names_(std::move(names)), bounds_(std::move(bounds)),
          threads_(options.threads), control_(control)
    {
        runControl_.keepGoing = [this](double) {
            return keepGoing();
        };
    }

    bool keepGoing() const { return !control_.keepGoing || control_.keepGoing(); }
    int runs() const { return runs_.load(); }

    // The optimizer's variables are the free variables of BoundedParameter shifted so that the
    // start is 1 in each: MINPACK bounds the first step by a multiple of the start's size, which
    // is nothing for a start at (or near) 0.
    void setStart(const Eigen::VectorXd& p)
    {
        origin_.resize(p.size());
        for (Eigen::Index i = 0; i < p.size(); ++i)
            origin_[i] = bounds_[static_cast<std::size_t>(i)].internal(p[i]) - 1.0;
    }
    Eigen::VectorXd external(const Eigen::VectorXd& x) const
    {
        Eigen::VectorXd p(x.size());
        for (Eigen::Index i = 0; i < x.size(); ++i)
            p[i] = bounds_[static_cast<std::size_t>(i)].external(x[i] + origin_[i]);
        return p;
    }
    Eigen::VectorXd internal(const Eigen::VectorXd& p) const
    {
        Eigen::VectorXd x(p.size());
        for (Eigen::Index i = 0; i < p.size(); ++i)
            x[i] = bounds_[static_cast<std::size_t>(i)].internal(p[i]) - origin_[i];
        return x;
    }

    /// Residuals at p (the last few are remembered: the Jacobian needs the one at its point).
    const Eigen::VectorXd& residualsAt(const Eigen::VectorXd& p)
    {
        for (const auto& [at, r] : cache_)
            if (at == p)
                return r;
        std::unique_ptr<MechanicalSystem> system;
        Eigen::VectorXd r;
        try {
            system = problem_.build(p);
            ++runs_;
            r = problem_.simulate(*system, runControl_);
        } catch (...) {
            ParallelRuns::rethrowLabelled(std::current_exception(), labelOf(names_, p));
        }
        if (cache_.size() >= 3)
            cache_.erase(cache_.begin());
        cache_.emplace_back(p, std::move(r));
        return cache_.back().second;
    }

    /// The step of the finite difference of parameter j at p.
    double step(const Eigen::VectorXd& p, Eigen::Index j) const
    {
        const BoundedParameter& b = bounds_[static_cast<std::size_t>(j)];
        double h = 1e-4 * (p[j] != 0.0 ? std::abs(p[j]) : 1.0);
        if (std::isfinite(b.lower()) && std::isfinite(b.upper()))
            h = std::min(h, 0.25 * (b.upper() - b.lower()));
        return h;
    }

    /// ∂r/∂p by central differences of whole runs (one-sided at a bound), in parallel.
    Eigen::MatrixXd jacobianAt(const Eigen::VectorXd& p)
    {
        const Eigen::VectorXd& r0 = residualsAt(p);
        const Eigen::Index n = p.size();
        // Points below and above p per parameter; p itself where a bound is in the way.
        std::vector<Eigen::VectorXd> points;
        std::vector<std::pair<int, int>> sides(static_cast<std::size_t>(n), {-1, -1});
        for (Eigen::Index j = 0; j < n; ++j) {
            const BoundedParameter& b = bounds_[static_cast<std::size_t>(j)];
            const double h = step(p, j);
            Eigen::VectorXd below = p, above = p;
            below[j] -= h;
            above[j] += h;
            const bool canGoDown = below[j] >= b.lower(), canGoUp = above[j] <= b.upper();
            if (canGoDown || !canGoUp) {
                sides[static_cast<std::size_t>(j)].first = static_cast<int>(points.size());
                points.push_back(below);
            }
            if (canGoUp) {
                sides[static_cast<std::size_t>(j)].second = static_cast<int>(points.size());
                points.push_back(above);
            }
        }
        std::vector<std::unique_ptr<MechanicalSystem>> systems;
        for (const Eigen::VectorXd& point : points) {
            try {
                systems.push_back(problem_.build(point));
            } catch (...) {
                ParallelRuns::rethrowLabelled(std::current_exception(), labelOf(names_, point));
            }
        }
        std::vector<Eigen::VectorXd> results(points.size());
        std::vector<std::exception_ptr> errors = ParallelRuns::run(
            points.size(), threads_,
            [&](std::size_t i) {
                ++runs_;
                results[i] = problem_.simulate(*systems[i], runControl_);
            },
            false);
        // A side whose run fails gives way to a one-sided difference from p; both failing (or
        // a cancel) ends the fit.
        for (auto& [low, high] : sides) {
            for (int* side : {&low, &high}) {
                const int other = side == &low ? high : low;
                if (*side < 0 || !errors[static_cast<std::size_t>(*side)])
                    continue;
                const std::exception_ptr error = errors[static_cast<std::size_t>(*side)];
                if (other < 0 || errors[static_cast<std::size_t>(other)])
                    ParallelRuns::rethrowLabelled(
                        error, labelOf(names_, points[static_cast<std::size_t>(*side)]));
                try {
                    std::rethrow_exception(error);
                } catch (const ConstraintLabError& e) {
                    if (failedTrials_++ == 0)
                        firstFailure_ = e.what();
                } catch (...) {
                    ParallelRuns::rethrowLabelled(
                        error, labelOf(names_, points[static_cast<std::size_t>(*side)]));
                }
                *side = -1;
            }
        }

        Eigen::MatrixXd J(r0.size(), n);
        for (Eigen::Index j = 0; j < n; ++j) {
            const auto [low, high] = sides[static_cast<std::size_t>(j)];
            if (low < 0 && high < 0)
                throw ConstraintLabError(ConstraintLabError::Kind::IntegrationFailure,
                                         "no run near " + labelOf(names_, p) + " succeeded");
            const Eigen::VectorXd& rLow = low >= 0 ? results[static_cast<std::size_t>(low)] : r0;
            const Eigen::VectorXd& rHigh = high >= 0 ? results[static_cast<std::size_t>(high)] : r0;
            const double pLow = low >= 0 ? points[static_cast<std::size_t>(low)][j] : p[j];
            const double pHigh = high >= 0 ? points[static_cast<std::size_t>(high)][j] : p[j];
            J.col(j) = (rHigh - rLow) / (pHigh - pLow);
        }
        return J;
    }

    // The functor interface of Eigen::LevenbergMarquardt.
    int values() const { return static_cast<int>(problem_.size()); }
    int operator()(const Eigen::VectorXd& x, Eigen::VectorXd& f)
    {
        if (!keepGoing())
            return -1;
        try {
            f = residualsAt(external(x));
        } catch (const Cancelled&) {
            return -1;
        } catch (const ConstraintLabError& e) {
            // A trial step whose run fails (chattering contacts, a state off the constraints)
            // counts as a step that made things much worse: Levenberg–Marquardt rejects it
            // and shortens the step. The starting point itself must run.
            if (cache_.empty())
                throw;
            if (failedTrials_++ == 0)
                firstFailure_ = e.what();
            double worst = 0.0;
            for (const auto& cached : cache_)
                worst = std::max(worst, cached.second.norm());
            f = Eigen::VectorXd::Constant(problem_.size(),
                                          (10.0 * worst + 1.0) /
                                              std::sqrt(static_cast<double>(problem_.size())));
        }
        return 0;
    }
    /// Trial steps and difference runs that failed (rejected steps, one-sided differences), and
    /// the first one's error.
    int failedTrials() const { return failedTrials_; }
    const std::string& firstFailure() const { return firstFailure_; }
    int df(const Eigen::VectorXd& x, Eigen::MatrixXd& J)
    {
        if (!keepGoing())
            return -1;
        try {
            J = jacobianAt(external(x));
        } catch (const Cancelled&) {
            return -1;
        }
        for (Eigen::Index j = 0; j < x.size(); ++j)
            J.col(j) *= bounds_[static_cast<std::size_t>(j)].derivative(x[j] + origin_[j]);
        return 0;
    }

private:
    const FitProblem& problem_;
    std::vector<std::string> names_;
    std::vector<BoundedParameter> bounds_;
    int threads_;
    const FitControl& control_;
    RunControl runControl_;
    std::atomic<int> runs_{0};
    std::vector<std::pair<Eigen::VectorXd, Eigen::VectorXd>> cache_;
    Eigen::VectorXd origin_;
    int failedTrials_ = 0;
    std::string firstFailure_;
};

// Bounds of a fitted parameter: the scene's range within the user's bounds.
BoundedParameter boundsOf(const ParameterSpec& spec, const FitOptions& options)
{
    double lower = spec.min > -std::numeric_limits<double>::infinity() ? spec.lowest()
                                                                       : -FitOptions::unbounded;
    double upper =
        spec.max < std::numeric_limits<double>::infinity() ? spec.highest() : FitOptions::unbounded;
    if (const auto it = options.bounds.find(spec.name); it != options.bounds.end()) {
        const auto [low, high] = it->second;
        if (std::isnan(low) || std::isnan(high) || !(low < high))
            invalid("the bounds of " + spec.name + " must satisfy lower < upper, got [" +
                    number(low) + ", " + number(high) + "]");
        lower = std::max(lower, low);
        upper = std::min(upper, high);
        if (!(lower < upper))
            invalid("the bounds [" + number(low) + ", " + number(high) + "] of " + spec.name +
                    " leave nothing of its range [" + number(spec.lowest()) + ", " +
                    number(spec.highest()) + "]");
    }
    return {lower, upper};
}

std::string stopReason(Eigen::LevenbergMarquardtSpace::Status status)
{
    using namespace Eigen::LevenbergMarquardtSpace;
    switch (status) {
    case RelativeReductionTooSmall:
        return "the misfit no longer decreases";
    case RelativeErrorTooSmall:
        return "the parameters no longer change";
    case RelativeErrorAndReductionTooSmall:
        return "neither the misfit nor the parameters change any more";
    case CosinusTooSmall:
        return "the misfit does not change with the parameters (zero gradient)";
    case FtolTooSmall:
    case XtolTooSmall:
    case GtolTooSmall:
        return "converged to the precision of the arithmetic";
    case TooManyFunctionEvaluation:
        return "too many runs without convergence";
    case UserAsked:
        return "cancelled";
    case Running:
        return "the iteration limit was reached before convergence";
    case NotStarted:
    case ImproperInputParameters:
        break;
    }
    return "the fit could not start";
}

// The indices of the parameters the data determine.
std::vector<Eigen::Index> determinedColumns(const FitResult& result, Eigen::Index n)
{
    std::vector<Eigen::Index> kept;
    for (Eigen::Index j = 0; j < n; ++j)
        if (result.determined[static_cast<std::size_t>(j)])
            kept.push_back(j);
    return kept;
}

// Marks what the data do not determine, with a warning for each: a parameter whose step
// changes the run by less than the integration error, and parameters whose columns of J are
// (nearly) dependent, fixed only in combination.
void markUndetermined(const Eigen::MatrixXd& J, const Eigen::VectorXd& steps, double noiseFloor,
                      const std::vector<bool>& staticFriction, FitResult& result)
{
    const Eigen::Index n = J.cols();
    result.determined.assign(static_cast<std::size_t>(n), true);
    for (Eigen::Index j = 0; j < n; ++j) {
        if (J.col(j).norm() * steps[j] <= noiseFloor) {
            result.determined[static_cast<std::size_t>(j)] = false;
            result.warnings.push_back(result.parameters[static_cast<std::size_t>(j)] +
                                      " is not determined by the data: the simulated values do "
                                      "not change with it" +
                                      (staticFriction[static_cast<std::size_t>(j)]
                                           ? " (a static friction never acts while the body "
                                             "never stops)"
                                           : ""));
        }
    }
    for (;;) {
        const std::vector<Eigen::Index> kept = determinedColumns(result, n);
        if (kept.size() < 2)
            break;
        Eigen::MatrixXd scaled(J.rows(), static_cast<Eigen::Index>(kept.size()));
        for (std::size_t k = 0; k < kept.size(); ++k)
            scaled.col(static_cast<Eigen::Index>(k)) = J.col(kept[k]) / J.col(kept[k]).norm();
        const Eigen::JacobiSVD<Eigen::MatrixXd> svd(scaled, Eigen::ComputeThinV);
        const Eigen::VectorXd s = svd.singularValues();
        if (s[s.size() - 1] > 1e-6 * s[0])
            break;
        const Eigen::VectorXd v = svd.matrixV().col(s.size() - 1);
        std::string names;
        for (std::size_t k = 0; k < kept.size(); ++k) {
            if (std::abs(v[static_cast<Eigen::Index>(k)]) < 0.2)
                continue;
            result.determined[static_cast<std::size_t>(kept[k])] = false;
            names += (names.empty() ? "" : " and ") +
                     result.parameters[static_cast<std::size_t>(kept[k])];
        }
        result.warnings.push_back(names +
                                  " are not determined separately: the data fix only a "
                                  "combination of them (condition number " +
                                  number(s[0] / s[s.size() - 1]) + ")");
    }
}

// The covariance of the determined parameters (NaN for the others), scaled by the residual
// variance when no sigma was given: (JᵀJ)⁻¹ = V Σ⁻² Vᵀ, without forming JᵀJ (which squares
// the condition number).
void covariance(const Eigen::MatrixXd& J, double scale, FitResult& result)
{
    const Eigen::Index n = J.cols();
    result.covariance = Eigen::MatrixXd::Constant(n, n, std::numeric_limits<double>::quiet_NaN());
    const std::vector<Eigen::Index> kept = determinedColumns(result, n);
    if (kept.empty())
        return;
    Eigen::MatrixXd Jk(J.rows(), static_cast<Eigen::Index>(kept.size()));
    for (std::size_t k = 0; k < kept.size(); ++k)
        Jk.col(static_cast<Eigen::Index>(k)) = J.col(kept[k]);
    const Eigen::JacobiSVD<Eigen::MatrixXd> svd(Jk, Eigen::ComputeThinV);
    const Eigen::MatrixXd V = svd.matrixV();
    const Eigen::VectorXd inverseSquares = svd.singularValues().array().square().inverse();
    const Eigen::MatrixXd C = V * inverseSquares.asDiagonal() * V.transpose() * scale;
    for (std::size_t a = 0; a < kept.size(); ++a)
        for (std::size_t b = 0; b < kept.size(); ++b)
            result.covariance(kept[a], kept[b]) =
                C(static_cast<Eigen::Index>(a), static_cast<Eigen::Index>(b));
}

// Standard errors, covariance, correlation and the warnings for what the data do not
// determine, from the weighted Jacobian J at the best values, in the order docs/MATH.md §9
// gives them.
void statistics(const Eigen::MatrixXd& J, const Eigen::VectorXd& r, const Eigen::VectorXd& steps,
                double noiseFloor, const std::vector<bool>& staticFriction, FitResult& result)
{
    const Eigen::Index n = J.cols();
    markUndetermined(J, steps, noiseFloor, staticFriction, result);

    result.chiSquare = r.squaredNorm();
    result.degreesOfFreedom = static_cast<int>(J.rows() - n);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    result.residualVariance =
        result.degreesOfFreedom > 0 ? result.chiSquare / result.degreesOfFreedom : nan;
    double scale = 1.0;
    if (!result.sigmaGiven) {
        scale = result.residualVariance;
        if (result.degreesOfFreedom == 0)
            result.warnings.push_back("as many values as parameters: without a standard "
                                      "deviation (sigma) the errors cannot be estimated");
    }

    covariance(J, scale, result);
    result.standardErrors.resize(static_cast<std::size_t>(n));
    result.correlation = Eigen::MatrixXd::Constant(n, n, nan);
    for (Eigen::Index j = 0; j < n; ++j)
        result.standardErrors[static_cast<std::size_t>(j)] =
            result.determined[static_cast<std::size_t>(j)]
                ? std::sqrt(result.covariance(j, j))
                : std::numeric_limits<double>::infinity();
    for (Eigen::Index a = 0; a < n; ++a)
        for (Eigen::Index b = 0; b < n; ++b)
            result.correlation(a, b) = result.covariance(a, b) /
                                       std::sqrt(result.covariance(a, a) * result.covariance(b, b));
}

// The specs of the parameters to fit (or sweep), checked: at least one, known, scalar, each
// once.
std::vector<const ParameterSpec*> checkedParameters(const SceneDefinition& definition,
                                                    const std::vector<std::string>& names)
{
    if (names.empty())
        invalid("no parameter to fit");
    std::set<std::string> seen;
    std::vector<const ParameterSpec*> specs;
    for (const std::string& name : names) {
        const ParameterSpec* spec = definition.parameter(name);
        if (!spec) {
            std::string list;
            for (const ParameterSpec& p : definition.parameters)
                list += (list.empty() ? "" : ", ") + p.name;
            invalid("the scene has no parameter '" + name + "' (its parameters: " + list + ")");
        }
        if (spec->size() != 1)
            invalid("parameter '" + name + "' has " + std::to_string(spec->size()) +
                    " components; only scalar parameters can be fitted");
        if (spec->wholeNumber)
            invalid("parameter '" + name + "' is a count (" + spec->description +
                    "); a fit varies its parameters continuously, so counts cannot be fitted");
        if (!seen.insert(name).second)
            invalid("parameter '" + name + "' is given twice");
        specs.push_back(spec);
    }
    return specs;
}

// The steps of ParameterFit::run, in order.

/// The options' own limits, and bounds only for fitted parameters.
void checkOptions(const FitOptions& options)
{
    for (const auto& bound : options.bounds)
        if (std::find(options.parameters.begin(), options.parameters.end(), bound.first) ==
            options.parameters.end())
            invalid("bounds are given for '" + bound.first + "', which is not fitted");
    if (options.maxIterations < 1)
        invalid("the iteration limit must be at least 1, got " +
                std::to_string(options.maxIterations));
    if (options.threads < 0)
        invalid("the number of threads must not be negative, got " +
                std::to_string(options.threads));
}

/// The fitted parameters' start values (just inside a bound they start on) and bounds; the
/// start values as given go to result.start.
Eigen::VectorXd startValues(const std::vector<const ParameterSpec*>& specs,
                            const ParameterValues& start, const FitOptions& options,
                            std::vector<BoundedParameter>& bounds, FitResult& result)
{
    const auto n = static_cast<Eigen::Index>(specs.size());
    Eigen::VectorXd p0(n);
    for (Eigen::Index j = 0; j < n; ++j) {
        const ParameterSpec& spec = *specs[static_cast<std::size_t>(j)];
        const BoundedParameter b = boundsOf(spec, options);
        double value = start.at(spec.name)[0];
        result.start.push_back(value);
        if (value < b.lower() || value > b.upper())
            invalid(spec.name + " starts at " + number(value) + ", outside its bounds [" +
                    number(b.lower()) + ", " + number(b.upper()) + "]");
        // On a bound the change of variable has a zero derivative: start just inside.
        const double width = std::isfinite(b.upper() - b.lower()) ? b.upper() - b.lower()
                                                                  : std::max(1.0, std::abs(value));
        if (value == b.lower())
            value += 1e-3 * width;
        if (value == b.upper())
            value -= 1e-3 * width;
        p0[j] = value;
        bounds.push_back(b);
    }
    return p0;
}

/// Levenberg–Marquardt from x, one iteration at a time (progress and the iteration limit
/// between them); x ends at the best internal values. `iterations` is Eigen's count.
Eigen::LevenbergMarquardtSpace::Status minimize(FitEngine& engine, Eigen::VectorXd& x,
                                                Eigen::Index measured, const FitOptions& options,
                                                const FitControl& control, Eigen::Index& iterations)
{
    Eigen::LevenbergMarquardt<FitEngine> lm(engine);
    lm.parameters.ftol = options.tolerance;
    lm.parameters.xtol = options.tolerance;
    lm.parameters.maxfev = 50 * (options.maxIterations + 1);
    auto status = lm.minimizeInit(x);
    while (status == Eigen::LevenbergMarquardtSpace::NotStarted ||
           status == Eigen::LevenbergMarquardtSpace::Running) {
        if (lm.iter > options.maxIterations) {
            status = Eigen::LevenbergMarquardtSpace::Running;
            break;
        }
        status = lm.minimizeOneStep(x);
        if (control.progress && status != Eigen::LevenbergMarquardtSpace::UserAsked)
            control.progress({static_cast<int>(lm.iter - 1), engine.runs(),
                              lm.fnorm / std::sqrt(static_cast<double>(measured)), [&] {
                                  const Eigen::VectorXd p = engine.external(x);
                                  return std::vector<double>(p.data(), p.data() + p.size());
                              }()});
    }
    iterations = lm.iter;
    return status;
}

/// A value below the one its notBelow names ran raised to it (mu_s to mu): reported so.
void raiseToFloors(const std::vector<const ParameterSpec*>& specs, const FitOptions& options,
                   const ParameterValues& start, Eigen::VectorXd& best, FitResult& result)
{
    const auto n = static_cast<Eigen::Index>(specs.size());
    for (Eigen::Index j = 0; j < n; ++j) {
        const ParameterSpec& spec = *specs[static_cast<std::size_t>(j)];
        if (spec.notBelow.empty())
            continue;
        const auto floorAt =
            std::find(options.parameters.begin(), options.parameters.end(), spec.notBelow);
        const double floor = floorAt != options.parameters.end()
                                 ? best[floorAt - options.parameters.begin()]
                                 : start.at(spec.notBelow)[0];
        if (best[j] < floor) {
            best[j] = floor;
            result.warnings.push_back(spec.name + " ran as " + spec.notBelow + " (" +
                                      number(floor) + "), the least the scene allows");
        }
    }
}

/// Ten times rtol of the weighted simulated values: the size of the integration error.
double noiseFloorOf(const Eigen::VectorXd& r, const Measurements& measurements,
                    const FitProblem& problem)
{
    // Weighted simulated values, for the size of the integration error.
    Eigen::VectorXd simulated(r.size());
    Eigen::Index k = 0;
    for (std::size_t c = 0; c < measurements.columns.size(); ++c)
        for (double value : measurements.columns[c].values) {
            simulated[k] = r[k] + value * problem.weight(c);
            ++k;
        }
    return 10.0 * problem.simulation().rtol * simulated.norm() + std::numeric_limits<double>::min();
}

/// The RMS of simulated − measured per column, in the column's units, and those residuals.
void columnRms(const Eigen::VectorXd& r, const Measurements& measurements,
               const FitProblem& problem, FitResult& result)
{
    const std::size_t times = measurements.times.size();
    for (std::size_t c = 0; c < measurements.columns.size(); ++c) {
        const Eigen::VectorXd rc =
            r.segment(static_cast<Eigen::Index>(c * times), static_cast<Eigen::Index>(times)) /
            problem.weight(c);
        result.columnRms.push_back(std::sqrt(rc.squaredNorm() / static_cast<double>(times)));
        result.residuals.emplace_back(rc.data(), rc.data() + rc.size());
    }
}

/// Parameters that ended at (or within 1e-5 of the width of) a bound, with a warning each.
void flagBounds(const std::vector<BoundedParameter>& bounds, const Eigen::VectorXd& best,
                FitResult& result)
{
    const auto n = static_cast<Eigen::Index>(bounds.size());
    result.atBound.assign(static_cast<std::size_t>(n), false);
    for (Eigen::Index j = 0; j < n; ++j) {
        const BoundedParameter& b = bounds[static_cast<std::size_t>(j)];
        // The maps approach a bound only asymptotically: near it counts as on it.
        const double width = b.upper() - b.lower();
        const double slack =
            1e-5 * (std::isfinite(width) ? width : std::max(1.0, std::abs(best[j])));
        const bool low = best[j] <= b.lower() + slack, high = best[j] >= b.upper() - slack;
        if (!low && !high)
            continue;
        result.atBound[static_cast<std::size_t>(j)] = true;
        result.warnings.push_back(result.parameters[static_cast<std::size_t>(j)] +
                                  " ended at its bound " + number(low ? b.lower() : b.upper()) +
                                  ": the data pull it further, and its standard error does not "
                                  "account for the bound");
    }
}

/// How the minimization ended, in the result: iterations, stop reason, convergence, and the
/// warnings a user needs (no convergence, trial runs that failed).
void recordOutcome(Eigen::LevenbergMarquardtSpace::Status status, Eigen::Index iterations,
                   const FitEngine& engine, FitResult& result)
{
    result.iterations = static_cast<int>(std::max<Eigen::Index>(iterations - 1, 0));
    result.stopReason = stopReason(status);
    result.cancelled = status == Eigen::LevenbergMarquardtSpace::UserAsked;
    result.converged = !result.cancelled && status != Eigen::LevenbergMarquardtSpace::Running &&
                       status != Eigen::LevenbergMarquardtSpace::TooManyFunctionEvaluation;
    if (result.cancelled)
        return;
    if (!result.converged)
        result.warnings.push_back("the fit did not converge: " + result.stopReason);
    if (engine.failedTrials() > 0)
        result.warnings.push_back(
            std::to_string(engine.failedTrials()) +
            " trial run(s) could not be simulated (steps were shortened, differences "
            "taken on one side); the first: " +
            engine.firstFailure());
}

} // namespace

FitResult ParameterFit::run(const SceneDocument& document, const Measurements& measurements,
                            const FitOptions& options, const FitControl& control)
{
    // --- Check everything before the first run ---
    const SceneDefinition* definition = document.definition();
    if (!definition)
        invalid("unknown scene '" + document.scene + "'");
    const std::vector<const ParameterSpec*> specs =
        checkedParameters(*definition, options.parameters);
    checkOptions(options);

    const FitProblem problem(document, measurements, options.parameters);
    const Eigen::Index n = static_cast<Eigen::Index>(specs.size());
    if (problem.size() < n)
        invalid(std::to_string(problem.size()) + " measured values cannot determine " +
                std::to_string(n) + " parameters");

    FitResult result;
    result.parameters = options.parameters;
    const ParameterValues start = definition->complete(problem.given());
    std::vector<BoundedParameter> bounds;
    const Eigen::VectorXd p0 = startValues(specs, start, options, bounds, result);
    for (const Measurements::Column& column : measurements.columns) {
        result.columns.push_back(column.name());
        result.sigmaGiven = column.sigma > 0.0;
    }

    // --- Levenberg–Marquardt, one iteration at a time ---
    FitEngine engine(problem, options.parameters, bounds, options, control);
    engine.setStart(p0);
    Eigen::VectorXd x = engine.internal(p0);
    Eigen::Index iterations = 0;
    const auto status = minimize(engine, x, problem.size(), options, control, iterations);
    Eigen::VectorXd best = engine.external(x);
    raiseToFloors(specs, options, start, best, result);
    result.values.assign(best.data(), best.data() + best.size());
    recordOutcome(status, iterations, engine, result);
    if (result.cancelled) {
        result.runs = engine.runs();
        return result;
    }

    // --- Errors from the Jacobian at the best values ---
    Eigen::MatrixXd J;
    Eigen::VectorXd r;
    try {
        J = engine.jacobianAt(best);
        r = engine.residualsAt(best);
    } catch (const Cancelled&) {
        result.cancelled = true;
        result.stopReason = stopReason(Eigen::LevenbergMarquardtSpace::UserAsked);
        result.runs = engine.runs();
        return result;
    }
    result.runs = engine.runs();
    Eigen::VectorXd steps(n);
    for (Eigen::Index j = 0; j < n; ++j)
        steps[j] = engine.step(best, j);
    const double noiseFloor = noiseFloorOf(r, measurements, problem);
    // A parameter with a floor (mu_s ≥ mu) is a static friction: it acts only at rest.
    std::vector<bool> staticFriction;
    for (const ParameterSpec* spec : specs)
        staticFriction.push_back(!spec->notBelow.empty());
    statistics(J, r, steps, noiseFloor, staticFriction, result);

    columnRms(r, measurements, problem, result);
    flagBounds(bounds, best, result);
    FitDiagnosis::checkReach(measurements, problem.units(), *definition, options.parameters,
                             result);
    return result;
}

std::vector<double> ParameterFit::residuals(const SceneDocument& document,
                                            const Measurements& measurements)
{
    const FitProblem problem(document, measurements, {});
    const std::unique_ptr<MechanicalSystem> system = problem.build(Eigen::VectorXd());
    const Eigen::VectorXd r = problem.simulate(*system, {});
    return {r.data(), r.data() + r.size()};
}

std::vector<double> ParameterFit::simulatedAt(const Trace& trace, const Measurements& measurements)
{
    if (trace.samples.empty())
        throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter,
                                 "measured values: the trace has no samples to compare with");
    std::vector<int> indices;
    for (const Measurements::Column& column : measurements.columns) {
        const int index = trace.columnIndex(column.quantity);
        if (index < 0)
            throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter,
                                     "measured column '" + column.name() +
                                         "': the trace has no quantity '" + column.quantity + "'");
        indices.push_back(index);
    }
    const std::size_t stride = indices.size();
    std::vector<double> ts, ys, row;
    ts.reserve(trace.samples.size());
    ys.reserve(trace.samples.size() * stride);
    for (const TraceSample& sample : trace.samples) {
        trace.row(sample, row);
        ts.push_back(sample.t);
        for (int index : indices)
            ys.push_back(row[static_cast<std::size_t>(index)]);
    }
    std::vector<double> values;
    values.reserve(measurements.valueCount());
    for (std::size_t c = 0; c < stride; ++c)
        for (double t : measurements.times)
            values.push_back(FitProblem::sampleAt(ts, ys, stride, c, t));
    return values;
}

std::vector<std::vector<double>> ParameterFit::residualGrid(const SceneDocument& document,
                                                            const Measurements& measurements,
                                                            const std::vector<SweepAxis>& axes,
                                                            std::size_t first, std::size_t last,
                                                            int threads)
{
    const SceneDefinition* definition = document.definition();
    if (!definition)
        invalid("unknown scene '" + document.scene + "'");
    std::vector<std::string> names;
    for (const SweepAxis& axis : axes) {
        names.push_back(axis.parameter);
        if (axis.values.empty())
            invalid("no values given for parameter '" + axis.parameter + "'");
    }
    checkedParameters(*definition, names);
    if (first > last || last > ParameterSweep::gridSize(axes))
        invalid("grid points " + std::to_string(first) + " to " + std::to_string(last) +
                " are not within the " + std::to_string(ParameterSweep::gridSize(axes)) +
                " points of the grid");
    if (threads < 0)
        invalid("the number of threads must not be negative, got " + std::to_string(threads));

    const FitProblem problem(document, measurements, names);
    std::vector<Eigen::VectorXd> points;
    std::vector<std::unique_ptr<MechanicalSystem>> systems;
    for (std::size_t point = first; point < last; ++point) {
        const std::vector<double> values = ParameterSweep::gridPoint(axes, point);
        points.emplace_back(Eigen::Map<const Eigen::VectorXd>(
            values.data(), static_cast<Eigen::Index>(values.size())));
        try {
            systems.push_back(problem.build(points.back()));
        } catch (...) {
            ParallelRuns::rethrowLabelled(std::current_exception(), labelOf(names, points.back()));
        }
    }
    std::vector<std::vector<double>> result(points.size());
    const std::vector<std::exception_ptr> errors =
        ParallelRuns::run(points.size(), threads, [&](std::size_t i) {
            const Eigen::VectorXd r = problem.simulate(*systems[i], {});
            result[i].assign(r.data(), r.data() + r.size());
        });
    for (std::size_t i = 0; i < errors.size(); ++i)
        if (errors[i])
            ParallelRuns::rethrowLabelled(errors[i], labelOf(names, points[i]));
    return result;
}

} // namespace clab
