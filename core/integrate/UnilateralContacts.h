#pragma once

#include "model/ContactEvent.h"
#include "model/MechanicalSystem.h"
#include "solve/ConstrainedAcceleration.h"
#include "solve/FundamentalEquation.h"

#include <functional>
#include <vector>

namespace clab {

/// \brief The one-sided contacts of a system (MechanicalSystem::unilateralCount): which are
/// closed, the events that open and close them, and the impacts (docs/MATH.md §11).
///
/// A closed contact is an ideal constraint of the system; its event is its force reaching zero
/// (lift-off). An open contact's event is φ reaching zero (touch-down). At every event, and at
/// the start, `resolve` decides anew for all contacts that touch (φ = 0): first the impulse of
/// the struck ones by Newton's law and Gauss's principle (a complementarity problem in the
/// impulses), then which of them stay closed, from the complementarity problem in the forces
/// (φ̈ ≥ 0, λ ≥ 0, φ̈ λ = 0). Both are solved by ContactLcp over the Delassus matrix of the
/// touching contacts, formed with the system's other constraints in force.
class UnilateralContacts {
public:
    /// The fundamental equation in the current modes at (q, q̇, t) (the owner's right-hand side).
    using Evaluate = std::function<const ConstrainedAcceleration&(
        const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t)>;
    /// Moves q back onto the closed constraints (the owner's projection); may do nothing.
    using ProjectPositions = std::function<void(Eigen::VectorXd& q, double t)>;

    /// The kinetic friction of the sliding contacts for a given ideal constraint force, and the
    /// sum of their sizes (FrictionalContacts::slidingFriction).
    using SlidingFriction = std::function<const Eigen::VectorXd&(
        const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
        const Eigen::VectorXd& normalForce, double& size)>;

    UnilateralContacts(const MechanicalSystem& system, Evaluate evaluate);

    int count() const { return count_; }
    /// With sliding friction on the system, each contact also has a Painlevé event function.
    void setSlidingFriction(SlidingFriction friction);

    /// Number of event functions: the contacts' own (0 … count − 1), then with sliding
    /// friction one Painlevé function per contact (count … 2 count − 1).
    int eventCount() const { return friction_ ? 2 * count_ : count_; }
    /// Event function i. For a contact k = i: φ while open (from the level it was left at,
    /// scaled by 1 + ‖q‖), its multiplier λ while closed (scaled by 1 + ‖Qᶜᵢ‖). For i = count + k:
    /// the consistency of closed contact k (below), 1 while it is open. All are positive until
    /// the event.
    double eventFunction(int i, const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t);
    /// Whether event function i's value is past its event: below its level for an open contact
    /// (the level is exactly where it was left, so a restart is never past it); a rounding-size
    /// slack below zero for a closed one, whose force is computed afresh; below zero for a
    /// Painlevé function.
    bool crossed(int i, double g) const
    {
        if (i >= count_)
            return g < 0.0;
        return system_.unilateralOpen(i) ? g < 0.0 : g < -kSlack;
    }

    /// Stops the run (throws ConstraintLabError) where a contact that is closed, or touches and
    /// rests, has sliding friction that leaves its normal force no value or several: Painlevé's
    /// paradox (docs/MATH.md §11). Called once the modes at an event or the start are decided.
    void checkConsistent(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t);
    /// Contact k's consistency with sliding friction: the effective coefficient
    /// Jₖ N (Jₖᵀ + cₖ) of φ̈ₖ in its push λₖ, cₖ the friction a unit push drives, over the
    /// frictionless Jₖ N Jₖᵀ (N with the other constraints in force). 1 without friction; at or
    /// below 0 the complementarity problem with friction has no solution or two.
    double consistency(int k, const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t);

    /// Impacts and the closed set at an event or the start (q̇ may change by the impulses, and
    /// at the start q onto the surfaces it touches). Appends leave, touch and impact events (no
    /// touch events at the start); returns the kinetic energy the impacts changed (≤ 0).
    /// `zenoSpan`: the span of simultaneous events; a rebound whose series of bounces would end
    /// within a small share of it is taken as plastic (e = 0), so that bounces that accumulate
    /// come to rest at their accumulation time (docs/MATH.md §11).
    double resolve(Eigen::VectorXd& q, Eigen::VectorXd& qd, double t, bool start, double zenoSpan,
                   const ProjectPositions& project, std::vector<ContactEvent>& events);

    /// Value below which a closed contact's scaled force counts as pulling.
    static constexpr double kSlack = 1e-12;

private:
    /// The touching contacts (φ within rounding of 0).
    std::vector<int> touching(const Eigen::VectorXd& q, double t) const;
    /// Opens (or closes) every contact in `set`.
    void setOpen(const std::vector<int>& set, bool open) const;
    /// Rows (velocity level: Av, bv; acceleration level: A, b) of the contacts in `set`.
    void contactRows(const std::vector<int>& set, const Eigen::VectorXd& q,
                     const Eigen::VectorXd& qd, double t, bool velocity, Eigen::MatrixXd& rows,
                     Eigen::VectorXd& rhs) const;
    /// Delassus matrix W = Jₛ N Jₛᵀ of the contacts in `set` (opened) and the responses N Jₛᵀ
    /// (n × |set|): the motion a unit force of each contact causes with the other constraints.
    void delassus(const std::vector<int>& set, const Eigen::MatrixXd& rows,
                  const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t, Eigen::MatrixXd& W,
                  Eigen::MatrixXd& response);
    /// The impulse phase, striking the contacts whose φ̇ is below −restRate; returns the change
    /// of kinetic energy.
    double impact(const std::vector<int>& set, const Eigen::VectorXd& restRate, Eigen::VectorXd& q,
                  Eigen::VectorXd& qd, double t, double zenoSpan,
                  std::vector<ContactEvent>& events);
    /// The force phase: closes the contacts of `set` the complementarity problem presses.
    void chooseClosed(const std::vector<int>& set, const Eigen::VectorXd& q,
                      const Eigen::VectorXd& qd, double t);
    /// "'floor' and 'wall'", for messages.
    std::string names(const std::vector<int>& set) const;
    /// The Painlevé stop of contact k at consistency `ratio`.
    [[noreturn]] void painleve(int k, double ratio, const Eigen::VectorXd& q,
                               const Eigen::VectorXd& qd, double t);

    const MechanicalSystem& system_;
    Evaluate evaluate_;
    int count_ = 0;
    FundamentalEquation equation_;
    ConstrainedAcceleration response_;
    Eigen::MatrixXd M_, A_, J_, Av_;
    Eigen::VectorXd Q_, b_, phi_, bv_;
    std::vector<double> level_; ///< per contact: φ at its last event when below 0, else 0
    SlidingFriction friction_;
    std::vector<int> resting_;  ///< the touching, resting contacts of the last resolve
    double frictionSize_ = 0.0; ///< friction size per unit push of the last consistency()
};

} // namespace clab
