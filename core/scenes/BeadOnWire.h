#pragma once

#include "scenes/SceneDefinition.h"
#include "scenes/SlidingParticle.h"

namespace clab {

/// \brief A bead sliding with Coulomb friction on a straight wire through the origin, inclined
/// at θ to the horizontal, under gravity (paper 003, example 1; docs/MATH.md §5).
///
/// q = (x, y); the wire is −x sin θ + y cos θ = 0, so A = [−sin θ, cos θ], b = 0, which stays
/// well conditioned up to a vertical wire. Friction C = −μ ‖Qᶜᵢ‖ q̇/‖q̇‖ while the bead slides;
/// at rest it sticks while the force along the wire stays within μₛ ‖Qᶜᵢ‖ (tan θ ≤ μₛ).
class BeadOnWire : public SlidingParticle {
public:
    /// From complete, validated values (see SceneDefinition::create).
    explicit BeadOnWire(const ParameterValues& values);

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

    // One frictional contact (stick–slip): slip velocity along the wire, up-slope positive.
    std::string contactName(int) const override { return "bead"; }
    void slipJacobian(int contact, const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                      Eigen::Ref<Eigen::MatrixXd> G,
                      Eigen::Ref<Eigen::VectorXd> gamma) const override;

    void initialState(Eigen::VectorXd& q0, Eigen::VectorXd& qd0) const override;
    /// s: position along the wire from the origin, up-slope positive [m].
    std::vector<std::string> extraColumnNames() const override { return {"s"}; }
    std::string extraColumnUnit(int) const override { return "m"; }
    void extraColumns(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                      Eigen::VectorXd& values) const override;

    /// The foot of the wire is its origin, s = 0: endFunction is s.
    bool hasEnd() const override { return true; }
    double endFunction(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                       double t) const override;

    double angle() const { return theta_; }         ///< θ in radians
    double initialArcLength() const { return s0_; } ///< s at the start [m]
    double initialSpeed() const { return v0_; }     ///< ṡ at the start, up-slope positive [m/s]

private:
    double theta_;
    double s0_;
    double v0_;
    double sin_;
    double cos_;
};

} // namespace clab
