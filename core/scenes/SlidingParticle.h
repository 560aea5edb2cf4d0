#pragma once

#include "model/MechanicalSystem.h"
#include "model/ParameterSpec.h"

#include <string>

namespace clab {

/// \brief What the bead on a wire and the particle on a ring share: a particle of mass m in a
/// vertical plane, q = (x, y), under gravity −m g ŷ, held on one curve (one holonomic
/// constraint, one frictional contact) with Coulomb friction.
///
/// M = m I, Q = (0, −m g); while sliding C = −μ ‖Qᶜᵢ‖ q̇/‖q̇‖ (docs/MATH.md §5), and at rest the
/// contact sticks while the force along the curve stays within μₛ ‖Qᶜᵢ‖. A subclass gives the
/// curve: its constraint rows, residuals, slip direction and the initial state.
class SlidingParticle : public MechanicalSystem {
public:
    int dof() const override { return 2; }
    int constraintCount() const override { return 1; }
    std::vector<std::string> coordinateNames() const override { return {"x", "y"}; }

    void massMatrix(const Eigen::VectorXd& q, double t, Eigen::MatrixXd& M) const override;
    void givenForce(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                    Eigen::VectorXd& Q) const override;
    void nonIdealForce(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                       const Eigen::VectorXd& Qci, Eigen::VectorXd& C) const override;

    int residualCount() const override { return 2; }
    int holonomicCount() const override { return 1; }
    bool providesConstraintFunctions() const override { return true; }

    int contactCount() const override { return 1; }
    double kineticFrictionForce(int contact, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                double t, const Eigen::VectorXd& Qci) const override;
    double stickForceLimit(int contact, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                           double t, const Eigen::VectorXd& Qci) const override;

    double kineticEnergy(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                         double t) const override;
    double potentialEnergy(const Eigen::VectorXd& q, double t) const override;

    double mass() const { return mass_; }
    double gravity() const { return g_; }
    double friction() const { return mu_; }
    double staticFriction() const { return muS_; } ///< μₛ ≥ μ

    /// The parameters every sliding particle has: "mass" (of `body`, e.g. "the bead") and "g".
    static std::vector<ParameterSpec> bodyParameters(const std::string& body);
    /// "mu" with its default, and "mu_s", which follows it.
    static std::vector<ParameterSpec> frictionParameters(double defaultMu);

protected:
    /// Reads mass, g, mu and mu_s (mu_s follows mu when not given, as SceneDefinition does).
    explicit SlidingParticle(const ParameterValues& values);

private:
    double mass_;
    double g_;
    double mu_;
    double muS_;
};

} // namespace clab
