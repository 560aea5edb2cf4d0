// Format-2 systems at any size (docs/BENCHMARKS.md, "Format-2 systems at any size"): a pendulum
// chain of N rods written as equations (tests/support/SystemDescriptions.h, the form
// tools/format2-chain.py writes) against the built-in chain of N links, the same motion.
//   BM_Format2ChainLoad/N      parse, derive and compile the file's system, then build it
//                               (initial state from the constraints): what loading costs
//   BM_Format2ChainEvaluate/N  one right-hand side of the simulator (M, Q, A, b and the
//                               fundamental equation, the path the simulator picks); its counter
//                               ratio_to_builtin is the cost over the built-in chain's, timed in
//                               the same run
//   BM_BuiltInChainEvaluate/N  the same for the built-in chain
#include "integrate/Simulator.h"
#include "scenes/Chain.h"
#include "symbolic/SymbolicModel.h"

#include "../support/ChainStates.h"
#include "../support/SystemDescriptions.h"

#include <benchmark/benchmark.h>

#include <chrono>
#include <memory>

namespace {

using namespace clab;
using Clock = std::chrono::steady_clock;

using test::builtInChain;
using test::movingState;

std::unique_ptr<MechanicalSystem> format2Chain(int rods)
{
    return SymbolicModel::create(test::pendulumChain(rods))->definition().create({});
}

/// Seconds per right-hand side, over at least 0.2 s.
double secondsPerEvaluation(const MechanicalSystem& system)
{
    Simulator simulator(system);
    Eigen::VectorXd q, qd, Q;
    movingState(system, q, qd);
    ConstrainedAcceleration out;
    long count = 0;
    const Clock::time_point start = Clock::now();
    double elapsed = 0.0;
    while (elapsed < 0.2) {
        for (int i = 0; i < 10; ++i, ++count)
            simulator.evaluate(q, qd, 0.0, Q, out);
        elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    }
    benchmark::DoNotOptimize(out.qdd.data());
    return elapsed / static_cast<double>(count);
}

void evaluate(benchmark::State& state, const MechanicalSystem& system)
{
    Simulator simulator(system);
    Eigen::VectorXd q, qd, Q;
    movingState(system, q, qd);
    ConstrainedAcceleration out;
    for (auto _ : state) {
        simulator.evaluate(q, qd, 0.0, Q, out);
        benchmark::DoNotOptimize(out.qdd.data());
    }
    state.counters["n"] = system.dof();
    state.counters["sparse"] = simulator.usesSparsePath() ? 1.0 : 0.0;
}

void BM_Format2ChainLoad(benchmark::State& state)
{
    const int rods = static_cast<int>(state.range(0));
    for (auto _ : state) {
        const auto system = format2Chain(rods);
        benchmark::DoNotOptimize(system.get());
    }
    state.counters["n"] = 2.0 * rods;
}
BENCHMARK(BM_Format2ChainLoad)
    ->Arg(100)
    ->Arg(200)
    ->Arg(400)
    ->Arg(1000)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

void BM_Format2ChainEvaluate(benchmark::State& state)
{
    const int rods = static_cast<int>(state.range(0));
    const auto system = format2Chain(rods);
    evaluate(state, *system);
    state.counters["ratio_to_builtin"] =
        secondsPerEvaluation(*system) / secondsPerEvaluation(builtInChain(rods));
}
BENCHMARK(BM_Format2ChainEvaluate)
    ->Arg(100)
    ->Arg(200)
    ->Arg(400)
    ->Arg(1000)
    ->Unit(benchmark::kMicrosecond);

void BM_BuiltInChainEvaluate(benchmark::State& state)
{
    evaluate(state, builtInChain(static_cast<int>(state.range(0))));
}
BENCHMARK(BM_BuiltInChainEvaluate)
    ->Arg(100)
    ->Arg(200)
    ->Arg(400)
    ->Arg(1000)
    ->Unit(benchmark::kMicrosecond);

} // namespace

BENCHMARK_MAIN();
