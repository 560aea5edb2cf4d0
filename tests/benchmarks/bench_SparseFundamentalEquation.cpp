// One acceleration evaluation of an N-link chain (the simulator's full evaluation: M, Q, A, b
// and the fundamental equation) on the sparse path, on the dense path, and as a dense KKT solve
// [M Aᵀ; A 0] [q̈; −λ] = [Q; b] with PartialPivLU; then 10 s of a 1000-link chain.
// docs/BENCHMARKS.md "Large systems" has the command and the table.
#include "integrate/Simulator.h"
#include "scenes/Chain.h"

#include "../support/ChainStates.h"

#include <benchmark/benchmark.h>

#include <Eigen/Dense>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>

namespace {

using clab::Chain;
using clab::ConstrainedAcceleration;
using clab::Simulator;
using Eigen::MatrixXd;
using Eigen::VectorXd;

Chain makeChain(int links)
{
    return clab::test::builtInChain(links);
}

void movingState(const Chain& chain, VectorXd& q, VectorXd& qd)
{
    clab::test::movingState(chain, q, qd);
}

void evaluateOn(benchmark::State& state, Simulator::SolvePath path)
{
    const int links = static_cast<int>(state.range(0));
    const Chain chain = makeChain(links);
    Simulator simulator(chain, path);
    VectorXd q, qd, Q;
    movingState(chain, q, qd);
    ConstrainedAcceleration out;
    for (auto _ : state) {
        simulator.evaluate(q, qd, 0.0, Q, out);
        benchmark::DoNotOptimize(out.qdd.data());
    }
    state.counters["n"] = 2.0 * links;
}

void BM_ChainSparse(benchmark::State& state)
{
    evaluateOn(state, Simulator::SolvePath::Sparse);
}

void BM_ChainDense(benchmark::State& state)
{
    evaluateOn(state, Simulator::SolvePath::Dense);
}

void BM_ChainDenseKkt(benchmark::State& state)
{
    const int links = static_cast<int>(state.range(0));
    const Chain chain = makeChain(links);
    const int n = chain.dof(), m = chain.constraintCount();
    VectorXd q, qd, Q(n), b(m);
    movingState(chain, q, qd);
    MatrixXd M(n, n), A(m, n), kkt(n + m, n + m);
    VectorXd rhs(n + m), x(n + m);
    Eigen::PartialPivLU<MatrixXd> lu(n + m);
    for (auto _ : state) {
        chain.massMatrix(q, 0.0, M);
        chain.givenForce(q, qd, 0.0, Q);
        chain.constraintMatrix(q, qd, 0.0, A, b);
        kkt.topLeftCorner(n, n) = M;
        kkt.topRightCorner(n, m) = A.transpose();
        kkt.bottomLeftCorner(m, n) = A;
        kkt.bottomRightCorner(m, m).setZero();
        rhs << Q, b;
        lu.compute(kkt);
        x = lu.solve(rhs);
        benchmark::DoNotOptimize(x.data());
    }
    state.counters["n"] = n;
}

// range(1) seconds of a range(0)-link chain released from horizontal, at rtol 1e-6.
void BM_HangingChainRun(benchmark::State& state)
{
    const int links = static_cast<int>(state.range(0));
    const Chain chain = makeChain(links);
    clab::SimulationOptions options;
    options.tEnd = static_cast<double>(state.range(1));
    options.dt = 0.01;
    options.rtol = 1e-6;
    options.atol = 1e-9;
    double energyError = 0.0, residual = 0.0, energyScale = 1.0 * 9.81 * 2.0;
    std::size_t steps = 0;
    for (auto _ : state) {
        Simulator simulator(chain);
        energyError = residual = 0.0;
        const clab::Trace trace = simulator.run(options, [&](const clab::TraceSample& s) {
            energyError = std::max(energyError, std::abs(s.E_error));
            residual = std::max(residual, s.residualMax);
        });
        steps = trace.stats.acceptedSteps;
    }
    state.counters["E_error_max_J"] = energyError;
    state.counters["E_error_rel_mgL"] = energyError / energyScale;
    state.counters["residual_max"] = residual;
    state.counters["steps"] = static_cast<double>(steps);
    state.counters["simulated_s"] = options.tEnd;
}

} // namespace

// The dense paths are O(n³): beyond 1000 links (n = 2000) one evaluation takes seconds to
// minutes, so they stop there.
BENCHMARK(BM_ChainSparse)
    ->Arg(10)
    ->Arg(30)
    ->Arg(100)
    ->Arg(300)
    ->Arg(1000)
    ->Arg(3000)
    ->Arg(10000)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ChainDense)
    ->Arg(10)
    ->Arg(30)
    ->Arg(100)
    ->Arg(300)
    ->Arg(1000)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ChainDenseKkt)
    ->Arg(10)
    ->Arg(30)
    ->Arg(100)
    ->Arg(300)
    ->Arg(1000)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_HangingChainRun)
    ->Args({1000, 1})
    ->Args({1000, 10})
    ->Iterations(1)
    ->Unit(benchmark::kSecond);

BENCHMARK_MAIN();
