#pragma once

#include "integrate/FrictionalContacts.h"
#include "integrate/RunControl.h"
#include "integrate/SimulationOptions.h"
#include "integrate/Stepper.h"
#include "integrate/UnilateralContacts.h"
#include "model/ContactEvent.h"
#include "model/ContactState.h"
#include "model/MechanicalSystem.h"
#include "solve/ConstrainedAcceleration.h"
#include "solve/FundamentalEquation.h"
#include "solve/ManifoldProjection.h"
#include "solve/SparseFundamentalEquation.h"
#include "trace/Trace.h"

#include <functional>
#include <memory>
#include <vector>

namespace clab {

/// \brief Integrates a MechanicalSystem with Boost.Odeint and samples a Trace.
///
/// The system is borrowed and must outlive the simulator. One Simulator owns the workspace
/// of the fundamental equation, so evaluating the right-hand side allocates nothing.
///
/// The integrated state is x = [q, q̇, W_nonideal, W_ideal, W_given_nc] (size 2n + 3): the
/// three works are integrated alongside the motion so that the energy balance can be checked
/// (W_ideal only for rheonomic constraints; for the others it is zero by D'Alembert).
/// Output samples lie on t0, t0 + dt, ..., with tEnd always the last one. Dormand–Prince
/// samples through its dense output; RK4 steps exactly onto the output times.
///
/// Constraint drift is handled as SimulationOptions::stabilization says (projection onto the
/// constraint manifold by default; see ManifoldProjection).
///
/// Frictional contacts (MechanicalSystem::contactCount) have a mode each, kept by
/// FrictionalContacts: a sliding contact rubs with kinetic friction against the slip direction
/// of the current step; a stuck contact is one more ideal constraint G q̈ = −γ in the same
/// fundamental equation, and the force of those rows is static friction (reported as Qᶜₙᵢ; Qᶜᵢ
/// stays the ideal force of the system's own constraints). Mode changes are events located on
/// the dense output (EventLocator): the slip velocity along the step's slip direction reaching
/// zero (then the contact sticks when the force it needs is within stickForceLimit, otherwise
/// it slides on, or back, in the direction of the net force), and a stuck contact's force
/// leaving μₛ‖N‖ (break-away). After an event the integrator restarts at the event state. A
/// system whose equations come in pieces (MechanicalSystem::hasPieces) has its pieces fixed for
/// each step; a body reaching the end of its piece is an event too, where the pieces are fixed
/// anew.
/// Dormand–Prince's step is its error control's alone (output samples come from the dense output);
/// with projection the integrated state is projected, and the integrator restarted, only when its
/// drift exceeds a tenth of the error tolerance, while every output sample is projected. The run's
/// cost is in Trace::stats.
///
/// run() is a short list of named stages (checkOptions, prepare, startContacts,
/// startIntegrator, then per step advance, locateContactEvent, locatePieceChange, locateEnd,
/// emitInterpolatedSamples and endAtTrackEnd, restartAtEvent or acceptStep; finish), listed
/// with their files in docs/ARCHITECTURE.md.
class Simulator {
public:
    /// Which solver the right-hand side uses: Automatic takes the sparse path for large systems
    /// that provide sparse matrices (docs/MATH.md §10), the dense one otherwise; the others force
    /// a path (tests compare them; Sparse needs a system without contacts or a singular M).
    enum class SolvePath { Automatic, Dense, Sparse };

    explicit Simulator(const MechanicalSystem& system, SolvePath path = SolvePath::Automatic);
    ~Simulator();

    const MechanicalSystem& system() const { return system_; }
    FundamentalEquation& equation() { return equation_; }
    /// True when the right-hand side is solved by SparseFundamentalEquation.
    bool usesSparsePath() const { return sparse_; }

    /// q̈, Qᶜᵢ, Qᶜₙᵢ and λ at one state (Q is written to `Q`). Contacts take the mode the state
    /// implies: sliding against their slip velocity when it is non-zero; at rest, stuck when
    /// static friction can hold them and otherwise sliding in the direction of the net force.
    void evaluate(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t, Eigen::VectorXd& Q,
                  ConstrainedAcceleration& out);

    /// Full sample (forces, energies, residuals, contact modes, extras) at one state, with the
    /// contact modes of evaluate(). Works are integrals along a trajectory, not functions of one
    /// state: they and E_error are set to zero here and filled in by run().
    void sample(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t, TraceSample& out);

    /// Receives each output sample as it is computed (see run()).
    using SampleSink = std::function<void(const TraceSample&)>;

    /// Runs from the system's initial state to options.tEnd, sampling every options.dt.
    /// Without a sink the samples are stored in the returned trace; with one, each sample is
    /// handed to the sink as soon as it is computed and not kept (the trace then carries the
    /// columns, units and events only), so memory stays flat however long the run.
    /// Throws ConstraintLabError(InvalidParameter) for bad options, and
    /// ConstraintLabError(IntegrationFailure or the solver's kind) with the time at which it
    /// failed in the message ("at t = 1.234 s: ..."); a sample with a non-finite value (an
    /// overflowed energy, say) is such a failure (NonFinite) too.
    /// `control` may cancel the run between steps (RunControl::keepGoing).
    Trace run(const SimulationOptions& options, const SampleSink& sink = {},
              const RunControl& control = {});

    /// A trace without samples with `system`'s columns, contacts and units: what run() fills.
    static Trace emptyTrace(const MechanicalSystem& system);

    /// Size of the integrated state, 2n + 3.
    int stateSize() const { return 2 * system_.dof() + 3; }

    /// Contact modes of the last evaluation (during and after run(): the run's modes).
    const std::vector<ContactState>& contactStates() const { return contacts_.states(); }

private:
    using State = Stepper::State;
    /// What the stages of one run share (defined in Simulator.cpp).
    struct RunState;

    // The stages of run(), in order; each names one step of the loop (see run()).
    /// Options and the stabilization they ask for, against this system.
    void checkOptions(const SimulationOptions& options, double t0) const;
    /// x0 from the system's initial state, the run's tolerances, the trace's storage.
    void prepare(RunState& run);
    /// The contacts' modes at t0, with their events; projection when one sticks.
    void startContacts(RunState& run);
    /// The stepper, E(0) and the first sample.
    void startIntegrator(RunState& run);
    /// One accepted step, with the step budget, step size and finiteness checks.
    void advance(RunState& run);
    /// The earliest contact event inside the step, on the dense output.
    void locateContactEvent(RunState& run);
    /// A body reaching the end of its piece inside the step, when it comes before the contact
    /// events: an event too.
    void locatePieceChange(RunState& run);
    /// A one-sided contact's lift-off or touch-down inside the step: an event too.
    void locateUnilateralEvent(RunState& run);
    /// Impacts and the closed one-sided contacts at an event or the start (x may change);
    /// true when the system has one-sided contacts.
    bool resolveUnilateral(RunState& run, State& x, double t, bool start);
    /// The end of the track inside the step, unless a contact event comes first.
    void locateEnd(RunState& run);
    /// The output samples inside the step before its event, from the interpolant, projected.
    void emitInterpolatedSamples(RunState& run);
    /// The last sample, at the end of the track.
    void endAtTrackEnd(RunState& run);
    /// Mode changes and new pieces at the event, projection, and a restart of the stepper there.
    void restartAtEvent(RunState& run);
    /// Projection of the step's end when it drifted, new slip directions, the samples on it.
    void acceptStep(RunState& run);
    /// Run statistics into the trace.
    Trace finish(RunState& run);
    /// Hands a sample at an integrated state to the trace or to the sink.
    void emitSample(RunState& run, const State& x, double t);
    /// emitSample of x projected at t as every shown state is (x is changed).
    void emitProjected(RunState& run, State& x, double t);

    /// dx/dt for odeint; allocation-free. Errors carry the time t.
    void derivative(const State& x, State& dxdt, double t);
    /// Sample at an output time from an integrated state, works included.
    void sampleState(const State& x, double t, TraceSample& out);
    /// sample() with the current contact modes.
    void sampleInModes(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                       TraceSample& out);
    /// Baumgarte's terms subtracted from b_ when that stabilization is chosen.
    void addBaumgarteTerms(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t);
    /// evaluateInModes on the sparse path (no contacts).
    void evaluateSparse(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                        Eigen::VectorXd& Q, ConstrainedAcceleration& out);
    /// The fundamental equation with the current contact modes; allocation-free.
    void evaluateInModes(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                         Eigen::VectorXd& Q, ConstrainedAcceleration& out);
    /// Contact c's event function at the integrated state x (FrictionalContacts::eventFunction).
    double eventFunction(int c, const State& x, double t);
    /// Projection of an integrated state after a step or an event; true when x changed.
    bool stabilize(State& x, double t, bool stickEvent);
    /// Whether the constraint residual of an integrated state (with projection on) exceeds
    /// kDriftFraction of the step's error tolerance, so that the state should be projected.
    bool driftExceeds(const State& x, double t);

    const MechanicalSystem& system_;
    const bool sparse_;
    FundamentalEquation equation_; // 1×0 on the sparse path, so that it holds no n×n workspace
    FrictionalContacts contacts_;  // constructed after the system's sizes are checked
    UnilateralContacts unilateral_;
    double impactWork_ = 0.0; // W_impact of the run so far
    std::unique_ptr<SparseFundamentalEquation> sparseEquation_;
    SparseFundamentalEquation::SparseMatrix sparseM_, sparseA_, sparseJ_, sparseAv_;
    // Workspace of the right-hand side; sized once.
    Eigen::MatrixXd M_, A_;
    Eigen::VectorXd Q_, b_, C_, q_, qd_;
    ConstrainedAcceleration acc_;
    State xOut_, xWork_;

    // Stabilization (set for the duration of run()).
    Stabilization stabilization_ = Stabilization::None;
    double alpha_ = 0.0, beta_ = 0.0;
    Eigen::MatrixXd J_, Av_;
    Eigen::VectorXd phi_, bv_, rv_;
    std::unique_ptr<ManifoldProjection> projection_;

    double E0_ = 0.0;
    bool rheonomic_ = false;
    // Run accounting and the drift test's tolerances (set by run()).
    std::size_t rhsEvaluations_ = 0;
    double atol_ = 0.0, rtol_ = 0.0;
    Eigen::VectorXd residual_;
    // Workspace of sampleInModes.
    Eigen::VectorXd sampleQ_, sampleResidual_, sampleq_, sampleqd_;
    ConstrainedAcceleration sampleAcc_;
};

} // namespace clab
