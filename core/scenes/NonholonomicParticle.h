#pragma once

#include "model/MechanicalSystem.h"
#include "model/ParameterSpec.h"
#include "scenes/SceneDefinition.h"

namespace clab {

/// \brief A particle in space bound by the nonholonomic constraint ẏ = z ẋ, under a constant
/// given force, with a drag of constant magnitude (paper 003, example 3; paper 001, example 1).
///
/// q = (x, y, z); A = [−z, 1, 0], b = ẋ ż; C = −a₀ q̇/‖q̇‖.
class NonholonomicParticle : public MechanicalSystem {
public:
    /// From complete, validated values (see SceneDefinition::create).
    explicit NonholonomicParticle(const ParameterValues& values);

    static SceneDefinition definition();
    /// The start parameters that make the scene start in (q, q̇) on its constraints (a drag
    /// in the 3D view; core/scenes/SceneStart).
    static ParameterValues startFromState(const ParameterValues& values, const Eigen::VectorXd& q,
                                          const Eigen::VectorXd& qd);

    int dof() const override { return 3; }
    int constraintCount() const override { return 1; }
    std::vector<std::string> coordinateNames() const override { return {"x", "y", "z"}; }

    void massMatrix(const Eigen::VectorXd& q, double t, Eigen::MatrixXd& M) const override;
    void givenForce(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                    Eigen::VectorXd& Q) const override;
    void constraintMatrix(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                          Eigen::MatrixXd& A, Eigen::VectorXd& b) const override;
    void nonIdealForce(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                       const Eigen::VectorXd& Qci, Eigen::VectorXd& C) const override;

    int residualCount() const override { return 1; }
    void constraintResiduals(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                             Eigen::VectorXd& r) const override;

    bool providesConstraintFunctions() const override { return true; }
    void velocityConstraints(const Eigen::VectorXd& q, double t, Eigen::Ref<Eigen::MatrixXd> Av,
                             Eigen::Ref<Eigen::VectorXd> bv) const override;

    // The drag as kinetic friction (stick–slip): it stops the particle in finite time and then
    // holds it while the allowed part of the given force stays within a₀. The slip velocity is
    // the velocity in the orthonormal basis (1, z, 0)/√(1 + z²), (0, 0, 1) of the allowed
    // directions, so the stick rows do not repeat the constraint.
    int contactCount() const override { return 1; }
    std::string contactName(int) const override { return "drag"; }
    int slipDimension(int) const override { return 2; }
    void slipJacobian(int contact, const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                      Eigen::Ref<Eigen::MatrixXd> G,
                      Eigen::Ref<Eigen::VectorXd> gamma) const override;
    double kineticFrictionForce(int contact, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                double t, const Eigen::VectorXd& Qci) const override;
    double stickForceLimit(int contact, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                           double t, const Eigen::VectorXd& Qci) const override;

    double kineticEnergy(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                         double t) const override;
    double potentialEnergy(const Eigen::VectorXd& q, double t) const override;

    void initialState(Eigen::VectorXd& q0, Eigen::VectorXd& qd0) const override;

    double mass() const { return mass_; }
    const Eigen::Vector3d& force() const { return force_; }
    double drag() const { return a0_; }
    /// The same particle with drag coefficient `a0` (the 3D view sizes its grid by a0 = 0).
    NonholonomicParticle withDrag(double a0) const
    {
        NonholonomicParticle other = *this;
        other.a0_ = a0;
        return other;
    }

private:
    double mass_;
    Eigen::Vector3d force_;
    double a0_;
    Eigen::Vector3d q0_;
    double xdot0_;
    double zdot0_;
};

} // namespace clab
