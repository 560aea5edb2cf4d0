#pragma once

#include "ConstrainedAcceleration.h"
#include "ContactEvent.h"
#include "ContactState.h"
#include "FundamentalEquation.h"
#include "ManifoldProjection.h"
#include "MechanicalSystem.h"
#include "RunControl.h"
#include "SimulationOptions.h"
#include "SparseFundamentalEquation.h"
#include "Trace.h"

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
/// Frictional contacts (MechanicalSystem::contactCount) have a mode each (ContactState): a
/// sliding contact rubs with kinetic friction against the slip direction of the current step;
/// a stuck contact is one more ideal constraint G q̈ = −γ in the same fundamental equation, and
/// the force of those rows is static friction (reported as Qᶜₙᵢ; Qᶜᵢ stays the ideal force of
/// the system's own constraints). Mode changes are events located on the dense output: the slip
/// velocity along the step's slip direction reaching zero (then the contact sticks when the
/// force it needs is within stickForceLimit, otherwise it slides on, or back, in the direction
/// of the net force), and a stuck contact's force leaving μₛ‖N‖ (break-away). After an event
/// the integrator restarts at the event state. Dormand–Prince's step is its error control's
/// alone (output samples come from the dense output); with projection the integrated state is
/// projected, and the integrator restarted, only when its drift exceeds a tenth of the error
/// tolerance, while every output sample is projected. The run's cost is in Trace::stats.
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
    const std::vector<ContactState>& contactStates() const { return contacts_; }

private:
    using State = std::vector<double>;

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

    /// Slip velocity of every contact at (q, q̇, t) into v_ (and G_, gamma_).
    void slipVelocities(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t);
    /// Whether the stuck contacts' rows with A (Aext_) leave no motion free, rank n; when true,
    /// restLlt_ holds the Cholesky factor of AextᵀAext.
    bool stuckRankFull(int n);
    /// Cholesky factor of AextᵀAext into restLlt_; false when it fails or its diagonal falls
    /// below the rank threshold of extRank_ relative to its largest entry.
    bool factorNormalEquations();
    /// Size of the static friction force contact c needs, after evaluateInModes.
    double stickForce(int c) const;
    /// Event function of contact c at the integrated state x: slip velocity along the step's
    /// direction while sliding, μₛ‖N‖ − ‖F‖ (with a relative slack of 1e-12) while stuck.
    double eventFunction(int c, const State& x, double t);
    /// Whether contact c's event has happened, given its event function value.
    bool crossed(int c, double g) const;
    /// Mode of contact c at rest at (q, q̇, t): stuck when static friction holds it, otherwise
    /// sliding in the direction of the net force. Returns true when it sticks.
    bool decideAtRest(int c, const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t);
    /// Contact modes implied by a state (sliding when moving, decideAtRest otherwise).
    void setModesFromState(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t);
    /// Time the vector contact c, sliding along its current velocity, would need to lose its
    /// slip speed at the current rate of change of its slip velocity. Near a stop the velocity
    /// of a vector contact turns quickly (toward the force that will hold it), so its component
    /// along the step's direction reaches zero while a speed at rounding level is left: that
    /// is a stop, not a turn.
    double timeToStop(int c, const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t);
    /// Slip directions of the sliding contacts from the state at the start of a step.
    void updateSlipDirections(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t);
    /// Projection of an integrated state after a step or an event; true when x changed.
    bool stabilize(State& x, double t, bool stickEvent);
    /// Whether the constraint residual of an integrated state (with projection on) exceeds
    /// kDriftFraction of the step's error tolerance, so that the state should be projected.
    bool driftExceeds(const State& x, double t);

    const MechanicalSystem& system_;
    const bool sparse_;
    FundamentalEquation equation_; // 1×0 on the sparse path, so that it holds no n×n workspace
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

    // Frictional contacts.
    int contactCount_ = 0;
    int slipRows_ = 0;
    std::vector<int> slipOffset_, slipDim_;
    std::vector<ContactState> contacts_;
    std::vector<double> speedAtStepStart_;
    Eigen::MatrixXd G_;                 // slip Jacobians of all contacts, stacked
    Eigen::VectorXd gamma_, v_, w_, f_; // Ġq̇, slip velocities, slip directions, forces
    std::unique_ptr<FundamentalEquation> stuckEquation_;
    Eigen::MatrixXd Aext_, stickRows_;
    Eigen::VectorXd bext_, stickRhs_, Fstick_;
    ConstrainedAcceleration ext_;
    Eigen::ColPivHouseholderQR<Eigen::MatrixXd> extRank_; // does anything stay free?
    std::vector<char> stuckRankModes_; // stuck flags extRank_ decided for; empty: none
    bool stuckRankFull_ = false;
    Eigen::MatrixXd AtA_;
    Eigen::LLT<Eigen::MatrixXd> restLlt_;
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
