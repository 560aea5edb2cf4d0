#pragma once

#include "model/MechanicalSystem.h"
#include "model/ParameterSpec.h"
#include "scenes/SceneDefinition.h"

namespace clab {

/// \brief A particle in the plane bound by the rheonomic nonholonomic constraint
/// ẋ − t ẏ = a(t), a(t) = a₀ + a₁ sin(ω t), under a constant force (paper 001, example 2).
///
/// q = (x, y); A = [1, −t], b = ẏ + ȧ(t). The constraint depends on time, so its ideal force
/// does work on the actual motion.
class AcatastaticParticle : public MechanicalSystem {
public:
    /// From complete, validated values (see SceneDefinition::create).
    explicit AcatastaticParticle(const ParameterValues& values);

    static SceneDefinition definition();
    /// The start parameters that make the scene start in (q, q̇) on its constraints (a drag
    /// in the 3D view; core/scenes/SceneStart).
    static ParameterValues startFromState(const ParameterValues& values, const Eigen::VectorXd& q,
                                          const Eigen::VectorXd& qd);

    int dof() const override { return 2; }
    int constraintCount() const override { return 1; }
    std::vector<std::string> coordinateNames() const override { return {"x", "y"}; }

    void massMatrix(const Eigen::VectorXd& q, double t, Eigen::MatrixXd& M) const override;
    void givenForce(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                    Eigen::VectorXd& Q) const override;
    void constraintMatrix(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                          Eigen::MatrixXd& A, Eigen::VectorXd& b) const override;

    int residualCount() const override { return 1; }
    void constraintResiduals(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                             Eigen::VectorXd& r) const override;

    bool providesConstraintFunctions() const override { return true; }
    void velocityConstraints(const Eigen::VectorXd& q, double t, Eigen::Ref<Eigen::MatrixXd> Av,
                             Eigen::Ref<Eigen::VectorXd> bv) const override;

    double kineticEnergy(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                         double t) const override;
    double potentialEnergy(const Eigen::VectorXd& q, double t) const override;
    bool constraintsAreRheonomic() const override { return true; }

    void initialState(Eigen::VectorXd& q0, Eigen::VectorXd& qd0) const override;

    /// a(t) = a₀ + a₁ sin(ω t) and its time derivative.
    double a(double t) const;
    double aDot(double t) const;

    double mass() const { return mass_; }
    const Eigen::Vector2d& force() const { return force_; }

private:
    double mass_;
    Eigen::Vector2d force_;
    double a0_;
    double a1_;
    double omega_;
    double x0_;
    double y0_;
    double ydot0_;
};

} // namespace clab
