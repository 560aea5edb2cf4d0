#include "integrate/FrictionalContacts.h"

#include "model/ConstraintLabError.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace clab {

namespace {

// Static friction holds while ‖F‖ ≤ μₛ‖N‖ (1 + kStickSlack): equality must hold against the
// rounding of tan θ = μₛ, and the break-away event uses the same bound, so that a contact
// never sticks and breaks away at the same instant.
constexpr double kStickSlack = 1e-12;
// A vector contact whose slip velocity along the step's direction reaches zero while its speed
// is still above this fraction of the step's initial speed has only turned, not stopped.
constexpr double kTurnFraction = 1e-6;

std::string number(double v)
{
    return ConstraintLabError::number(v);
}

[[noreturn]] void invalid(const std::string& what)
{
    throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter, "Simulator: " + what);
}

} // namespace

FrictionalContacts::FrictionalContacts(const MechanicalSystem& system, Evaluate evaluate)
    : system_(system), evaluate_(std::move(evaluate)), count_(system.contactCount())
{
    const int n = system.dof();
    const int m = system.constraintCount();
    if (count_ < 0)
        invalid("the system declares a negative number of contacts");
    if (count_ > 0 && !system.providesConstraintFunctions())
        invalid("a system with frictional contacts must provide its constraint functions "
                "(positionConstraints, velocityConstraints), which stick events need");
    for (int c = 0; c < count_; ++c) {
        const int k = system.slipDimension(c);
        if (k < 1 || k > n)
            invalid("contact " + system.contactName(c) + " has slip dimension " +
                    std::to_string(k) + ", expected 1 to " + std::to_string(n));
        slipOffset_.push_back(slipRows_);
        slipDim_.push_back(k);
        slipRows_ += k;
        ContactState state;
        state.direction.setZero(k);
        state.direction[0] = 1.0;
        states_.push_back(state);
    }
    speedAtStepStart_.assign(static_cast<std::size_t>(count_), 0.0);
    stuckRankModes_.reserve(static_cast<std::size_t>(count_));
    G_.setZero(slipRows_, n);
    gamma_.setZero(slipRows_);
    v_.setZero(slipRows_);
    w_.setZero(slipRows_);
    C_.setZero(n);
    if (count_ > 0) {
        stuckEquation_ = std::make_unique<FundamentalEquation>(n, m + slipRows_);
        stuckEquation_->setSingularMass(system.massMatrixIsSingular());
        Aext_.setZero(m + slipRows_, n);
        bext_.setZero(m + slipRows_);
        ext_.resize(n, m + slipRows_);
        extRank_ = Eigen::ColPivHouseholderQR<Eigen::MatrixXd>(m + slipRows_, n);
        extRank_.setThreshold(1e-10);
        AtA_.setZero(n, n);
        // Factorizing once sizes the storage (no allocation later) and, unlike assigning
        // LLT(n), leaves no uninitialized member for UBSan to trip over.
        restLlt_.compute(Eigen::MatrixXd::Identity(n, n));
    }
    stickRows_.setZero(slipRows_, n);
    stickRhs_.setZero(slipRows_);
    Fstick_.setZero(n);
}

FrictionalContacts::~FrictionalContacts() = default;

bool FrictionalContacts::stickHolds(double force, double limit)
{
    return force <= limit + kStickSlack * std::max(limit, force);
}

void FrictionalContacts::slipVelocities(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                        double t)
{
    for (int c = 0; c < count_; ++c) {
        const int off = slipOffset_[static_cast<std::size_t>(c)];
        const int k = slipDim_[static_cast<std::size_t>(c)];
        system_.slipJacobian(c, q, qd, t, G_.middleRows(off, k), gamma_.segment(off, k));
    }
    if (count_ > 0)
        v_.noalias() = G_ * qd;
}

void FrictionalContacts::addFriction(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                                     const Eigen::MatrixXd& M, const Eigen::VectorXd& Q,
                                     const Eigen::MatrixXd& A, const Eigen::VectorXd& b,
                                     const double* baumgarteAlpha, FundamentalEquation& equation,
                                     ConstrainedAcceleration& out)
{
    if (!kineticFriction(q, qd, t, out.Qci)) {
        stuckRankModes_.clear(); // the next stuck interval decides afresh
        equation.addNonIdeal(C_, out);
        Fstick_.setZero();
        return;
    }
    solveWithStickRows(M, Q, A, b, baumgarteAlpha);
    Fstick_ = ext_.Qci - out.Qci;
    out.qdd = ext_.qdd;
    out.Qcni = Fstick_ + ext_.Qcni;
}

const Eigen::VectorXd& FrictionalContacts::slidingFriction(const Eigen::VectorXd& q,
                                                           const Eigen::VectorXd& qd, double t,
                                                           const Eigen::VectorXd& normalForce,
                                                           double& size)
{
    kineticFriction(q, qd, t, normalForce);
    size = 0.0;
    for (int c = 0; c < count_; ++c)
        if (!states_[static_cast<std::size_t>(c)].stuck)
            size += system_.kineticFrictionForce(c, q, qd, t, normalForce);
    return C_;
}

bool FrictionalContacts::kineticFriction(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                         double t, const Eigen::VectorXd& Qci)
{
    // Kinetic friction of the sliding contacts against the step's slip direction.
    slipVelocities(q, qd, t);
    C_.setZero();
    bool anyStuck = false;
    for (int c = 0; c < count_; ++c) {
        const ContactState& state = states_[static_cast<std::size_t>(c)];
        if (state.stuck) {
            anyStuck = true;
            continue;
        }
        const int off = slipOffset_[static_cast<std::size_t>(c)];
        const int k = slipDim_[static_cast<std::size_t>(c)];
        const auto v = v_.segment(off, k);
        auto w = w_.segment(off, k);
        const double speed = v.norm();
        const double along = state.direction.dot(v);
        // Past a zero of the slip velocity inside a step the friction keeps its direction,
        // which keeps the right-hand side smooth until the event is located.
        if (speed > 0.0 && along != 0.0)
            w = (along > 0.0 ? 1.0 / speed : -1.0 / speed) * v;
        else
            w = state.direction;
        const double force = system_.kineticFrictionForce(c, q, qd, t, Qci);
        if (!std::isfinite(force) || force < 0.0)
            throw ConstraintLabError(ConstraintLabError::Kind::NonFinite,
                                     "the kinetic friction force of contact " +
                                         system_.contactName(c) + " is " + number(force),
                                     ConstraintLabError::overflowHint);
        C_.noalias() -= force * (G_.middleRows(off, k).transpose() * w);
    }
    return anyStuck;
}

void FrictionalContacts::solveWithStickRows(const Eigen::MatrixXd& M, const Eigen::VectorXd& Q,
                                            const Eigen::MatrixXd& A, const Eigen::VectorXd& b,
                                            const double* baumgarteAlpha)
{
    // Stuck contacts are ideal constraints G q̈ = −γ appended to A (zero rows for the sliding
    // ones); the force of those rows is static friction.
    const auto n = static_cast<int>(M.cols());
    const auto m = static_cast<int>(A.rows());
    Aext_.topRows(m) = A;
    bext_.head(m) = b;
    for (int c = 0; c < count_; ++c) {
        const int off = slipOffset_[static_cast<std::size_t>(c)];
        const int k = slipDim_[static_cast<std::size_t>(c)];
        if (states_[static_cast<std::size_t>(c)].stuck) {
            Aext_.middleRows(m + off, k) = G_.middleRows(off, k);
            bext_.segment(m + off, k) = -gamma_.segment(off, k);
            if (baumgarteAlpha)
                bext_.segment(m + off, k) -= *baumgarteAlpha * v_.segment(off, k);
        } else {
            Aext_.middleRows(m + off, k).setZero();
            bext_.segment(m + off, k).setZero();
        }
    }
    if (stuckRankFull(n)) {
        // The constraints with the stick rows leave no motion free: they alone determine q̈ (M
        // does not enter), and the force is what it takes, M q̈ − Q. Solved from the normal
        // equations, a right-hand side of zero gives q̈ = 0 exactly, so a body held by static
        // friction stays exactly put rather than up to rounding.
        ext_.qdd.noalias() = Aext_.transpose() * bext_;
        restLlt_.solveInPlace(ext_.qdd);
        ext_.Qci.noalias() = M * ext_.qdd;
        ext_.Qci -= Q;
        ext_.Qcni.setZero(); // kinetic friction has no free direction to act along
    } else {
        stuckEquation_->solveIdeal(M, Q, Aext_, bext_, ext_);
        stuckEquation_->addNonIdeal(C_, ext_);
    }
}

bool FrictionalContacts::stuckRankFull(int n)
{
    // Aext depends on q, so its QR cannot be kept; what stays is the decision it is made for.
    // Both branches give the same q̈ while Aext has rank n (the normal equations only make a zero
    // right-hand side give exactly q̈ = 0), so the decision is taken once per set of stuck
    // contacts and kept until the modes change. A rank that falls meanwhile shows in the
    // Cholesky factor of AᵀA that the full-rank branch needs anyway, and is decided afresh.
    bool same = !stuckRankModes_.empty();
    for (int c = 0; c < count_ && same; ++c)
        same = stuckRankModes_[static_cast<std::size_t>(c)] ==
               static_cast<char>(states_[static_cast<std::size_t>(c)].stuck);
    if (same && !stuckRankFull_)
        return false;
    if (same && factorNormalEquations())
        return true;
    extRank_.compute(Aext_);
    stuckRankFull_ = extRank_.rank() == n;
    stuckRankModes_.resize(static_cast<std::size_t>(count_));
    for (int c = 0; c < count_; ++c)
        stuckRankModes_[static_cast<std::size_t>(c)] =
            static_cast<char>(states_[static_cast<std::size_t>(c)].stuck);
    if (stuckRankFull_)
        factorNormalEquations(); // the QR has decided; the factor is what the branch needs
    return stuckRankFull_;
}

bool FrictionalContacts::factorNormalEquations()
{
    AtA_.noalias() = Aext_.transpose() * Aext_;
    restLlt_.compute(AtA_);
    if (restLlt_.info() != Eigen::Success)
        return false;
    // The factor's diagonal is that of R in an unpivoted QR of Aext: held to the threshold the
    // rank decision uses.
    const auto d = restLlt_.matrixLLT().diagonal();
    return d.minCoeff() > extRank_.threshold() * d.maxCoeff();
}

double FrictionalContacts::stickForce(int c) const
{
    const int off = slipOffset_[static_cast<std::size_t>(c)];
    const int k = slipDim_[static_cast<std::size_t>(c)];
    // G has orthonormal rows, so ‖G F‖ is the size of F's share in the contact's slip space.
    // Scaled by the largest share, so that tiny forces (a tiny mass) do not underflow to zero.
    double largest = 0.0;
    for (int i = 0; i < k; ++i)
        largest = std::max(largest, std::abs(G_.row(off + i).dot(Fstick_)));
    if (largest == 0.0 || !std::isfinite(largest))
        return largest;
    double sum = 0.0;
    for (int i = 0; i < k; ++i) {
        const double share = G_.row(off + i).dot(Fstick_) / largest;
        sum += share * share;
    }
    return largest * std::sqrt(sum);
}

bool FrictionalContacts::decideAtRest(int c, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                      double t)
{
    ContactState& state = states_[static_cast<std::size_t>(c)];
    state.stuck = true;
    const ConstrainedAcceleration& acc = evaluate_(q, qd, t);
    const double force = stickForce(c);
    const double limit = system_.stickForceLimit(c, q, qd, t, acc.Qci);
    if (!std::isfinite(limit) || limit < 0.0)
        throw ConstraintLabError(ConstraintLabError::Kind::NonFinite,
                                 "the static friction limit of contact " + system_.contactName(c) +
                                     " is " + number(limit),
                                 ConstraintLabError::overflowHint);
    if (stickHolds(force, limit))
        return true;
    // Breaks away: slides in the direction of the net force, against the force it would need.
    const int off = slipOffset_[static_cast<std::size_t>(c)];
    const int k = slipDim_[static_cast<std::size_t>(c)];
    for (int i = 0; i < k; ++i)
        state.direction[i] = -G_.row(off + i).dot(Fstick_) / force;
    state.stuck = false;
    return false;
}

void FrictionalContacts::setModesFromState(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                           double t)
{
    if (count_ == 0)
        return;
    stuckRankModes_.clear(); // a state of its own: the rank is decided there
    for (ContactState& state : states_)
        state.stuck = false;
    slipVelocities(q, qd, t);
    for (int c = 0; c < count_; ++c) {
        const int off = slipOffset_[static_cast<std::size_t>(c)];
        const int k = slipDim_[static_cast<std::size_t>(c)];
        const double speed = v_.segment(off, k).norm();
        if (speed > 0.0)
            states_[static_cast<std::size_t>(c)].direction = v_.segment(off, k) / speed;
    }
    for (int c = 0; c < count_; ++c) {
        const int off = slipOffset_[static_cast<std::size_t>(c)];
        const int k = slipDim_[static_cast<std::size_t>(c)];
        slipVelocities(q, qd, t);
        if (v_.segment(off, k).norm() == 0.0)
            decideAtRest(c, q, qd, t);
    }
}

bool FrictionalContacts::startModes(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                                    std::vector<ContactEvent>& events)
{
    for (ContactState& state : states_)
        state.stuck = false;
    setModesFromState(q, qd, t);
    slipVelocities(q, qd, t);
    bool anyStuck = false;
    for (int c = 0; c < count_; ++c) {
        const int off = slipOffset_[static_cast<std::size_t>(c)];
        const int k = slipDim_[static_cast<std::size_t>(c)];
        if (v_.segment(off, k).norm() > 0.0)
            continue;
        const bool stuck = states_[static_cast<std::size_t>(c)].stuck;
        anyStuck = anyStuck || stuck;
        events.push_back({t, c, stuck ? ContactEvent::Kind::Stick : ContactEvent::Kind::Slip});
    }
    return anyStuck;
}

double FrictionalContacts::timeToStop(int c, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                      double t)
{
    const int off = slipOffset_[static_cast<std::size_t>(c)];
    const int k = slipDim_[static_cast<std::size_t>(c)];
    slipVelocities(q, qd, t);
    const double speed = v_.segment(off, k).norm();
    if (speed == 0.0)
        return 0.0;
    ContactState& state = states_[static_cast<std::size_t>(c)];
    const Eigen::VectorXd direction = state.direction;
    state.direction = v_.segment(off, k) / speed;
    const ConstrainedAcceleration& acc = evaluate_(q, qd, t);
    state.direction = direction;
    // d/dt (G q̇) = G q̈ + γ; its size bounds how fast the slip speed can fall.
    const double rate = (G_.middleRows(off, k) * acc.qdd + gamma_.segment(off, k)).norm();
    slipVelocities(q, qd, t);
    return rate > 0.0 ? speed / rate : std::numeric_limits<double>::infinity();
}

void FrictionalContacts::updateSlipDirections(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                              double t)
{
    if (count_ == 0)
        return;
    slipVelocities(q, qd, t);
    for (int c = 0; c < count_; ++c) {
        const int off = slipOffset_[static_cast<std::size_t>(c)];
        const int k = slipDim_[static_cast<std::size_t>(c)];
        const double speed = v_.segment(off, k).norm();
        ContactState& state = states_[static_cast<std::size_t>(c)];
        speedAtStepStart_[static_cast<std::size_t>(c)] = speed;
        if (!state.stuck && speed > 0.0 && state.direction.dot(v_.segment(off, k)) > 0.0)
            state.direction = v_.segment(off, k) / speed;
    }
}

double FrictionalContacts::eventFunction(int c, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                         double t)
{
    const ContactState& state = states_[static_cast<std::size_t>(c)];
    if (state.stuck) {
        const ConstrainedAcceleration& acc = evaluate_(q, qd, t);
        const double force = stickForce(c);
        const double limit = system_.stickForceLimit(c, q, qd, t, acc.Qci);
        return limit + kStickSlack * std::max(limit, force) - force;
    }
    const int off = slipOffset_[static_cast<std::size_t>(c)];
    const int k = slipDim_[static_cast<std::size_t>(c)];
    system_.slipJacobian(c, q, qd, t, G_.middleRows(off, k), gamma_.segment(off, k));
    double along = 0.0;
    for (int i = 0; i < k; ++i)
        along += state.direction[i] * G_.row(off + i).dot(qd);
    return along;
}

bool FrictionalContacts::crossed(int c, double g) const
{
    // A sliding contact has stopped when its slip velocity along the step's direction is no
    // longer positive; a stuck one breaks away when the force exceeds the limit.
    return states_[static_cast<std::size_t>(c)].stuck ? g < 0.0 : g <= 0.0;
}

bool FrictionalContacts::changeModes(const std::vector<int>& changing, const Eigen::VectorXd& q,
                                     const Eigen::VectorXd& qd, double t, double minStopTime,
                                     std::vector<ContactEvent>& events)
{
    bool anyStick = false;
    slipVelocities(q, qd, t);
    for (int c : changing) {
        ContactState& state = states_[static_cast<std::size_t>(c)];
        const int off = slipOffset_[static_cast<std::size_t>(c)];
        const int k = slipDim_[static_cast<std::size_t>(c)];
        const Eigen::VectorXd before = state.direction;
        if (state.stuck) {
            decideAtRest(c, q, qd, t); // the force exceeds the limit: slips
            state.stuck = false;
            events.push_back({t, c, ContactEvent::Kind::Slip});
            continue;
        }
        slipVelocities(q, qd, t);
        const double speed = v_.segment(off, k).norm();
        const double start = speedAtStepStart_[static_cast<std::size_t>(c)];
        if (k > 1 && start > 0.0 && speed > kTurnFraction * start &&
            timeToStop(c, q, qd, t) > minStopTime) {
            // A vector contact that only turned: slide on along its new velocity.
            state.direction = v_.segment(off, k) / speed;
            continue;
        }
        const bool stuck = decideAtRest(c, q, qd, t);
        anyStick = anyStick || stuck;
        const ContactEvent::Kind kind = stuck ? ContactEvent::Kind::Stick
                                        : state.direction.dot(before) < 0.0
                                            ? ContactEvent::Kind::Reversal
                                            : ContactEvent::Kind::Slip;
        events.push_back({t, c, kind});
    }
    return anyStick;
}

const Eigen::MatrixXd& FrictionalContacts::stickVelocityRows(const Eigen::VectorXd& q,
                                                             const Eigen::VectorXd& qd, double t)
{
    if (count_ > 0)
        slipVelocities(q, qd, t);
    for (int c = 0; c < count_; ++c) {
        const int off = slipOffset_[static_cast<std::size_t>(c)];
        const int k = slipDim_[static_cast<std::size_t>(c)];
        if (states_[static_cast<std::size_t>(c)].stuck)
            stickRows_.middleRows(off, k) = G_.middleRows(off, k);
        else
            stickRows_.middleRows(off, k).setZero();
    }
    stickRhs_.setZero();
    return stickRows_;
}

} // namespace clab
