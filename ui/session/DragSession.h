#pragma once

#include <model/MechanicalSystem.h>
#include <scenes/SceneDocument.h>
#include <solve/ConfigurationProjection.h>
#include <solve/SpringDrag.h>
#include <trace/TraceSample.h>

#include <Eigen/Dense>

#include <memory>

namespace clab {

class Simulator;

/// \brief One grab of a body in the 3D view, from press to release (docs/GUI.md
/// "Grab, drag and throw").
///
/// Paused, the drag sets the start: each target puts the configuration where the constraints
/// let the grabbed point come nearest to it (ConfigurationProjection), and the release gives
/// the start velocity (a flick's, projected, or none). Playing, a spring pulls the point
/// towards the target (SpringDrag) and the motion goes on live; the release hands over the state
/// reached. Either way the release's state becomes the document's start (StartStateEdit).
class DragSession {
public:
    enum class Mode { SetStart, Spring };

    /// `from`: the sample on screen when the body was taken (its t, q, q̇). Throws
    /// ConstraintLabError when the document's system cannot be built or dragged.
    DragSession(const SceneDocument& document, ConfigurationProjection::Point point,
                const TraceSample& from, Mode mode);
    ~DragSession();
    DragSession(const DragSession&) = delete;
    DragSession& operator=(const DragSession&) = delete;

    Mode mode() const { return mode_; }
    /// The hand moved to `target` (scene units). SetStart: the configuration follows at once.
    void moveTo(const Eigen::Vector3d& target);
    /// Spring: the motion goes on for `seconds` under the spring.
    void advance(double seconds);
    /// What the view shows now: the configuration (at rest) or the live motion's sample.
    const TraceSample& sample() const { return sample_; }
    /// Where the grabbed point is, and the spring's force in space (zero for SetStart).
    Eigen::Vector3d point() const { return point_(sample_.q); }
    Eigen::Vector3d springForce() const;
    const Eigen::Vector3d& target() const { return target_; }

    /// The start state on release: SetStart keeps the configuration with the flick's velocity
    /// (`pointVelocity`, projected) or, with `keepVelocity`, the old start velocity made
    /// allowed; none when neither. Spring: the live state.
    void release(const Eigen::Vector3d& pointVelocity, bool keepVelocity, Eigen::VectorXd& q,
                 Eigen::VectorXd& qd) const;

private:
    std::unique_ptr<MechanicalSystem> system_;
    std::unique_ptr<ConfigurationProjection> projection_;
    std::unique_ptr<SpringDrag> spring_;
    ConfigurationProjection::Point point_;
    Mode mode_;
    Eigen::VectorXd startVelocity_; ///< the document's, kept by a release with Shift
    Eigen::Vector3d target_;
    TraceSample sample_;
};

} // namespace clab
