#pragma once

#include <Eigen/Dense>
#include <Eigen/SparseCore>

#include <string>
#include <vector>

namespace clab {

/// \brief A constrained mechanical system in the three-step description of docs/MATH.md §1.
///
/// Implementations are immutable after construction and write into caller-owned, already
/// sized outputs, so evaluating them allocates nothing.
class MechanicalSystem {
public:
    virtual ~MechanicalSystem() = default;

    /// Number of generalized coordinates n.
    virtual int dof() const = 0;
    /// Number of constraint equations m (rows of A).
    virtual int constraintCount() const = 0;
    /// Names of the coordinates, used as CSV column stems (x, y, z, u0, ...).
    virtual std::vector<std::string> coordinateNames() const = 0;
    /// SI unit of coordinate i for plots: "m" (default) or "" for dimensionless coordinates
    /// such as quaternion components. Velocities, accelerations and generalized forces take
    /// their units from it (m/s, m/s², N; or 1/s, 1/s², N·m).
    virtual std::string coordinateUnit(int i) const
    {
        (void)i;
        return "m";
    }

    /// M(q, t), n×n, symmetric, positive (semi-)definite.
    virtual void massMatrix(const Eigen::VectorXd& q, double t, Eigen::MatrixXd& M) const = 0;
    /// True when M is singular by construction (the auxiliary system is then always used).
    virtual bool massMatrixIsSingular() const { return false; }
    /// Given force Q(q, q̇, t).
    virtual void givenForce(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                            Eigen::VectorXd& Q) const = 0;
    /// Constraints differentiated to acceleration level: A(q, q̇, t) q̈ = b(q, q̇, t).
    virtual void constraintMatrix(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                                  Eigen::MatrixXd& A, Eigen::VectorXd& b) const = 0;
    /// Non-ideal force C(q, q̇, t, Qᶜᵢ); zero for ideal constraints.
    virtual void nonIdealForce(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                               const Eigen::VectorXd& Qci, Eigen::VectorXd& C) const
    {
        (void)q, (void)qd, (void)t, (void)Qci;
        C.setZero();
    }

    /// Number of residuals returned by constraintResiduals (φ, φ̇ for each holonomic
    /// constraint, ψ for each nonholonomic one).
    virtual int residualCount() const = 0;
    /// Constraint residuals; all zero on the constraint manifold.
    virtual void constraintResiduals(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                                     Eigen::VectorXd& r) const = 0;

    /// Kinetic energy; default ½ q̇ᵀ M q̇.
    virtual double kineticEnergy(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                 double t) const;
    /// Potential energy of the conservative part of Q.
    virtual double potentialEnergy(const Eigen::VectorXd& q, double t) const = 0;
    /// Power of the given forces that V does not account for (non-conservative Q); default 0.
    virtual double nonConservativePower(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                        double t) const
    {
        (void)q, (void)qd, (void)t;
        return 0.0;
    }
    /// True when the constraints depend explicitly on time, so that ideal constraint forces can
    /// do work on the actual motion (the trace then carries W_ideal).
    virtual bool constraintsAreRheonomic() const { return false; }

    /// Initial time and state from the scene's parameters; must satisfy the constraints.
    virtual double initialTime() const { return 0.0; }
    virtual void initialState(Eigen::VectorXd& q0, Eigen::VectorXd& qd0) const = 0;

    // --- Constraint functions, for stabilization (Baumgarte terms and projection) ---

    /// Number h of holonomic constraints φ(q, t) = 0; they are the first h rows of A.
    virtual int holonomicCount() const { return 0; }
    /// True when positionConstraints and velocityConstraints are implemented. Baumgarte
    /// stabilization, projection and stick–slip contacts need them; a system without
    /// constraints has nothing to provide.
    virtual bool providesConstraintFunctions() const { return constraintCount() == 0; }
    /// φ(q, t) (h values) and its Jacobian ∂φ/∂q (h×n), scaled like A: row i of A is ∂φᵢ/∂q and
    /// φ̈ᵢ = Aᵢ q̈ − bᵢ, so that b ← b − 2α φ̇ − β² φ gives φ̈ + 2α φ̇ + β² φ = 0.
    virtual void positionConstraints(const Eigen::VectorXd& q, double t,
                                     Eigen::Ref<Eigen::VectorXd> phi,
                                     Eigen::Ref<Eigen::MatrixXd> J) const
    {
        (void)q, (void)t, (void)phi, (void)J;
    }
    /// All m constraints at velocity level, Av q̇ = bv (m×n, m): φ̇ = J q̇ + ∂φ/∂t = 0 for the
    /// holonomic rows and ψ = Av q̇ − bv = 0 for the nonholonomic ones, which are taken linear
    /// in q̇ (as all built-in ones are), row for row like A.
    virtual void velocityConstraints(const Eigen::VectorXd& q, double t,
                                     Eigen::Ref<Eigen::MatrixXd> Av,
                                     Eigen::Ref<Eigen::VectorXd> bv) const
    {
        (void)q, (void)t, (void)Av, (void)bv;
    }

    // --- Sparse form, for large systems (docs/MATH.md §10) ---
    //
    // A system of many bodies (a chain) provides M, A, J and Av as sparse matrices whose pattern
    // stays the same over a run, so that SparseFundamentalEquation can reuse its symbolic
    // analysis and nothing per step costs more than the number of non-zeros. The defaults below
    // convert the dense matrices (O(n²) work and allocation): they serve tests and small systems.

    using SparseMatrix = Eigen::SparseMatrix<double>;
    /// True when the sparse functions are implemented without dense n×n work; the simulator
    /// then takes the sparse path for large systems (SparseFundamentalEquation::pays).
    virtual bool providesSparseMatrices() const { return false; }
    /// M(q, t) as a sparse n×n matrix.
    virtual void sparseMassMatrix(const Eigen::VectorXd& q, double t, SparseMatrix& M) const;
    /// A(q, q̇, t) (sparse m×n) and b of constraintMatrix.
    virtual void sparseConstraintMatrix(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                        double t, SparseMatrix& A, Eigen::VectorXd& b) const;
    /// φ(q, t) and J (sparse h×n) of positionConstraints.
    virtual void sparsePositionConstraints(const Eigen::VectorXd& q, double t, Eigen::VectorXd& phi,
                                           SparseMatrix& J) const;
    /// Av (sparse m×n) and bv of velocityConstraints.
    virtual void sparseVelocityConstraints(const Eigen::VectorXd& q, double t, SparseMatrix& Av,
                                           Eigen::VectorXd& bv) const;

    // --- Frictional contacts (stick–slip; docs/MATH.md §3) ---
    //
    // A contact has a slip velocity v = G(q, t) q̇ of dimension k (1 along a wire or a ring, the
    // whole velocity for a drag), with G's rows orthonormal. While it slides, the simulator adds
    // the kinetic friction −f Gᵀŵ to C (ŵ the unit slip direction, f = kineticFrictionForce); the
    // system's own nonIdealForce must therefore hold nothing but that friction (it is what
    // Simulator::evaluate reproduces for a sliding state). While it is stuck, the contact is the
    // ideal constraint G q̈ = −γ (γ = Ġ q̇) added to A, and the force those rows exert is the
    // static friction, reported in Qᶜₙᵢ; it holds while its size stays within stickForceLimit.

    /// Number of frictional contacts; default none.
    virtual int contactCount() const { return 0; }
    /// Name of a contact for traces and event files; default "contact" or "contact1", ...
    virtual std::string contactName(int contact) const;
    /// Dimension k of the contact's slip velocity.
    virtual int slipDimension(int contact) const
    {
        (void)contact;
        return 1;
    }
    /// G (k×n, orthonormal rows) and γ = Ġ q̇ (k) of the slip velocity v = G q̇, v̇ = G q̈ + γ.
    virtual void slipJacobian(int contact, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                              double t, Eigen::Ref<Eigen::MatrixXd> G,
                              Eigen::Ref<Eigen::VectorXd> gamma) const
    {
        (void)contact, (void)q, (void)qd, (void)t;
        G.setZero();
        gamma.setZero();
    }
    /// Size of the kinetic friction force while sliding: μ‖N‖ for Coulomb friction, a₀ for a
    /// drag of constant magnitude. Qci is the ideal constraint force (the normal force).
    virtual double kineticFrictionForce(int contact, const Eigen::VectorXd& q,
                                        const Eigen::VectorXd& qd, double t,
                                        const Eigen::VectorXd& Qci) const
    {
        (void)contact, (void)q, (void)qd, (void)t, (void)Qci;
        return 0.0;
    }
    /// Largest static friction force the contact can exert while stuck: μₛ‖N‖; a₀ for a drag.
    virtual double stickForceLimit(int contact, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                   double t, const Eigen::VectorXd& Qci) const
    {
        (void)contact, (void)q, (void)qd, (void)t, (void)Qci;
        return 0.0;
    }
    /// Signed slip velocity of a 1-D contact (G q̇; up the wire, counter-clockwise on the ring).
    /// A convenience for tests and views: it allocates, so the simulator does not use it.
    double slidingVelocity(int contact, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                           double t) const;

    // --- One-sided contacts (docs/MATH.md §11) ---
    //
    // A one-sided contact is a holonomic row φ(q, t) ≥ 0 of A whose force may only push
    // (λ ≥ 0). While it is closed it is an ideal constraint like any other; while it is open,
    // its rows of A, b, φ, J, Av, bv and its residuals are zero, so that nothing holds the body
    // to the surface. The simulator (UnilateralContacts) opens and closes contacts at events;
    // like the pieces below, the modes are the only state a system keeps.

    /// Number of one-sided contacts; default none.
    virtual int unilateralCount() const { return 0; }
    /// The contact's row of A (one of the holonomic rows).
    virtual int unilateralRow(int contact) const
    {
        (void)contact;
        return -1;
    }
    /// Name for traces and event files.
    virtual std::string unilateralName(int contact) const
    {
        return "contact" + std::to_string(contact + 1);
    }
    /// Newton's coefficient of restitution e, 0 ≤ e ≤ 1: φ̇⁺ = −e φ̇⁻ at an impact.
    virtual double restitution(int contact) const
    {
        (void)contact;
        return 0.0;
    }
    /// Opens (the surface lets the body go) or closes the contact.
    virtual void setUnilateralOpen(int contact, bool open) const { (void)contact, (void)open; }
    virtual bool unilateralOpen(int contact) const
    {
        (void)contact;
        return false;
    }
    /// φ(q, t) of the contact, open or closed (≥ 0 outside the surface).
    virtual double unilateralGap(int contact, const Eigen::VectorXd& q, double t) const
    {
        (void)contact, (void)q, (void)t;
        return 0.0;
    }

    // --- Equations in pieces (docs/MATH.md §6) ---
    //
    // A track made of pieces (the sliding chain's table top, rounded edge and side) changes the
    // equations where a body passes from one piece to the next, and the acceleration jumps
    // there. A step across such a change would be refused by the error control again and again
    // until it shrank to nothing. So a run fixes the pieces during each step (each piece's
    // equations extended smoothly past its end), locates where pieceMargin falls below zero on
    // the dense output, and fixes the pieces anew there, like a stick–slip event.

    /// True when the system's equations are made of pieces as above; default false.
    virtual bool hasPieces() const { return false; }
    /// Fixes the pieces from a state, each body's by where it is (a body on a border takes the
    /// piece it is in by the system's convention; once strictly past a border, the next). Until
    /// releasePieces, evaluations use them. The fixed pieces are the only state a system keeps:
    /// one system serves one run at a time.
    virtual void fixPieces(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t) const
    {
        (void)q, (void)qd, (void)t;
    }
    /// Back to the default: every evaluation picks the pieces from its own state.
    virtual void releasePieces() const {}
    /// Not negative while every body stays within its fixed piece (a distance to the nearest
    /// border), and not negative for pieces just fixed from the same state; 1 when none are
    /// fixed.
    virtual double pieceMargin(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t) const
    {
        (void)q, (void)qd, (void)t;
        return 1.0;
    }

    // --- The end of the scene's track (SimulationOptions::stopAtEnd) ---

    /// True when the scene has a place where its motion ends, such as the foot of the bead's
    /// wire; SceneDefinition::end says in words what it is.
    virtual bool hasEnd() const { return false; }
    /// Positive while the motion may go on; a run with stopAtEnd ends where it falls from above
    /// zero to zero or below (located on the dense output like a contact event).
    virtual double endFunction(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t) const
    {
        (void)q, (void)qd, (void)t;
        return 1.0;
    }

    /// Extra trace columns a scene appends (rigid body: w1, w2, w3, quat_norm).
    virtual std::vector<std::string> extraColumnNames() const { return {}; }
    /// SI unit of extra column i (rigid body: "1/s" for w1..w3, "" for quat_norm); default "".
    virtual std::string extraColumnUnit(int i) const
    {
        (void)i;
        return "";
    }
    virtual void extraColumns(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                              Eigen::VectorXd& values) const
    {
        (void)q, (void)qd, (void)t;
        values.resize(0);
    }
};

} // namespace clab
