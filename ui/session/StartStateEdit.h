#pragma once

#include <scenes/SceneDocument.h>

#include <Eigen/Core>
#include <QString>

#include <optional>
#include <utility>
#include <vector>

namespace clab {

class SceneSession;

/// \brief Makes a state the document's start, as one undo step: a built-in scene's start
/// parameters (SceneStart: the bead's s0 and v0) or a system's initial values
/// (withStartingState), and a stored start (SimulationOptions::start) when those cannot say it
/// (a chain's shape, or a state at another time than the scene's start: a pull let go at t).
/// The fields that show those values change with them.
class StartStateEdit {
public:
    /// True when a drag can set the start of `document`: any scene or system that can be built.
    static bool canSetStart(const SceneDocument& document);
    /// Records the start (t, q, q̇) on `session`'s undo stack as one step named `what`. Returns
    /// an empty string, or why the start could not be set (a value out of its range, a system
    /// that no longer builds, a state off the constraints); the session is then unchanged.
    static QString apply(SceneSession& session, double t, const Eigen::VectorXd& q,
                         const Eigen::VectorXd& qd, const QString& what);

private:
    /// What the parameters (or a system's initial values) become for this state; `shown` is
    /// false when they cannot say it (a chain's shape).
    struct Edits {
        bool shown = false;
        std::vector<std::pair<QString, std::vector<double>>> values;
        std::optional<SceneDocument> system;
    };
    static Edits parameterEdits(const SceneDocument& document, const Eigen::VectorXd& q,
                                const Eigen::VectorXd& qd);
};

} // namespace clab
