#pragma once

#include <pybind11/pybind11.h>

#include <string>
#include <utility>
#include <vector>

namespace clab::python {

class SceneHandle;

/// Runs shard k of n of the product grid of `axes` (core/study/ParameterSweep::runGrid, its runs
/// on `threads` threads, 0: one per core; the last axis varies fastest) and returns it as one
/// table: {"columns": ["point", each axis, the trace's columns], "data": rows × columns,
/// "labels": one "mu=0.1 ..." per point, "first", "last"}. The shards of 1..n stacked in order
/// are the whole grid's table, bit for bit: each run is the same single run wherever it runs.
pybind11::dict sweepShard(const SceneHandle& scene,
                          const std::vector<std::pair<std::string, std::vector<double>>>& axes,
                          int k, int n, int threads, const pybind11::dict& settings);

} // namespace clab::python
