#pragma once

#include "model/ParameterSpec.h"

#include <Eigen/Core>

#include <string>

namespace clab {

struct SceneDocument;

/// \brief How a built-in scene's start parameters follow from a state: what a drag in the 3D
/// view needs to make the dragged state the scene's start (docs/ARCHITECTURE.md, "Where a
/// change goes").
///
/// One row per scene whose parameters say where each body starts and how fast (the bead's s0 and
/// v0, the ring's phi0_deg and v0, the rigid body's quat0 and omega0, …); each scene's own static
/// `startFromState` does the work. A scene without a row (the chains' shapes) is not dragged.
class SceneStart {
public:
    using Function = ParameterValues (*)(const ParameterValues& values, const Eigen::VectorXd& q,
                                         const Eigen::VectorXd& qd);

    /// The scene's function, or nullptr when its start is not a set of parameters.
    static Function of(const std::string& sceneName);

    /// Whether an edit from `before` to `after` keeps `before`'s stored start
    /// (SimulationOptions::start): true when the start the parameters give is the same in both
    /// (a mass, μ or g changed, not s0 or a chain's shape) and the stored start still fits
    /// `after`'s system (StartState::problem); false when `before` has none or `after` cannot
    /// be built. An edit of a start parameter thus clears the stored start (docs/GUI.md).
    static bool keepsStoredStart(const SceneDocument& before, const SceneDocument& after);
};

} // namespace clab
