#pragma once

#include "model/MechanicalSystem.h"
#include "model/ParameterSpec.h"
#include "solve/FundamentalEquation.h"
#include "solve/SparseFundamentalEquation.h"
#include "symbolic/SymbolicModel.h"

#include <memory>
#include <string>
#include <vector>

namespace clab {

/// \brief A MechanicalSystem evaluated from a SymbolicModel's tapes, with one set of parameter
/// values: a format-2 file runs through the same Simulator, events, stabilization and traces as
/// the hand-coded scenes.
///
/// The constructor completes the initial state: values the file leaves out are found from the
/// constraints (Newton's method from 0 for coordinates, the smallest change for velocities);
/// initialNotes() says which values were computed. Each system owns copies of the tapes, so
/// systems made from one model can run on different threads.
class SymbolicSystem : public MechanicalSystem {
public:
    /// Throws ConstraintLabError(InvalidInitialState) when the given initial values violate
    /// the constraints and the values left out cannot make up for it.
    SymbolicSystem(std::shared_ptr<const SymbolicModel> model, const ParameterValues& values);
    ~SymbolicSystem() override;

    const SymbolicModel& model() const { return *model_; }
    /// One line per initial value computed from the constraints, e.g. "y1 = -0.866025".
    const std::vector<std::string>& initialNotes() const { return notes_; }

    int dof() const override { return n_; }
    int constraintCount() const override { return m_; }
    std::vector<std::string> coordinateNames() const override;
    std::string coordinateUnit(int i) const override;

    void massMatrix(const Eigen::VectorXd& q, double t, Eigen::MatrixXd& M) const override;
    void givenForce(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                    Eigen::VectorXd& Q) const override;
    void constraintMatrix(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                          Eigen::MatrixXd& A, Eigen::VectorXd& b) const override;
    void nonIdealForce(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                       const Eigen::VectorXd& Qci, Eigen::VectorXd& C) const override;

    int residualCount() const override { return 2 * h_ + (m_ - h_); }
    void constraintResiduals(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                             Eigen::VectorXd& r) const override;

    double kineticEnergy(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                         double t) const override;
    double potentialEnergy(const Eigen::VectorXd& q, double t) const override;
    double nonConservativePower(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                double t) const override;
    bool constraintsAreRheonomic() const override { return model_->rheonomic(); }

    void initialState(Eigen::VectorXd& q0, Eigen::VectorXd& qd0) const override;

    int holonomicCount() const override { return h_; }
    bool providesConstraintFunctions() const override { return true; }
    void positionConstraints(const Eigen::VectorXd& q, double t, Eigen::Ref<Eigen::VectorXd> phi,
                             Eigen::Ref<Eigen::MatrixXd> J) const override;
    void velocityConstraints(const Eigen::VectorXd& q, double t, Eigen::Ref<Eigen::MatrixXd> Av,
                             Eigen::Ref<Eigen::VectorXd> bv) const override;

    /// M, A, J and Av from the tapes of their structural non-zeros (O(non-zeros), a fixed
    /// pattern), so that a large format-2 system takes the simulator's sparse path as the
    /// built-in chain does. Offered when M is constant and positive definite (the sparse path
    /// needs M > 0 everywhere; a varying M may turn singular, which the dense path handles).
    bool providesSparseMatrices() const override { return sparse_; }
    void sparseMassMatrix(const Eigen::VectorXd& q, double t, SparseMatrix& M) const override;
    void sparseConstraintMatrix(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                                SparseMatrix& A, Eigen::VectorXd& b) const override;
    void sparsePositionConstraints(const Eigen::VectorXd& q, double t, Eigen::VectorXd& phi,
                                   SparseMatrix& J) const override;
    void sparseVelocityConstraints(const Eigen::VectorXd& q, double t, SparseMatrix& Av,
                                   Eigen::VectorXd& bv) const override;

    int contactCount() const override { return static_cast<int>(model_->contacts().size()); }
    std::string contactName(int contact) const override;
    int slipDimension(int contact) const override;
    void slipJacobian(int contact, const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                      Eigen::Ref<Eigen::MatrixXd> G,
                      Eigen::Ref<Eigen::VectorXd> gamma) const override;
    double kineticFrictionForce(int contact, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                double t, const Eigen::VectorXd& Qci) const override;
    double stickForceLimit(int contact, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                           double t, const Eigen::VectorXd& Qci) const override;

    int unilateralCount() const override { return static_cast<int>(open_.size()); }
    int unilateralRow(int contact) const override;
    std::string unilateralName(int contact) const override;
    double restitution(int contact) const override;
    void setUnilateralOpen(int contact, bool open) const override;
    bool unilateralOpen(int contact) const override;
    double unilateralGap(int contact, const Eigen::VectorXd& q, double t) const override;

    bool hasEnd() const override { return model_->hasEnd(); }
    double endFunction(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                       double t) const override;

    std::vector<std::string> extraColumnNames() const override { return model_->columnNames(); }
    std::string extraColumnUnit(int i) const override;
    void extraColumns(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                      Eigen::VectorXd& values) const override;

private:
    /// (t, q) or (t, q, q̇) into the tapes' input buffer.
    const double* inputs(double t, const Eigen::VectorXd& q) const;
    const double* inputs(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& qd) const;
    /// The size of the force each row of A exerts, |λᵣ| ‖Aᵣ‖, from Qᶜᵢ = Aᵀλ (minimum norm).
    void rowForces(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                   const Eigen::VectorXd& Qci) const;
    /// The ideal solve into idealOut_ and the norm of each row of A into rowNorms_: sparse
    /// for a large system, as the simulator's path.
    void idealSolve(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t) const;
    /// Offset of a contact's outputs on the contact tape.
    int contactOffset(int contact) const
    {
        return contactOffsets_[static_cast<std::size_t>(contact)];
    }
    /// The contact's friction size: μ N (Coulomb) or the drag's magnitude; `limit` for μₛ.
    double frictionSize(int contact, const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                        const Eigen::VectorXd& Qci, bool limit) const;
    /// Whether M is constant (no varying instruction on its tape) and positive definite.
    bool constantDefiniteMass() const;
    void completeInitialState(const std::vector<bool>& given);
    void completePositions(const std::vector<bool>& given);
    void completeVelocities(const std::vector<bool>& given);
    /// The restitutions from the initial tape's outputs after the initial values, checked.
    void readRestitutions(const double* values);
    /// Refuses a start inside a one-sided constraint; closes those the start touches.
    void checkUnilateralStart();
    /// Zeroes the rows (and right-hand sides) of the open one-sided contacts.
    void zeroOpenRows(Eigen::Ref<Eigen::MatrixXd> rows, Eigen::Ref<Eigen::VectorXd> rhs) const;
    void zeroOpenRows(SparseMatrix& rows, Eigen::VectorXd& rhs) const;
    /// "'rod1'" or "constraint 2", for messages.
    std::string constraintLabel(int row) const;
    /// The coordinates (or velocities) the file left out, "none" when none.
    std::string leftOutNames(const std::vector<bool>& given, bool velocities) const;

    std::shared_ptr<const SymbolicModel> model_;
    std::unique_ptr<SymbolicModel::Tapes>
        tapes_; ///< this system's copies (symbolic/SymbolicTapes.h)
    int n_ = 0, m_ = 0, h_ = 0;
    bool sparse_ = false;
    std::vector<int> contactOffsets_;
    Eigen::VectorXd q0_, qd0_;
    std::vector<std::string> notes_;
    std::vector<double> restitution_;
    mutable std::vector<char> open_; ///< per one-sided contact: 1 open (the run's mode)

    // Scratch, sized once (the dense n×n pieces on first use): evaluation allocates nothing.
    mutable std::vector<double> in_, out_;
    mutable Eigen::MatrixXd A_, At_;
    mutable Eigen::VectorXd b_, lambda_, rowForce_, nInputs_;
    mutable Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod_;
    mutable Eigen::LLT<Eigen::MatrixXd> gram_;
    mutable std::unique_ptr<FundamentalEquation> ideal_;
    mutable ConstrainedAcceleration idealOut_;
    mutable Eigen::MatrixXd M_;
    mutable Eigen::VectorXd Q_, rowNorms_;
    mutable std::unique_ptr<SparseFundamentalEquation> sparseIdeal_;
    mutable SparseMatrix sparseM_, sparseA_;
};

} // namespace clab
