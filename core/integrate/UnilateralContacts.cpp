#include "integrate/UnilateralContacts.h"

#include "model/ConstraintLabError.h"
#include "solve/ContactLcp.h"

#include <algorithm>
#include <cmath>

namespace clab {

namespace {

// φ within this share of the coordinates' size counts as touching; |φ̇| within this share of
// the velocities' size counts as resting (after the projection both are at rounding level).
constexpr double kTouching = 1e-9;
// |φ̇| of a contact that touches down, at or below this share of the velocities' size, rests.
constexpr double kTouchDownRate = 1e-13;
// A series of bounces is resolved until its remainder is below the span of simultaneous events
// times e^kZenoBounces, but not below kZenoFloor of that span (flights of a few thousand ulps).
constexpr double kZenoBounces = 50.0;
constexpr double kZenoFloor = 1e-4;
// A contact whose consistency with friction is below this (of the frictionless value) stops
// the run: at 0 its push has no effect on its acceleration, below it the wrong one.
constexpr double kPainleveMargin = 1e-9;

} // namespace

UnilateralContacts::UnilateralContacts(const MechanicalSystem& system, Evaluate evaluate)
    : system_(system), evaluate_(std::move(evaluate)), count_(system.unilateralCount()),
      // Without one-sided contacts nothing is sized: a long chain's n×n would not fit.
      equation_(system.unilateralCount() > 0 ? system.dof() : 1,
                system.unilateralCount() > 0 ? system.constraintCount() : 0)
{
    if (count_ == 0)
        return;
    const int n = system.dof(), m = system.constraintCount();
    for (int k = 0; k < count_; ++k) {
        const int row = system.unilateralRow(k);
        if (row < 0 || row >= system.holonomicCount())
            throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter,
                                     "one-sided contact '" + system.unilateralName(k) +
                                         "' is not a holonomic constraint (row " +
                                         std::to_string(row) + ")");
    }
    response_.resize(n, m);
    M_.setZero(n, n);
    A_.setZero(m, n);
    Av_.setZero(m, n);
    Q_.setZero(n);
    b_.setZero(m);
    bv_.setZero(m);
    level_.assign(static_cast<std::size_t>(count_), 0.0);
    equation_.setSingularMass(system.massMatrixIsSingular());
}

void UnilateralContacts::setSlidingFriction(SlidingFriction friction)
{
    if (count_ > 0 && system_.contactCount() > 0)
        friction_ = std::move(friction);
}

double UnilateralContacts::eventFunction(int k, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                         double t)
{
    if (k >= count_)
        return system_.unilateralOpen(k - count_) ? 1.0 : consistency(k - count_, q, qd, t);
    if (system_.unilateralOpen(k))
        return (system_.unilateralGap(k, q, t) - level_[static_cast<std::size_t>(k)]) /
               (1.0 + q.lpNorm<Eigen::Infinity>());
    const ConstrainedAcceleration& acc = evaluate_(q, qd, t);
    return acc.lambda[system_.unilateralRow(k)] / (1.0 + acc.Qci.lpNorm<Eigen::Infinity>());
}

std::vector<int> UnilateralContacts::touching(const Eigen::VectorXd& q, double t) const
{
    std::vector<int> set;
    const double tol = kTouching * (1.0 + q.lpNorm<Eigen::Infinity>());
    for (int k = 0; k < count_; ++k)
        if (system_.unilateralGap(k, q, t) <= tol)
            set.push_back(k);
    return set;
}

void UnilateralContacts::setOpen(const std::vector<int>& set, bool open) const
{
    for (int k : set)
        system_.setUnilateralOpen(k, open);
}

void UnilateralContacts::contactRows(const std::vector<int>& set, const Eigen::VectorXd& q,
                                     const Eigen::VectorXd& qd, double t, bool velocity,
                                     Eigen::MatrixXd& rows, Eigen::VectorXd& rhs) const
{
    // The rows of closed contacts: close them for the evaluation, then restore their modes.
    std::vector<bool> wasOpen;
    for (int k : set)
        wasOpen.push_back(system_.unilateralOpen(k));
    setOpen(set, false);
    Eigen::MatrixXd A(system_.constraintCount(), system_.dof());
    Eigen::VectorXd b(system_.constraintCount());
    if (velocity)
        system_.velocityConstraints(q, t, A, b);
    else
        system_.constraintMatrix(q, qd, t, A, b);
    rows.resize(static_cast<Eigen::Index>(set.size()), system_.dof());
    rhs.resize(static_cast<Eigen::Index>(set.size()));
    for (std::size_t i = 0; i < set.size(); ++i) {
        const int row = system_.unilateralRow(set[i]);
        rows.row(static_cast<Eigen::Index>(i)) = A.row(row);
        rhs[static_cast<Eigen::Index>(i)] = b[row];
        system_.setUnilateralOpen(set[i], wasOpen[i]);
    }
}

void UnilateralContacts::delassus(const std::vector<int>& set, const Eigen::MatrixXd& rows,
                                  const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                                  Eigen::MatrixXd& W, Eigen::MatrixXd& response)
{
    // With the contacts open, a unit force along contact i's row moves the system by
    // q̈ = N Jᵢᵀ, N the inverse mass restricted by the other constraints (b = 0: the fundamental
    // equation of the force alone).
    setOpen(set, true);
    system_.massMatrix(q, t, M_);
    system_.constraintMatrix(q, qd, t, A_, b_);
    b_.setZero();
    const auto k = static_cast<Eigen::Index>(set.size());
    response.resize(system_.dof(), k);
    for (Eigen::Index i = 0; i < k; ++i) {
        Q_ = rows.row(i).transpose();
        equation_.solveIdeal(M_, Q_, A_, b_, response_);
        response.col(i) = response_.qdd;
    }
    W = rows * response;
    W = 0.5 * (W + W.transpose()).eval(); // symmetric up to rounding: make it exactly so
}

std::string UnilateralContacts::names(const std::vector<int>& set) const
{
    std::string out;
    for (std::size_t i = 0; i < set.size(); ++i)
        out += (i == 0                ? "'"
                : i + 1 == set.size() ? " and '"
                                      : ", '") +
               system_.unilateralName(set[i]) + "'";
    return out;
}

double UnilateralContacts::impact(const std::vector<int>& set, const Eigen::VectorXd& restRate,
                                  Eigen::VectorXd& q, Eigen::VectorXd& qd, double t,
                                  double zenoSpan, std::vector<ContactEvent>& events)
{
    Eigen::MatrixXd Jv, W, R;
    Eigen::VectorXd bv;
    contactRows(set, q, qd, t, true, Jv, bv);
    const Eigen::VectorXd before = Jv * qd - bv; // φ̇⁻
    if (set.empty() || !((before + restRate).minCoeff() < 0.0))
        return 0.0;
    delassus(set, Jv, q, qd, t, W, R);
    // Each contact's acceleration without the contacts, to tell a rebound too short to resolve.
    Eigen::MatrixXd Ja;
    Eigen::VectorXd ba;
    contactRows(set, q, qd, t, false, Ja, ba);
    const Eigen::VectorXd free = Ja * evaluate_(q, qd, t).qdd - ba;
    const auto k = static_cast<Eigen::Index>(set.size());
    Eigen::VectorXd e(k);
    for (Eigen::Index i = 0; i < k; ++i)
        e[i] = system_.restitution(set[static_cast<std::size_t>(i)]);
    ContactLcp::Result lcp;
    for (int pass = 0; pass < 2; ++pass) {
        // Newton: φ̇⁺ + e φ̇⁻ ≥ 0, impulse P ≥ 0, one of them zero; φ̇⁺ = φ̇⁻ + W P.
        lcp = ContactLcp::solve(W, (1.0 + e.array()).matrix().cwiseProduct(before));
        if (!lcp.solved)
            throw ConstraintLabError(ConstraintLabError::Kind::IntegrationFailure,
                                     "the impact on the one-sided contacts " + names(set) +
                                         " has no impulse that satisfies Newton's law "
                                         "(the complementarity problem has no solution)");
        bool again = false;
        for (Eigen::Index i = 0; i < k; ++i) {
            const double after = before[i] + W.row(i).dot(lcp.z);
            // The rebounds that follow take 2 φ̇⁺ / (|φ̈| (1 − e)) in all (a geometric series).
            // Resolved until at most kZenoBounces of them would fall within zenoSpan (the
            // events a cluster may hold), or until they would all fit into kZenoFloor of it:
            // resting from here starts at most that remainder before the accumulation time.
            const double cut = zenoSpan * std::max(std::pow(e[i], kZenoBounces), kZenoFloor);
            if (e[i] > 0.0 && lcp.z[i] > 0.0 && free[i] < 0.0 &&
                2.0 * after < cut * -free[i] * (1.0 - e[i])) {
                e[i] = 0.0; // the bounces accumulate here: the contact comes to rest
                again = true;
            }
        }
        if (!again)
            break;
    }
    const double T0 = system_.kineticEnergy(q, qd, t);
    qd += R * lcp.z;
    for (Eigen::Index i = 0; i < k; ++i)
        if (lcp.z[i] > 0.0) {
            const int contact = set[static_cast<std::size_t>(i)];
            events.push_back(
                {t, contact, ContactEvent::Kind::Impact, Jv.row(i).transpose() * lcp.z[i]});
        }
    return system_.kineticEnergy(q, qd, t) - T0;
}

void UnilateralContacts::chooseClosed(const std::vector<int>& set, const Eigen::VectorXd& q,
                                      const Eigen::VectorXd& qd, double t)
{
    if (set.empty())
        return;
    setOpen(set, true);
    const Eigen::VectorXd qddFree = evaluate_(q, qd, t).qdd;
    Eigen::MatrixXd Ja, W, R;
    Eigen::VectorXd ba;
    contactRows(set, q, qd, t, false, Ja, ba);
    delassus(set, Ja, q, qd, t, W, R);
    // Gauss's principle with φ̈ ≥ 0: φ̈ = φ̈_free + W λ ≥ 0, λ ≥ 0, one of them zero.
    const ContactLcp::Result lcp = ContactLcp::solve(W, Ja * qddFree - ba);
    if (!lcp.solved)
        throw ConstraintLabError(ConstraintLabError::Kind::IntegrationFailure,
                                 "the one-sided contacts " + names(set) +
                                     " admit no set of pushing forces that keeps them from "
                                     "passing through (the complementarity problem has no "
                                     "solution)",
                                 "check that the contacts can push at all against the other "
                                 "constraints (a contact that a constraint already holds)");
    for (std::size_t i = 0; i < set.size(); ++i)
        system_.setUnilateralOpen(set[i], !(lcp.z[static_cast<Eigen::Index>(i)] > 0.0));
}

double UnilateralContacts::resolve(Eigen::VectorXd& q, Eigen::VectorXd& qd, double t, bool start,
                                   double zenoSpan, const ProjectPositions& project,
                                   std::vector<ContactEvent>& events)
{
    std::vector<bool> wasOpen;
    for (int k = 0; k < count_; ++k)
        wasOpen.push_back(system_.unilateralOpen(k));
    const std::vector<int> set = touching(q, t);
    for (int k = 0; k < count_; ++k)
        system_.setUnilateralOpen(k, true);
    setOpen(set, false);
    if (start && project)
        project(q, t); // onto the surfaces it starts on
    // |φ̇| up to which a contact rests rather than strikes or leaves: the rounding a closed
    // contact's rate carries after projections; a touch-down's own rate is exact up to its
    // rounding, so that the last bounces of a series are struck, not set down early.
    Eigen::VectorXd restRate(static_cast<Eigen::Index>(set.size()));
    const double scale = 1.0 + qd.lpNorm<Eigen::Infinity>();
    for (std::size_t i = 0; i < set.size(); ++i)
        restRate[static_cast<Eigen::Index>(i)] =
            (!start && wasOpen[static_cast<std::size_t>(set[i])] ? kTouchDownRate : kTouching) *
            scale;
    const double work = impact(set, restRate, q, qd, t, zenoSpan, events);
    // Those that rest on their surface after the impact may stay closed; the others fly off.
    Eigen::MatrixXd Jv;
    Eigen::VectorXd bv;
    contactRows(set, q, qd, t, true, Jv, bv);
    const Eigen::VectorXd rate = Jv * qd - bv;
    std::vector<int> resting;
    for (std::size_t i = 0; i < set.size(); ++i) {
        const bool rests =
            std::abs(rate[static_cast<Eigen::Index>(i)]) <= restRate[static_cast<Eigen::Index>(i)];
        system_.setUnilateralOpen(set[i], !rests);
        if (rests)
            resting.push_back(set[i]);
    }
    chooseClosed(resting, q, qd, t);
    resting_ = resting;
    // A touch-down is located a rounding-size step past φ = 0, and a contact that opens again
    // stays there: moving it onto its surface would add potential energy at every bounce,
    // enough to keep tiny bounces going for ever (the closed ones are projected by the
    // owner). Its next touch-down is at that same level.
    for (int k = 0; k < count_; ++k)
        level_[static_cast<std::size_t>(k)] = std::min(0.0, system_.unilateralGap(k, q, t));
    for (int k = 0; k < count_; ++k) {
        const bool open = system_.unilateralOpen(k);
        if (open && !wasOpen[static_cast<std::size_t>(k)])
            events.push_back({t, k, ContactEvent::Kind::Leave});
        else if (!open && wasOpen[static_cast<std::size_t>(k)] && !start)
            events.push_back({t, k, ContactEvent::Kind::Touch});
    }
    return work;
}

double UnilateralContacts::consistency(int k, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                       double t)
{
    frictionSize_ = 0.0;
    if (!friction_)
        return 1.0;
    // Contact k closed for the friction (its push is a row force) and open for the response.
    const bool wasOpen = system_.unilateralOpen(k);
    const std::vector<int> set{k};
    Eigen::MatrixXd Jk, W, R;
    Eigen::VectorXd bk;
    contactRows(set, q, qd, t, false, Jk, bk);
    system_.setUnilateralOpen(k, false);
    const Eigen::VectorXd unitPush = Jk.row(0).transpose();
    const Eigen::VectorXd perPush = friction_(q, qd, t, unitPush, frictionSize_);
    double ratio = 1.0;
    if (perPush.squaredNorm() > 0.0) {
        // φ̈ₖ = φ̈ₖ,free + Jₖ N (Jₖᵀ + cₖ) λₖ: the push itself and the friction it drives.
        delassus(set, Jk, q, qd, t, W, R);
        Q_ = perPush;
        equation_.solveIdeal(M_, Q_, A_, b_, response_); // b_ = 0, k open: as delassus left them
        const double frictionless = W(0, 0);
        if (frictionless > 0.0)
            ratio = (frictionless + Jk.row(0).dot(response_.qdd)) / frictionless;
        frictionSize_ /= unitPush.norm();
    }
    system_.setUnilateralOpen(k, wasOpen);
    return ratio;
}

void UnilateralContacts::checkConsistent(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                         double t)
{
    if (!friction_)
        return;
    for (int k = 0; k < count_; ++k) {
        const bool resting = std::find(resting_.begin(), resting_.end(), k) != resting_.end();
        if (system_.unilateralOpen(k) && !resting)
            continue;
        // A margin above the event's zero: a state just past it, then projected, is caught.
        const double ratio = consistency(k, q, qd, t);
        if (ratio < kPainleveMargin)
            painleve(k, ratio, q, qd, t);
    }
}

void UnilateralContacts::painleve(int k, double ratio, const Eigen::VectorXd& q,
                                  const Eigen::VectorXd& qd, double t)
{
    // Without its push the contact would sink (φ̈ < 0: no force is consistent) or lift off
    // (φ̈ > 0: both no force and a growing push are).
    const bool wasOpen = system_.unilateralOpen(k);
    const std::vector<int> set{k};
    Eigen::MatrixXd Jk;
    Eigen::VectorXd bk;
    contactRows(set, q, qd, t, false, Jk, bk);
    system_.setUnilateralOpen(k, true);
    const double free = Jk.row(0).dot(evaluate_(q, qd, t).qdd) - bk[0];
    system_.setUnilateralOpen(k, wasOpen);
    const std::string why =
        free < 0.0 ? "no normal force is consistent: without a push the body sinks into the "
                     "surface, and no push holds it up"
                   : "the normal force is not determined: lifting off and pressing on with a "
                     "push are both consistent";
    // Located where the ratio crosses zero, it is rounding-sized there: not worth printing.
    const std::string push = std::abs(ratio) < 1e-9
                                 ? "a push no longer accelerates it off the surface"
                                 : "a push accelerates it off the surface at only " +
                                       ConstraintLabError::number(ratio) +
                                       " times the frictionless rate";
    throw ConstraintLabError(
        ConstraintLabError::Kind::InconsistentConstraints,
        "Painlevé's paradox at the one-sided contact '" + system_.unilateralName(k) +
            "': with its sliding friction (μ = " + ConstraintLabError::number(frictionSize_) +
            " per unit of normal force), " + push + ", so " + why,
        "Coulomb friction this large makes the rigid contact's forces ill-posed here; "
        "lower mu below the critical value of this configuration");
}

} // namespace clab
