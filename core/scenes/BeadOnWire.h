#pragma once

#include "MechanicalSystem.h"
#include "ParameterSpec.h"
#include "SceneDefinition.h"

namespace clab {

/// \brief A bead sliding with Coulomb friction on a straight wire through the origin, inclined
/// at θ to the horizontal, under gravity (paper 003, example 1; MATH.md §5).
///
/// q = (x, y); the wire is −x sin θ + y cos θ = 0, so A = [−sin θ, cos θ], b = 0, which stays
/// well conditioned up to a vertical wire. Friction C = −μ ‖Qᶜᵢ‖ q̇/‖q̇‖ while the bead slides;
/// at rest it sticks while the force along the wire stays within μₛ ‖Qᶜᵢ‖ (tan θ ≤ μₛ).
class BeadOnWire : public MechanicalSystem {
public:
    /// From complete, validated values (see SceneDefinition::create).
    explicit BeadOnWire(const ParameterValues& values);

    static SceneDefinition definition();

    int dof() const override { return 2; }
    int constraintCount() const override { return 1; }
    std::vector<std::string> coordinateNames() const override { return {"x", "y"}; }

    void massMatrix(const Eigen::VectorXd& q, double t, Eigen::MatrixXd& M) const override;
    void givenForce(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                    Eigen::VectorXd& Q) const override;
    void constraintMatrix(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                          Eigen::MatrixXd& A, Eigen::VectorXd& b) const override;
    void nonIdealForce(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                       const Eigen::VectorXd& Qci, Eigen::VectorXd& C) const override;

    int residualCount() const override { return 2; }
    void constraintResiduals(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                             Eigen::VectorXd& r) const override;

    int holonomicCount() const override { return 1; }
    bool providesConstraintFunctions() const override { return true; }
    void positionConstraints(const Eigen::VectorXd& q, double t, Eigen::Ref<Eigen::VectorXd> phi,
                             Eigen::Ref<Eigen::MatrixXd> J) const override;
    void velocityConstraints(const Eigen::VectorXd& q, double t, Eigen::Ref<Eigen::MatrixXd> Av,
                             Eigen::Ref<Eigen::VectorXd> bv) const override;

    // One frictional contact (stick–slip): slip velocity along the wire, up-slope positive.
    int contactCount() const override { return 1; }
    std::string contactName(int) const override { return "bead"; }
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
    double gravity() const { return g_; }
    double angle() const { return theta_; } ///< θ in radians
    double friction() const { return mu_; }
    double staticFriction() const { return muS_; } ///< μₛ ≥ μ

private:
    double mass_;
    double g_;
    double theta_;
    double mu_;
    double muS_;
    double s0_;
    double v0_;
    double sin_;
    double cos_;
};

} // namespace clab
