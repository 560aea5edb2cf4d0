// ParameterSweep::run on one thread and on all hardware threads: eight values of the friction
// coefficient mu, each a full 10 s run at the default SimulationOptions (Dormand–Prince,
// rtol 1e-9, dt 0.01), for the ring and the bead on the wire.
//  Sweep/<scene>/threads=1   every run on the calling thread
//  Sweep/<scene>/threads=0   one worker per hardware thread (ParameterSweep's default)
// Both sweeps must give the same traces, bit for bit, before either is timed. The console table
// (wall time: the point of threads) is followed by a Markdown summary with the speed-up
// threads:1 / threads:0 per scene and std::thread::hardware_concurrency().
#include "trace/LabelledTrace.h"
#include "study/ParameterSweep.h"
#include "scenes/SceneDocument.h"
#include "scenes/SceneRegistry.h"
#include "trace/Trace.h"

#include <benchmark/benchmark.h>

#include <cstddef>
#include <iomanip>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

namespace {

constexpr double kSpan = 10.0; // simulated seconds per run
const std::vector<double> kMu = {0.0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35};
const std::vector<std::string> kScenes = {"ring", "bead-on-wire"};

clab::SceneDocument document(const std::string& scene)
{
    const clab::SceneDefinition* definition = clab::SceneRegistry::find(scene);
    if (definition == nullptr) {
        throw std::runtime_error("no built-in scene " + scene);
    }
    clab::SceneDocument base = clab::SceneDocument::fromDefinition(*definition);
    base.simulation.tEnd = kSpan; // the other options keep their defaults (rtol 1e-9)
    return base;
}

/// Empty when every run reached its end and both thread counts agree bit for bit.
std::string disagreement(const std::vector<clab::LabelledTrace>& serial,
                         const std::vector<clab::LabelledTrace>& parallel)
{
    if (serial.size() != kMu.size() || parallel.size() != kMu.size()) {
        return "wrong number of runs";
    }
    for (std::size_t i = 0; i < serial.size(); ++i) {
        const clab::Trace& a = *serial[i].trace;
        const clab::Trace& b = *parallel[i].trace;
        if (a.cancelled || a.samples.empty() || a.samples.back().t != kSpan) {
            return serial[i].label + ": the run did not reach t = 10 s";
        }
        if (serial[i].label != parallel[i].label || a.samples.size() != b.samples.size()) {
            return serial[i].label + ": the parallel sweep gives another trace";
        }
        for (std::size_t k = 0; k < a.samples.size(); ++k) {
            if (a.samples[k].t != b.samples[k].t || a.samples[k].q != b.samples[k].q ||
                a.samples[k].qd != b.samples[k].qd) {
                return serial[i].label + ": the parallel sweep differs at sample " +
                       std::to_string(k);
            }
        }
    }
    return {};
}

void sweep(benchmark::State& state, const std::string& scene, int threads)
{
    clab::SceneDocument base;
    std::size_t samples = 0;
    try {
        base = document(scene);
        const auto serial = clab::ParameterSweep::run(base, "mu", kMu, 1);
        const auto parallel = clab::ParameterSweep::run(base, "mu", kMu, 0);
        const std::string why = disagreement(serial, parallel);
        if (!why.empty()) {
            state.SkipWithError((scene + ": " + why).c_str()); // timing a wrong answer is pointless
            return;
        }
        for (const clab::LabelledTrace& run : serial) {
            samples += run.trace->samples.size();
        }
    } catch (const std::exception& e) {
        state.SkipWithError((scene + ": " + e.what()).c_str());
        return;
    }
    for (auto _ : state) {
        const auto traces = clab::ParameterSweep::run(base, "mu", kMu, threads);
        benchmark::DoNotOptimize(traces.data());
    }
    state.counters["runs"] = static_cast<double>(kMu.size());
    state.counters["samples"] = static_cast<double>(samples);
}

std::string name(const std::string& scene, int threads)
{
    return "Sweep/" + scene + "/threads=" + std::to_string(threads);
}

// Console output as usual, then a Markdown table: wall time per sweep with 1 and all threads.
class SummaryReporter : public benchmark::ConsoleReporter {
public:
    SummaryReporter() : ConsoleReporter(isatty(STDOUT_FILENO) ? OO_ColorTabular : OO_Tabular) {}

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
            // The plain name: without "/real_time" and the aggregate suffix.
            const std::string key = run.run_name.function_name;
            if (medians_.count(key) != 0 && !median) {
                continue;
            }
            if (median) {
                medians_.insert(key);
            }
            wallSeconds_[key] =
                run.GetAdjustedRealTime() / benchmark::GetTimeUnitMultiplier(run.time_unit);
        }
    }

    void Finalize() override
    {
        ConsoleReporter::Finalize();
        std::ostringstream out;
        out << "\nWall time per sweep of " << kMu.size() << " runs of " << kSpan
            << " s; hardware_concurrency = " << std::thread::hardware_concurrency() << "\n\n";
        out << "| scene | threads=1 ms | threads=0 (all) ms | speed-up |\n";
        out << "|---|---:|---:|---:|\n" << std::fixed;
        for (const std::string& scene : kScenes) {
            const auto one = wallSeconds_.find(name(scene, 1));
            const auto all = wallSeconds_.find(name(scene, 0));
            out << "| " << scene << " | ";
            if (one == wallSeconds_.end() || all == wallSeconds_.end()) {
                out << "– | – | – |\n";
                continue;
            }
            out << std::setprecision(1) << one->second * 1e3 << " | " << all->second * 1e3 << " | "
                << std::setprecision(2) << one->second / all->second << "× |\n";
        }
        GetOutputStream() << out.str();
    }

private:
    std::map<std::string, double> wallSeconds_;
    std::set<std::string> medians_;
};

} // namespace

int main(int argc, char** argv)
{
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) {
        return 1;
    }
    for (const std::string& scene : kScenes) {
        for (const int threads : {1, 0}) {
            benchmark::RegisterBenchmark(name(scene, threads).c_str(), sweep, scene, threads)
                ->Unit(benchmark::kMillisecond)
                ->UseRealTime();
        }
    }
    SummaryReporter reporter;
    benchmark::RunSpecifiedBenchmarks(&reporter);
    benchmark::Shutdown();
    return 0;
}
