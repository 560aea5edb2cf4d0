#pragma once

#include "trace/LabelledTrace.h"
#include "integrate/RunControl.h"
#include "scenes/SceneDocument.h"
#include "study/SweepAxis.h"

#include <cstddef>
#include <utility>

#include <string>
#include <vector>

namespace clab {

/// \brief Runs one scene for several values of one parameter, in parallel.
///
/// Each run is exactly what a single run of the document with that value gives (same trace,
/// bit for bit): runs share nothing but the read-only document. The run of value v builds its
/// system with SceneDefinition::create from `base.parameters` with the parameter set to v, and
/// runs it with `base.simulation`; `control`, if it has a keepGoing, is called from the worker
/// threads.
///
/// Parameters that follow the swept one (ParameterSpec::defaultsTo, e.g. mu_s follows mu) follow
/// the swept value when the base document leaves them out, or gives them the same value as the
/// swept parameter's base value (a completed document cannot tell "follows" from "set equal", and
/// following is what keeps mu_s ≥ mu valid across the sweep). A follower set to another value
/// keeps it, and a swept value above it is then invalid.
class ParameterSweep {
public:
    /// Label of a run: "NAME=VALUE" with the shortest decimal that reads back to VALUE.
    static std::string label(const std::string& parameter, double value);

    /// Runs `base` once per value of `parameter`, at most `threads` at a time (0: one per
    /// hardware thread). Results come in the order of `values`. Every value is validated before
    /// any run starts: an unknown scene or parameter, an empty value list or an invalid value
    /// throws ConstraintLabError(InvalidParameter) naming it. A run that fails throws the
    /// error of the first failing value (in value order), its message prefixed "NAME=VALUE: "
    /// (a ConstraintLabError keeps its kind; any other std::exception from the integrator
    /// becomes IntegrationFailure). Vector parameters cannot be swept; `threads` < 0 is invalid.
    static std::vector<LabelledTrace> run(const SceneDocument& base, const std::string& parameter,
                                          const std::vector<double>& values, int threads = 0,
                                          const RunControl& control = {});

    /// Points of the product grid of `axes` (0 without axes).
    static std::size_t gridSize(const std::vector<SweepAxis>& axes);
    /// The values of grid point `index` of `axes`, one per axis (the last axis varies fastest).
    static std::vector<double> gridPoint(const std::vector<SweepAxis>& axes, std::size_t index);
    /// The points [first, last) of shard k (1-based) of n of a grid of `points`: contiguous
    /// blocks of (almost) equal size, so that the shards' outputs concatenated in k order are
    /// the whole sweep's. Throws ConstraintLabError(InvalidParameter) unless 1 ≤ k ≤ n ≤ points.
    static std::pair<std::size_t, std::size_t> shard(std::size_t points, int k, int n);
    /// Runs points [first, last) of the product grid of `axes` (point i: the last axis varies
    /// fastest), as run() does for one parameter; labels name every swept value,
    /// "mu=0.1 angle_deg=30". Validates as run() does, and that no parameter is swept twice and
    /// [first, last) lies within the grid. run(base, p, values) is runGrid with one axis.
    static std::vector<LabelledTrace> runGrid(const SceneDocument& base,
                                              const std::vector<SweepAxis>& axes, std::size_t first,
                                              std::size_t last, int threads = 0,
                                              const RunControl& control = {});
};

} // namespace clab
