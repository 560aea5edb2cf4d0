#pragma once

#include <scenes/SceneDocument.h>

#include <Eigen/Core>
#include <QString>

namespace clab {

class SceneSession;

/// \brief Makes a state the document's start, as one undo step: a built-in scene's start
/// parameters (SceneStart: the bead's s0 and v0) or a system's initial
/// values (withStartingState). The fields that show those values change with them.
class StartStateEdit {
public:
    /// True when a drag can set the start of `document`: a system written as equations, or a
    /// built-in scene that maps a state to its parameters (SceneStart).
    static bool canSetStart(const SceneDocument& document);
    /// Records the start (q, q̇) on `session`'s undo stack as one step named `what`. Returns
    /// an empty string, or why the start could not be set (a value out of its range, a system
    /// that no longer builds); the session is then unchanged.
    static QString apply(SceneSession& session, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                         const QString& what);
};

} // namespace clab
