#include "../../support/SceneForces.h"
#include "integrate/Simulator.h"
#include "model/ConstraintLabError.h"
#include "scenes/RigidBodyQuaternion.h"
#include "solve/FundamentalEquation.h"

#include "../../support/SceneParameters.h"

#include <QtTest>

#include <cmath>
#include <random>

using namespace clab;

namespace {

using Matrix34 = Eigen::Matrix<double, 3, 4>;

// E(u) as printed in paper 004 / docs/MATH.md §5, written out here independently of the scene.
Matrix34 E(const Eigen::Vector4d& u)
{
    Matrix34 e;
    e.row(0) << -u[1], u[0], u[3], -u[2];
    e.row(1) << -u[2], -u[3], u[0], u[1];
    e.row(2) << -u[3], u[2], -u[1], u[0];
    return e;
}

// Body-to-inertial rotation of the unit quaternion (u₀ scalar part, Hamilton convention).
Eigen::Matrix3d R(const Eigen::Vector4d& u)
{
    const double w = u[0], x = u[1], y = u[2], z = u[3];
    Eigen::Matrix3d r;
    r << 1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y), //
        2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),  //
        2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y);
    return r;
}

ParameterValues values(const Eigen::Vector3d& J, const Eigen::Vector3d& torque,
                       const Eigen::Vector4d& quat0, const Eigen::Vector3d& omega0)
{
    return {{"J", {J[0], J[1], J[2]}},
            {"torque", {torque[0], torque[1], torque[2]}},
            {"quat0", {quat0[0], quat0[1], quat0[2], quat0[3]}},
            {"omega0", {omega0[0], omega0[1], omega0[2]}}};
}

struct RandomCase {
    Eigen::Vector3d J, torque, omega;
    Eigen::Vector4d u, ud;
};

RandomCase randomCase(std::mt19937& rng)
{
    std::uniform_real_distribution<double> inertia(0.2, 5), comp(-3, 3);
    std::normal_distribution<double> normal;
    RandomCase c;
    // Principal moments of a real body: each at most the sum of the other two.
    do
        c.J = Eigen::Vector3d(inertia(rng), inertia(rng), inertia(rng));
    while (2 * c.J.maxCoeff() > c.J.sum());
    c.torque = Eigen::Vector3d(comp(rng), comp(rng), comp(rng));
    c.omega = Eigen::Vector3d(comp(rng), comp(rng), comp(rng));
    c.u = Eigen::Vector4d(normal(rng), normal(rng), normal(rng), normal(rng)).normalized();
    c.ud = 0.5 * E(c.u).transpose() * c.omega;
    return c;
}

using Forces = test::SceneForces;

Forces solve(const MechanicalSystem& s, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
             double t, FundamentalEquation& eq)
{
    return test::solveScene(s, q, qd, t, eq);
}

Forces solve(const MechanicalSystem& s, const Eigen::VectorXd& q, const Eigen::VectorXd& qd)
{
    FundamentalEquation eq(s.dof(), s.constraintCount());
    eq.setSingularMass(s.massMatrixIsSingular());
    return solve(s, q, qd, 0.0, eq);
}

void expectInvalid(const ParameterValues& v, const QString& mustMention)
{
    try {
        RigidBodyQuaternion::definition().create(v);
        QFAIL(qPrintable("no error for " + mustMention));
    } catch (const ConstraintLabError& e) {
        QCOMPARE(e.kind(), ConstraintLabError::Kind::InvalidParameter);
        QVERIFY2(QString::fromUtf8(e.what()).contains(mustMention), e.what());
    }
}

} // namespace

class TestRigidBodyQuaternion : public QObject {
    Q_OBJECT

private slots:
    // Users' scripts and scene files name these parameters: renaming one breaks them.
    void parametersKeepTheirNamesAndUnits()
    {
        const SceneDefinition d = RigidBodyQuaternion::definition();
        QCOMPARE(testing::namesAndUnits(d),
                 (testing::NamesAndUnits{
                     {"J", "kg·m²"}, {"torque", "N·m"}, {"quat0", ""}, {"omega0", "rad/s"}}));
        QCOMPARE(d.parameter("J")->size(), 3);
        QCOMPARE(d.parameter("torque")->size(), 3);
        QCOMPARE(d.parameter("quat0")->size(), 4);
        QCOMPARE(d.parameter("omega0")->size(), 3);
        QVERIFY(d.parameter("quat0")->nonZero);
    }

    void massMatrixIsSingularWithNullSpaceU();
    void forcesMatchClosedForm();
    void accelerationMatchesClosedForm();
    void accelerationIndependentOfAuxiliaryGauge();
    void initialStateSatisfiesConstraints();
    void startFromStateGivesTheOrientationAndBodyAngularVelocityOfTheState();
    void invalidParametersAreRejected();
    void torqueFreeMotionConservesEnergyAndMomentum();
    void intermediateAxisFlips();
    void torqueAboutPrincipalAxisSpinsUpInClosedForm();
};

// M = 4 Eᵀ J E has rank 3 and M u = 0 (E u = 0); the kinetic energy ½ u̇ᵀ M u̇ is ½ ωᵀ J ω.
void TestRigidBodyQuaternion::massMatrixIsSingularWithNullSpaceU()
{
    std::mt19937 rng(404);
    for (int trial = 0; trial < 50; ++trial) {
        const RandomCase c = randomCase(rng);
        const auto sys =
            RigidBodyQuaternion::definition().create(values(c.J, c.torque, c.u, c.omega));
        QVERIFY(sys->massMatrixIsSingular());
        Eigen::MatrixXd M(4, 4);
        sys->massMatrix(c.u, 0.0, M);
        const Eigen::Matrix4d expected = 4 * E(c.u).transpose() * c.J.asDiagonal() * E(c.u);
        QVERIFY((M - expected).norm() <= 1e-13 * expected.norm());
        QVERIFY((M * c.u).norm() <= 1e-13 * M.norm());
        const Eigen::SelfAdjointEigenSolver<Eigen::Matrix4d> eig(M);
        QVERIFY(std::abs(eig.eigenvalues()[0]) <= 1e-13 * M.norm());
        QVERIFY(eig.eigenvalues()[1] >= 4 * c.J.minCoeff() * (1 - 1e-12));
        const double T = 0.5 * c.omega.dot(c.J.asDiagonal() * c.omega);
        QVERIFY(std::abs(sys->kineticEnergy(c.u, c.ud, 0.0) - T) <= 1e-13 * (1 + T));
        QVERIFY(std::abs(0.5 * c.ud.dot(M * c.ud) - T) <= 1e-12 * (1 + T));
        QVERIFY(std::abs(sys->nonConservativePower(c.u, c.ud, 0.0) - c.torque.dot(c.omega)) <=
                1e-13 * (1 + c.torque.norm() * c.omega.norm()));
    }
}

// The constraint force keeps ‖u‖ = 1: Qᶜᵢ = λ u with λ = −uᵀQ (uᵀM = 0), and since E(u̇) u =
// −E(u) u̇ this is Qᶜᵢ = −2 (ωᵀ J ω) u, independent of the torque. It exerts no body torque:
// ½ E(u) Qᶜᵢ = 0. The given force 2 Eᵀ Γ maps back to the torque Γ.
void TestRigidBodyQuaternion::forcesMatchClosedForm()
{
    std::mt19937 rng(2718);
    for (int trial = 0; trial < 300; ++trial) {
        const RandomCase c = randomCase(rng);
        const auto sys =
            RigidBodyQuaternion::definition().create(values(c.J, c.torque, c.u, c.omega));
        const Forces f = solve(*sys, c.u, c.ud);
        const double twoT = c.omega.dot(c.J.asDiagonal() * c.omega);
        const Eigen::Vector4d Qci = -2 * twoT * c.u;
        const double scale = 1 + twoT + c.torque.norm();
        QVERIFY2(
            (f.acc.Qci - Qci).norm() <= 1e-10 * scale,
            qPrintable(QString("trial %1: |Δ| = %2").arg(trial).arg((f.acc.Qci - Qci).norm())));
        QVERIFY(f.acc.Qcni.norm() <= 1e-12 * scale);
        QVERIFY((0.5 * E(c.u) * f.acc.Qci).norm() <= 1e-10 * scale);
        const Eigen::Vector4d inertial =
            -8 * E(c.ud).transpose() * c.J.asDiagonal() * E(c.u) * c.ud;
        QVERIFY((0.5 * E(c.u) * (f.Q - inertial) - c.torque).norm() <= 1e-12 * scale);
    }
}

// docs/MATH.md §5: ü = −½ Eᵀ J⁻¹ (ω × J ω) − ¼ ‖ω‖² u + ½ Eᵀ J⁻¹ Γ (Euler's equations in
// quaternions).
void TestRigidBodyQuaternion::accelerationMatchesClosedForm()
{
    std::mt19937 rng(161803);
    for (int trial = 0; trial < 300; ++trial) {
        const RandomCase c = randomCase(rng);
        const auto sys =
            RigidBodyQuaternion::definition().create(values(c.J, c.torque, c.u, c.omega));
        const Forces f = solve(*sys, c.u, c.ud);
        const Eigen::Vector3d Jinv = c.J.cwiseInverse();
        const Eigen::Vector4d expected = -0.5 * E(c.u).transpose() * Jinv.asDiagonal() *
                                             c.omega.cross(c.J.asDiagonal() * c.omega) -
                                         0.25 * c.omega.squaredNorm() * c.u +
                                         0.5 * E(c.u).transpose() * Jinv.asDiagonal() * c.torque;
        const double scale = 1 + c.omega.squaredNorm() * c.J.maxCoeff() * Jinv.maxCoeff() +
                             c.torque.norm() * Jinv.maxCoeff();
        QVERIFY2((f.acc.qdd - expected).norm() <= 1e-10 * scale,
                 qPrintable(
                     QString("trial %1: |Δ| = %2").arg(trial).arg((f.acc.qdd - expected).norm())));
    }
}

// docs/MATH.md §4: the acceleration does not depend on α, G or z of the auxiliary system.
void TestRigidBodyQuaternion::accelerationIndependentOfAuxiliaryGauge()
{
    std::mt19937 rng(55);
    for (int trial = 0; trial < 50; ++trial) {
        const RandomCase c = randomCase(rng);
        const auto sys =
            RigidBodyQuaternion::definition().create(values(c.J, c.torque, c.u, c.omega));
        const Forces reference = solve(*sys, c.u, c.ud);
        for (const double alpha : {0.1, 3.0, 40.0}) {
            FundamentalEquation eq(4, 1);
            AuxiliarySettings aux;
            aux.alpha = alpha;
            aux.G = Eigen::MatrixXd::Constant(1, 1, 2.5);
            aux.z = Eigen::VectorXd::Constant(1, -1.7);
            eq.setAuxiliary(aux);
            const Forces f = solve(*sys, c.u, c.ud, 0.0, eq);
            QVERIFY((f.acc.qdd - reference.acc.qdd).norm() <=
                    1e-9 * (1 + reference.acc.qdd.norm()));
        }
    }
}

void TestRigidBodyQuaternion::initialStateSatisfiesConstraints()
{
    std::mt19937 rng(9);
    std::normal_distribution<double> normal(0, 3);
    for (int trial = 0; trial < 100; ++trial) {
        const Eigen::Vector4d raw(normal(rng), normal(rng), normal(rng), normal(rng));
        const Eigen::Vector3d omega(normal(rng), normal(rng), normal(rng));
        const auto sys = RigidBodyQuaternion::definition().create(
            values(Eigen::Vector3d(1, 2, 3), Eigen::Vector3d::Zero(), raw, omega));
        Eigen::VectorXd u(4), ud(4), r(sys->residualCount()), extra(4);
        sys->initialState(u, ud);
        // quat0 is normalized on load, and u̇₀ = ½ E(u₀)ᵀ ω₀ gives back ω₀ = 2 E(u₀) u̇₀.
        QVERIFY((u - raw.normalized()).norm() <= 1e-15);
        QVERIFY((2 * E(u) * ud - omega).norm() <= 1e-13 * (1 + omega.norm()));
        sys->constraintResiduals(u, ud, 0.0, r);
        QVERIFY(r.cwiseAbs().maxCoeff() <= 1e-14 * (1 + omega.norm()));
        sys->extraColumns(u, ud, 0.0, extra);
        QVERIFY((extra.head<3>() - omega).norm() <= 1e-13 * (1 + omega.norm()));
        QVERIFY(std::abs(extra[3] - 1) <= 1e-15);
    }
    const auto sys = RigidBodyQuaternion::definition().create({{"quat0", {2, 0, 0, 0}}});
    Eigen::VectorXd u(4), ud(4);
    sys->initialState(u, ud);
    QCOMPARE(u, Eigen::VectorXd(Eigen::Vector4d(1, 0, 0, 0)));
    QCOMPARE(sys->extraColumnNames(), (std::vector<std::string>{"w1", "w2", "w3", "quat_norm"}));
}

void TestRigidBodyQuaternion::startFromStateGivesTheOrientationAndBodyAngularVelocityOfTheState()
{
    // A state on the constraint (|u| = 1, uᵀu̇ = 0): the start it gives is that state again.
    const ParameterValues defaults = RigidBodyQuaternion::definition().defaults();
    const Eigen::Vector4d u = Eigen::Vector4d(0.3, -0.5, 0.7, 0.2).normalized();
    const Eigen::Vector3d omega(1.5, -0.25, 3.0);
    const Eigen::VectorXd ud = 0.5 * E(u).transpose() * omega;
    const ParameterValues start = RigidBodyQuaternion::startFromState(defaults, u, ud);
    RigidBodyQuaternion::definition().validate(start);
    QCOMPARE(start.at("J"), defaults.at("J"));
    for (int i = 0; i < 3; ++i)
        QVERIFY(std::abs(start.at("omega0")[i] - omega[i]) <= 1e-14);
    Eigen::VectorXd q0, qd0;
    RigidBodyQuaternion(start).initialState(q0, qd0);
    QVERIFY((q0 - u).norm() <= 1e-15);
    QVERIFY((qd0 - ud).norm() <= 1e-14);
    // A quaternion off the unit sphere is normalized, as quat0 is on load.
    const ParameterValues scaled = RigidBodyQuaternion::startFromState(defaults, 2.0 * u, ud);
    for (int i = 0; i < 4; ++i)
        QVERIFY(std::abs(scaled.at("quat0")[i] - u[i]) <= 1e-15);
}

void TestRigidBodyQuaternion::invalidParametersAreRejected()
{
    expectInvalid({{"quat0", {0, 0, 0, 0}}}, "quat0");
    expectInvalid({{"quat0", {1, 0, 0}}}, "quat0");
    expectInvalid({{"J", {1, 0, 3}}}, "J");
    expectInvalid({{"J", {1, 2}}}, "J");
    // No body has J₂ > J₁ + J₃ (the triangle inequality of principal moments of inertia).
    expectInvalid({{"J", {1, 1e6, 3}}}, "not the inertia of a rigid body");
    expectInvalid({{"J", {1, 2, 3.1}}}, "J3 = 3.1 > 3");
    expectInvalid({{"torque", {0, std::nan(""), 0}}}, "torque");
    expectInvalid({{"omega0", {1, 2, 3, 4}}}, "omega0");
    expectInvalid({{"inertia", {1, 2, 3}}}, "inertia");
    // The factory refuses a zero quaternion even when called without validation.
    try {
        RigidBodyQuaternion(values(Eigen::Vector3d(1, 2, 3), Eigen::Vector3d::Zero(),
                                   Eigen::Vector4d::Zero(), Eigen::Vector3d::Zero()));
        QFAIL("a zero quaternion was accepted");
    } catch (const ConstraintLabError& e) {
        QCOMPARE(e.kind(), ConstraintLabError::Kind::InvalidParameter);
    }
}

// With Γ = 0: ‖u‖ = 1, T = ½ ωᵀJω and the inertial angular momentum h = R(u) J ω stay
// constant. Tolerances: Dormand–Prince at rtol = 1e-9 on a state of size ~2 over some
// hundreds of steps accumulates at most ~1e-7; 1e-6 leaves a margin without hiding a
// modelling error (a wrong sign in Q or M changes T or h at order one within a second).
void TestRigidBodyQuaternion::torqueFreeMotionConservesEnergyAndMomentum()
{
    const auto sys = RigidBodyQuaternion::definition().create(
        values(Eigen::Vector3d(1, 2.5, 3), Eigen::Vector3d::Zero(),
               Eigen::Vector4d(0.9, -0.3, 0.2, 0.4), Eigen::Vector3d(1.2, -0.7, 0.9)));
    Simulator sim(*sys);
    SimulationOptions opt;
    opt.tEnd = 10;
    opt.dt = 0.02;
    const Trace trace = sim.run(opt);
    const Eigen::Vector3d J(1, 2.5, 3);
    auto momentum = [&](const TraceSample& s) {
        const Eigen::Vector4d u = s.q;
        const Eigen::Vector3d w = 2 * E(u) * Eigen::Vector4d(s.qd);
        return Eigen::Vector3d(R(u) * J.asDiagonal() * w);
    };
    const Eigen::Vector3d h0 = momentum(trace.samples.front());
    const double T0 = trace.samples.front().T;
    double dT = 0, dh = 0, dnorm = 0;
    for (const TraceSample& s : trace.samples) {
        dT = std::max(dT, std::abs(s.T - T0));
        dh = std::max(dh, (momentum(s) - h0).norm());
        dnorm = std::max(dnorm, std::abs(s.q.norm() - 1));
        QVERIFY(std::abs(s.extra[3] - s.q.norm()) <= 1e-15);
    }
    QVERIFY2(dnorm < 1e-6, qPrintable(QString::number(dnorm)));
    QVERIFY2(dT < 1e-6 * T0, qPrintable(QString::number(dT)));
    QVERIFY2(dh < 1e-6 * h0.norm(), qPrintable(QString::number(dh)));
    // The body really tumbles: ω moves in body axes while h stays put.
    const Eigen::Vector3d w0 = trace.samples.front().extra.head<3>();
    double wMove = 0;
    for (const TraceSample& s : trace.samples)
        wMove = std::max(wMove, (s.extra.head<3>() - w0).norm());
    QVERIFY(wMove > 0.5);
}

// J = (1, 2, 3) spun about the intermediate axis with a small perturbation: ω₂ reverses
// (Dzhanibekov). Linearizing Euler's equations, the perturbation grows like e^{σt} with
// σ = ω₂ √((J₂ − J₁)(J₃ − J₂)/(J₁J₃)) ≈ 1.15 s⁻¹, so from 0.01 it reaches order one in ~4 s.
void TestRigidBodyQuaternion::intermediateAxisFlips()
{
    const auto sys = RigidBodyQuaternion::definition().create({}); // the defaults are this case
    Simulator sim(*sys);
    SimulationOptions opt;
    opt.tEnd = 10;
    opt.dt = 0.01;
    const Trace trace = sim.run(opt);
    const int w2 = trace.columnIndex("w2");
    QVERIFY(w2 >= 0);
    const std::vector<double> omega2 = trace.column(w2);
    QVERIFY(std::abs(omega2.front() - 2) < 1e-12);
    double tFlip = -1;
    double minimum = omega2.front();
    for (std::size_t k = 0; k < omega2.size(); ++k) {
        if (tFlip < 0 && omega2[k] < 0)
            tFlip = trace.samples[k].t;
        minimum = std::min(minimum, omega2[k]);
    }
    QVERIFY2(tFlip > 2 && tFlip < 8, qPrintable(QString::number(tFlip)));
    // A full flip: ω₂ swings to about −2 (energy and |h| are conserved).
    QVERIFY2(minimum < -1.9, qPrintable(QString::number(minimum)));
    const TraceSample& last = trace.samples.back();
    QVERIFY(std::abs(last.T - trace.samples.front().T) < 1e-6 * trace.samples.front().T);
    QVERIFY(std::abs(last.q.norm() - 1) < 1e-6);
}

// A constant torque Γ₃ about the principal axis the body spins about: ω₃ = ω₀ + Γ₃ t / J₃, the
// other components stay zero, and u = (cos θ/2, 0, 0, sin θ/2) with θ = ω₀ t + Γ₃ t²/(2J₃).
// The torque's work ∫ Γ·ω dt equals the gain in kinetic energy.
void TestRigidBodyQuaternion::torqueAboutPrincipalAxisSpinsUpInClosedForm()
{
    const double J3 = 3, G3 = 0.6, w0 = 1;
    const auto sys = RigidBodyQuaternion::definition().create(
        values(Eigen::Vector3d(1, 2, J3), Eigen::Vector3d(0, 0, G3), Eigen::Vector4d(1, 0, 0, 0),
               Eigen::Vector3d(0, 0, w0)));
    Simulator sim(*sys);
    SimulationOptions opt;
    opt.tEnd = 5;
    opt.dt = 0.05;
    const Trace trace = sim.run(opt);
    const double T0 = trace.samples.front().T;
    for (const TraceSample& s : trace.samples) {
        const double t = s.t;
        const double theta = w0 * t + G3 * t * t / (2 * J3);
        const Eigen::Vector4d u(std::cos(theta / 2), 0, 0, std::sin(theta / 2));
        QVERIFY2((s.q - u).norm() < 1e-7, qPrintable(QString::number(t)));
        QVERIFY((s.extra.head<3>() - Eigen::Vector3d(0, 0, w0 + G3 * t / J3)).norm() < 1e-7);
        QVERIFY(std::abs((s.T - T0) - s.W_given_nc) < 1e-7 * (1 + s.T));
    }
    const double wEnd = w0 + G3 * 5 / J3;
    QVERIFY(std::abs(trace.samples.back().T - 0.5 * J3 * wEnd * wEnd) < 1e-7);
}

QTEST_APPLESS_MAIN(TestRigidBodyQuaternion)
#include "tst_RigidBodyQuaternion.moc"
