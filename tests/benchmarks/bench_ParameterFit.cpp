// ParameterFit::run fitting the bead's μ to 500 samples of a 5 s slide (s every 0.01 s from the
// closed form s0 − ½ g (sin θ − μ cos θ) t² at μ = 0.4, plus Gaussian noise of σ = 2 mm, seed 1),
// starting from μ = 0.2; target: under 1 s. The baseline in the same run is one simulation of
// the same 5 s with the same output, so the ratio says how many runs' worth a fit costs.
//  Fit/threads=1   the finite-difference runs on the calling thread
//  Fit/threads=0   one worker per hardware thread (ParameterFit's default)
//  OneRun          the baseline: one run with the fit's output grid
#include "study/ParameterFit.h"
#include "scenes/SceneRegistry.h"
#include "integrate/Simulator.h"

#include <benchmark/benchmark.h>

#include <cmath>
#include <numbers>
#include <random>
#include <stdexcept>

namespace {

constexpr double kMuTrue = 0.4, kTheta = std::numbers::pi / 6, kS0 = 25.0, kG = 9.81;

clab::SceneDocument bead()
{
    clab::SceneDocument d =
        clab::SceneDocument::fromDefinition(*clab::SceneRegistry::find("bead-on-wire"));
    d.parameters = d.definition()->complete({{"mu", {0.2}}, {"s0", {kS0}}});
    return d;
}

clab::Measurements measurements()
{
    std::mt19937_64 random(1);
    std::normal_distribution<double> noise(0.0, 0.002);
    clab::Measurements m;
    m.columns.push_back({"s", {}, 0.002, "pos"});
    const double a = kG * (std::sin(kTheta) - kMuTrue * std::cos(kTheta));
    for (int i = 1; i <= 500; ++i) {
        const double t = 0.01 * i;
        m.times.push_back(t);
        m.columns[0].values.push_back(kS0 - 0.5 * a * t * t + noise(random));
    }
    return m;
}

void Fit(benchmark::State& state)
{
    const clab::SceneDocument document = bead();
    const clab::Measurements data = measurements();
    clab::FitOptions options;
    options.parameters = {"mu"};
    options.threads = static_cast<int>(state.range(0));
    clab::FitResult result;
    for (auto _ : state) {
        result = clab::ParameterFit::run(document, data, options);
        benchmark::DoNotOptimize(result.values.data());
    }
    if (!result.converged || std::abs(result.values[0] - kMuTrue) > 3 * result.standardErrors[0])
        state.SkipWithError("the fit did not recover mu");
    state.counters["runs"] = result.runs;
    state.counters["iterations"] = result.iterations;
}
BENCHMARK(Fit)->Arg(1)->Arg(0)->ArgName("threads")->Unit(benchmark::kMillisecond)->UseRealTime();

void OneRun(benchmark::State& state)
{
    const clab::SceneDocument document = bead();
    const auto system = document.definition()->create(document.parameters);
    clab::SimulationOptions options = document.simulation;
    options.tEnd = 5.0;
    options.dt = 0.01;
    for (auto _ : state) {
        clab::Simulator simulator(*system);
        const clab::Trace trace = simulator.run(options, [](const clab::TraceSample&) {});
        benchmark::DoNotOptimize(trace.stats.acceptedSteps);
    }
}
BENCHMARK(OneRun)->Unit(benchmark::kMillisecond)->UseRealTime();

} // namespace

BENCHMARK_MAIN();
