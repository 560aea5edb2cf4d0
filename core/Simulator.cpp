#include "Simulator.h"

#include "ConstraintLabError.h"
#include "EventLocator.h"
#include "SimulationSetting.h"

#include <boost/numeric/odeint.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <memory>
#include <string>

namespace clab {

namespace {

namespace odeint = boost::numeric::odeint;

using State = std::vector<double>;
using Rhs = std::function<void(const State&, State&, double)>;

// Static friction holds while ‖F‖ ≤ μₛ‖N‖ (1 + kStickSlack): equality must hold against the
// rounding of tan θ = μₛ, and the break-away event uses the same bound, so that a contact
// never sticks and breaks away at the same instant.
constexpr double kStickSlack = 1e-12;
// Events closer together than this fraction of the time scale count as one cluster; a cluster
// of more events than kMaxEventCluster is Zeno behaviour the model cannot resolve.
constexpr double kEventClusterSpan = 1e-9;
constexpr int kMaxEventCluster = 100;
// The integrated state is projected onto the constraints (and the integrator restarted) once
// its residual exceeds this share of the step's error tolerance atol + rtol·scale.
constexpr double kDriftFraction = 0.1;
// What to try when a value overflows during a run.
constexpr const char* kOverflowHint =
    "a value overflowed: the parameters, the initial state or the time span are probably of "
    "extreme size; try values of ordinary size or a shorter t_end";
// A vector contact whose slip velocity along the step's direction reaches zero while its speed
// is still above this fraction of the step's initial speed has only turned, not stopped.
constexpr double kTurnFraction = 1e-6;

std::string atTime(double t, const std::string& what)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "at t = %.10g s: ", t);
    return buf + what;
}

[[noreturn]] void rethrowAt(double t, const ConstraintLabError& e)
{
    throw ConstraintLabError(e.kind(), atTime(t, e.what()), e.hint());
}

std::string number(double v)
{
    return ConstraintLabError::number(v);
}

// Odeint copies the system functor on every call; this keeps the copy to one pointer.
struct RhsRef {
    const Rhs* f;
    void operator()(const State& x, State& dxdt, double t) const { (*f)(x, dxdt, t); }
};

/// One accepted step at a time, so that the run loop can add post-step work (projection onto
/// the constraint manifold, event location on the dense output) and re-initialize the stepper.
class Stepper {
public:
    virtual ~Stepper() = default;
    /// Restarts from state x at time t; dt is the first trial step.
    virtual void initialize(const State& x, double t, double dt) = 0;
    /// Takes one accepted step. Fixed-step methods do not step past tStop; adaptive ones may,
    /// and are then sampled through their dense output.
    virtual void doStep(double tStop) = 0;
    virtual double previousTime() const = 0;
    virtual double currentTime() const = 0;
    /// State at previousTime() <= t <= currentTime() by the method's interpolant.
    virtual void calcState(double t, State& x) = 0;
    virtual const State& currentState() const = 0;
    /// The step size the next step would try.
    virtual double stepSize() const = 0;
};

using Dopri = odeint::runge_kutta_dopri5<State>;

/// odeint's error test, counting the trial steps it refuses (for RunStats::rejectedSteps).
class CountingErrorChecker
    : public odeint::default_error_checker<double, Dopri::algebra_type, Dopri::operations_type> {
public:
    using Base = odeint::default_error_checker<double, Dopri::algebra_type, Dopri::operations_type>;
    CountingErrorChecker(double atol, double rtol, std::size_t* rejected)
        : Base(atol, rtol), rejected_(rejected)
    {
    }
    template <class X, class D, class E, class T>
    double error(Base::algebra_type& algebra, const X& x, const D& dxdt, E& err, T dt) const
    {
        const double e = Base::error(algebra, x, dxdt, err, dt);
        if (e > 1.0)
            ++*rejected_;
        return e;
    }

private:
    std::size_t* rejected_;
};

/// Dormand–Prince 5(4) with error control and its 4th-order dense output. The step size is
/// the error control's alone: output times and events are found on the dense output.
class Dopri5Stepper final : public Stepper {
public:
    Dopri5Stepper(const Rhs& rhs, double atol, double rtol, std::size_t* rejected)
        : rhs_{&rhs}, dense_(Controlled(CountingErrorChecker(atol, rtol, rejected)))
    {
    }

    void initialize(const State& x, double t, double dt) override
    {
        dense_.initialize(x, t, dt);
        tPrev_ = t;
    }
    void doStep(double /*tStop*/) override
    {
        const auto span = dense_.do_step(rhs_);
        tPrev_ = span.first;
    }
    double previousTime() const override { return tPrev_; }
    double currentTime() const override { return dense_.current_time(); }
    void calcState(double t, State& x) override { dense_.calc_state(t, x); }
    const State& currentState() const override { return dense_.current_state(); }
    double stepSize() const override { return dense_.current_time_step(); }

private:
    using Controlled = odeint::controlled_runge_kutta<Dopri, CountingErrorChecker>;
    using Dense = odeint::dense_output_runge_kutta<Controlled>;
    RhsRef rhs_;
    Dense dense_;
    double tPrev_ = 0.0;
};

/// Classic RK4 with a fixed step; between steps a cubic Hermite interpolant on the end states
/// and derivatives (third order, enough to locate events to the step's accuracy).
class Rk4Stepper final : public Stepper {
public:
    Rk4Stepper(const Rhs& rhs, double h, std::size_t size)
        : rhs_{&rhs}, h_(h), x_(size), dxdt_(size), xPrev_(size), dxdtPrev_(size)
    {
    }

    void initialize(const State& x, double t, double /*dt*/) override
    {
        std::copy(x.begin(), x.end(), x_.begin());
        t_ = tPrev_ = t;
        rhs_(x_, dxdt_, t_);
        xPrev_ = x_;
        dxdtPrev_ = dxdt_;
    }

    void doStep(double tStop) override
    {
        double h = h_;
        // Land exactly on tStop when the step would reach it or stop just short of it.
        const bool lands = t_ + h >= tStop - 1e-6 * h_;
        if (lands)
            h = tStop - t_;
        std::swap(xPrev_, x_);
        std::swap(dxdtPrev_, dxdt_);
        tPrev_ = t_;
        stepper_.do_step(rhs_, xPrev_, dxdtPrev_, tPrev_, x_, h);
        t_ = lands ? tStop : tPrev_ + h;
        rhs_(x_, dxdt_, t_);
    }

    double previousTime() const override { return tPrev_; }
    double currentTime() const override { return t_; }

    void calcState(double t, State& x) override
    {
        const double h = t_ - tPrev_;
        if (h <= 0.0) {
            x = x_;
            return;
        }
        const double s = (t - tPrev_) / h;
        const double s2 = s * s, s3 = s2 * s;
        const double h00 = 2 * s3 - 3 * s2 + 1, h10 = s3 - 2 * s2 + s;
        const double h01 = -2 * s3 + 3 * s2, h11 = s3 - s2;
        x.resize(x_.size());
        for (std::size_t i = 0; i < x_.size(); ++i)
            x[i] = h00 * xPrev_[i] + h10 * h * dxdtPrev_[i] + h01 * x_[i] + h11 * h * dxdt_[i];
    }

    const State& currentState() const override { return x_; }
    double stepSize() const override { return h_; }

private:
    RhsRef rhs_;
    double h_;
    odeint::runge_kutta4<State> stepper_;
    State x_, dxdt_, xPrev_, dxdtPrev_;
    double t_ = 0.0, tPrev_ = 0.0;
};

void validate(const SimulationOptions& o, double t0)
{
    auto fail = [](const std::string& what) {
        throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter,
                                 "simulation options: " + what);
    };
    if (!std::isfinite(t0))
        fail("the system's initial time is not finite");
    if (const auto problem = SimulationSetting::check(o, t0))
        fail(problem->key + " " + problem->reason);
}

// t0, t0 + dt, ... and tEnd last; a grid point within 1e-9 dt of tEnd is replaced by tEnd so
// that the last interval is never a sliver. Computed per index: a long run keeps no list.
class OutputGrid {
public:
    OutputGrid(double t0, double tEnd, double dt)
        : t0_(t0), tEnd_(tEnd), dt_(dt),
          count_(static_cast<std::size_t>(SimulationOptions::outputIntervals(t0, tEnd, dt)) + 1)
    {
    }
    std::size_t size() const { return count_; }
    double operator[](std::size_t k) const
    {
        return k + 1 == count_ ? tEnd_ : t0_ + static_cast<double>(k) * dt_;
    }

private:
    double t0_, tEnd_, dt_;
    std::size_t count_;
};

// The first quantity of a sample that is not finite (in CSV column order), or null.
const char* nonFiniteQuantity(const TraceSample& s)
{
    const std::pair<const Eigen::VectorXd*, const char*> vectors[] = {
        {&s.q, "a coordinate"},
        {&s.qd, "a velocity"},
        {&s.qdd, "an acceleration"},
        {&s.Q, "the given force Q"},
        {&s.Qci, "the ideal constraint force Qci"},
        {&s.Qcni, "the non-ideal constraint force Qcni"}};
    for (const auto& [v, name] : vectors)
        if (!v->allFinite())
            return name;
    const std::pair<double, const char*> scalars[] = {
        {s.T, "the kinetic energy T"},
        {s.V, "the potential energy V"},
        {s.E, "the energy E"},
        {s.W_nonideal, "the work W_nonideal"},
        {s.residualMax, "the constraint residual"},
        {s.E_error, "the energy audit E_error"},
        {s.W_ideal, "the work W_ideal"},
        {s.W_given_nc, "the work of the given non-conservative forces"}};
    for (const auto& [v, name] : scalars)
        if (!std::isfinite(v))
            return name;
    if (!s.extra.allFinite())
        return "a scene-specific column";
    return nullptr;
}

bool stickHolds(double force, double limit)
{
    return force <= limit + kStickSlack * std::max(limit, force);
}

// Restores the simulator's stabilization setting when run() ends, however it ends, so that
// evaluate() outside a run reports forces without Baumgarte terms.
class StabilizationScope {
public:
    StabilizationScope(Stabilization& target, Stabilization value) : target_(target)
    {
        target_ = value;
    }
    ~StabilizationScope() { target_ = Stabilization::None; }
    StabilizationScope(const StabilizationScope&) = delete;
    StabilizationScope& operator=(const StabilizationScope&) = delete;

private:
    Stabilization& target_;
};

bool takesSparsePath(const MechanicalSystem& system, Simulator::SolvePath path)
{
    const bool possible = !system.massMatrixIsSingular() && system.contactCount() == 0;
    switch (path) {
    case Simulator::SolvePath::Dense:
        return false;
    case Simulator::SolvePath::Sparse:
        if (!possible)
            throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter,
                                     "Simulator: the sparse path needs a positive definite mass "
                                     "matrix and no stick–slip contacts");
        return true;
    case Simulator::SolvePath::Automatic:
        break;
    }
    return possible && system.providesSparseMatrices() &&
           SparseFundamentalEquation::pays(system.dof());
}

} // namespace

Simulator::Simulator(const MechanicalSystem& system, SolvePath path)
    : system_(system), sparse_(takesSparsePath(system, path)),
      equation_(sparse_ ? 1 : system.dof(), sparse_ ? 0 : system.constraintCount())
{
    const int n = system.dof();
    const int m = system.constraintCount();
    if (n <= 0 || m < 0)
        throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter,
                                 "Simulator: the system has " + std::to_string(n) +
                                     " coordinates and " + std::to_string(m) + " constraints");
    // The sparse path keeps no dense n×n or m×n matrix (n may be 20 000).
    const int denseN = sparse_ ? 0 : n;
    if (sparse_)
        sparseEquation_ = std::make_unique<SparseFundamentalEquation>(n, m);
    M_.setZero(denseN, denseN);
    A_.setZero(sparse_ ? 0 : m, denseN);
    Q_.setZero(n);
    b_.setZero(m);
    C_.setZero(n);
    q_.setZero(n);
    qd_.setZero(n);
    acc_.resize(n, m);
    xOut_.assign(static_cast<std::size_t>(stateSize()), 0.0);
    xWork_.assign(static_cast<std::size_t>(stateSize()), 0.0);
    rheonomic_ = system.constraintsAreRheonomic();
    // A singular M has no Cholesky factor: go straight to the auxiliary system (docs/MATH.md §4).
    equation_.setSingularMass(system.massMatrixIsSingular());

    const int h = system.holonomicCount();
    if (h < 0 || h > m)
        throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter,
                                 "Simulator: the system declares " + std::to_string(h) +
                                     " holonomic constraints out of " + std::to_string(m));
    J_.setZero(sparse_ ? 0 : h, denseN);
    phi_.setZero(h);
    Av_.setZero(sparse_ ? 0 : m, denseN);
    bv_.setZero(m);
    rv_.setZero(m);

    contactCount_ = system.contactCount();
    if (contactCount_ < 0)
        throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter,
                                 "Simulator: the system declares a negative number of contacts");
    if (contactCount_ > 0 && !system.providesConstraintFunctions())
        throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter,
                                 "Simulator: a system with frictional contacts must provide its "
                                 "constraint functions (positionConstraints, "
                                 "velocityConstraints), which stick events need");
    for (int c = 0; c < contactCount_; ++c) {
        const int k = system.slipDimension(c);
        if (k < 1 || k > n)
            throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter,
                                     "Simulator: contact " + system.contactName(c) +
                                         " has slip dimension " + std::to_string(k) +
                                         ", expected 1 to " + std::to_string(n));
        slipOffset_.push_back(slipRows_);
        slipDim_.push_back(k);
        slipRows_ += k;
        ContactState state;
        state.direction.setZero(k);
        state.direction[0] = 1.0;
        contacts_.push_back(state);
    }
    speedAtStepStart_.assign(static_cast<std::size_t>(contactCount_), 0.0);
    stuckRankModes_.reserve(static_cast<std::size_t>(contactCount_));
    G_.setZero(slipRows_, n);
    gamma_.setZero(slipRows_);
    v_.setZero(slipRows_);
    w_.setZero(slipRows_);
    f_.setZero(slipRows_);
    if (contactCount_ > 0) {
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
    residual_.setZero(system.residualCount());
    sampleResidual_.setZero(system.residualCount());
    sampleQ_.setZero(n);
    sampleq_.setZero(n);
    sampleqd_.setZero(n);
    sampleAcc_.resize(n, m);
    if (system.providesConstraintFunctions())
        projection_ = std::make_unique<ManifoldProjection>(system, slipRows_, sparse_);
}

Simulator::~Simulator() = default;

void Simulator::slipVelocities(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t)
{
    for (int c = 0; c < contactCount_; ++c) {
        const int off = slipOffset_[static_cast<std::size_t>(c)];
        const int k = slipDim_[static_cast<std::size_t>(c)];
        system_.slipJacobian(c, q, qd, t, G_.middleRows(off, k), gamma_.segment(off, k));
    }
    if (contactCount_ > 0)
        v_.noalias() = G_ * qd;
}

void Simulator::addBaumgarteTerms(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t)
{
    const int m = system_.constraintCount();
    if (stabilization_ != Stabilization::Baumgarte || m == 0)
        return;
    // b ← b − 2α φ̇ − β² φ (holonomic rows), b ← b − α ψ (nonholonomic rows).
    const int h = system_.holonomicCount();
    if (sparse_) {
        system_.sparseVelocityConstraints(q, t, sparseAv_, bv_);
        rv_.noalias() = sparseAv_ * qd;
    } else {
        system_.velocityConstraints(q, t, Av_, bv_);
        rv_.noalias() = Av_ * qd;
    }
    rv_ -= bv_;
    if (h > 0) {
        if (sparse_)
            system_.sparsePositionConstraints(q, t, phi_, sparseJ_);
        else
            system_.positionConstraints(q, t, phi_, J_);
        b_.head(h) -= 2.0 * alpha_ * rv_.head(h) + beta_ * beta_ * phi_;
    }
    b_.tail(m - h) -= alpha_ * rv_.tail(m - h);
}

void Simulator::evaluateSparse(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                               Eigen::VectorXd& Q, ConstrainedAcceleration& out)
{
    system_.sparseMassMatrix(q, t, sparseM_);
    system_.givenForce(q, qd, t, Q);
    system_.sparseConstraintMatrix(q, qd, t, sparseA_, b_);
    addBaumgarteTerms(q, qd, t);
    sparseEquation_->solveIdeal(sparseM_, Q, sparseA_, b_, out);
    system_.nonIdealForce(q, qd, t, out.Qci, C_);
    if (!C_.allFinite())
        throw ConstraintLabError(ConstraintLabError::Kind::NonFinite,
                                 "the non-ideal force C is not finite", kOverflowHint);
    sparseEquation_->addNonIdeal(C_, out);
}

void Simulator::evaluateInModes(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                                Eigen::VectorXd& Q, ConstrainedAcceleration& out)
{
    if (sparse_) {
        evaluateSparse(q, qd, t, Q, out);
        return;
    }
    const int n = system_.dof();
    const int m = system_.constraintCount();
    system_.massMatrix(q, t, M_);
    system_.givenForce(q, qd, t, Q);
    system_.constraintMatrix(q, qd, t, A_, b_);
    addBaumgarteTerms(q, qd, t);
    equation_.solveIdeal(M_, Q, A_, b_, out);

    if (contactCount_ == 0) {
        // Coulomb-type C needs the normal force, so it is evaluated after the ideal phase.
        system_.nonIdealForce(q, qd, t, out.Qci, C_);
        if (!C_.allFinite())
            throw ConstraintLabError(ConstraintLabError::Kind::NonFinite,
                                     "the non-ideal force C is not finite", kOverflowHint);
        equation_.addNonIdeal(C_, out);
    } else {
        // Kinetic friction of the sliding contacts against the step's slip direction.
        slipVelocities(q, qd, t);
        C_.setZero();
        bool anyStuck = false;
        for (int c = 0; c < contactCount_; ++c) {
            const ContactState& state = contacts_[static_cast<std::size_t>(c)];
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
            const double force = system_.kineticFrictionForce(c, q, qd, t, out.Qci);
            if (!std::isfinite(force) || force < 0.0)
                throw ConstraintLabError(ConstraintLabError::Kind::NonFinite,
                                         "the kinetic friction force of contact " +
                                             system_.contactName(c) + " is " + number(force),
                                         kOverflowHint);
            C_.noalias() -= force * (G_.middleRows(off, k).transpose() * w);
        }
        if (!anyStuck) {
            stuckRankModes_.clear(); // the next stuck interval decides afresh
            equation_.addNonIdeal(C_, out);
            Fstick_.setZero();
        } else {
            // Stuck contacts are ideal constraints G q̈ = −γ appended to A (zero rows for the
            // sliding ones); the force of those rows is static friction.
            Aext_.topRows(m) = A_;
            bext_.head(m) = b_;
            for (int c = 0; c < contactCount_; ++c) {
                const int off = slipOffset_[static_cast<std::size_t>(c)];
                const int k = slipDim_[static_cast<std::size_t>(c)];
                if (contacts_[static_cast<std::size_t>(c)].stuck) {
                    Aext_.middleRows(m + off, k) = G_.middleRows(off, k);
                    bext_.segment(m + off, k) = -gamma_.segment(off, k);
                    if (stabilization_ == Stabilization::Baumgarte)
                        bext_.segment(m + off, k) -= alpha_ * v_.segment(off, k);
                } else {
                    Aext_.middleRows(m + off, k).setZero();
                    bext_.segment(m + off, k).setZero();
                }
            }
            if (stuckRankFull(n)) {
                // The constraints with the stick rows leave no motion free: they alone determine
                // q̈ (M does not enter), and the force is what it takes, M q̈ − Q. Solved from
                // the normal equations, a right-hand side of zero gives q̈ = 0 exactly, so a
                // body held by static friction stays exactly put rather than up to rounding.
                ext_.qdd.noalias() = Aext_.transpose() * bext_;
                restLlt_.solveInPlace(ext_.qdd);
                ext_.Qci.noalias() = M_ * ext_.qdd;
                ext_.Qci -= Q;
                ext_.Qcni.setZero(); // kinetic friction has no free direction to act along
            } else {
                stuckEquation_->solveIdeal(M_, Q, Aext_, bext_, ext_);
                stuckEquation_->addNonIdeal(C_, ext_);
            }
            Fstick_ = ext_.Qci - out.Qci;
            out.qdd = ext_.qdd;
            out.Qcni = Fstick_ + ext_.Qcni;
        }
    }
    if (!out.qdd.allFinite() || !out.Qci.allFinite() || !out.Qcni.allFinite())
        throw ConstraintLabError(ConstraintLabError::Kind::NonFinite,
                                 "the fundamental equation gave a non-finite q̈ or force",
                                 kOverflowHint);
}

bool Simulator::stuckRankFull(int n)
{
    // Aext depends on q, so its QR cannot be kept; what stays is the decision it is made for.
    // Both branches give the same q̈ while Aext has rank n (the normal equations only make a zero
    // right-hand side give exactly q̈ = 0), so the decision is taken once per set of stuck
    // contacts and kept until the modes change. A rank that falls meanwhile shows in the
    // Cholesky factor of AᵀA that the full-rank branch needs anyway, and is decided afresh.
    bool same = !stuckRankModes_.empty();
    for (int c = 0; c < contactCount_ && same; ++c)
        same = stuckRankModes_[static_cast<std::size_t>(c)] ==
               static_cast<char>(contacts_[static_cast<std::size_t>(c)].stuck);
    if (same && !stuckRankFull_)
        return false;
    if (same && factorNormalEquations())
        return true;
    extRank_.compute(Aext_);
    stuckRankFull_ = extRank_.rank() == n;
    stuckRankModes_.resize(static_cast<std::size_t>(contactCount_));
    for (int c = 0; c < contactCount_; ++c)
        stuckRankModes_[static_cast<std::size_t>(c)] =
            static_cast<char>(contacts_[static_cast<std::size_t>(c)].stuck);
    if (stuckRankFull_)
        factorNormalEquations(); // the QR has decided; the factor is what the branch needs
    return stuckRankFull_;
}

bool Simulator::factorNormalEquations()
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

double Simulator::stickForce(int c) const
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

bool Simulator::decideAtRest(int c, const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t)
{
    ContactState& state = contacts_[static_cast<std::size_t>(c)];
    state.stuck = true;
    evaluateInModes(q, qd, t, Q_, acc_);
    const double force = stickForce(c);
    const double limit = system_.stickForceLimit(c, q, qd, t, acc_.Qci);
    if (!std::isfinite(limit) || limit < 0.0)
        throw ConstraintLabError(ConstraintLabError::Kind::NonFinite,
                                 "the static friction limit of contact " + system_.contactName(c) +
                                     " is " + number(limit),
                                 kOverflowHint);
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

void Simulator::setModesFromState(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t)
{
    if (contactCount_ == 0)
        return;
    stuckRankModes_.clear(); // a state of its own: the rank is decided there
    for (ContactState& state : contacts_)
        state.stuck = false;
    slipVelocities(q, qd, t);
    for (int c = 0; c < contactCount_; ++c) {
        const int off = slipOffset_[static_cast<std::size_t>(c)];
        const int k = slipDim_[static_cast<std::size_t>(c)];
        const double speed = v_.segment(off, k).norm();
        if (speed > 0.0)
            contacts_[static_cast<std::size_t>(c)].direction = v_.segment(off, k) / speed;
    }
    for (int c = 0; c < contactCount_; ++c) {
        const int off = slipOffset_[static_cast<std::size_t>(c)];
        const int k = slipDim_[static_cast<std::size_t>(c)];
        slipVelocities(q, qd, t);
        if (v_.segment(off, k).norm() == 0.0)
            decideAtRest(c, q, qd, t);
    }
}

double Simulator::timeToStop(int c, const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t)
{
    const int off = slipOffset_[static_cast<std::size_t>(c)];
    const int k = slipDim_[static_cast<std::size_t>(c)];
    slipVelocities(q, qd, t);
    const double speed = v_.segment(off, k).norm();
    if (speed == 0.0)
        return 0.0;
    ContactState& state = contacts_[static_cast<std::size_t>(c)];
    const Eigen::VectorXd direction = state.direction;
    state.direction = v_.segment(off, k) / speed;
    evaluateInModes(q, qd, t, Q_, acc_);
    state.direction = direction;
    // d/dt (G q̇) = G q̈ + γ; its size bounds how fast the slip speed can fall.
    const double rate = (G_.middleRows(off, k) * acc_.qdd + gamma_.segment(off, k)).norm();
    slipVelocities(q, qd, t);
    return rate > 0.0 ? speed / rate : std::numeric_limits<double>::infinity();
}

void Simulator::updateSlipDirections(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t)
{
    if (contactCount_ == 0)
        return;
    slipVelocities(q, qd, t);
    for (int c = 0; c < contactCount_; ++c) {
        const int off = slipOffset_[static_cast<std::size_t>(c)];
        const int k = slipDim_[static_cast<std::size_t>(c)];
        const double speed = v_.segment(off, k).norm();
        ContactState& state = contacts_[static_cast<std::size_t>(c)];
        speedAtStepStart_[static_cast<std::size_t>(c)] = speed;
        if (!state.stuck && speed > 0.0 && state.direction.dot(v_.segment(off, k)) > 0.0)
            state.direction = v_.segment(off, k) / speed;
    }
}

double Simulator::eventFunction(int c, const State& x, double t)
{
    const Eigen::Index n = system_.dof();
    const Eigen::Map<const Eigen::VectorXd> xs(x.data(), static_cast<Eigen::Index>(x.size()));
    q_ = xs.segment(0, n);
    qd_ = xs.segment(n, n);
    const ContactState& state = contacts_[static_cast<std::size_t>(c)];
    if (state.stuck) {
        evaluateInModes(q_, qd_, t, Q_, acc_);
        const double force = stickForce(c);
        const double limit = system_.stickForceLimit(c, q_, qd_, t, acc_.Qci);
        return limit + kStickSlack * std::max(limit, force) - force;
    }
    const int off = slipOffset_[static_cast<std::size_t>(c)];
    const int k = slipDim_[static_cast<std::size_t>(c)];
    system_.slipJacobian(c, q_, qd_, t, G_.middleRows(off, k), gamma_.segment(off, k));
    double along = 0.0;
    for (int i = 0; i < k; ++i)
        along += state.direction[i] * G_.row(off + i).dot(qd_);
    return along;
}

bool Simulator::crossed(int c, double g) const
{
    // A sliding contact has stopped when its slip velocity along the step's direction is no
    // longer positive; a stuck one breaks away when the force exceeds the limit.
    return contacts_[static_cast<std::size_t>(c)].stuck ? g < 0.0 : g <= 0.0;
}

bool Simulator::driftExceeds(const State& x, double t)
{
    if (residual_.size() == 0 || stabilization_ != Stabilization::Projection)
        return false;
    const Eigen::Index n = system_.dof();
    const Eigen::Map<const Eigen::VectorXd> xs(x.data(), static_cast<Eigen::Index>(x.size()));
    q_ = xs.segment(0, n);
    qd_ = xs.segment(n, n);
    system_.constraintResiduals(q_, qd_, t, residual_);
    const double scale =
        1.0 + std::max(q_.lpNorm<Eigen::Infinity>(), qd_.lpNorm<Eigen::Infinity>());
    return !(residual_.lpNorm<Eigen::Infinity>() <= kDriftFraction * (atol_ + rtol_ * scale));
}

void Simulator::derivative(const State& x, State& dxdt, double t)
{
    ++rhsEvaluations_;
    const Eigen::Index n = system_.dof();
    const Eigen::Map<const Eigen::VectorXd> xs(x.data(), static_cast<Eigen::Index>(x.size()));
    if (!xs.allFinite() || !std::isfinite(t))
        throw ConstraintLabError(ConstraintLabError::Kind::NonFinite,
                                 atTime(t, "the state (q, q̇ or a work integral) is not finite"),
                                 kOverflowHint);
    q_ = xs.segment(0, n);
    qd_ = xs.segment(n, n);
    try {
        evaluateInModes(q_, qd_, t, Q_, acc_);
    } catch (const ConstraintLabError& e) {
        rethrowAt(t, e);
    }
    const double pNonIdeal = acc_.Qcni.dot(qd_);
    // Ideal forces of scleronomic constraints do no work on the actual motion (q̇ is a virtual
    // displacement); computed, the power is rounding noise, which in the integrated state would
    // only make the step-size control take tiny steps at small absolute tolerances.
    const double pIdeal = rheonomic_ ? acc_.Qci.dot(qd_) : 0.0;
    const double pGiven = system_.nonConservativePower(q_, qd_, t);
    if (!std::isfinite(pGiven))
        throw ConstraintLabError(ConstraintLabError::Kind::NonFinite,
                                 atTime(t, "the power of the non-conservative given forces is "
                                           "not finite"),
                                 kOverflowHint);

    Eigen::Map<Eigen::VectorXd> d(dxdt.data(), static_cast<Eigen::Index>(dxdt.size()));
    d.segment(0, n) = qd_;
    d.segment(n, n) = acc_.qdd;
    d[2 * n] = pNonIdeal;
    d[2 * n + 1] = pIdeal;
    d[2 * n + 2] = pGiven;
}

void Simulator::evaluate(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                         Eigen::VectorXd& Q, ConstrainedAcceleration& out)
{
    const int n = system_.dof();
    const int m = system_.constraintCount();
    if (q.size() != n || qd.size() != n)
        throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter,
                                 "Simulator::evaluate: q and q̇ must have " + std::to_string(n) +
                                     " components");
    // No-ops once sized: the right-hand side passes preallocated members.
    if (Q.size() != n)
        Q.setZero(n);
    if (out.qdd.size() != n || out.Qci.size() != n || out.Qcni.size() != n ||
        out.lambda.size() != m)
        out.resize(n, m);
    setModesFromState(q, qd, t);
    evaluateInModes(q, qd, t, Q, out);
}

void Simulator::sampleInModes(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                              TraceSample& out)
{
    // The sample's own workspace (not the right-hand side's, which a step may be using), sized
    // once: a streamed run allocates nothing per sample.
    evaluateInModes(q, qd, t, sampleQ_, sampleAcc_);
    out.t = t;
    out.q = q;
    out.qd = qd;
    out.qdd = sampleAcc_.qdd;
    out.Q = sampleQ_;
    out.Qci = sampleAcc_.Qci;
    out.Qcni = sampleAcc_.Qcni;
    out.T = system_.kineticEnergy(q, qd, t);
    out.V = system_.potentialEnergy(q, t);
    out.E = out.T + out.V;
    out.W_nonideal = out.W_ideal = out.W_given_nc = 0.0;
    out.E_error = 0.0;
    system_.constraintResiduals(q, qd, t, sampleResidual_);
    out.residualMax = sampleResidual_.size() > 0 ? sampleResidual_.lpNorm<Eigen::Infinity>() : 0.0;
    out.contacts.resize(contactCount_);
    for (int c = 0; c < contactCount_; ++c)
        out.contacts[c] = contacts_[static_cast<std::size_t>(c)].stuck ? 0.0 : 1.0;
    system_.extraColumns(q, qd, t, out.extra);
}

void Simulator::sample(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                       TraceSample& out)
{
    const int n = system_.dof();
    if (q.size() != n || qd.size() != n)
        throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter,
                                 "Simulator::sample: q and q̇ must have " + std::to_string(n) +
                                     " components");
    setModesFromState(q, qd, t);
    sampleInModes(q, qd, t, out);
}

void Simulator::sampleState(const State& x, double t, TraceSample& out)
{
    const Eigen::Index n = system_.dof();
    const Eigen::Map<const Eigen::VectorXd> xs(x.data(), static_cast<Eigen::Index>(x.size()));
    try {
        // Copies into the workspace: passing segments would make temporaries.
        sampleq_ = xs.segment(0, n);
        sampleqd_ = xs.segment(n, n);
        sampleInModes(sampleq_, sampleqd_, t, out);
    } catch (const ConstraintLabError& e) {
        rethrowAt(t, e);
    }
    const auto w = static_cast<std::size_t>(2 * n); // the works follow q and q̇
    out.W_nonideal = x[w];
    out.W_ideal = x[w + 1];
    out.W_given_nc = x[w + 2];
    out.E_error = out.E - E0_ - out.W_nonideal - out.W_given_nc - out.W_ideal;
    if (const char* what = nonFiniteQuantity(out))
        throw ConstraintLabError(ConstraintLabError::Kind::NonFinite,
                                 atTime(t, std::string(what) + " is not finite"), kOverflowHint);
}

bool Simulator::stabilize(State& x, double t, bool stickEvent)
{
    const bool project = stabilization_ == Stabilization::Projection;
    if (!projection_ || (!project && !stickEvent))
        return false;
    const Eigen::Index n = system_.dof();
    Eigen::Map<Eigen::VectorXd> xs(x.data(), static_cast<Eigen::Index>(x.size()));
    q_ = xs.segment(0, n);
    qd_ = xs.segment(n, n);
    bool changed = false;
    if (project)
        changed = projection_->projectPositions(q_, t);
    // Stuck contacts keep their slip velocity at exactly zero: extra velocity rows G q̇ = 0.
    if (contactCount_ > 0)
        slipVelocities(q_, qd_, t);
    for (int c = 0; c < contactCount_; ++c) {
        const int off = slipOffset_[static_cast<std::size_t>(c)];
        const int k = slipDim_[static_cast<std::size_t>(c)];
        if (contacts_[static_cast<std::size_t>(c)].stuck)
            stickRows_.middleRows(off, k) = G_.middleRows(off, k);
        else
            stickRows_.middleRows(off, k).setZero();
    }
    stickRhs_.setZero();
    changed = projection_->projectVelocities(q_, qd_, t, stickRows_, stickRhs_, project) || changed;
    if (changed) {
        xs.segment(0, n) = q_;
        xs.segment(n, n) = qd_;
    }
    return changed;
}

Trace Simulator::run(const SimulationOptions& options, const SampleSink& sink,
                     const RunControl& control)
{
    const int n = system_.dof();
    const double t0 = system_.initialTime();
    validate(options, t0);
    if (options.stabilization != Stabilization::None && system_.constraintCount() > 0 &&
        !system_.providesConstraintFunctions())
        throw ConstraintLabError(
            ConstraintLabError::Kind::InvalidParameter,
            std::string("simulation options: stabilization '") +
                (options.stabilization == Stabilization::Projection ? "projection" : "baumgarte") +
                "' needs the constraint functions φ(q, t) and the velocity "
                "constraints, which this system does not provide; use "
                "stabilization 'none'");
    const StabilizationScope scope(stabilization_, options.stabilization);
    const auto started = std::chrono::steady_clock::now();
    rhsEvaluations_ = 0;
    atol_ = options.atol;
    rtol_ = options.rtol;
    alpha_ = options.baumgarteAlpha;
    beta_ = options.baumgarteBeta;

    Eigen::VectorXd q0(n), qd0(n);
    system_.initialState(q0, qd0);
    if (q0.size() != n || qd0.size() != n)
        throw ConstraintLabError(ConstraintLabError::Kind::InvalidInitialState,
                                 "the initial state does not have " + std::to_string(n) +
                                     " coordinates");
    if (!q0.allFinite() || !qd0.allFinite())
        throw ConstraintLabError(ConstraintLabError::Kind::NonFinite,
                                 atTime(t0, "the initial state is not finite"), kOverflowHint);

    State x0(static_cast<std::size_t>(stateSize()), 0.0);
    Eigen::Map<Eigen::VectorXd>(x0.data(), n) = q0;
    Eigen::Map<Eigen::VectorXd>(x0.data() + n, n) = qd0;

    const OutputGrid times(t0, options.tEnd, options.dt);
    const double stepBudget = options.stepLimit(t0);
    const double span = options.tEnd - t0;
    Trace trace = emptyTrace(system_);
    if (!sink)
        trace.samples.reserve(times.size());
    // A sample goes to the trace, or through one reused slot to the sink (flat memory).
    TraceSample streamed;
    const auto emit = [&](const State& x, double t) {
        TraceSample& slot = sink ? streamed : trace.samples.emplace_back();
        sampleState(x, t, slot);
        if (sink)
            sink(slot);
    };

    // Initial contact modes; a contact at rest sticks or starts to slip at t0.
    try {
        for (ContactState& state : contacts_)
            state.stuck = false;
        setModesFromState(q0, qd0, t0);
        slipVelocities(q0, qd0, t0);
        bool anyStuck = false;
        for (int c = 0; c < contactCount_; ++c) {
            const int off = slipOffset_[static_cast<std::size_t>(c)];
            const int k = slipDim_[static_cast<std::size_t>(c)];
            if (v_.segment(off, k).norm() > 0.0)
                continue;
            const bool stuck = contacts_[static_cast<std::size_t>(c)].stuck;
            anyStuck = anyStuck || stuck;
            trace.events.push_back(
                {t0, c, stuck ? ContactEvent::Kind::Stick : ContactEvent::Kind::Slip});
        }
        if (anyStuck)
            stabilize(x0, t0, true);
        const Eigen::Map<const Eigen::VectorXd> xs(x0.data(), static_cast<Eigen::Index>(n * 2));
        updateSlipDirections(xs.segment(0, n), xs.segment(n, n), t0);
    } catch (const ConstraintLabError& e) {
        rethrowAt(t0, e);
    }

    const Rhs rhs = [this](const State& x, State& dxdt, double t) {
        derivative(x, dxdt, t);
    };
    std::unique_ptr<Stepper> stepper;
    if (options.integrator == IntegratorKind::Rk4)
        stepper = std::make_unique<Rk4Stepper>(rhs, options.dt, x0.size());
    else
        stepper = std::make_unique<Dopri5Stepper>(rhs, options.atol, options.rtol,
                                                  &trace.stats.rejectedSteps);

    stepper->initialize(x0, t0, std::min(options.dt, span));
    // E(0) is taken from the first sample before it is emitted, so that its audit reads 0.
    {
        TraceSample first;
        E0_ = 0.0;
        sampleState(x0, t0, first);
        E0_ = first.E;
    }
    emit(x0, t0);

    // The end of the track: its function at an integrated state (vectors allocated once).
    const bool watchEnd = options.stopAtEnd && system_.hasEnd();
    trace.stopAtEnd = watchEnd;
    Eigen::VectorXd endq(n), endqd(n);
    const auto endValue = [&](const State& x, double t) {
        endq = Eigen::Map<const Eigen::VectorXd>(x.data(), n);
        endqd = Eigen::Map<const Eigen::VectorXd>(x.data() + n, n);
        return system_.endFunction(endq, endqd, t);
    };

    std::size_t next = 1;
    std::size_t steps = 0;
    double clusterStart = -std::numeric_limits<double>::infinity();
    int clusterSize = 0;
    while (next < times.size()) {
        const double tBefore = stepper->currentTime();
        if (++steps > stepBudget)
            throw ConstraintLabError(
                ConstraintLabError::Kind::IntegrationFailure,
                atTime(tBefore, "more than " + number(stepBudget) + " integrator steps"),
                "the motion is too fast or too stiff for this tolerance over this time span; "
                "try a shorter t_end or a larger rtol");
        try {
            stepper->doStep(times[next]);
            ++trace.stats.acceptedSteps;
        } catch (const odeint::odeint_error& e) {
            throw ConstraintLabError(
                ConstraintLabError::Kind::IntegrationFailure,
                atTime(tBefore, std::string("the step size control failed (") + e.what() + ")"),
                "the tolerance cannot be met here; try a larger rtol or atol");
        }

        const double tPrev = stepper->previousTime();
        const double tCur = stepper->currentTime();
        const double scale = std::max({std::abs(tCur), span, 1.0});
        if (!(tCur - tPrev >= 1e-14 * scale))
            throw ConstraintLabError(
                ConstraintLabError::Kind::IntegrationFailure,
                atTime(tPrev, "the step size fell to " + number(tCur - tPrev) +
                                  " s, below 1e-14 of the time scale"),
                "the motion became singular or too stiff here (e.g. a body reaching a point the "
                "constraints cannot pass); try a larger rtol, or check the parameters");
        {
            const State& x = stepper->currentState();
            if (!std::all_of(x.begin(), x.end(), [](double v) { return std::isfinite(v); }))
                throw ConstraintLabError(ConstraintLabError::Kind::NonFinite,
                                         atTime(tCur, "the state is not finite after a step"),
                                         kOverflowHint);
        }

        // Contact events inside the step: the earliest one is located on the dense output.
        double tEvent = tCur;
        bool event = false;
        try {
            for (int c = 0; c < contactCount_; ++c) {
                const double gb = eventFunction(c, stepper->currentState(), tCur);
                if (!crossed(c, gb))
                    continue;
                stepper->calcState(tPrev, xOut_);
                const double ga = eventFunction(c, xOut_, tPrev);
                const double tc = EventLocator::locate(
                    [&](double t) {
                        stepper->calcState(t, xOut_);
                        return eventFunction(c, xOut_, t);
                    },
                    [&](double g) { return crossed(c, g); }, tPrev, ga, tCur, gb,
                    EventLocator::tolerance(tPrev, tCur));
                if (!event || tc < tEvent) {
                    tEvent = tc;
                    event = true;
                }
            }
        } catch (const ConstraintLabError& e) {
            rethrowAt(tCur, e);
        }

        // The end of the track inside the step ends the run there, unless a contact event
        // comes first (the contact's mode then changes, and the next step looks again).
        double tStop = tCur;
        bool stop = false;
        if (watchEnd) {
            try {
                const double gb = endValue(stepper->currentState(), tCur);
                if (gb <= 0.0) {
                    stepper->calcState(tPrev, xOut_);
                    const double ga = endValue(xOut_, tPrev);
                    if (ga > 0.0) {
                        tStop = EventLocator::locate(
                            [&](double t) {
                                stepper->calcState(t, xOut_);
                                return endValue(xOut_, t);
                            },
                            [](double g) { return g <= 0.0; }, tPrev, ga, tCur, gb,
                            EventLocator::tolerance(tPrev, tCur));
                        stop = !event || tStop < tEvent;
                        if (stop)
                            tEvent = tStop;
                    }
                }
            } catch (const ConstraintLabError& e) {
                rethrowAt(tCur, e);
            }
        }

        // Output samples inside the step (before the event), from the method's interpolant.
        while (next < times.size() && times[next] < tEvent) {
            stepper->calcState(times[next], xOut_);
            // The interpolant is not on the manifold: what is shown is projected like the
            // step's end (the integration itself goes on from the step's end).
            try {
                stabilize(xOut_, times[next], false);
            } catch (const ConstraintLabError& e) {
                rethrowAt(times[next], e);
            }
            emit(xOut_, times[next]);
            ++next;
        }

        if (stop) {
            // The last sample is the end itself, projected like every shown state.
            stepper->calcState(tStop, xWork_);
            try {
                stabilize(xWork_, tStop, false);
            } catch (const ConstraintLabError& e) {
                rethrowAt(tStop, e);
            }
            emit(xWork_, tStop);
            trace.reachedEnd = true;
            break;
        }
        if (event) {
            if (tEvent - clusterStart <= kEventClusterSpan * scale) {
                if (++clusterSize > kMaxEventCluster)
                    throw ConstraintLabError(
                        ConstraintLabError::Kind::IntegrationFailure,
                        atTime(tEvent, "more than " + std::to_string(kMaxEventCluster) +
                                           " stick–slip events within " +
                                           number(kEventClusterSpan * scale) +
                                           " s: the contacts chatter (Zeno behaviour)"),
                        "the contacts switch between sticking and sliding faster than the model "
                        "can resolve; try other friction coefficients (mu_s further above mu)");
            } else {
                clusterStart = tEvent;
                clusterSize = 1;
            }
            stepper->calcState(tEvent, xWork_);
            bool anyStick = false;
            try {
                const Eigen::Map<const Eigen::VectorXd> xs(xWork_.data(),
                                                           static_cast<Eigen::Index>(2 * n));
                const Eigen::VectorXd qe = xs.segment(0, n), qde = xs.segment(n, n);
                // Every contact whose event has happened at tEvent changes mode now.
                std::vector<int> changing;
                for (int c = 0; c < contactCount_; ++c)
                    if (crossed(c, eventFunction(c, xWork_, tEvent)))
                        changing.push_back(c);
                slipVelocities(qe, qde, tEvent);
                for (int c : changing) {
                    ContactState& state = contacts_[static_cast<std::size_t>(c)];
                    const int off = slipOffset_[static_cast<std::size_t>(c)];
                    const int k = slipDim_[static_cast<std::size_t>(c)];
                    const Eigen::VectorXd before = state.direction;
                    if (state.stuck) {
                        decideAtRest(c, qe, qde, tEvent); // the force exceeds the limit: slips
                        state.stuck = false;
                        trace.events.push_back({tEvent, c, ContactEvent::Kind::Slip});
                        continue;
                    }
                    slipVelocities(qe, qde, tEvent);
                    const double speed = v_.segment(off, k).norm();
                    const double start = speedAtStepStart_[static_cast<std::size_t>(c)];
                    if (k > 1 && start > 0.0 && speed > kTurnFraction * start &&
                        timeToStop(c, qe, qde, tEvent) > kEventClusterSpan * scale) {
                        // A vector contact that only turned: slide on along its new velocity.
                        state.direction = v_.segment(off, k) / speed;
                        continue;
                    }
                    const bool stuck = decideAtRest(c, qe, qde, tEvent);
                    anyStick = anyStick || stuck;
                    const ContactEvent::Kind kind = stuck ? ContactEvent::Kind::Stick
                                                    : state.direction.dot(before) < 0.0
                                                        ? ContactEvent::Kind::Reversal
                                                        : ContactEvent::Kind::Slip;
                    trace.events.push_back({tEvent, c, kind});
                }
                stabilize(xWork_, tEvent, anyStick);
                const Eigen::Map<const Eigen::VectorXd> xp(xWork_.data(),
                                                           static_cast<Eigen::Index>(2 * n));
                q_ = xp.segment(0, n);
                qd_ = xp.segment(n, n);
                updateSlipDirections(q_, qd_, tEvent);
            } catch (const ConstraintLabError& e) {
                rethrowAt(tEvent, e);
            }
            stepper->initialize(xWork_, tEvent, stepper->stepSize());
            ++trace.stats.restarts;
            if (next < times.size() && times[next] == tEvent) {
                emit(xWork_, tEvent);
                ++next;
            }
        } else {
            const State& x = stepper->currentState();
            std::copy(x.begin(), x.end(), xWork_.begin());
            try {
                // Projected and restarted only when the drift is a noticeable share of the
                // tolerance: a restart costs Dormand–Prince its first-same-as-last evaluation.
                // What is shown is projected in any case (below).
                if (driftExceeds(xWork_, tCur) && stabilize(xWork_, tCur, false)) {
                    stepper->initialize(xWork_, tCur, stepper->stepSize());
                    ++trace.stats.projections;
                    ++trace.stats.restarts;
                }
                if (contactCount_ > 0) {
                    // Copies into the workspace: passing segments would make temporaries.
                    const Eigen::Map<const Eigen::VectorXd> xp(xWork_.data(),
                                                               static_cast<Eigen::Index>(2 * n));
                    q_ = xp.segment(0, n);
                    qd_ = xp.segment(n, n);
                    updateSlipDirections(q_, qd_, tCur);
                }
            } catch (const ConstraintLabError& e) {
                rethrowAt(tCur, e);
            }
            while (next < times.size() && times[next] <= tCur) {
                std::copy(xWork_.begin(), xWork_.end(), xOut_.begin());
                try {
                    stabilize(xOut_, times[next], false);
                } catch (const ConstraintLabError& e) {
                    rethrowAt(times[next], e);
                }
                emit(xOut_, times[next]);
                ++next;
            }
        }

        if (control.keepGoing && !control.keepGoing(stepper->currentTime())) {
            trace.cancelled = true;
            break;
        }
    }
    trace.stats.rhsEvaluations = rhsEvaluations_;
    trace.stats.events = trace.events.size();
    trace.stats.wallSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return trace;
}

Trace Simulator::emptyTrace(const MechanicalSystem& system)
{
    std::vector<std::string> contactNames;
    for (int c = 0; c < system.contactCount(); ++c)
        contactNames.push_back(system.contactName(c));
    Trace trace(system.coordinateNames(), system.extraColumnNames(),
                system.constraintsAreRheonomic(), contactNames);
    std::vector<std::string> coordinateUnits, extraUnits;
    for (int i = 0; i < system.dof(); ++i)
        coordinateUnits.push_back(system.coordinateUnit(i));
    const auto extras = static_cast<int>(trace.extraNames().size());
    for (int i = 0; i < extras; ++i)
        extraUnits.push_back(system.extraColumnUnit(i));
    trace.setUnits(std::move(coordinateUnits), std::move(extraUnits));
    return trace;
}

} // namespace clab
