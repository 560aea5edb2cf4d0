#pragma once

#include "model/MechanicalSystem.h"
#include "solve/ConfigurationProjection.h"

#include <Eigen/Dense>

namespace clab {

/// \brief A system with a hand on one of its points: a spring F = k (target − p(q)) pulls the
/// point towards the target, while the system runs (a drag in the 3D view during playback).
///
/// The spring is a given force, Q_s = Pᵀ F with P = ∂p/∂q (docs/MATH.md §12): the constraints
/// then act on it as on gravity. The target moves with the hand, so the spring has no fixed
/// potential; its power Q_s·q̇ is added to nonConservativePower, and the energy audit counts its
/// work with the other non-conservative given forces (W_given_nc) and still closes. Everything
/// else is the wrapped system's; the run starts from `q0`, `qd0` at `t0` (where the hand took
/// hold), not from the system's own initial state.
class SpringDrag : public MechanicalSystem {
public:
    SpringDrag(const MechanicalSystem& system, ConfigurationProjection::Point point,
               double stiffness, const Eigen::Vector3d& target, const Eigen::VectorXd& q0,
               const Eigen::VectorXd& qd0, double t0);

    /// A stiffness that makes the point, held by the spring, swing at about `frequency` Hz:
    /// k = (2π f)² m, m the point's effective mass 1/λ_max(P M⁻¹Pᵀ) at (q, t).
    static double stiffnessFor(const MechanicalSystem& system,
                               const ConfigurationProjection::Point& point,
                               const Eigen::VectorXd& q, double t, double frequency);

    void setTarget(const Eigen::Vector3d& target) { target_ = target; }
    const Eigen::Vector3d& target() const { return target_; }
    double stiffness() const { return stiffness_; }
    /// The spring's force in space, k (target − p(q)).
    Eigen::Vector3d springForce(const Eigen::VectorXd& q) const;
    /// The spring's generalized force Pᵀ k (target − p(q)).
    Eigen::VectorXd generalizedSpringForce(const Eigen::VectorXd& q) const;

    int dof() const override { return system_.dof(); }
    int constraintCount() const override { return system_.constraintCount(); }
    std::vector<std::string> coordinateNames() const override { return system_.coordinateNames(); }
    std::string coordinateUnit(int i) const override { return system_.coordinateUnit(i); }
    void massMatrix(const Eigen::VectorXd& q, double t, Eigen::MatrixXd& M) const override
    {
        system_.massMatrix(q, t, M);
    }
    bool massMatrixIsSingular() const override { return system_.massMatrixIsSingular(); }
    void givenForce(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                    Eigen::VectorXd& Q) const override;
    void constraintMatrix(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                          Eigen::MatrixXd& A, Eigen::VectorXd& b) const override
    {
        system_.constraintMatrix(q, qd, t, A, b);
    }
    void nonIdealForce(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                       const Eigen::VectorXd& Qci, Eigen::VectorXd& C) const override
    {
        system_.nonIdealForce(q, qd, t, Qci, C);
    }
    int residualCount() const override { return system_.residualCount(); }
    void constraintResiduals(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                             Eigen::VectorXd& r) const override
    {
        system_.constraintResiduals(q, qd, t, r);
    }
    double kineticEnergy(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                         double t) const override
    {
        return system_.kineticEnergy(q, qd, t);
    }
    double potentialEnergy(const Eigen::VectorXd& q, double t) const override
    {
        return system_.potentialEnergy(q, t);
    }
    double nonConservativePower(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                double t) const override;
    bool constraintsAreRheonomic() const override { return system_.constraintsAreRheonomic(); }
    double initialTime() const override { return t0_; }
    void initialState(Eigen::VectorXd& q0, Eigen::VectorXd& qd0) const override;
    int holonomicCount() const override { return system_.holonomicCount(); }
    bool providesConstraintFunctions() const override
    {
        return system_.providesConstraintFunctions();
    }
    void positionConstraints(const Eigen::VectorXd& q, double t, Eigen::Ref<Eigen::VectorXd> phi,
                             Eigen::Ref<Eigen::MatrixXd> J) const override
    {
        system_.positionConstraints(q, t, phi, J);
    }
    void velocityConstraints(const Eigen::VectorXd& q, double t, Eigen::Ref<Eigen::MatrixXd> Av,
                             Eigen::Ref<Eigen::VectorXd> bv) const override
    {
        system_.velocityConstraints(q, t, Av, bv);
    }
    bool providesSparseMatrices() const override { return system_.providesSparseMatrices(); }
    void sparseMassMatrix(const Eigen::VectorXd& q, double t, SparseMatrix& M) const override
    {
        system_.sparseMassMatrix(q, t, M);
    }
    void sparseConstraintMatrix(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                                SparseMatrix& A, Eigen::VectorXd& b) const override
    {
        system_.sparseConstraintMatrix(q, qd, t, A, b);
    }
    void sparsePositionConstraints(const Eigen::VectorXd& q, double t, Eigen::VectorXd& phi,
                                   SparseMatrix& J) const override
    {
        system_.sparsePositionConstraints(q, t, phi, J);
    }
    void sparseVelocityConstraints(const Eigen::VectorXd& q, double t, SparseMatrix& Av,
                                   Eigen::VectorXd& bv) const override
    {
        system_.sparseVelocityConstraints(q, t, Av, bv);
    }
    int contactCount() const override { return system_.contactCount(); }
    std::string contactName(int contact) const override { return system_.contactName(contact); }
    int slipDimension(int contact) const override { return system_.slipDimension(contact); }
    void slipJacobian(int contact, const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                      Eigen::Ref<Eigen::MatrixXd> G,
                      Eigen::Ref<Eigen::VectorXd> gamma) const override
    {
        system_.slipJacobian(contact, q, qd, t, G, gamma);
    }
    double kineticFrictionForce(int contact, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                double t, const Eigen::VectorXd& Qci) const override
    {
        return system_.kineticFrictionForce(contact, q, qd, t, Qci);
    }
    double stickForceLimit(int contact, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                           double t, const Eigen::VectorXd& Qci) const override
    {
        return system_.stickForceLimit(contact, q, qd, t, Qci);
    }
    bool hasPieces() const override { return system_.hasPieces(); }
    void fixPieces(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t) const override
    {
        system_.fixPieces(q, qd, t);
    }
    void releasePieces() const override { system_.releasePieces(); }
    double pieceMargin(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t) const override
    {
        return system_.pieceMargin(q, qd, t);
    }
    bool hasEnd() const override { return system_.hasEnd(); }
    double endFunction(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t) const override
    {
        return system_.endFunction(q, qd, t);
    }
    std::vector<std::string> extraColumnNames() const override
    {
        return system_.extraColumnNames();
    }
    std::string extraColumnUnit(int i) const override { return system_.extraColumnUnit(i); }
    void extraColumns(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                      Eigen::VectorXd& values) const override
    {
        system_.extraColumns(q, qd, t, values);
    }

private:
    const MechanicalSystem& system_;
    ConfigurationProjection::Point point_;
    double stiffness_;
    Eigen::Vector3d target_;
    Eigen::VectorXd q0_, qd0_;
    double t0_;
};

} // namespace clab
