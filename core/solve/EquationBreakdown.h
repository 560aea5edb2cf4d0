#pragma once

#include "model/ConstraintLabError.h"
#include "model/MechanicalSystem.h"
#include "trace/TraceSample.h"

#include <Eigen/Dense>

#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace clab {

/// \brief The fundamental equation M q̈ = Q + Qᶜᵢ + Qᶜₙᵢ taken apart at one sample of a
/// computed trajectory, one step at a time (docs/MATH.md §1–§4), for a derivation panel.
///
/// Built from the system and one TraceSample (a stored or streamed sample, or
/// Simulator::sample). The pieces of the derivation are evaluated anew at the sample's state
/// (t, q, q̇): M, Q, A and b from the system (b without Baumgarte terms), and λ and Qᶜᵢ with
/// FundamentalEquation::solveIdeal, the simulator's own solver, so they are exactly the
/// library's (minimum-norm λ for redundant constraints). q̈, Qᶜₙᵢ and the contact modes are
/// taken from the sample as the simulator computed them: friction depends on whether a contact
/// slides or sticks, which one state alone does not tell. A stuck contact's static friction is
/// in Qᶜₙᵢ (see Simulator), so the balance residual closes the equation with it.
///
/// When M is singular (declared by the system, or found singular by the solver as it is in a
/// run), there is no a = M⁻¹ Q and no K: a(), constraintViolation() and K() are empty,
/// massIsSingular() is true, Qᶜᵢ is the solver's true-system force M q̈ − Q of the auxiliary
/// system (docs/MATH.md §4), and lambda() holds that system's multipliers (lambdaIsAuxiliary()).
///
/// The constructor does not throw ConstraintLabError: a sample that does not fit the system
/// (wrong sizes, non-finite entries), a system that returns non-finite or wrongly sized M, Q,
/// A or b, a solver error (inconsistent constraints, M singular with [M; A] of deficient rank)
/// and a non-finite result are recorded in error(), and every quantity that could not be
/// formed is left empty (size 0; sampleQciDifference(), residualMax() and residualRelative()
/// are then NaN). What was formed before the failure stays available, so a panel can show how
/// far the derivation got: after a solver error with a regular M, a, b − A a and K are there
/// (they often show why), λ and Qᶜᵢ are not.
class EquationBreakdown {
public:
    /// A frictional contact's mode at the sample.
    struct Contact {
        std::string name;     ///< MechanicalSystem::contactName
        bool sliding = false; ///< true: kinetic friction; false: stuck (static friction)
    };

    EquationBreakdown(const MechanicalSystem& system, const TraceSample& sample);

    /// What went wrong, if anything (kind, message in the user's terms, hint).
    const std::optional<ConstraintLabError>& error() const { return error_; }
    bool ok() const { return !error_.has_value(); }

    // --- The state ---
    double t() const { return t_; }
    const Eigen::VectorXd& q() const { return q_; }
    const Eigen::VectorXd& qd() const { return qd_; }

    // --- §1: the three parts ---
    const Eigen::MatrixXd& M() const { return M_; } ///< M(q, t), n×n
    const Eigen::VectorXd& Q() const { return Q_; } ///< Q(q, q̇, t)
    const Eigen::MatrixXd& A() const { return A_; } ///< m×n, A q̈ = b of the system's constraints
    const Eigen::VectorXd& b() const { return b_; } ///< m, no Baumgarte terms

    // --- §2: the ideal constraint force (a, violation and K only when M is regular) ---
    /// True when the auxiliary system of §4 is used (declared or detected singular M).
    bool massIsSingular() const { return massSingular_; }
    /// a = M⁻¹ Q, the acceleration without constraints.
    const Eigen::VectorXd& a() const { return a_; }
    /// b − A a: how far the unconstrained motion would violate the constraints.
    const Eigen::VectorXd& constraintViolation() const { return violation_; }
    /// K = A M⁻¹ Aᵀ, m×m, positive semi-definite.
    const Eigen::MatrixXd& K() const { return K_; }
    /// The solver's λ: minimum-norm solution of K λ = b − A a, or the auxiliary multipliers.
    const Eigen::VectorXd& lambda() const { return lambda_; }
    /// True when lambda() holds the multipliers of the auxiliary system (singular M).
    bool lambdaIsAuxiliary() const { return massSingular_ && lambda_.size() > 0; }
    /// Qᶜᵢ: Aᵀ λ, or M q̈ − Q of the auxiliary solve when M is singular.
    const Eigen::VectorXd& Qci() const { return Qci_; }
    /// max |Qᶜᵢ − sample.Qci|. Zero up to rounding for a sample of a run with projection or no
    /// stabilization; in a run with Baumgarte stabilization the sample's force also holds the
    /// feedback on the drift (its b had the extra terms), and this is that force's size.
    double sampleQciDifference() const { return sampleQciDifference_; }

    // --- From the sample, as the simulator computed them ---
    const Eigen::VectorXd& qdd() const { return qdd_; }   ///< q̈
    const Eigen::VectorXd& Qcni() const { return Qcni_; } ///< Qᶜₙᵢ, static friction included
    const std::vector<Contact>& contacts() const { return contacts_; }

    // --- The balance M q̈ − Q − Qᶜᵢ − Qᶜₙᵢ (Qᶜᵢ the one above) ---
    /// r = M q̈ − Q − Qᶜᵢ − Qᶜₙᵢ; rounding, except for a Baumgarte run's sample, where it is
    /// sample.Qci − Qᶜᵢ, the feedback force (see sampleQciDifference()).
    const Eigen::VectorXd& residual() const { return residual_; }
    /// max |rᵢ|.
    double residualMax() const { return residualMax_; }
    /// residualMax() over the largest entry of M q̈, Q, Qᶜᵢ and Qᶜₙᵢ (0 when they are all zero).
    double residualRelative() const { return residualRelative_; }

private:
    void evaluate(const MechanicalSystem& system, const TraceSample& sample);
    /// Checks the sample against the system's sizes and takes t, q, q̇, q̈, Qᶜₙᵢ and the modes.
    void readSample(const MechanicalSystem& system, const TraceSample& sample);
    /// The residual of M q̈ = Q + Qᶜᵢ + Qᶜₙᵢ, absolute and relative to the largest term.
    void balance();

    std::optional<ConstraintLabError> error_;
    double t_ = 0.0;
    Eigen::VectorXd q_, qd_;
    Eigen::MatrixXd M_, A_, K_;
    Eigen::VectorXd Q_, b_, a_, violation_, lambda_, Qci_, qdd_, Qcni_, residual_;
    bool massSingular_ = false;
    // NaN until formed, so that a panel never shows a number that was not computed.
    double sampleQciDifference_ = std::numeric_limits<double>::quiet_NaN();
    double residualMax_ = std::numeric_limits<double>::quiet_NaN();
    double residualRelative_ = std::numeric_limits<double>::quiet_NaN();
    std::vector<Contact> contacts_;
};

} // namespace clab
