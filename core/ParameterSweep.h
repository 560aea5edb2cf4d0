#pragma once

#include "LabelledTrace.h"
#include "RunControl.h"
#include "SceneDocument.h"

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
};

} // namespace clab
