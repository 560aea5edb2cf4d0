#include "model/ConstraintLabError.h"
#include "solve/EquationBreakdown.h"
#include "scenes/SceneRegistry.h"
#include "integrate/Simulator.h"

#include "../../support/ToySystems.h"

#include <QtTest>

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <numbers>
#include <sstream>
#include <string>
#include <vector>

using namespace clab;
using clab::testing::HarmonicOscillator;
using clab::testing::MasslessFollower;
using clab::testing::ParticleOnCircle;
using Eigen::MatrixXd;
using Eigen::VectorXd;

namespace {

using Kind = ConstraintLabError::Kind;

// ‖actual − expected‖∞ ≤ tol · max(1, ‖expected‖∞), with both printed when it fails.
std::string mismatch(const char* what, const MatrixXd& actual, const MatrixXd& expected, double tol)
{
    std::ostringstream msg;
    if (actual.rows() != expected.rows() || actual.cols() != expected.cols()) {
        msg << what << " is " << actual.rows() << "×" << actual.cols() << ", expected "
            << expected.rows() << "×" << expected.cols();
        return msg.str();
    }
    const double scale =
        std::max(1.0, expected.size() > 0 ? expected.lpNorm<Eigen::Infinity>() : 0.0);
    const double err = actual.size() > 0 ? (actual - expected).lpNorm<Eigen::Infinity>() : 0.0;
    if (!(err <= tol * scale)) {
        msg << what << " differs by " << err << " (tolerance " << tol * scale << ")\n  actual   "
            << actual.transpose() << "\n  expected " << expected.transpose();
        return msg.str();
    }
    return {};
}

#define CLAB_VERIFY_CLOSE(what, actual, expected, tol)                                             \
    do {                                                                                           \
        const std::string why_ = mismatch(what, actual, expected, tol);                            \
        QVERIFY2(why_.empty(), why_.c_str());                                                      \
    } while (0)

std::string errorText(const EquationBreakdown& breakdown)
{
    return breakdown.error() ? breakdown.error()->what() : std::string("no error");
}

// The equation holds to rounding of its largest term, and Qᶜᵢ is the sample's.
void verifyBalanced(const EquationBreakdown& breakdown, const TraceSample& sample,
                    const std::string& where)
{
    QVERIFY2(breakdown.ok(), (where + ": " + errorText(breakdown)).c_str());
    QVERIFY2(breakdown.residualRelative() < 1e-12,
             (where + ": relative balance residual " + std::to_string(breakdown.residualRelative()))
                 .c_str());
    const double scale = std::max(1.0, sample.Qci.lpNorm<Eigen::Infinity>());
    QVERIFY2(breakdown.sampleQciDifference() <= 1e-9 * scale,
             (where + ": Qci differs from the sample's by " +
              std::to_string(breakdown.sampleQciDifference()))
                 .c_str());
}

TraceSample sampleAt(const MechanicalSystem& system, const VectorXd& q, const VectorXd& qd,
                     double t)
{
    Simulator simulator(system);
    TraceSample sample;
    simulator.sample(q, qd, t, sample);
    return sample;
}

TraceSample initialSample(const MechanicalSystem& system)
{
    VectorXd q, qd;
    system.initialState(q, qd);
    return sampleAt(system, q, qd, system.initialTime());
}

Trace run(const MechanicalSystem& system, double tEnd, double dt,
          Stabilization stabilization = Stabilization::Projection)
{
    Simulator simulator(system);
    SimulationOptions options;
    options.tEnd = tEnd;
    options.dt = dt;
    options.stabilization = stabilization;
    return simulator.run(options);
}

/// `base` with every constraint row written twice; the copies' b is shifted by `copyOffset`
/// (0: the same constraint twice; otherwise two constraints that contradict each other).
class RepeatedConstraints : public MechanicalSystem {
public:
    RepeatedConstraints(const MechanicalSystem& base, double copyOffset)
        : base_(base), offset_(copyOffset)
    {
    }

    int dof() const override { return base_.dof(); }
    int constraintCount() const override { return 2 * base_.constraintCount(); }
    std::vector<std::string> coordinateNames() const override { return base_.coordinateNames(); }
    void massMatrix(const VectorXd& q, double t, MatrixXd& M) const override
    {
        base_.massMatrix(q, t, M);
    }
    void givenForce(const VectorXd& q, const VectorXd& qd, double t, VectorXd& Q) const override
    {
        base_.givenForce(q, qd, t, Q);
    }
    void constraintMatrix(const VectorXd& q, const VectorXd& qd, double t, MatrixXd& A,
                          VectorXd& b) const override
    {
        const int m = base_.constraintCount();
        MatrixXd A1 = MatrixXd::Zero(m, dof());
        VectorXd b1 = VectorXd::Zero(m);
        base_.constraintMatrix(q, qd, t, A1, b1);
        A.resize(2 * m, dof());
        b.resize(2 * m);
        A << A1, A1;
        b << b1, b1.array() + offset_;
    }
    void nonIdealForce(const VectorXd& q, const VectorXd& qd, double t, const VectorXd& Qci,
                       VectorXd& C) const override
    {
        base_.nonIdealForce(q, qd, t, Qci, C);
    }
    int residualCount() const override { return base_.residualCount(); }
    void constraintResiduals(const VectorXd& q, const VectorXd& qd, double t,
                             VectorXd& r) const override
    {
        base_.constraintResiduals(q, qd, t, r);
    }
    double potentialEnergy(const VectorXd& q, double t) const override
    {
        return base_.potentialEnergy(q, t);
    }
    void initialState(VectorXd& q0, VectorXd& qd0) const override { base_.initialState(q0, qd0); }

private:
    const MechanicalSystem& base_;
    double offset_;
};

/// MasslessFollower without the declaration: the solver must find M singular by itself.
class UndeclaredMasslessFollower : public MasslessFollower {
public:
    using MasslessFollower::MasslessFollower;
    bool massMatrixIsSingular() const override { return false; }
};

// Rigid body in quaternions (docs/MATH.md §5): ω = 2 E(u) u̇.
Eigen::Matrix<double, 3, 4> quaternionE(const VectorXd& u)
{
    Eigen::Matrix<double, 3, 4> E;
    E << -u(1), u(0), u(3), -u(2), //
        -u(2), -u(3), u(0), u(1),  //
        -u(3), u(2), -u(1), u(0);
    return E;
}

} // namespace

class TestEquationBreakdown : public QObject {
    Q_OBJECT

private slots:
    void normalForceOnInclinedWireIsMgCosTheta();
    void normalForceOnRingIncludesTheCentripetalTerm();
    void pendulumMultiplierEqualsBorderedSolve();
    void repeatedConstraintSharesItsForceEqually();
    void beadHeldByStaticFrictionBalancesInEverySample();
    void ringThatSwingsSlidesAndSticksBalancesInEverySample();
    void masslessCoordinateIsFlaggedSingularAndBalances();
    void rigidBodyInQuaternionsIsFlaggedSingularAndBalances();
    void baumgarteFeedbackIsTheSampleForceBeyondTheIdealOne();
    void contradictingConstraintsAreReportedWithTheStepsBefore();
    void unusableSamplesAreReportedNotThrown();
};

// Bead on a straight wire at θ = 30°: the wire pushes with m g cos θ along its normal
// (−sin θ, cos θ) whether the bead sticks, starts sliding or slides; a straight wire has no
// curvature term. Friction is static m g sin θ up the wire, or kinetic μ m g cos θ against
// the motion (docs/MATH.md §5).
void TestEquationBreakdown::normalForceOnInclinedWireIsMgCosTheta()
{
    const double m = 2.0, g = 9.81, thetaDeg = 30.0, mu = 0.2;
    const double theta = thetaDeg * std::numbers::pi / 180.0;
    const double s = std::sin(theta), c = std::cos(theta);
    const Eigen::Vector2d along(c, s), normal(-s, c);
    struct Case {
        const char* name;
        double muS, v0;
        bool sliding;
        Eigen::Vector2d friction;
    };
    const std::vector<Case> cases{
        {"at rest, held (μₛ = 0.8 > tan θ)", 0.8, 0.0, false, m * g * s * along},
        {"at rest, breaking away (μₛ = μ < tan θ)", mu, 0.0, true, mu * m * g * c * along},
        {"sliding down", mu, -1.5, true, mu * m * g * c * along},
        {"sliding up", mu, 1.5, true, -mu * m * g * c * along},
    };
    for (const Case& k : cases) {
        const auto system = SceneRegistry::find("bead-on-wire")
                                ->create({{"mass", {m}},
                                          {"g", {g}},
                                          {"angle_deg", {thetaDeg}},
                                          {"mu", {mu}},
                                          {"mu_s", {k.muS}},
                                          {"v0", {k.v0}}});
        const TraceSample sample = initialSample(*system);
        const EquationBreakdown e(*system, sample);
        QVERIFY2(e.ok(), (std::string(k.name) + ": " + errorText(e)).c_str());

        QVERIFY(!e.massIsSingular());
        QCOMPARE(e.t(), sample.t);
        CLAB_VERIFY_CLOSE("q", e.q(), sample.q, 0.0);
        CLAB_VERIFY_CLOSE("q̇", e.qd(), sample.qd, 0.0);
        CLAB_VERIFY_CLOSE("M", e.M(), MatrixXd(m * MatrixXd::Identity(2, 2)), 0.0);
        CLAB_VERIFY_CLOSE("Q", e.Q(), Eigen::Vector2d(0.0, -m * g), 0.0);
        const MatrixXd A = normal.transpose();
        CLAB_VERIFY_CLOSE("A", e.A(), A, 1e-15);
        CLAB_VERIFY_CLOSE("b", e.b(), VectorXd::Zero(1), 0.0);
        CLAB_VERIFY_CLOSE("a = M⁻¹Q", e.a(), Eigen::Vector2d(0.0, -g), 1e-15);
        // By hand: A M⁻¹ Aᵀ = (sin²θ + cos²θ)/m = 1/m, and b − A a = g cos θ.
        CLAB_VERIFY_CLOSE("K", e.K(), MatrixXd::Constant(1, 1, 1.0 / m), 1e-15);
        CLAB_VERIFY_CLOSE("b − A a", e.constraintViolation(), VectorXd::Constant(1, g * c), 1e-15);
        CLAB_VERIFY_CLOSE("K λ", VectorXd(e.K() * e.lambda()), e.constraintViolation(), 1e-14);
        CLAB_VERIFY_CLOSE("λ", e.lambda(), VectorXd::Constant(1, m * g * c), 1e-14);

        QVERIFY2(std::abs(e.Qci().norm() - m * g * c) <= 1e-13 * m * g, k.name);
        CLAB_VERIFY_CLOSE("Qci", e.Qci(), VectorXd(m * g * c * normal), 1e-14);
        CLAB_VERIFY_CLOSE("Qcni", e.Qcni(), VectorXd(k.friction), 1e-13);

        QCOMPARE(e.contacts().size(), std::size_t(1));
        QCOMPARE(e.contacts()[0].name, std::string("bead"));
        QCOMPARE(e.contacts()[0].sliding, k.sliding);
        verifyBalanced(e, sample, k.name);
    }
}

// Particle on a vertical ring of radius R moving at speed v: the ring supplies gravity's
// normal share and the centripetal force, Qᶜᵢ = −m (v² − g y) (x, y) / R² (docs/MATH.md §5).
void TestEquationBreakdown::normalForceOnRingIncludesTheCentripetalTerm()
{
    const double m = 0.7, g = 9.81, R = 1.5, mu = 0.3;
    for (const double phiDeg : {0.0, 60.0, 135.0}) {
        for (const double v : {0.5, 2.0, -4.0}) {
            const auto system = SceneRegistry::find("ring")->create(
                {{"mass", {m}}, {"g", {g}}, {"radius", {R}}, {"mu", {mu}}});
            const double phi = phiDeg * std::numbers::pi / 180.0;
            VectorXd q(2), qd(2);
            q << R * std::sin(phi), -R * std::cos(phi);
            qd << v * std::cos(phi), v * std::sin(phi);
            const TraceSample sample = sampleAt(*system, q, qd, 0.0);
            const EquationBreakdown e(*system, sample);
            const std::string where =
                "φ = " + std::to_string(phiDeg) + "°, v = " + std::to_string(v);
            QVERIFY2(e.ok(), (where + ": " + errorText(e)).c_str());

            CLAB_VERIFY_CLOSE("A", e.A(), MatrixXd(q.transpose()), 0.0);
            CLAB_VERIFY_CLOSE("b", e.b(), VectorXd::Constant(1, -v * v), 1e-14);
            CLAB_VERIFY_CLOSE("K", e.K(), MatrixXd::Constant(1, 1, R * R / m), 1e-14);
            CLAB_VERIFY_CLOSE("b − A a", e.constraintViolation(),
                              VectorXd::Constant(1, -v * v + g * q[1]), 1e-14);
            CLAB_VERIFY_CLOSE("K λ", VectorXd(e.K() * e.lambda()), e.constraintViolation(), 1e-14);
            const VectorXd normalForce = -m * (v * v - g * q[1]) / (R * R) * q;
            CLAB_VERIFY_CLOSE("Qci", e.Qci(), normalForce, 1e-13);
            // Kinetic friction μ‖N‖ against the motion, along the ring.
            CLAB_VERIFY_CLOSE("Qcni", e.Qcni(), VectorXd(-mu * normalForce.norm() * qd / qd.norm()),
                              1e-13);
            QVERIFY(e.contacts()[0].sliding);
            verifyBalanced(e, sample, where);
        }
    }
}

// Pendulum as a particle on x² + y² = l² with a viscous drag: the explicit λ = K⁺(b − A a)
// equals the multiplier of the bordered equations [M Aᵀ; A 0][q̈; −λ] = [Q; b].
void TestEquationBreakdown::pendulumMultiplierEqualsBorderedSolve()
{
    ParticleOnCircle::Params p;
    p.m = 1.3;
    p.L = 0.8;
    p.d = 0.4;
    for (const double theta0 : {0.0, 0.7, 2.5}) {
        for (const double omega0 : {0.0, 1.9, -3.0}) {
            p.theta0 = theta0;
            p.omega0 = omega0;
            const ParticleOnCircle system(p);
            const TraceSample sample = initialSample(system);
            const EquationBreakdown e(system, sample);
            const std::string where =
                "θ = " + std::to_string(theta0) + ", ω = " + std::to_string(omega0);
            QVERIFY2(e.ok(), (where + ": " + errorText(e)).c_str());

            // Assembled from the system itself, not from the breakdown.
            MatrixXd M = MatrixXd::Zero(2, 2), A = MatrixXd::Zero(1, 2);
            VectorXd Q = VectorXd::Zero(2), b = VectorXd::Zero(1);
            system.massMatrix(sample.q, sample.t, M);
            system.givenForce(sample.q, sample.qd, sample.t, Q);
            system.constraintMatrix(sample.q, sample.qd, sample.t, A, b);
            MatrixXd bordered = MatrixXd::Zero(3, 3);
            bordered.topLeftCorner(2, 2) = M;
            bordered.topRightCorner(2, 1) = A.transpose();
            bordered.bottomLeftCorner(1, 2) = A;
            VectorXd rhs(3);
            rhs << Q, b;
            const VectorXd x = Eigen::PartialPivLU<MatrixXd>(bordered).solve(rhs);
            const VectorXd lambda = -x.tail(1);

            CLAB_VERIFY_CLOSE("λ", e.lambda(), lambda, 1e-12);
            CLAB_VERIFY_CLOSE("Qci = Aᵀλ", e.Qci(), VectorXd(A.transpose() * lambda), 1e-12);
            CLAB_VERIFY_CLOSE("q̈", e.qdd(), VectorXd(x.head(2)), 1e-12);
            CLAB_VERIFY_CLOSE("K", e.K(), MatrixXd(A * M.inverse() * A.transpose()), 1e-14);
            CLAB_VERIFY_CLOSE("K λ", VectorXd(e.K() * e.lambda()), e.constraintViolation(), 1e-13);
            QVERIFY(e.contacts().empty());
            verifyBalanced(e, sample, where);
        }
    }
}

// The same constraint written twice: K = [k k; k k] is singular, every (λ₁, λ₂) with
// λ₁ + λ₂ = λ solves K λ = b − A a, and the minimum-norm one splits λ into equal halves.
// The force Aᵀλ is the single constraint's.
void TestEquationBreakdown::repeatedConstraintSharesItsForceEqually()
{
    ParticleOnCircle::Params p;
    p.theta0 = 1.1;
    p.omega0 = 2.3;
    const ParticleOnCircle single(p);
    const RepeatedConstraints twice(single, 0.0);
    const EquationBreakdown one(single, initialSample(single));
    const TraceSample sample = initialSample(twice);
    const EquationBreakdown two(twice, sample);
    QVERIFY2(one.ok(), errorText(one).c_str());
    QVERIFY2(two.ok(), errorText(two).c_str());

    const double k = one.K()(0, 0);
    CLAB_VERIFY_CLOSE("K", two.K(), MatrixXd::Constant(2, 2, k), 1e-15);
    const double lambda = one.lambda()[0];
    CLAB_VERIFY_CLOSE("λ", two.lambda(), VectorXd::Constant(2, 0.5 * lambda), 1e-13);
    // Independently: the pseudo-inverse solution by SVD is the minimum-norm one.
    const VectorXd minimumNorm =
        Eigen::JacobiSVD<MatrixXd>(two.K(), Eigen::ComputeFullU | Eigen::ComputeFullV)
            .solve(two.constraintViolation());
    CLAB_VERIFY_CLOSE("λ (SVD)", two.lambda(), minimumNorm, 1e-12);
    CLAB_VERIFY_CLOSE("Qci", two.Qci(), one.Qci(), 1e-13);
    CLAB_VERIFY_CLOSE("q̈", two.qdd(), one.qdd(), 1e-13);
    verifyBalanced(two, sample, "constraint written twice");
}

// μₛ = 0.8 > tan 30°: the bead stays put. The stuck contact is one more ideal row in the
// simulator, whose force (static friction m g sin θ up the wire) the sample reports in Qᶜₙᵢ;
// with it the equation balances and q̈ = 0.
void TestEquationBreakdown::beadHeldByStaticFrictionBalancesInEverySample()
{
    const double m = 1.5, g = 9.81;
    const double theta = 30.0 * std::numbers::pi / 180.0;
    const auto system = SceneRegistry::find("bead-on-wire")
                            ->create({{"mass", {m}}, {"g", {g}}, {"mu", {0.2}}, {"mu_s", {0.8}}});
    const Trace trace = run(*system, 1.0, 0.25);
    QCOMPARE(trace.samples.size(), std::size_t(5));
    for (const TraceSample& sample : trace.samples) {
        const EquationBreakdown e(*system, sample);
        const std::string where = "t = " + std::to_string(sample.t);
        verifyBalanced(e, sample, where);
        QVERIFY2(!e.contacts()[0].sliding, where.c_str());
        CLAB_VERIFY_CLOSE("q̈", e.qdd(), VectorXd::Zero(2), 0.0);
        CLAB_VERIFY_CLOSE("λ", e.lambda(), VectorXd::Constant(1, m * g * std::cos(theta)), 1e-13);
        const Eigen::Vector2d upTheWire(std::cos(theta), std::sin(theta));
        CLAB_VERIFY_CLOSE("Qcni", e.Qcni(), VectorXd(m * g * std::sin(theta) * upTheWire), 1e-13);
    }
}

// From 90° with μ = 0.2, μₛ = 0.3 the particle swings, reverses and finally sticks on the
// ring. Sliding: |Qᶜₙᵢ| = μ ‖N‖ (kinetic friction along the ring). Stuck: the static friction
// stays within μₛ ‖N‖. In every sample the equation balances with the sample's forces.
void TestEquationBreakdown::ringThatSwingsSlidesAndSticksBalancesInEverySample()
{
    const double mu = 0.2, muS = 0.3;
    const auto system = SceneRegistry::find("ring")->create(
        {{"mu", {mu}}, {"mu_s", {muS}}, {"phi0_deg", {90.0}}, {"v0", {0.0}}});
    const Trace trace = run(*system, 10.0, 0.05);
    int sliding = 0, stuck = 0;
    double worstResidual = 0.0, worstQci = 0.0;
    for (const TraceSample& sample : trace.samples) {
        const EquationBreakdown e(*system, sample);
        const std::string where = "t = " + std::to_string(sample.t);
        verifyBalanced(e, sample, where);
        worstResidual = std::max(worstResidual, e.residualRelative());
        worstQci = std::max(worstQci, e.sampleQciDifference());
        QCOMPARE(e.contacts()[0].sliding, sample.contacts[0] != 0.0);
        const double normal = e.Qci().norm();
        if (e.contacts()[0].sliding) {
            ++sliding;
            QVERIFY2(std::abs(e.Qcni().norm() - mu * normal) <= 1e-12 * (1.0 + normal),
                     where.c_str());
        } else {
            ++stuck;
            QVERIFY2(e.Qcni().norm() <= muS * normal * (1.0 + 1e-9), where.c_str());
            // Not exactly zero: the velocity left after the stop is of rounding size.
            CLAB_VERIFY_CLOSE("q̈", e.qdd(), VectorXd::Zero(2), 1e-12);
        }
    }
    QVERIFY2(sliding > 10 && stuck > 10,
             qPrintable(QStringLiteral("%1 sliding, %2 stuck").arg(sliding).arg(stuck)));
    QVERIFY(!EquationBreakdown(*system, trace.samples.back()).contacts()[0].sliding);
    qInfo("ring: %d sliding and %d stuck samples; worst relative residual %.3g, worst "
          "|Qci − sample.Qci| %.3g N",
          sliding, stuck, worstResidual, worstQci);
}

// y carries no mass and follows x (y − x = 0); gravity pulls on y only, and the pair falls
// with ẍ = ÿ = −g. M = diag(m, 0) has no inverse: no a and no K, Qᶜᵢ = M q̈ − Q = (−m g, m g)
// from the auxiliary system, whether the system declares M singular or the solver finds out.
void TestEquationBreakdown::masslessCoordinateIsFlaggedSingularAndBalances()
{
    const double m = 2.0, g = 9.81;
    const MasslessFollower declared(m, g, 1.0, 0.5);
    const UndeclaredMasslessFollower undeclared(m, g, 1.0, 0.5);
    const std::vector<const MechanicalSystem*> systems{&declared, &undeclared};
    for (const MechanicalSystem* system : systems) {
        const TraceSample sample = initialSample(*system);
        const EquationBreakdown e(*system, sample);
        QVERIFY2(e.ok(), errorText(e).c_str());
        QVERIFY(e.massIsSingular());
        QVERIFY(e.lambdaIsAuxiliary());
        QCOMPARE(e.a().size(), Eigen::Index(0));
        QCOMPARE(e.constraintViolation().size(), Eigen::Index(0));
        QCOMPARE(e.K().size(), Eigen::Index(0));
        QCOMPARE(e.lambda().size(), Eigen::Index(1));
        CLAB_VERIFY_CLOSE("q̈", e.qdd(), Eigen::Vector2d(-g, -g), 1e-13);
        CLAB_VERIFY_CLOSE("Qci", e.Qci(), Eigen::Vector2d(-m * g, m * g), 1e-13);
        verifyBalanced(e, sample, "massless follower");
    }
}

// The torque-free rigid body in quaternions has M = 4 Eᵀ J E of rank 3. Along a run its
// ideal force keeps ‖u‖ = 1 and so lies along u, exerting no torque (docs/MATH.md §5).
void TestEquationBreakdown::rigidBodyInQuaternionsIsFlaggedSingularAndBalances()
{
    const auto system = SceneRegistry::find("rigid-body")->create({});
    const Trace trace = run(*system, 2.0, 0.25);
    for (const TraceSample& sample : trace.samples) {
        const EquationBreakdown e(*system, sample);
        const std::string where = "t = " + std::to_string(sample.t);
        verifyBalanced(e, sample, where);
        QVERIFY(e.massIsSingular());
        QVERIFY(e.lambdaIsAuxiliary());
        QCOMPARE(e.K().size(), Eigen::Index(0));
        const VectorXd& u = sample.q;
        const double size = std::max(1.0, e.Qci().norm());
        CLAB_VERIFY_CLOSE("Qci ∥ u", e.Qci(), VectorXd(u.dot(e.Qci()) / u.squaredNorm() * u),
                          1e-12 * size);
        const Eigen::Vector3d torque = 0.5 * quaternionE(u) * e.Qci();
        QVERIFY2(torque.norm() <= 1e-12 * size, where.c_str());
    }
}

// Baumgarte stabilization solves with b − 2α φ̇ − β² φ: the sample's Qᶜᵢ holds, beyond the
// ideal force of the true constraints, the feedback Aᵀ K⁻¹ (−2α φ̇ − β² φ) on the drift. That
// force is all that separates the two, and it is what the balance residual shows.
void TestEquationBreakdown::baumgarteFeedbackIsTheSampleForceBeyondTheIdealOne()
{
    ParticleOnCircle::Params p;
    p.theta0 = 1.0;
    p.omega0 = 1.0;
    const ParticleOnCircle system(p);
    Simulator simulator(system);
    SimulationOptions options;
    options.tEnd = 5.0;
    options.dt = 0.5;
    options.stabilization = Stabilization::Baumgarte;
    // Loose tolerances: a drift (and so a feedback force) well above rounding.
    options.rtol = 1e-5;
    options.atol = 1e-7;
    const Trace trace = simulator.run(options);
    double largest = 0.0;
    for (const TraceSample& sample : trace.samples) {
        const EquationBreakdown e(system, sample);
        QVERIFY2(e.ok(), errorText(e).c_str());
        const VectorXd& q = sample.q;
        const double phi = 0.5 * (q.squaredNorm() - p.L * p.L);
        const double phiDot = q.dot(sample.qd);
        const double feedback = -2.0 * options.baumgarteAlpha * phiDot -
                                options.baumgarteBeta * options.baumgarteBeta * phi;
        const VectorXd expected = e.A().transpose() * (feedback / e.K()(0, 0));
        const VectorXd difference = sample.Qci - e.Qci();
        CLAB_VERIFY_CLOSE("sample Qci − Qci", difference, expected, 1e-12);
        QVERIFY(std::abs(e.sampleQciDifference() - difference.lpNorm<Eigen::Infinity>()) <=
                1e-15 * (1.0 + e.Qci().norm()));
        CLAB_VERIFY_CLOSE("residual", e.residual(), difference, 1e-12);
        largest = std::max(largest, difference.lpNorm<Eigen::Infinity>());
    }
    QVERIFY2(largest > 1e-9, qPrintable(QStringLiteral("largest feedback %1 N").arg(largest)));
    qInfo("Baumgarte: largest feedback force in a sample's Qci %.3g N", largest);
}

// b of the copy is shifted: A q̈ = b cannot hold. The solver's verdict is recorded, not thrown,
// and the derivation up to it (M, Q, A, b, a, K and b − A a outside the range of K) remains.
void TestEquationBreakdown::contradictingConstraintsAreReportedWithTheStepsBefore()
{
    ParticleOnCircle::Params p;
    const ParticleOnCircle single(p);
    const RepeatedConstraints contradicting(single, 1.0);
    const TraceSample sample = initialSample(single); // a Simulator would refuse the system
    const EquationBreakdown e(contradicting, sample);
    QVERIFY(!e.ok());
    QCOMPARE(static_cast<int>(e.error()->kind()), static_cast<int>(Kind::InconsistentConstraints));
    QVERIFY(!e.massIsSingular());
    QCOMPARE(e.A().rows(), Eigen::Index(2));
    QCOMPARE(e.b().size(), Eigen::Index(2));
    QCOMPARE(e.a().size(), Eigen::Index(2));
    QCOMPARE(e.K().rows(), Eigen::Index(2));
    const VectorXd violation = e.constraintViolation();
    QVERIFY(std::abs(violation[1] - violation[0] - 1.0) < 1e-12);
    QCOMPARE(e.lambda().size(), Eigen::Index(0));
    QCOMPARE(e.Qci().size(), Eigen::Index(0));
    QCOMPARE(e.residual().size(), Eigen::Index(0));
    QVERIFY(std::isnan(e.residualMax()));
    QVERIFY(std::isnan(e.residualRelative()));
}

void TestEquationBreakdown::unusableSamplesAreReportedNotThrown()
{
    ParticleOnCircle::Params p;
    const ParticleOnCircle system(p);
    const TraceSample good = initialSample(system);
    const double nan = std::numeric_limits<double>::quiet_NaN();

    // Another system's sample (three coordinates).
    TraceSample wrongSize = good;
    wrongSize.q = VectorXd::Zero(3);
    EquationBreakdown e(system, wrongSize);
    QVERIFY(!e.ok());
    QCOMPARE(static_cast<int>(e.error()->kind()), static_cast<int>(Kind::InvalidParameter));
    QCOMPARE(e.M().size(), Eigen::Index(0));

    // A ring sample without its contact mode.
    const auto ring = SceneRegistry::find("ring")->create({});
    TraceSample noModes = initialSample(*ring);
    noModes.contacts.resize(0);
    e = EquationBreakdown(*ring, noModes);
    QCOMPARE(static_cast<int>(e.error()->kind()), static_cast<int>(Kind::InvalidParameter));

    // A state that overflowed.
    TraceSample nanState = good;
    nanState.qd[1] = nan;
    e = EquationBreakdown(system, nanState);
    QCOMPARE(static_cast<int>(e.error()->kind()), static_cast<int>(Kind::NonFinite));
    QVERIFY(std::string(e.error()->what()).find("q̇") != std::string::npos);

    // A non-finite q̈ in the sample: the derivation stands, the balance cannot be formed.
    TraceSample nanAcceleration = good;
    nanAcceleration.qdd[0] = nan;
    e = EquationBreakdown(system, nanAcceleration);
    QCOMPARE(static_cast<int>(e.error()->kind()), static_cast<int>(Kind::NonFinite));
    CLAB_VERIFY_CLOSE("Qci", e.Qci(), good.Qci, 0.0);
    QCOMPARE(e.residual().size(), Eigen::Index(0));

    // A given force that turns NaN: the solver's NonFinite, with M and Q to look at.
    HarmonicOscillator oscillator(1.0, 4.0, 0.3, 0.0);
    TraceSample late = initialSample(oscillator);
    oscillator.poisonAfter(1.0);
    late.t = 2.0;
    e = EquationBreakdown(oscillator, late);
    QCOMPARE(static_cast<int>(e.error()->kind()), static_cast<int>(Kind::NonFinite));
    QVERIFY(std::isnan(e.Q()[0]));
    QCOMPARE(e.a().size(), Eigen::Index(0));
}

QTEST_APPLESS_MAIN(TestEquationBreakdown)
#include "tst_EquationBreakdown.moc"
