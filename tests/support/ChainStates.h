#pragma once

// The built-in chain and a moving state, shared by the benchmarks and tests that compare large
// systems with it.

#include <model/MechanicalSystem.h>
#include <scenes/Chain.h>

#include <random>

namespace clab::test {

/// The built-in chain of `links` links, 2 m and 1 kg in all, one end pinned, released straight
/// along +x from rest.
inline Chain builtInChain(int links)
{
    return Chain({{"links", {static_cast<double>(links)}},
                  {"length", {2.0}},
                  {"mass", {1.0}},
                  {"pinned", {1.0}},
                  {"g", {9.81}},
                  {"omega0", {0.0}}});
}

/// The system's starting shape with random velocities in [−0.5, 0.5) (the numbers do not
/// matter; the same for every system of the same size).
inline void movingState(const MechanicalSystem& system, Eigen::VectorXd& q, Eigen::VectorXd& qd)
{
    system.initialState(q, qd);
    std::mt19937 gen(1u);
    for (Eigen::Index i = 0; i < qd.size(); ++i)
        qd[i] = static_cast<double>(gen()) / 4294967296.0 - 0.5;
}

} // namespace clab::test
