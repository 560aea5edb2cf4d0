#pragma once

#include "model/MechanicalSystem.h"

#include <Eigen/Dense>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace clab::testing {

/// \brief Test-only systems with known solutions, independent of the built-in scenes.

/// A particle in the (x, y) plane under uniform gravity −g ŷ, no constraints.
class FreeParticle : public MechanicalSystem {
public:
    FreeParticle(double mass, double g, const Eigen::Vector2d& q0, const Eigen::Vector2d& v0)
        : m_(mass), g_(g), q0_(q0), v0_(v0)
    {
    }

    int dof() const override { return 2; }
    int constraintCount() const override { return 0; }
    std::vector<std::string> coordinateNames() const override { return {"x", "y"}; }
    void massMatrix(const Eigen::VectorXd&, double, Eigen::MatrixXd& M) const override
    {
        M = m_ * Eigen::Matrix2d::Identity();
    }
    void givenForce(const Eigen::VectorXd&, const Eigen::VectorXd&, double,
                    Eigen::VectorXd& Q) const override
    {
        Q << 0.0, -m_ * g_;
    }
    void constraintMatrix(const Eigen::VectorXd&, const Eigen::VectorXd&, double,
                          Eigen::MatrixXd& A, Eigen::VectorXd& b) const override
    {
        A.resize(0, 2);
        b.resize(0);
    }
    int residualCount() const override { return 0; }
    void constraintResiduals(const Eigen::VectorXd&, const Eigen::VectorXd&, double,
                             Eigen::VectorXd& r) const override
    {
        r.resize(0);
    }
    double potentialEnergy(const Eigen::VectorXd& q, double) const override
    {
        return m_ * g_ * q[1];
    }
    void initialState(Eigen::VectorXd& q0, Eigen::VectorXd& qd0) const override
    {
        q0 = q0_;
        qd0 = v0_;
    }

private:
    double m_, g_;
    Eigen::Vector2d q0_, v0_;
};

/// m ẍ = −k x, one coordinate.
class HarmonicOscillator : public MechanicalSystem {
public:
    HarmonicOscillator(double mass, double k, double x0, double v0)
        : m_(mass), k_(k), x0_(x0), v0_(v0)
    {
    }

    double omega() const { return std::sqrt(k_ / m_); }
    /// Closed form x(t) and ẋ(t).
    double x(double t) const
    {
        return x0_ * std::cos(omega() * t) + v0_ / omega() * std::sin(omega() * t);
    }
    double v(double t) const
    {
        return -x0_ * omega() * std::sin(omega() * t) + v0_ * std::cos(omega() * t);
    }

    int dof() const override { return 1; }
    int constraintCount() const override { return 0; }
    std::vector<std::string> coordinateNames() const override { return {"x"}; }
    void massMatrix(const Eigen::VectorXd&, double, Eigen::MatrixXd& M) const override
    {
        M(0, 0) = m_;
    }
    void givenForce(const Eigen::VectorXd& q, const Eigen::VectorXd&, double t,
                    Eigen::VectorXd& Q) const override
    {
        Q[0] = -k_ * q[0] + poison(t);
    }
    void constraintMatrix(const Eigen::VectorXd&, const Eigen::VectorXd&, double,
                          Eigen::MatrixXd& A, Eigen::VectorXd& b) const override
    {
        A.resize(0, 1);
        b.resize(0);
    }
    int residualCount() const override { return 0; }
    void constraintResiduals(const Eigen::VectorXd&, const Eigen::VectorXd&, double,
                             Eigen::VectorXd& r) const override
    {
        r.resize(0);
    }
    double potentialEnergy(const Eigen::VectorXd& q, double) const override
    {
        return 0.5 * k_ * q[0] * q[0];
    }
    void initialState(Eigen::VectorXd& q0, Eigen::VectorXd& qd0) const override
    {
        q0.resize(1);
        qd0.resize(1);
        q0[0] = x0_;
        qd0[0] = v0_;
    }

    /// From this time on the given force is NaN (to test error reporting).
    void poisonAfter(double t) { poisonTime_ = t; }

private:
    double poison(double t) const
    {
        return t > poisonTime_ ? std::numeric_limits<double>::quiet_NaN() : 0.0;
    }

    double m_, k_, x0_, v0_;
    double poisonTime_ = std::numeric_limits<double>::infinity();
};

/// A particle of mass m in the vertical (x, y) plane held on the circle x² + y² = L(t)² by a
/// constraint (a pendulum in Cartesian coordinates), L(t) = L0 + radiusRate·t.
/// θ is measured from the downward vertical: (x, y) = L (sin θ, −cos θ).
/// Optional non-ideal force C = −c ‖Qᶜᵢ‖ q̇ (velocity-proportional friction, pressed by the
/// normal force) and a given viscous drag −d q̇ (non-conservative).
class ParticleOnCircle : public MechanicalSystem {
public:
    struct Params {
        double m = 1.0, g = 9.81, L = 1.0;
        double theta0 = 0.5, omega0 = 0.0;
        double c = 0.0;          ///< non-ideal friction coefficient, 1/(m/s)
        double d = 0.0;          ///< given viscous drag, kg/s
        double radiusRate = 0.0; ///< L̇, m/s; non-zero makes the constraint rheonomic
    };

    explicit ParticleOnCircle(const Params& p) : p_(p) {}

    double radius(double t) const { return p_.L + p_.radiusRate * t; }

    int dof() const override { return 2; }
    int constraintCount() const override { return 1; }
    std::vector<std::string> coordinateNames() const override { return {"x", "y"}; }
    void massMatrix(const Eigen::VectorXd&, double, Eigen::MatrixXd& M) const override
    {
        M = p_.m * Eigen::Matrix2d::Identity();
    }
    void givenForce(const Eigen::VectorXd&, const Eigen::VectorXd& qd, double,
                    Eigen::VectorXd& Q) const override
    {
        Q[0] = -p_.d * qd[0];
        Q[1] = -p_.m * p_.g - p_.d * qd[1];
    }
    // φ = x² + y² − L(t)² twice differentiated and halved: x ẍ + y ÿ = L̇² − (ẋ² + ẏ²).
    void constraintMatrix(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double,
                          Eigen::MatrixXd& A, Eigen::VectorXd& b) const override
    {
        A(0, 0) = q[0];
        A(0, 1) = q[1];
        b[0] = p_.radiusRate * p_.radiusRate - qd.squaredNorm();
    }
    void nonIdealForce(const Eigen::VectorXd&, const Eigen::VectorXd& qd, double,
                       const Eigen::VectorXd& Qci, Eigen::VectorXd& C) const override
    {
        C = -p_.c * Qci.norm() * qd;
    }
    // φ = (x² + y² − L²)/2, scaled so that ∂φ/∂q = A.
    int holonomicCount() const override { return 1; }
    bool providesConstraintFunctions() const override { return true; }
    void positionConstraints(const Eigen::VectorXd& q, double t, Eigen::Ref<Eigen::VectorXd> phi,
                             Eigen::Ref<Eigen::MatrixXd> J) const override
    {
        const double L = radius(t);
        phi[0] = 0.5 * (q.squaredNorm() - L * L);
        J(0, 0) = q[0];
        J(0, 1) = q[1];
    }
    void velocityConstraints(const Eigen::VectorXd& q, double t, Eigen::Ref<Eigen::MatrixXd> Av,
                             Eigen::Ref<Eigen::VectorXd> bv) const override
    {
        Av(0, 0) = q[0];
        Av(0, 1) = q[1];
        bv[0] = radius(t) * p_.radiusRate;
    }
    int residualCount() const override { return 2; }
    void constraintResiduals(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                             Eigen::VectorXd& r) const override
    {
        const double L = radius(t);
        r[0] = q.squaredNorm() - L * L;
        r[1] = 2.0 * (q.dot(qd) - L * p_.radiusRate);
    }
    double potentialEnergy(const Eigen::VectorXd& q, double) const override
    {
        return p_.m * p_.g * q[1];
    }
    double nonConservativePower(const Eigen::VectorXd&, const Eigen::VectorXd& qd,
                                double) const override
    {
        return -p_.d * qd.squaredNorm();
    }
    bool constraintsAreRheonomic() const override { return p_.radiusRate != 0.0; }
    void initialState(Eigen::VectorXd& q0, Eigen::VectorXd& qd0) const override
    {
        const double s = std::sin(p_.theta0), c = std::cos(p_.theta0);
        q0.resize(2);
        qd0.resize(2);
        q0 << p_.L * s, -p_.L * c;
        // Tangential L ω plus the radial speed L̇ that keeps φ̇ = 0.
        qd0 << p_.L * p_.omega0 * c + p_.radiusRate * s, p_.L * p_.omega0 * s - p_.radiusRate * c;
    }
    std::vector<std::string> extraColumnNames() const override { return {"theta"}; }
    void extraColumns(const Eigen::VectorXd& q, const Eigen::VectorXd&, double,
                      Eigen::VectorXd& values) const override
    {
        values.resize(1);
        values[0] = std::atan2(q[0], -q[1]);
    }

private:
    Params p_;
};

/// q = (x, y) with M = diag(m, 0): y carries no mass and is tied to x by y − x = 0. Gravity
/// acts on y only, so the pair falls as one: ẍ = ÿ = −g. [M; A] has full rank, so the
/// acceleration is unique although M is singular (docs/MATH.md §4).
class MasslessFollower : public MechanicalSystem {
public:
    MasslessFollower(double mass, double g, double x0, double v0)
        : m_(mass), g_(g), x0_(x0), v0_(v0)
    {
    }

    int dof() const override { return 2; }
    int constraintCount() const override { return 1; }
    std::vector<std::string> coordinateNames() const override { return {"x", "y"}; }
    void massMatrix(const Eigen::VectorXd&, double, Eigen::MatrixXd& M) const override
    {
        M.setZero();
        M(0, 0) = m_;
    }
    bool massMatrixIsSingular() const override { return true; }
    void givenForce(const Eigen::VectorXd&, const Eigen::VectorXd&, double,
                    Eigen::VectorXd& Q) const override
    {
        Q << 0.0, -m_ * g_;
    }
    void constraintMatrix(const Eigen::VectorXd&, const Eigen::VectorXd&, double,
                          Eigen::MatrixXd& A, Eigen::VectorXd& b) const override
    {
        A << -1.0, 1.0;
        b[0] = 0.0;
    }
    int holonomicCount() const override { return 1; }
    bool providesConstraintFunctions() const override { return true; }
    void positionConstraints(const Eigen::VectorXd& q, double, Eigen::Ref<Eigen::VectorXd> phi,
                             Eigen::Ref<Eigen::MatrixXd> J) const override
    {
        phi[0] = q[1] - q[0];
        J << -1.0, 1.0;
    }
    void velocityConstraints(const Eigen::VectorXd&, double, Eigen::Ref<Eigen::MatrixXd> Av,
                             Eigen::Ref<Eigen::VectorXd> bv) const override
    {
        Av << -1.0, 1.0;
        bv[0] = 0.0;
    }
    int residualCount() const override { return 2; }
    void constraintResiduals(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double,
                             Eigen::VectorXd& r) const override
    {
        r << q[1] - q[0], qd[1] - qd[0];
    }
    double potentialEnergy(const Eigen::VectorXd& q, double) const override
    {
        return m_ * g_ * q[1];
    }
    void initialState(Eigen::VectorXd& q0, Eigen::VectorXd& qd0) const override
    {
        q0.resize(2);
        qd0.resize(2);
        q0 << x0_, x0_;
        qd0 << v0_, v0_;
    }

private:
    double m_, g_, x0_, v0_;
};

/// A block of mass m on a rough horizontal floor (q = (x, y), floor y = 0) pushed along x by a
/// force that grows linearly in time, F = k t, with static and kinetic friction μₛ ≥ μ.
/// Closed form: it stays put until k t = μₛ m g and then moves with m ẍ = k t − μ m g.
class RampedBlock : public MechanicalSystem {
public:
    /// The block starts at x0 with speed v0 (the closed forms below assume v0 = 0).
    RampedBlock(double mass, double g, double k, double mu, double muS, double x0, double v0 = 0.0)
        : m_(mass), g_(g), k_(k), mu_(mu), muS_(muS), x0_(x0), v0_(v0)
    {
    }

    /// Break-away time μₛ m g / k.
    double breakAwayTime() const { return muS_ * m_ * g_ / k_; }
    /// Position and speed after break-away (closed form).
    double x(double t) const
    {
        const double tb = breakAwayTime();
        if (t <= tb)
            return x0_;
        const double s = t - tb;
        return x0_ + (k_ * (t * t * t - tb * tb * tb) / 6.0 - k_ * tb * tb * s / 2.0 -
                      mu_ * m_ * g_ * s * s / 2.0) /
                         m_;
    }
    double v(double t) const
    {
        const double tb = breakAwayTime();
        if (t <= tb)
            return 0.0;
        return (k_ * (t * t - tb * tb) / 2.0 - mu_ * m_ * g_ * (t - tb)) / m_;
    }

    int dof() const override { return 2; }
    int constraintCount() const override { return 1; }
    std::vector<std::string> coordinateNames() const override { return {"x", "y"}; }
    void massMatrix(const Eigen::VectorXd&, double, Eigen::MatrixXd& M) const override
    {
        M = m_ * Eigen::Matrix2d::Identity();
    }
    void givenForce(const Eigen::VectorXd&, const Eigen::VectorXd&, double t,
                    Eigen::VectorXd& Q) const override
    {
        Q << k_ * t, -m_ * g_;
    }
    void constraintMatrix(const Eigen::VectorXd&, const Eigen::VectorXd&, double,
                          Eigen::MatrixXd& A, Eigen::VectorXd& b) const override
    {
        A << 0.0, 1.0;
        b[0] = 0.0;
    }
    void nonIdealForce(const Eigen::VectorXd&, const Eigen::VectorXd& qd, double,
                       const Eigen::VectorXd& Qci, Eigen::VectorXd& C) const override
    {
        C.setZero();
        if (qd[0] != 0.0)
            C[0] = -mu_ * Qci.norm() * (qd[0] > 0.0 ? 1.0 : -1.0);
    }
    int holonomicCount() const override { return 1; }
    bool providesConstraintFunctions() const override { return true; }
    void positionConstraints(const Eigen::VectorXd& q, double, Eigen::Ref<Eigen::VectorXd> phi,
                             Eigen::Ref<Eigen::MatrixXd> J) const override
    {
        phi[0] = q[1];
        J << 0.0, 1.0;
    }
    void velocityConstraints(const Eigen::VectorXd&, double, Eigen::Ref<Eigen::MatrixXd> Av,
                             Eigen::Ref<Eigen::VectorXd> bv) const override
    {
        Av << 0.0, 1.0;
        bv[0] = 0.0;
    }
    int contactCount() const override { return 1; }
    void slipJacobian(int, const Eigen::VectorXd&, const Eigen::VectorXd&, double,
                      Eigen::Ref<Eigen::MatrixXd> G,
                      Eigen::Ref<Eigen::VectorXd> gamma) const override
    {
        G << 1.0, 0.0;
        gamma[0] = 0.0;
    }
    double kineticFrictionForce(int, const Eigen::VectorXd&, const Eigen::VectorXd&, double,
                                const Eigen::VectorXd& Qci) const override
    {
        return mu_ * Qci.norm();
    }
    double stickForceLimit(int, const Eigen::VectorXd&, const Eigen::VectorXd&, double,
                           const Eigen::VectorXd& Qci) const override
    {
        return muS_ * Qci.norm();
    }
    int residualCount() const override { return 2; }
    void constraintResiduals(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double,
                             Eigen::VectorXd& r) const override
    {
        r << q[1], qd[1];
    }
    double potentialEnergy(const Eigen::VectorXd& q, double) const override
    {
        return m_ * g_ * q[1];
    }
    double nonConservativePower(const Eigen::VectorXd&, const Eigen::VectorXd& qd,
                                double t) const override
    {
        return k_ * t * qd[0];
    }
    void initialState(Eigen::VectorXd& q0, Eigen::VectorXd& qd0) const override
    {
        q0.resize(2);
        qd0.resize(2);
        q0 << x0_, 0.0;
        qd0 << v0_, 0.0;
    }

private:
    double m_, g_, k_, mu_, muS_, x0_, v0_;
};

/// Two beads on two separate straight wires through the origin (angles θ₁, θ₂), each with its
/// own friction contact: q = (x₁, y₁, x₂, y₂). Each bead obeys the single-bead closed form
/// independently, which tests contacts that stick and slip separately.
class TwoBeads : public MechanicalSystem {
public:
    struct Bead {
        double theta = 0.3, mu = 0.2, muS = 0.2, s0 = 1.0, v0 = 0.0;
    };
    TwoBeads(double mass, double g, const Bead& a, const Bead& b) : m_(mass), g_(g), beads_{a, b} {}

    const Bead& bead(int i) const { return beads_[i]; }

    int dof() const override { return 4; }
    int constraintCount() const override { return 2; }
    std::vector<std::string> coordinateNames() const override { return {"x1", "y1", "x2", "y2"}; }
    void massMatrix(const Eigen::VectorXd&, double, Eigen::MatrixXd& M) const override
    {
        M = m_ * Eigen::Matrix4d::Identity();
    }
    void givenForce(const Eigen::VectorXd&, const Eigen::VectorXd&, double,
                    Eigen::VectorXd& Q) const override
    {
        Q << 0.0, -m_ * g_, 0.0, -m_ * g_;
    }
    void constraintMatrix(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                          Eigen::MatrixXd& A, Eigen::VectorXd& b) const override
    {
        velocityConstraints(q, t, A, b);
        (void)qd;
    }
    void nonIdealForce(const Eigen::VectorXd&, const Eigen::VectorXd& qd, double,
                       const Eigen::VectorXd& Qci, Eigen::VectorXd& C) const override
    {
        C.setZero();
        for (int i = 0; i < 2; ++i) {
            const double speed = qd.segment<2>(2 * i).norm();
            if (speed > 0.0)
                C.segment<2>(2 * i) =
                    -beads_[i].mu * Qci.segment<2>(2 * i).norm() / speed * qd.segment<2>(2 * i);
        }
    }
    int holonomicCount() const override { return 2; }
    bool providesConstraintFunctions() const override { return true; }
    void positionConstraints(const Eigen::VectorXd& q, double t, Eigen::Ref<Eigen::VectorXd> phi,
                             Eigen::Ref<Eigen::MatrixXd> J) const override
    {
        Eigen::VectorXd bv(2);
        velocityConstraints(q, t, J, bv);
        phi = J * q;
    }
    void velocityConstraints(const Eigen::VectorXd&, double, Eigen::Ref<Eigen::MatrixXd> Av,
                             Eigen::Ref<Eigen::VectorXd> bv) const override
    {
        Av.setZero();
        for (int i = 0; i < 2; ++i) {
            Av(i, 2 * i) = -std::sin(beads_[i].theta);
            Av(i, 2 * i + 1) = std::cos(beads_[i].theta);
        }
        bv.setZero();
    }
    int contactCount() const override { return 2; }
    std::string contactName(int contact) const override { return contact == 0 ? "left" : "right"; }
    void slipJacobian(int contact, const Eigen::VectorXd&, const Eigen::VectorXd&, double,
                      Eigen::Ref<Eigen::MatrixXd> G,
                      Eigen::Ref<Eigen::VectorXd> gamma) const override
    {
        G.setZero();
        G(0, 2 * contact) = std::cos(beads_[contact].theta);
        G(0, 2 * contact + 1) = std::sin(beads_[contact].theta);
        gamma[0] = 0.0;
    }
    double kineticFrictionForce(int contact, const Eigen::VectorXd&, const Eigen::VectorXd&, double,
                                const Eigen::VectorXd& Qci) const override
    {
        return beads_[contact].mu * Qci.segment<2>(2 * contact).norm();
    }
    double stickForceLimit(int contact, const Eigen::VectorXd&, const Eigen::VectorXd&, double,
                           const Eigen::VectorXd& Qci) const override
    {
        return beads_[contact].muS * Qci.segment<2>(2 * contact).norm();
    }
    int residualCount() const override { return 2; }
    void constraintResiduals(const Eigen::VectorXd& q, const Eigen::VectorXd&, double,
                             Eigen::VectorXd& r) const override
    {
        for (int i = 0; i < 2; ++i)
            r[i] = -std::sin(beads_[i].theta) * q[2 * i] + std::cos(beads_[i].theta) * q[2 * i + 1];
    }
    double potentialEnergy(const Eigen::VectorXd& q, double) const override
    {
        return m_ * g_ * (q[1] + q[3]);
    }
    void initialState(Eigen::VectorXd& q0, Eigen::VectorXd& qd0) const override
    {
        q0.resize(4);
        qd0.resize(4);
        for (int i = 0; i < 2; ++i) {
            const double c = std::cos(beads_[i].theta), s = std::sin(beads_[i].theta);
            q0.segment<2>(2 * i) << beads_[i].s0 * c, beads_[i].s0 * s;
            qd0.segment<2>(2 * i) << beads_[i].v0 * c, beads_[i].v0 * s;
        }
    }

private:
    double m_, g_;
    Bead beads_[2];
};

} // namespace clab::testing
