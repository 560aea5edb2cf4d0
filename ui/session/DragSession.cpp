#include "session/DragSession.h"

#include <integrate/Simulator.h>
#include <model/ConstraintLabError.h>

#include <utility>

namespace clab {

namespace {

// The spring's natural frequency with the grabbed point's effective mass: stiff enough to
// follow a hand, soft enough for the integrator and the eye.
constexpr double kSpringFrequency = 1.5; // Hz

} // namespace

DragSession::DragSession(const SceneDocument& document, ConfigurationProjection::Point point,
                         const TraceSample& from, Mode mode)
    : point_(std::move(point)), mode_(mode), sample_(from)
{
    const SceneDefinition* definition = document.definition();
    if (definition == nullptr)
        throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter,
                                 "unknown scene \"" + document.scene + "\"");
    system_ = definition->create(document.parameters);
    projection_ = std::make_unique<ConfigurationProjection>(*system_);
    Eigen::VectorXd q0;
    system_->initialState(q0, startVelocity_);
    const std::optional<StartState>& stored = document.simulation.start;
    if (stored)
        startVelocity_ = stored->velocities();
    target_ = point_(from.q);
    if (mode_ == Mode::SetStart) {
        // The start is set at the start time (a stored start's own), at rest until released.
        sample_.t = document.simulation.startTime(system_->initialTime());
        sample_.qd.setZero(system_->dof());
        moveTo(target_);
    } else {
        const double k =
            SpringDrag::stiffnessFor(*system_, point_, from.q, from.t, kSpringFrequency);
        spring_ =
            std::make_unique<SpringDrag>(*system_, point_, k, target_, from.q, from.qd, from.t);
    }
}

DragSession::~DragSession() = default;

void DragSession::moveTo(const Eigen::Vector3d& target)
{
    target_ = target;
    if (mode_ == Mode::Spring) {
        spring_->setTarget(target);
        return;
    }
    const Eigen::VectorXd q = projection_->dragTo(sample_.q, sample_.t, point_, target);
    Simulator(*system_).sample(q, Eigen::VectorXd::Zero(system_->dof()), sample_.t, sample_);
}

void DragSession::advance(double seconds)
{
    if (mode_ != Mode::Spring || seconds <= 0.0)
        return;
    const SpringDrag live(*system_, point_, spring_->stiffness(), target_, sample_.q, sample_.qd,
                          sample_.t);
    SimulationOptions options;
    options.tEnd = sample_.t + seconds;
    options.dt = seconds;
    const Trace trace = Simulator(live).run(options);
    if (!trace.samples.empty())
        sample_ = trace.samples.back();
}

Eigen::Vector3d DragSession::springForce() const
{
    return spring_ ? spring_->springForce(sample_.q) : Eigen::Vector3d::Zero();
}

void DragSession::release(const Eigen::Vector3d& pointVelocity, bool keepVelocity,
                          Eigen::VectorXd& q, Eigen::VectorXd& qd) const
{
    q = sample_.q;
    if (mode_ == Mode::Spring) {
        qd = sample_.qd;
    } else if (keepVelocity) {
        qd = projection_->allowedVelocity(q, sample_.t, startVelocity_);
    } else if (pointVelocity.norm() > 0.0) {
        qd = projection_->flick(q, sample_.t, point_, pointVelocity);
    } else {
        qd = projection_->allowedVelocity(q, sample_.t, Eigen::VectorXd::Zero(q.size()));
    }
}

} // namespace clab
