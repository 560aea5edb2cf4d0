#pragma once

#include "model/ContactEvent.h"
#include "model/ContactState.h"
#include "model/MechanicalSystem.h"
#include "solve/ConstrainedAcceleration.h"
#include "solve/FundamentalEquation.h"

#include <functional>
#include <memory>
#include <vector>

namespace clab {

/// \brief The frictional contacts of a system (MechanicalSystem::contactCount): their modes,
/// the friction they add to the fundamental equation, and the events that change the modes
/// (docs/MATH.md §7).
///
/// A sliding contact rubs with kinetic friction against the slip direction of the current step;
/// a stuck contact is one more ideal constraint G q̈ = −γ in the same fundamental equation, and
/// the force of those rows is static friction. A contact's event function is its slip velocity
/// along the step's direction while it slides (a stop), and μₛ‖N‖ − ‖F‖ while it is stuck (a
/// break-away). Deciding a mode needs the whole right-hand side in trial modes, which the owner
/// (Simulator) provides as `Evaluate`; addFriction is the contacts' part of that evaluation.
class FrictionalContacts {
public:
    /// The fundamental equation in the current modes at (q, q̇, t): calls addFriction.
    using Evaluate = std::function<const ConstrainedAcceleration&(
        const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t)>;

    /// Throws ConstraintLabError(InvalidParameter) for a contact count or slip dimension the
    /// system cannot have, or contacts without the constraint functions stick events need.
    FrictionalContacts(const MechanicalSystem& system, Evaluate evaluate);
    ~FrictionalContacts();

    int count() const { return count_; }
    /// Rows of all slip Jacobians stacked (the sum of the slip dimensions).
    int slipRows() const { return slipRows_; }
    const std::vector<ContactState>& states() const { return states_; }

    /// Kinetic friction of the sliding contacts, and static friction of the stuck ones as extra
    /// ideal rows G q̈ = −γ (minus α G q̇ with Baumgarte), added to `out`, the ideal solution of
    /// (M, Q, A, b) by `equation`. Allocation-free.
    void addFriction(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                     const Eigen::MatrixXd& M, const Eigen::VectorXd& Q, const Eigen::MatrixXd& A,
                     const Eigen::VectorXd& b, const double* baumgarteAlpha,
                     FundamentalEquation& equation, ConstrainedAcceleration& out);

    /// The kinetic friction (generalized force) the sliding contacts would exert if the ideal
    /// constraint force were `normalForce`, and in `size` the sum of their sizes; stuck
    /// contacts add nothing. Friction is positively homogeneous in the normal force, so a unit
    /// force along one contact's row gives the friction per unit of that contact's push (the
    /// Painlevé test of UnilateralContacts). Overwrites the scratch addFriction fills anew.
    const Eigen::VectorXd& slidingFriction(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                           double t, const Eigen::VectorXd& normalForce,
                                           double& size);

    /// Whether static friction of size `force` holds against `limit` = μₛ‖N‖, with a relative
    /// slack of 1e-12 (equality must hold against the rounding of tan θ = μₛ).
    static bool stickHolds(double force, double limit);

    /// Contact modes implied by a state: sliding along the slip velocity when moving; at rest,
    /// stuck when static friction holds, otherwise sliding in the direction of the net force.
    void setModesFromState(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t);
    /// The modes at the start of a run: every contact at rest gets a Stick or Slip event at t0.
    /// Returns true when one of them sticks.
    bool startModes(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                    std::vector<ContactEvent>& events);
    /// Slip directions of the sliding contacts from the state at the start of a step.
    void updateSlipDirections(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t);

    /// Event function of contact c at (q, q̇, t): slip velocity along the step's direction
    /// while sliding, μₛ‖N‖ − ‖F‖ (with the slack of stickHolds) while stuck.
    double eventFunction(int c, const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t);
    /// Whether contact c's event has happened, given its event function value.
    bool crossed(int c, double g) const;
    /// Changes the modes of the contacts `changing` whose events happened at (q, q̇, t), with
    /// an event each: a stuck one breaks away; a sliding one sticks, or slides on or back in
    /// the direction of the net force; a vector contact that only turned (its stop would take
    /// longer than `minStopTime`) slides on along its new velocity, without an event. Returns
    /// true when one of them sticks.
    bool changeModes(const std::vector<int>& changing, const Eigen::VectorXd& q,
                     const Eigen::VectorXd& qd, double t, double minStopTime,
                     std::vector<ContactEvent>& events);

    /// Velocity rows that keep the stuck contacts' slip velocity at zero (G q̇ = 0; zero rows
    /// for sliding contacts), for ManifoldProjection::projectVelocities; right-hand side zero.
    const Eigen::MatrixXd& stickVelocityRows(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                             double t);
    const Eigen::VectorXd& stickVelocityRhs() const { return stickRhs_; }

private:
    /// Slip velocity of every contact at (q, q̇, t) into v_ (and G_, gamma_).
    void slipVelocities(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t);
    /// C_ = kinetic friction of the sliding contacts; true when a contact is stuck.
    bool kineticFriction(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                         const Eigen::VectorXd& Qci);
    /// The fundamental equation with the stuck contacts' rows appended to A, into ext_.
    void solveWithStickRows(const Eigen::MatrixXd& M, const Eigen::VectorXd& Q,
                            const Eigen::MatrixXd& A, const Eigen::VectorXd& b,
                            const double* baumgarteAlpha);
    /// Whether the stuck contacts' rows with A (Aext_) leave no motion free, rank n; when true,
    /// restLlt_ holds the Cholesky factor of AextᵀAext.
    bool stuckRankFull(int n);
    /// Cholesky factor of AextᵀAext into restLlt_; false when it fails or its diagonal falls
    /// below the rank threshold of extRank_ relative to its largest entry.
    bool factorNormalEquations();
    /// Size of the static friction force contact c needs, after an evaluation.
    double stickForce(int c) const;
    /// Mode of contact c at rest at (q, q̇, t): stuck when static friction holds it, otherwise
    /// sliding in the direction of the net force. Returns true when it sticks.
    bool decideAtRest(int c, const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t);
    /// Time the vector contact c, sliding along its current velocity, would need to lose its
    /// slip speed at the current rate of change of its slip velocity. Near a stop the velocity
    /// of a vector contact turns quickly (toward the force that will hold it), so its component
    /// along the step's direction reaches zero while a speed at rounding level is left: that
    /// is a stop, not a turn.
    double timeToStop(int c, const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t);

    const MechanicalSystem& system_;
    Evaluate evaluate_;
    int count_ = 0;
    int slipRows_ = 0;
    std::vector<int> slipOffset_, slipDim_;
    std::vector<ContactState> states_;
    std::vector<double> speedAtStepStart_;
    Eigen::MatrixXd G_;                 // slip Jacobians of all contacts, stacked
    Eigen::VectorXd gamma_, v_, w_, C_; // Ġq̇, slip velocities, slip directions, friction
    std::unique_ptr<FundamentalEquation> stuckEquation_;
    Eigen::MatrixXd Aext_, stickRows_;
    Eigen::VectorXd bext_, stickRhs_, Fstick_;
    ConstrainedAcceleration ext_;
    Eigen::ColPivHouseholderQR<Eigen::MatrixXd> extRank_; // does anything stay free?
    std::vector<char> stuckRankModes_; // stuck flags extRank_ decided for; empty: none
    bool stuckRankFull_ = false;
    Eigen::MatrixXd AtA_;
    Eigen::LLT<Eigen::MatrixXd> restLlt_;
};

} // namespace clab
