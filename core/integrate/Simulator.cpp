#include "integrate/Simulator.h"

#include "integrate/Dopri5Stepper.h"
#include "integrate/EventLocator.h"
#include "integrate/Rk4Stepper.h"
#include "integrate/SimulationSetting.h"
#include "model/ConstraintLabError.h"

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

using State = Stepper::State;

// Events closer together than this fraction of the time scale count as one cluster; a cluster
// of more events than kMaxEventCluster is Zeno behaviour the model cannot resolve.
constexpr double kEventClusterSpan = 1e-9;
constexpr int kMaxEventCluster = 100;
// The integrated state is projected onto the constraints (and the integrator restarted) once
// its residual exceeds this share of the step's error tolerance atol + rtol·scale.
constexpr double kDriftFraction = 0.1;
constexpr const char* kOverflowHint = ConstraintLabError::overflowHint;

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

// Where g(x, t) of the integrated state first satisfies `crossed` inside the step
// [tPrev, tCur] (g(tPrev) = ga, g(tCur) = gb), located on the stepper's dense output. gb may be
// non-finite: the crossing before it is located all the same (the dense output is the step
// retried at smaller sizes), and when g turns non-finite without crossing, the run stops there
// naming `what` rather than step over an event it cannot see.
// `tol` < 0: EventLocator::tolerance of the step.
template <class G, class Crossed>
double locateOnDenseOutput(Stepper& stepper, Stepper::State& x, double tPrev, double ga,
                           double tCur, double gb, G g, Crossed crossed, const char* what,
                           double tol = -1.0)
{
    const EventLocator::Crossing c = EventLocator::locateCrossing(
        [&](double t) {
            stepper.calcState(t, x);
            return g(x, t);
        },
        crossed, tPrev, ga, tCur, gb, tol < 0.0 ? EventLocator::tolerance(tPrev, tCur) : tol);
    if (!std::isfinite(c.g))
        throw ConstraintLabError(ConstraintLabError::Kind::NonFinite,
                                 std::string(what) + " is not finite (" + number(c.g) +
                                     ") from t = " + number(c.t) +
                                     " s on, without having crossed zero before",
                                 "the condition is not defined where the motion goes; write it "
                                 "so that it stays finite until it is met");
    return c.t;
}

// A run's pieces are fixed from its start to its end (exceptions included), and released after.
class PiecesScope {
public:
    explicit PiecesScope(const MechanicalSystem& system) : system_(system) {}
    ~PiecesScope() { system_.releasePieces(); }
    PiecesScope(const PiecesScope&) = delete;
    PiecesScope& operator=(const PiecesScope&) = delete;

private:
    const MechanicalSystem& system_;
};

bool takesSparsePath(const MechanicalSystem& system, Simulator::SolvePath path)
{
    const bool possible = !system.massMatrixIsSingular() && system.contactCount() == 0 &&
                          system.unilateralCount() == 0;
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

// The system's sizes, checked before anything is sized by them.
const MechanicalSystem& checkedSizes(const MechanicalSystem& system)
{
    const int n = system.dof();
    const int m = system.constraintCount();
    if (n <= 0 || m < 0)
        throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter,
                                 "Simulator: the system has " + std::to_string(n) +
                                     " coordinates and " + std::to_string(m) + " constraints");
    const int h = system.holonomicCount();
    if (h < 0 || h > m)
        throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter,
                                 "Simulator: the system declares " + std::to_string(h) +
                                     " holonomic constraints out of " + std::to_string(m));
    return system;
}

} // namespace

/// What the stages of one run() share: the run's settings and output, the stepper, and the
/// current step with its events.
struct Simulator::RunState {
    RunState(const SimulationOptions& o, const SampleSink& s, double t0, Trace emptyTrace)
        : options(o), sink(s), t0(t0), times(t0, o.tEnd, o.dt), stepBudget(o.stepLimit(t0)),
          span(o.tEnd - t0), trace(std::move(emptyTrace))
    {
    }

    const SimulationOptions& options;
    const SampleSink& sink;
    const double t0;
    const std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
    const OutputGrid times;
    const double stepBudget;
    const double span;
    Trace trace;
    TraceSample streamed; // the one reused slot of a streamed run (flat memory)
    State x0;
    Stepper::Rhs rhs; // must outlive the stepper, which refers to it
    std::unique_ptr<Stepper> stepper;
    bool watchEnd = false;       // whether the end of the track ends the run
    Eigen::VectorXd endq, endqd; // the end and piece functions' arguments, allocated once
    std::size_t next = 1;        // index of the next output time
    std::size_t steps = 0;
    double clusterStart = -std::numeric_limits<double>::infinity();
    int clusterSize = 0;
    // The current step [tPrev, tCur] and what happens inside it.
    double tPrev = 0.0, tCur = 0.0, scale = 0.0;
    double tEvent = 0.0; // the earliest contact event or the end, else tCur
    bool event = false;  // a contact event at tEvent
    double tStop = 0.0;  // the end of the track
    bool stop = false;   // the end comes first: the run ends at tStop = tEvent

    /// The end of the track's function at an integrated state.
    double endValue(const MechanicalSystem& system, const State& x, double t)
    {
        split(x);
        return system.endFunction(endq, endqd, t);
    }
    /// The system's piece margin at an integrated state.
    double pieceMargin(const MechanicalSystem& system, const State& x, double t)
    {
        split(x);
        return system.pieceMargin(endq, endqd, t);
    }
    /// endq, endqd = x, without allocating.
    void split(const State& x)
    {
        const auto n = static_cast<Eigen::Index>(endq.size());
        endq = Eigen::Map<const Eigen::VectorXd>(x.data(), n);
        endqd = Eigen::Map<const Eigen::VectorXd>(x.data() + n, n);
    }
};

Simulator::Simulator(const MechanicalSystem& system, SolvePath path)
    : system_(system), sparse_(takesSparsePath(system, path)),
      equation_(sparse_ ? 1 : system.dof(), sparse_ ? 0 : system.constraintCount()),
      contacts_(checkedSizes(system),
                [this](const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                       double t) -> const ConstrainedAcceleration& {
                    evaluateInModes(q, qd, t, Q_, acc_);
                    return acc_;
                }),
      unilateral_(system,
                  [this](const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                         double t) -> const ConstrainedAcceleration& {
                      evaluateInModes(q, qd, t, Q_, acc_);
                      return acc_;
                  })
{
    const int n = system.dof();
    const int m = system.constraintCount();
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
    J_.setZero(sparse_ ? 0 : h, denseN);
    phi_.setZero(h);
    Av_.setZero(sparse_ ? 0 : m, denseN);
    bv_.setZero(m);
    rv_.setZero(m);

    residual_.setZero(system.residualCount());
    sampleResidual_.setZero(system.residualCount());
    sampleQ_.setZero(n);
    sampleq_.setZero(n);
    sampleqd_.setZero(n);
    sampleAcc_.resize(n, m);
    if (system.providesConstraintFunctions())
        projection_ = std::make_unique<ManifoldProjection>(system, contacts_.slipRows(), sparse_);
    unilateral_.setSlidingFriction([this](const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                          double t, const Eigen::VectorXd& normal,
                                          double& size) -> const Eigen::VectorXd& {
        return contacts_.slidingFriction(q, qd, t, normal, size);
    });
}

Simulator::~Simulator() = default;

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
    system_.massMatrix(q, t, M_);
    system_.givenForce(q, qd, t, Q);
    system_.constraintMatrix(q, qd, t, A_, b_);
    addBaumgarteTerms(q, qd, t);
    equation_.solveIdeal(M_, Q, A_, b_, out);

    if (contacts_.count() == 0) {
        // Coulomb-type C needs the normal force, so it is evaluated after the ideal phase.
        system_.nonIdealForce(q, qd, t, out.Qci, C_);
        if (!C_.allFinite())
            throw ConstraintLabError(ConstraintLabError::Kind::NonFinite,
                                     "the non-ideal force C is not finite", kOverflowHint);
        equation_.addNonIdeal(C_, out);
    } else {
        const double* alpha = stabilization_ == Stabilization::Baumgarte ? &alpha_ : nullptr;
        contacts_.addFriction(q, qd, t, M_, Q, A_, b_, alpha, equation_, out);
    }
    if (!out.qdd.allFinite() || !out.Qci.allFinite() || !out.Qcni.allFinite())
        throw ConstraintLabError(ConstraintLabError::Kind::NonFinite,
                                 "the fundamental equation gave a non-finite q̈ or force",
                                 kOverflowHint);
}

double Simulator::eventFunction(int c, const State& x, double t)
{
    const Eigen::Index n = system_.dof();
    const Eigen::Map<const Eigen::VectorXd> xs(x.data(), static_cast<Eigen::Index>(x.size()));
    q_ = xs.segment(0, n);
    qd_ = xs.segment(n, n);
    return contacts_.eventFunction(c, q_, qd_, t);
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
    contacts_.setModesFromState(q, qd, t);
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
    const std::vector<ContactState>& modes = contacts_.states();
    out.contacts.resize(contacts_.count());
    for (int c = 0; c < contacts_.count(); ++c)
        out.contacts[c] = modes[static_cast<std::size_t>(c)].stuck ? 0.0 : 1.0;
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
    contacts_.setModesFromState(q, qd, t);
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
    out.W_impact = impactWork_;
    out.E_error = out.E - E0_ - out.W_nonideal - out.W_given_nc - out.W_ideal - out.W_impact;
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
    const Eigen::MatrixXd& stickRows = contacts_.stickVelocityRows(q_, qd_, t);
    changed = projection_->projectVelocities(q_, qd_, t, stickRows, contacts_.stickVelocityRhs(),
                                             project) ||
              changed;
    if (changed) {
        xs.segment(0, n) = q_;
        xs.segment(n, n) = qd_;
    }
    return changed;
}

// A run is a list of named stages, in the manner of MuJoCo's mj_step: check and start, then per
// accepted step advance, locate events, emit the samples before them, and either restart at a
// contact event or accept the step. Each stage is a member function below, in this order.
Trace Simulator::run(const SimulationOptions& options, const SampleSink& sink,
                     const RunControl& control)
{
    const double t0 = options.startTime(system_.initialTime());
    checkOptions(options, t0);
    const StabilizationScope scope(stabilization_, options.stabilization);
    const PiecesScope pieces(system_);
    RunState run(options, sink, t0, emptyTrace(system_));
    prepare(run);
    startContacts(run);
    startIntegrator(run);
    while (run.next < run.times.size()) {
        advance(run);
        locateContactEvent(run);
        locatePieceChange(run);
        locateUnilateralEvent(run);
        locateEnd(run);
        emitInterpolatedSamples(run);
        if (run.stop) {
            endAtTrackEnd(run);
            break;
        }
        if (run.event) {
            restartAtEvent(run);
            if (run.stop) {
                endAtTrackEnd(run);
                break;
            }
        } else {
            acceptStep(run);
        }
        if (control.keepGoing && !control.keepGoing(run.stepper->currentTime())) {
            run.trace.cancelled = true;
            break;
        }
    }
    return finish(run);
}

void Simulator::checkOptions(const SimulationOptions& options, double t0) const
{
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
}

void Simulator::prepare(RunState& run)
{
    const int n = system_.dof();
    const SimulationOptions& options = run.options;
    rhsEvaluations_ = 0;
    impactWork_ = 0.0;
    atol_ = options.atol;
    rtol_ = options.rtol;
    alpha_ = options.baumgarteAlpha;
    beta_ = options.baumgarteBeta;

    Eigen::VectorXd q0(n), qd0(n);
    if (options.start) {
        // A stored start replaces the system's own, after the same checks a file's gets.
        if (const auto problem = options.start->problem(system_))
            throw ConstraintLabError(ConstraintLabError::Kind::InvalidInitialState,
                                     problem->key + ": " + problem->reason);
        q0 = options.start->positions();
        qd0 = options.start->velocities();
    } else {
        system_.initialState(q0, qd0);
    }
    if (q0.size() != n || qd0.size() != n)
        throw ConstraintLabError(ConstraintLabError::Kind::InvalidInitialState,
                                 "the initial state does not have " + std::to_string(n) +
                                     " coordinates");
    if (!q0.allFinite() || !qd0.allFinite())
        throw ConstraintLabError(ConstraintLabError::Kind::NonFinite,
                                 atTime(run.t0, "the initial state is not finite"), kOverflowHint);

    if (system_.hasPieces())
        system_.fixPieces(q0, qd0, run.t0);
    run.x0.assign(static_cast<std::size_t>(stateSize()), 0.0);
    Eigen::Map<Eigen::VectorXd>(run.x0.data(), n) = q0;
    Eigen::Map<Eigen::VectorXd>(run.x0.data() + n, n) = qd0;
    if (!run.sink)
        run.trace.samples.reserve(run.times.size());
    run.endq.resize(n);
    run.endqd.resize(n);
}

void Simulator::emitSample(RunState& run, const State& x, double t)
{
    // A sample goes to the trace, or through one reused slot to the sink (flat memory).
    TraceSample& slot = run.sink ? run.streamed : run.trace.samples.emplace_back();
    sampleState(x, t, slot);
    if (run.sink)
        run.sink(slot);
}

void Simulator::emitProjected(RunState& run, State& x, double t)
{
    try {
        stabilize(x, t, false);
    } catch (const ConstraintLabError& e) {
        rethrowAt(t, e);
    }
    emitSample(run, x, t);
}

void Simulator::startContacts(RunState& run)
{
    // Initial contact modes; a contact at rest sticks or starts to slip at t0.
    const int n = system_.dof();
    const double t0 = run.t0;
    const Eigen::Map<const Eigen::VectorXd> x0(run.x0.data(), static_cast<Eigen::Index>(n * 2));
    const Eigen::VectorXd q0 = x0.segment(0, n), qd0 = x0.segment(n, n);
    try {
        const bool unilateral = resolveUnilateral(run, run.x0, t0, true);
        if (contacts_.startModes(q0, qd0, t0, run.trace.events) || unilateral)
            stabilize(run.x0, t0, true);
        const Eigen::Map<const Eigen::VectorXd> xs(run.x0.data(), static_cast<Eigen::Index>(n * 2));
        contacts_.updateSlipDirections(xs.segment(0, n), xs.segment(n, n), t0);
        unilateral_.checkConsistent(xs.segment(0, n), xs.segment(n, n), t0);
    } catch (const ConstraintLabError& e) {
        rethrowAt(t0, e);
    }
}

void Simulator::startIntegrator(RunState& run)
{
    const SimulationOptions& options = run.options;
    run.rhs = [this](const State& x, State& dxdt, double t) {
        derivative(x, dxdt, t);
    };
    if (options.integrator == IntegratorKind::Rk4)
        run.stepper = std::make_unique<Rk4Stepper>(run.rhs, options.dt, run.x0.size());
    else
        run.stepper = std::make_unique<Dopri5Stepper>(run.rhs, options.atol, options.rtol,
                                                      &run.trace.stats.rejectedSteps);
    run.stepper->initialize(run.x0, run.t0, std::min(options.dt, run.span));
    // E(0) is taken from the first sample before it is emitted, so that its audit reads 0.
    {
        TraceSample first;
        E0_ = 0.0;
        sampleState(run.x0, run.t0, first);
        E0_ = first.E;
    }
    emitSample(run, run.x0, run.t0);
    run.watchEnd = run.options.stopAtEnd && system_.hasEnd();
    run.trace.stopAtEnd = run.watchEnd;
    // A start on the end may move away from it (locateEnd ends a start that moves past it);
    // a start beyond it has no end to reach, and no true "the run ended where ..." to say.
    if (run.watchEnd && run.endValue(system_, run.x0, run.t0) < 0.0)
        throw ConstraintLabError(ConstraintLabError::Kind::InvalidInitialState,
                                 "the start lies beyond the end of the scene's track, where a "
                                 "run that stops at the end (stop_at_end) would have ended",
                                 "start before the end, or turn stop_at_end off "
                                 "(--no-stop-at-end) to run on past it");
}

void Simulator::advance(RunState& run)
{
    Stepper& stepper = *run.stepper;
    const double tBefore = stepper.currentTime();
    if (++run.steps > run.stepBudget)
        throw ConstraintLabError(
            ConstraintLabError::Kind::IntegrationFailure,
            atTime(tBefore, "more than " + number(run.stepBudget) + " integrator steps"),
            "the motion is too fast or too stiff for this tolerance over this time span; "
            "try a shorter t_end or a larger rtol");
    try {
        stepper.doStep(run.times[run.next]);
        ++run.trace.stats.acceptedSteps;
    } catch (const boost::numeric::odeint::odeint_error& e) {
        throw ConstraintLabError(
            ConstraintLabError::Kind::IntegrationFailure,
            atTime(tBefore, std::string("the step size control failed (") + e.what() + ")"),
            "the tolerance cannot be met here; try a larger rtol or atol");
    }

    run.tPrev = stepper.previousTime();
    run.tCur = stepper.currentTime();
    run.scale = std::max({std::abs(run.tCur), run.span, 1.0});
    if (!(run.tCur - run.tPrev >= 1e-14 * run.scale))
        throw ConstraintLabError(
            ConstraintLabError::Kind::IntegrationFailure,
            atTime(run.tPrev, "the step size fell to " + number(run.tCur - run.tPrev) +
                                  " s, below 1e-14 of the time scale"),
            "the motion became singular or too stiff here (e.g. a body reaching a point the "
            "constraints cannot pass); try a larger rtol, or check the parameters");
    const State& x = stepper.currentState();
    if (!std::all_of(x.begin(), x.end(), [](double v) { return std::isfinite(v); }))
        throw ConstraintLabError(ConstraintLabError::Kind::NonFinite,
                                 atTime(run.tCur, "the state is not finite after a step"),
                                 kOverflowHint);
}

void Simulator::locateContactEvent(RunState& run)
{
    // Contact events inside the step: the earliest one is located on the dense output.
    Stepper& stepper = *run.stepper;
    const double tPrev = run.tPrev, tCur = run.tCur;
    run.tEvent = tCur;
    run.event = false;
    try {
        for (int c = 0; c < contacts_.count(); ++c) {
            const double gb = eventFunction(c, stepper.currentState(), tCur);
            if (std::isfinite(gb) && !contacts_.crossed(c, gb))
                continue;
            stepper.calcState(tPrev, xOut_);
            const double ga = eventFunction(c, xOut_, tPrev);
            const double tc = locateOnDenseOutput(
                stepper, xOut_, tPrev, ga, tCur, gb,
                [&](const State& x, double t) { return eventFunction(c, x, t); },
                [&](double g) { return contacts_.crossed(c, g); }, "a contact's event function");
            if (!run.event || tc < run.tEvent) {
                run.tEvent = tc;
                run.event = true;
            }
        }
    } catch (const ConstraintLabError& e) {
        rethrowAt(tCur, e);
    }
}

void Simulator::locatePieceChange(RunState& run)
{
    if (!system_.hasPieces())
        return;
    Stepper& stepper = *run.stepper;
    const double tPrev = run.tPrev, tCur = run.tCur;
    const auto margin = [&](const State& x, double t) {
        return run.pieceMargin(system_, x, t);
    };
    try {
        // Strictly past the border: a body that starts a step on one (at rest there at t0)
        // still has its crossing found, and once past it, it is in the next piece by position.
        const double gb = margin(stepper.currentState(), tCur);
        if (!(gb < 0.0))
            return;
        stepper.calcState(tPrev, xOut_);
        const double ga = margin(xOut_, tPrev);
        if (!(ga >= 0.0))
            return;
        const double tc = locateOnDenseOutput(
            stepper, xOut_, tPrev, ga, tCur, gb, margin, [](double g) { return g < 0.0; },
            "a piece margin");
        if (!run.event || tc < run.tEvent) {
            run.tEvent = tc;
            run.event = true;
        }
    } catch (const ConstraintLabError& e) {
        rethrowAt(tCur, e);
    }
}

void Simulator::locateUnilateralEvent(RunState& run)
{
    Stepper& stepper = *run.stepper;
    const double tPrev = run.tPrev, tCur = run.tCur;
    const auto g = [&](int k, const State& x, double t) {
        run.split(x);
        return unilateral_.eventFunction(k, run.endq, run.endqd, t);
    };
    try {
        for (int k = 0; k < unilateral_.eventCount(); ++k) {
            const double gb = g(k, stepper.currentState(), tCur);
            if (std::isfinite(gb) && !unilateral_.crossed(k, gb))
                continue;
            stepper.calcState(tPrev, xOut_);
            if (unilateral_.crossed(k, g(k, xOut_, tPrev)))
                continue; // past it at the step's start already: nothing to locate
            // A touch-down is located to the rounding of t, not to a share of the step: a
            // free flight is integrated exactly and its steps grow long, and each bounce of a
            // series would carry the step's share into the next (docs/MATH.md §11, Zeno).
            const bool touchDown = k < unilateral_.count() && system_.unilateralOpen(k);
            const double tc = locateOnDenseOutput(
                stepper, xOut_, tPrev, g(k, xOut_, tPrev), tCur, gb,
                [&](const State& x, double t) { return g(k, x, t); },
                [&](double v) { return unilateral_.crossed(k, v); },
                "a one-sided contact's event function",
                touchDown ? EventLocator::tolerance(tCur, tCur) : -1.0);
            if (tc > run.options.tEnd)
                continue; // after the run's end: not an event of this run
            if (!run.event || tc < run.tEvent) {
                run.tEvent = tc;
                run.event = true;
            }
        }
    } catch (const ConstraintLabError& e) {
        rethrowAt(tCur, e);
    }
}

bool Simulator::resolveUnilateral(RunState& run, State& x, double t, bool start)
{
    if (unilateral_.count() == 0)
        return false;
    const Eigen::Index n = system_.dof();
    Eigen::Map<Eigen::VectorXd> xs(x.data(), static_cast<Eigen::Index>(x.size()));
    Eigen::VectorXd q = xs.segment(0, n), qd = xs.segment(n, n);
    const auto project = [this](Eigen::VectorXd& qp, double tp) {
        if (projection_ && stabilization_ == Stabilization::Projection)
            projection_->projectPositions(qp, tp);
    };
    // Rebounds that would all be over within the span of simultaneous events are not resolved:
    // the contact rests from there.
    const double zenoSpan = kEventClusterSpan * std::max({std::abs(t), run.span, 1.0});
    impactWork_ += unilateral_.resolve(q, qd, t, start, zenoSpan, project, run.trace.events);
    xs.segment(0, n) = q;
    xs.segment(n, n) = qd;
    return true;
}

void Simulator::locateEnd(RunState& run)
{
    // The end of the track inside the step ends the run there, unless a contact event comes
    // first (the contact's mode then changes, and the next step looks again).
    run.tStop = run.tCur;
    run.stop = false;
    if (!run.watchEnd)
        return;
    Stepper& stepper = *run.stepper;
    const double tPrev = run.tPrev, tCur = run.tCur;
    try {
        // A non-finite end value may lie beyond a crossing inside the step: located below.
        const double gb = run.endValue(system_, stepper.currentState(), tCur);
        if (std::isfinite(gb) && gb > 0.0)
            return;
        stepper.calcState(tPrev, xOut_);
        const double ga = run.endValue(system_, xOut_, tPrev);
        if (!(ga > 0.0)) {
            // Only a start on the end (ga = 0) gets here: moving past it, the run ends at once.
            if (gb < 0.0 && tPrev == run.t0) {
                run.tStop = tPrev;
                run.stop = !run.event || run.tStop < run.tEvent;
                if (run.stop)
                    run.tEvent = run.tStop;
            }
            return;
        }
        run.tStop = locateOnDenseOutput(
            stepper, xOut_, tPrev, ga, tCur, gb,
            [&](const State& x, double t) { return run.endValue(system_, x, t); },
            [](double g) { return g <= 0.0; }, "the end condition");
        // A step may reach past t_end: the foot beyond it does not lengthen the run.
        run.stop = run.tStop <= run.options.tEnd && (!run.event || run.tStop < run.tEvent);
        if (run.stop)
            run.tEvent = run.tStop;
    } catch (const ConstraintLabError& e) {
        rethrowAt(tCur, e);
    }
}

void Simulator::emitInterpolatedSamples(RunState& run)
{
    // Output samples inside the step (before the event), from the method's interpolant.
    while (run.next < run.times.size() && run.times[run.next] < run.tEvent) {
        const double t = run.times[run.next];
        run.stepper->calcState(t, xOut_);
        // The interpolant is not on the manifold: what is shown is projected like the step's
        // end (the integration itself goes on from the step's end).
        emitProjected(run, xOut_, t);
        ++run.next;
    }
}

void Simulator::endAtTrackEnd(RunState& run)
{
    // The last sample is the end itself, projected like every shown state (a run that ends at
    // its start has it already).
    if (run.tStop > run.t0) {
        run.stepper->calcState(run.tStop, xWork_);
        emitProjected(run, xWork_, run.tStop);
    }
    run.trace.reachedEnd = true;
}

void Simulator::restartAtEvent(RunState& run)
{
    const int n = system_.dof();
    const double tEvent = run.tEvent;
    run.stepper->calcState(tEvent, xWork_);
    if (run.watchEnd && tEvent <= run.options.tEnd &&
        run.endValue(system_, xWork_, tEvent) <= 0.0) {
        // The end of the track comes with the event (the sliding chain's last bob leaving the
        // table is also a change of piece): the run ends there.
        run.tStop = tEvent;
        run.stop = true;
        return;
    }
    if (tEvent - run.clusterStart <= kEventClusterSpan * run.scale) {
        if (++run.clusterSize > kMaxEventCluster)
            throw ConstraintLabError(
                ConstraintLabError::Kind::IntegrationFailure,
                atTime(tEvent, "more than " + std::to_string(kMaxEventCluster) +
                                   " stick–slip events within " +
                                   number(kEventClusterSpan * run.scale) +
                                   " s: the contacts chatter (Zeno behaviour)"),
                "the contacts switch between sticking and sliding faster than the model "
                "can resolve; try other friction coefficients (mu_s further above mu)");
    } else {
        run.clusterStart = tEvent;
        run.clusterSize = 1;
    }
    run.stepper->calcState(tEvent, xWork_);
    try {
        const Eigen::Map<const Eigen::VectorXd> xs(xWork_.data(), static_cast<Eigen::Index>(2 * n));
        const Eigen::VectorXd qe = xs.segment(0, n), qde = xs.segment(n, n);
        // Every contact whose event has happened at tEvent changes mode now.
        std::vector<int> changing;
        for (int c = 0; c < contacts_.count(); ++c)
            if (contacts_.crossed(c, eventFunction(c, xWork_, tEvent)))
                changing.push_back(c);
        const bool anyStick = contacts_.changeModes(
            changing, qe, qde, tEvent, kEventClusterSpan * run.scale, run.trace.events);
        if (system_.hasPieces())
            system_.fixPieces(qe, qde, tEvent);
        const bool unilateral = resolveUnilateral(run, xWork_, tEvent, false);
        stabilize(xWork_, tEvent, anyStick || unilateral);
        const Eigen::Map<const Eigen::VectorXd> xp(xWork_.data(), static_cast<Eigen::Index>(2 * n));
        q_ = xp.segment(0, n);
        qd_ = xp.segment(n, n);
        contacts_.updateSlipDirections(q_, qd_, tEvent);
        unilateral_.checkConsistent(q_, qd_, tEvent);
    } catch (const ConstraintLabError& e) {
        rethrowAt(tEvent, e);
    }
    run.stepper->initialize(xWork_, tEvent, run.stepper->stepSize());
    ++run.trace.stats.restarts;
    if (run.next < run.times.size() && run.times[run.next] == tEvent) {
        emitSample(run, xWork_, tEvent);
        ++run.next;
    }
}

void Simulator::acceptStep(RunState& run)
{
    const int n = system_.dof();
    const double tCur = run.tCur;
    const State& x = run.stepper->currentState();
    std::copy(x.begin(), x.end(), xWork_.begin());
    try {
        // Projected and restarted only when the drift is a noticeable share of the tolerance:
        // a restart costs Dormand–Prince its first-same-as-last evaluation. What is shown is
        // projected in any case (below).
        if (driftExceeds(xWork_, tCur) && stabilize(xWork_, tCur, false)) {
            run.stepper->initialize(xWork_, tCur, run.stepper->stepSize());
            ++run.trace.stats.projections;
            ++run.trace.stats.restarts;
        }
        if (contacts_.count() > 0) {
            // Copies into the workspace: passing segments would make temporaries.
            const Eigen::Map<const Eigen::VectorXd> xp(xWork_.data(),
                                                       static_cast<Eigen::Index>(2 * n));
            q_ = xp.segment(0, n);
            qd_ = xp.segment(n, n);
            contacts_.updateSlipDirections(q_, qd_, tCur);
        }
    } catch (const ConstraintLabError& e) {
        rethrowAt(tCur, e);
    }
    while (run.next < run.times.size() && run.times[run.next] <= tCur) {
        const double t = run.times[run.next];
        std::copy(xWork_.begin(), xWork_.end(), xOut_.begin());
        emitProjected(run, xOut_, t);
        ++run.next;
    }
}

Trace Simulator::finish(RunState& run)
{
    run.trace.stats.rhsEvaluations = rhsEvaluations_;
    run.trace.stats.events = run.trace.events.size();
    run.trace.stats.wallSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - run.started).count();
    return std::move(run.trace);
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
    std::vector<std::string> unilateralNames;
    for (int k = 0; k < system.unilateralCount(); ++k)
        unilateralNames.push_back(system.unilateralName(k));
    trace.setUnilateralNames(std::move(unilateralNames));
    return trace;
}

} // namespace clab
