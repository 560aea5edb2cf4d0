#pragma once

#include "scenes/SceneDefinition.h"
#include "scenes/SlidingParticle.h"

namespace clab {

/// \brief A particle on a vertical circular ring of radius R centred at the origin, under
/// gravity, with Coulomb friction (paper 003, example 2; docs/MATH.md §5).
///
/// q = (x, y); x² + y² = R² gives A = [x, y], b = −(ẋ² + ẏ²). Friction C = −μ ‖Qᶜᵢ‖ q̇/‖q̇‖.
class RingWithFriction : public SlidingParticle {
public:
    /// From complete, validated values (see SceneDefinition::create).
    explicit RingWithFriction(const ParameterValues& values);

    static SceneDefinition definition();
    /// The start parameters that make the scene start in (q, q̇) on its constraints (a drag
    /// in the 3D view; core/scenes/SceneStart).
    static ParameterValues startFromState(const ParameterValues& values, const Eigen::VectorXd& q,
                                          const Eigen::VectorXd& qd);

    void constraintMatrix(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                          Eigen::MatrixXd& A, Eigen::VectorXd& b) const override;

    void constraintResiduals(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                             Eigen::VectorXd& r) const override;

    void positionConstraints(const Eigen::VectorXd& q, double t, Eigen::Ref<Eigen::VectorXd> phi,
                             Eigen::Ref<Eigen::MatrixXd> J) const override;
    void velocityConstraints(const Eigen::VectorXd& q, double t, Eigen::Ref<Eigen::MatrixXd> Av,
                             Eigen::Ref<Eigen::VectorXd> bv) const override;

    // One frictional contact (stick–slip): slip velocity along the ring, counter-clockwise
    // positive.
    std::string contactName(int) const override { return "ring"; }
    void slipJacobian(int contact, const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                      Eigen::Ref<Eigen::MatrixXd> G,
                      Eigen::Ref<Eigen::VectorXd> gamma) const override;

    void initialState(Eigen::VectorXd& q0, Eigen::VectorXd& qd0) const override;
    /// phi: angle from the lowest point, counter-clockwise, in (−π, π] [rad].
    std::vector<std::string> extraColumnNames() const override { return {"phi"}; }
    std::string extraColumnUnit(int) const override { return "rad"; }
    void extraColumns(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                      Eigen::VectorXd& values) const override;

    double radius() const { return radius_; }

private:
    double radius_;
    double phi0_; ///< radians from the lowest point, counter-clockwise
    double v0_;
};

} // namespace clab
