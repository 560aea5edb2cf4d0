// The per-scene benchmarks of the issue, for every built-in scene with its default parameters:
//  (a) Acceleration/Ours/<scene> and Acceleration/Textbook/<scene>: one evaluation of the
//      simulator's right-hand side (mass matrix, given force, constraints, ideal phase,
//      non-ideal force from Qᶜᵢ, non-ideal phase), with FundamentalEquation and with the textbook
//      form of docs/MATH.md §2, cycling through the initial state and a few random states of the
//      scene's own trajectory. The two must agree before either is timed.
//  (b) Simulate10s/<scene>: a full 10 s run with the default SimulationOptions (Dormand–Prince,
//      rtol 1e-9, dt 0.01), reporting the real-time factor x_realtime = 10 s / wall time.
// The console table is followed by a Markdown summary per scene (medians when
// --benchmark_repetitions > 1; the ratio is taken on CPU time, the real-time factor on wall
// time); --clab_summary_out=FILE also writes that summary to FILE. The display is always the
// console format (--benchmark_format is not honoured; --benchmark_out still works).
#include "model/ConstraintLabError.h"
#include "solve/FundamentalEquation.h"
#include "model/MechanicalSystem.h"
#include "scenes/SceneRegistry.h"
#include "integrate/SimulationOptions.h"
#include "integrate/Simulator.h"
#include "trace/Trace.h"

#include "../support/TextbookFundamentalEquation.h"

#include <benchmark/benchmark.h>

#include <Eigen/Dense>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <unistd.h>

namespace {

using clab::ConstrainedAcceleration;
using clab::MechanicalSystem;
using Eigen::MatrixXd;
using Eigen::VectorXd;

constexpr double kSpan = 10.0;                 // simulated seconds of (b)
constexpr int kRandomStates = 7;               // trajectory states besides the initial one
constexpr std::uint32_t kSeed = 2024;          // which trajectory samples are drawn
constexpr double kAgreement = 1e-9;            // relative, ours against textbook
constexpr std::size_t kHarvestSteps = 100'000; // cap of the run that provides the states

struct StatePoint {
    VectorXd q, qd;
    double t = 0.0;
};

// A scene with its system and the states it is evaluated at: the initial state and random
// samples of its own 10 s trajectory. That trajectory is integrated without stabilization, so
// that (a) does not depend on the simulator's constraint-drift machinery; at rtol 1e-9 its
// states satisfy the constraints to about 1e-8.
struct SceneCase {
    std::string name;
    std::unique_ptr<MechanicalSystem> system;
    std::vector<StatePoint> states;
    double t0 = 0.0;
    std::string setupError; // non-empty when the scene cannot be benchmarked
};

// One run; throws what the simulator throws.
clab::Trace run10s(const SceneCase& c, const clab::SimulationOptions& options,
                   const clab::RunControl& control = {})
{
    clab::Simulator simulator(*c.system);
    clab::Trace trace = simulator.run(options, {}, control);
    if (trace.cancelled || trace.samples.empty() || trace.samples.back().t != options.tEnd) {
        throw std::runtime_error("the 10 s run did not reach its end time");
    }
    return trace;
}

SceneCase makeCase(const clab::SceneDefinition& definition)
{
    SceneCase c;
    c.name = definition.name;
    try {
        c.system = definition.create({});
        c.t0 = c.system->initialTime();
        clab::SimulationOptions options;
        options.tEnd = c.t0 + kSpan;
        options.stabilization = clab::Stabilization::None;
        // A scene that chatters (e.g. at a stick–slip transition) must not stall the set-up:
        // the states come from the part of the trajectory before the cap.
        std::size_t steps = 0;
        const clab::RunControl harvest{[&steps](double) {
            return ++steps < kHarvestSteps;
        }};
        clab::Simulator simulator(*c.system);
        const clab::Trace trace = simulator.run(options, {}, harvest);
        if (trace.samples.empty()) {
            throw std::runtime_error("the trajectory has no samples");
        }
        StatePoint initial;
        c.system->initialState(initial.q, initial.qd);
        initial.t = c.t0;
        c.states.push_back(initial);
        std::mt19937 gen(kSeed);
        for (int k = 0; k < kRandomStates; ++k) {
            const clab::TraceSample& s = trace.samples[gen() % trace.samples.size()];
            c.states.push_back({s.q, s.qd, s.t});
        }
    } catch (const std::exception& e) {
        c.setupError = e.what();
    }
    return c;
}

// The right-hand side's acceleration evaluation (as Simulator evaluates it for a scene whose
// friction is sliding), with both forms of the fundamental equation on shared workspace.
class Evaluation {
public:
    explicit Evaluation(const MechanicalSystem& system)
        : system_(system), n_(system.dof()), m_(system.constraintCount()), M_(n_, n_), A_(m_, n_),
          Q_(n_), b_(m_), C_(n_), equation_(n_, m_)
    {
        M_.setZero();
        A_.setZero();
        Q_.setZero();
        b_.setZero();
        C_.setZero();
        ours_.resize(n_, m_);
        equation_.setSingularMass(system.massMatrixIsSingular());
    }

    const ConstrainedAcceleration& ours(const StatePoint& x)
    {
        system_.massMatrix(x.q, x.t, M_);
        system_.givenForce(x.q, x.qd, x.t, Q_);
        system_.constraintMatrix(x.q, x.qd, x.t, A_, b_);
        equation_.solveIdeal(M_, Q_, A_, b_, ours_);
        system_.nonIdealForce(x.q, x.qd, x.t, ours_.Qci, C_);
        equation_.addNonIdeal(C_, ours_);
        return ours_;
    }

    // The textbook form needs M > 0: a singular M is replaced by the auxiliary system
    // M + Aᵀ A, Q + Aᵀ b of docs/MATH.md §4 (α = 1, G = I, z = b, the gauge FundamentalEquation
    // uses by default), whose constraint forces are the true ones.
    const ConstrainedAcceleration& textbook(const StatePoint& x)
    {
        system_.massMatrix(x.q, x.t, M_);
        system_.givenForce(x.q, x.qd, x.t, Q_);
        system_.constraintMatrix(x.q, x.qd, x.t, A_, b_);
        if (system_.massMatrixIsSingular()) {
            const MatrixXd Ma = M_ + A_.transpose() * A_;
            const VectorXd Qa = Q_ + A_.transpose() * b_;
            textbook_.solveIdeal(Ma, Qa, A_, b_, reference_);
        } else {
            textbook_.solveIdeal(M_, Q_, A_, b_, reference_);
        }
        system_.nonIdealForce(x.q, x.qd, x.t, reference_.Qci, C_);
        textbook_.addNonIdeal(C_, reference_);
        return reference_;
    }

    /// Empty when both forms agree at every state, else what differs where.
    std::string disagreement(const std::vector<StatePoint>& states)
    {
        for (std::size_t k = 0; k < states.size(); ++k) {
            const ConstrainedAcceleration a = ours(states[k]);
            const ConstrainedAcceleration& r = textbook(states[k]);
            const std::pair<const char*, std::pair<const VectorXd*, const VectorXd*>> checks[] = {
                {"q̈", {&a.qdd, &r.qdd}}, {"Qci", {&a.Qci, &r.Qci}}, {"Qcni", {&a.Qcni, &r.Qcni}}};
            for (const auto& [what, pair] : checks) {
                const double err = (*pair.first - *pair.second).norm();
                if (!(err <= kAgreement * (1.0 + pair.second->norm()))) {
                    std::ostringstream msg;
                    msg << "FundamentalEquation disagrees with the textbook form at state " << k
                        << " (t = " << states[k].t << "): " << what << " differs by " << err;
                    return msg.str();
                }
            }
        }
        return {};
    }

private:
    const MechanicalSystem& system_;
    int n_, m_;
    MatrixXd M_, A_;
    VectorXd Q_, b_, C_;
    clab::FundamentalEquation equation_;
    ConstrainedAcceleration ours_, reference_;
    clab::testing::TextbookFundamentalEquation textbook_;
};

bool usable(benchmark::State& state, const SceneCase& c)
{
    if (!c.setupError.empty()) {
        state.SkipWithError((c.name + ": " + c.setupError).c_str());
        return false;
    }
    Evaluation check(*c.system);
    std::string why;
    try {
        why = check.disagreement(c.states);
    } catch (const std::exception& e) {
        why = e.what();
    }
    if (!why.empty()) {
        // timing a wrong answer is pointless
        state.SkipWithError((c.name + ": " + why).c_str());
        return false;
    }
    return true;
}

void accelerationOurs(benchmark::State& state, const SceneCase* c)
{
    if (!usable(state, *c)) {
        return;
    }
    Evaluation evaluation(*c->system);
    std::size_t k = 0;
    for (auto _ : state) {
        const ConstrainedAcceleration& out = evaluation.ours(c->states[k]);
        benchmark::DoNotOptimize(out.qdd.data());
        benchmark::ClobberMemory();
        k = k + 1 == c->states.size() ? 0 : k + 1;
    }
}

void accelerationTextbook(benchmark::State& state, const SceneCase* c)
{
    if (!usable(state, *c)) {
        return;
    }
    Evaluation evaluation(*c->system);
    std::size_t k = 0;
    for (auto _ : state) {
        const ConstrainedAcceleration& out = evaluation.textbook(c->states[k]);
        benchmark::DoNotOptimize(out.qdd.data());
        benchmark::ClobberMemory();
        k = k + 1 == c->states.size() ? 0 : k + 1;
    }
}

void simulate10s(benchmark::State& state, const SceneCase* c)
{
    if (!c->setupError.empty()) {
        state.SkipWithError((c->name + ": " + c->setupError).c_str());
        return;
    }
    clab::SimulationOptions options; // the defaults: Dormand–Prince, rtol 1e-9, dt 0.01
    options.tEnd = c->t0 + kSpan;
    // One untimed run first: it must succeed, and it counts the steps.
    std::size_t steps = 0;
    double residualMax = 0.0;
    try {
        const clab::RunControl counted{[&steps](double) {
            ++steps;
            return true;
        }};
        for (const clab::TraceSample& s : run10s(*c, options, counted).samples) {
            residualMax = std::max(residualMax, s.residualMax);
        }
    } catch (const std::exception& e) {
        state.SkipWithError((c->name + ": " + e.what()).c_str());
        return;
    }
    for (auto _ : state) {
        const clab::Trace trace = run10s(*c, options);
        benchmark::DoNotOptimize(trace.samples.data());
    }
    // simulated seconds per wall-clock second (the benchmark uses real time)
    state.counters["x_realtime"] =
        benchmark::Counter(kSpan, benchmark::Counter::kIsIterationInvariantRate);
    state.counters["steps"] = static_cast<double>(steps);
    state.counters["residual_max"] = residualMax;
}

// Console output as usual, plus a Markdown table per scene at the end. Each benchmark
// contributes its median aggregate when there is one, else its single run.
class SummaryReporter : public benchmark::ConsoleReporter {
public:
    SummaryReporter(std::vector<std::string> scenes, std::string summaryPath)
        // colours only on a terminal, so that redirected output stays plain text
        : ConsoleReporter(isatty(STDOUT_FILENO) ? OO_ColorTabular : OO_Tabular),
          scenes_(std::move(scenes)), summaryPath_(std::move(summaryPath))
    {
    }

    void ReportRuns(const std::vector<Run>& reports) override
    {
        ConsoleReporter::ReportRuns(reports);
        for (const Run& run : reports) {
            if (run.error_occurred) {
                continue;
            }
            const bool median = run.run_type == Run::RT_Aggregate && run.aggregate_name == "median";
            if (run.run_type == Run::RT_Aggregate && !median) {
                continue;
            }
            Result& r = results_[run.run_name.function_name];
            if (r.fromMedian && !median) {
                continue;
            }
            const double unit = benchmark::GetTimeUnitMultiplier(run.time_unit);
            r.cpuSeconds = run.GetAdjustedCPUTime() / unit;
            r.realSeconds = run.GetAdjustedRealTime() / unit;
            r.fromMedian = median;
            r.valid = true;
        }
    }

    void Finalize() override
    {
        ConsoleReporter::Finalize();
        const std::string table = summary();
        GetOutputStream() << '\n' << table;
        if (!summaryPath_.empty()) {
            std::ofstream file(summaryPath_);
            file << table;
            if (!file) {
                GetErrorStream() << "cannot write the summary to " << summaryPath_ << '\n';
            }
        }
    }

private:
    struct Result {
        double cpuSeconds = 0.0;
        double realSeconds = 0.0;
        bool fromMedian = false;
        bool valid = false;
    };

    const Result* find(const std::string& name) const
    {
        const auto it = results_.find(name);
        return it != results_.end() && it->second.valid ? &it->second : nullptr;
    }

    std::string summary() const
    {
        std::ostringstream out;
        bool anyMedian = false;
        for (const auto& [name, r] : results_) {
            anyMedian = anyMedian || r.fromMedian;
        }
        out << "Acceleration evaluation: CPU time per evaluation; 10 s run: wall time"
            << (anyMedian ? " (medians over the repetitions)" : " (single runs)") << ".\n\n";
        out << "| scene | ours ns | textbook ns | ratio | 10 s run ms | × real time |\n";
        out << "|---|---:|---:|---:|---:|---:|\n";
        bool ratioMet = true, realTimeMet = true, ratioComplete = true, runComplete = true;
        out << std::fixed;
        for (const std::string& scene : scenes_) {
            const Result* ours = find("Acceleration/Ours/" + scene);
            const Result* textbook = find("Acceleration/Textbook/" + scene);
            const Result* run = find("Simulate10s/" + scene);
            out << "| " << scene << " |";
            const auto cell = [&out](const Result* r, double value, int digits, const char* unit) {
                if (r) {
                    out << ' ' << std::setprecision(digits) << value << unit << " |";
                } else {
                    out << " – |";
                }
            };
            cell(ours, ours ? ours->cpuSeconds * 1e9 : 0.0, 0, "");
            cell(textbook, textbook ? textbook->cpuSeconds * 1e9 : 0.0, 0, "");
            const Result* both = ours && textbook ? ours : nullptr;
            const double ratio = both ? textbook->cpuSeconds / ours->cpuSeconds : 0.0;
            cell(both, ratio, 1, "×");
            cell(run, run ? run->realSeconds * 1e3 : 0.0, 2, "");
            const double factor = run ? kSpan / run->realSeconds : 0.0;
            cell(run, factor, 0, "×");
            out << "\n";
            ratioComplete = ratioComplete && both;
            runComplete = runComplete && run;
            ratioMet = ratioMet && (!both || ratio >= 5.0);
            realTimeMet = realTimeMet && (!run || factor >= 1000.0);
        }
        out << "\nTargets: ours ≥ 5× faster than the textbook form in every scene: "
            << (ratioComplete ? (ratioMet ? "met" : "NOT met") : "not measured in every scene")
            << "; 10 s runs ≥ 1000× faster than real time: "
            << (runComplete ? (realTimeMet ? "met" : "NOT met") : "not measured in every scene")
            << ".\n";
        return out.str();
    }

    std::vector<std::string> scenes_;
    std::string summaryPath_;
    std::map<std::string, Result> results_;
};

} // namespace

int main(int argc, char** argv)
{
    benchmark::Initialize(&argc, argv);
    // Our own flag, removed before the library checks for unrecognized arguments.
    std::string summaryPath;
    const char* flag = "--clab_summary_out=";
    int kept = 1;
    for (int i = 1; i < argc; ++i) {
        if (std::strncmp(argv[i], flag, std::strlen(flag)) == 0) {
            summaryPath = argv[i] + std::strlen(flag);
        } else {
            argv[kept++] = argv[i];
        }
    }
    argc = kept;
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) {
        return 1;
    }

    // Cases live until the end of main; the benchmarks hold pointers to them.
    std::vector<std::unique_ptr<SceneCase>> cases;
    std::vector<std::string> names;
    for (const clab::SceneDefinition& definition : clab::SceneRegistry::builtIn()) {
        cases.push_back(std::make_unique<SceneCase>(makeCase(definition)));
        names.push_back(definition.name);
    }
    for (const auto& c : cases) {
        const SceneCase* scene = c.get();
        benchmark::RegisterBenchmark(("Acceleration/Ours/" + scene->name).c_str(), accelerationOurs,
                                     scene)
            ->Unit(benchmark::kNanosecond);
        benchmark::RegisterBenchmark(("Acceleration/Textbook/" + scene->name).c_str(),
                                     accelerationTextbook, scene)
            ->Unit(benchmark::kNanosecond);
        benchmark::RegisterBenchmark(("Simulate10s/" + scene->name).c_str(), simulate10s, scene)
            ->Unit(benchmark::kMillisecond)
            ->UseRealTime();
    }

    SummaryReporter reporter(names, summaryPath);
    benchmark::RunSpecifiedBenchmarks(&reporter);
    benchmark::Shutdown();
    return 0;
}
