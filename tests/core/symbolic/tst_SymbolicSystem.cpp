// Systems written as equations, run through the Simulator, against independent references: a
// hand derivation of A and b, the double pendulum in angle coordinates, the closed-form path of
// a knife edge, the relative equilibrium of a bead on a rotating hoop, and the energy balance.
#include "../../support/SystemDescriptions.h"
#include "integrate/Simulator.h"
#include "symbolic/SymbolicModel.h"
#include "symbolic/SymbolicSystem.h"
#include "symbolic/SystemError.h"

#include <QtTest>

#include <boost/numeric/odeint.hpp>

#include <cmath>
#include <random>

using namespace clab;

class TestSymbolicSystem : public QObject {
    Q_OBJECT

private slots:
    void doublePendulumMatrixAndRightSideMatchAHandDerivation();
    void doublePendulumFollowsTheAngleCoordinateModel();
    void doublePendulumKeepsItsEnergyAndReportsRodForces();
    void knifeEdgeFollowsItsClosedFormCircle();
    void beadOnARotatingHoopStaysAtItsOffAxisEquilibrium();
    void dampingWorkClosesTheEnergyBalance();
    void initialValuesLeftOutAreCompletedFromTheConstraints();
    void initialValuesThatViolateTheConstraintsAreRefused();
    void aNewParameterValueNeedsNoNewDerivation();
    void twoLoadsOfOneSystemRunBitForBitAlike();
    void nonIdealForceWrittenWithTheNormalForceSlowsTheBeadAsCoulombSays();
};

namespace {

using Kind = SystemDescription::Constraint::Kind;
using P = SystemDescription::Parameter;

std::unique_ptr<MechanicalSystem> build(const SystemDescription& d, ParameterValues values = {})
{
    const std::shared_ptr<const SymbolicModel> model = SymbolicModel::create(d);
    return model->definition().create(values);
}

Trace run(const MechanicalSystem& system, double tEnd, double rtol = 1e-10)
{
    Simulator simulator(system);
    SimulationOptions options;
    options.tEnd = tEnd;
    options.dt = 0.01;
    options.rtol = rtol;
    options.atol = 1e-12;
    return simulator.run(options);
}

} // namespace

void TestSymbolicSystem::doublePendulumMatrixAndRightSideMatchAHandDerivation()
{
    const auto system = build(test::doublePendulum(1.5));
    const double m1 = 1.0, m2 = 1.5;
    std::mt19937 random(3);
    std::normal_distribution<double> n(0.0, 1.0);
    Eigen::MatrixXd M(4, 4), A(2, 4);
    Eigen::VectorXd Q(4), b(2);
    for (int trial = 0; trial < 20; ++trial) {
        Eigen::VectorXd q(4), v(4);
        for (int i = 0; i < 4; ++i)
            q[i] = n(random), v[i] = n(random);
        system->massMatrix(q, 0.0, M);
        system->givenForce(q, v, 0.0, Q);
        system->constraintMatrix(q, v, 0.0, A, b);
        // By hand: M = diag(m1, m1, m2, m2), Q = gravity, A = ∂φ/∂q, b = −(∂(Aq̇)/∂q) q̇.
        Eigen::MatrixXd Mh = Eigen::Vector4d(m1, m1, m2, m2).asDiagonal();
        Eigen::VectorXd Qh(4);
        Qh << 0, -m1 * 9.81, 0, -m2 * 9.81;
        const double dx = q[2] - q[0], dy = q[3] - q[1], dvx = v[2] - v[0], dvy = v[3] - v[1];
        Eigen::MatrixXd Ah(2, 4);
        Ah << 2 * q[0], 2 * q[1], 0, 0, -2 * dx, -2 * dy, 2 * dx, 2 * dy;
        Eigen::VectorXd bh(2);
        bh << -2 * (v[0] * v[0] + v[1] * v[1]), -2 * (dvx * dvx + dvy * dvy);
        QVERIFY((M - Mh).norm() == 0.0);
        QVERIFY((Q - Qh).norm() <= 1e-14);
        QVERIFY2((A - Ah).norm() <= 1e-14 * (1 + Ah.norm()), "A");
        QVERIFY2((b - bh).norm() <= 1e-14 * (1 + bh.norm()), "b");
    }
}

void TestSymbolicSystem::doublePendulumFollowsTheAngleCoordinateModel()
{
    const auto system = build(test::doublePendulum(1.5));
    const Trace trace = run(*system, 3.0);

    // Reference: Lagrange's equations in the rod angles θ1, θ2 from the downward vertical.
    const double m1 = 1.0, m2 = 1.5, l1 = 1.0, l2 = 0.7, g = 9.81;
    using State = std::array<double, 4>; // θ1, θ2, θ1', θ2'
    const auto rhs = [&](const State& s, State& ds, double) {
        const double d = s[0] - s[1], c = std::cos(d), sn = std::sin(d);
        Eigen::Matrix2d M;
        M << (m1 + m2) * l1 * l1, m2 * l1 * l2 * c, m2 * l1 * l2 * c, m2 * l2 * l2;
        const Eigen::Vector2d f(-m2 * l1 * l2 * sn * s[3] * s[3] -
                                    (m1 + m2) * g * l1 * std::sin(s[0]),
                                m2 * l1 * l2 * sn * s[2] * s[2] - m2 * g * l2 * std::sin(s[1]));
        const Eigen::Vector2d a = M.lu().solve(f);
        ds = {s[2], s[3], a[0], a[1]};
    };
    State s{M_PI / 2, M_PI / 2, 0, 0};
    double worst = 0.0, t = 0.0;
    auto stepper = boost::numeric::odeint::make_dense_output(
        1e-13, 1e-13, boost::numeric::odeint::runge_kutta_dopri5<State>());
    stepper.initialize(s, 0.0, 1e-4);
    for (const TraceSample& sample : trace.samples) {
        while (stepper.current_time() < sample.t)
            stepper.do_step(rhs);
        State at;
        stepper.calc_state(sample.t, at);
        t = sample.t;
        const double x2 = l1 * std::sin(at[0]) + l2 * std::sin(at[1]);
        const double y2 = -l1 * std::cos(at[0]) - l2 * std::cos(at[1]);
        worst = std::max(worst, std::hypot(sample.q[2] - x2, sample.q[3] - y2));
    }
    QCOMPARE(t, 3.0);
    QVERIFY2(worst < 1e-6, qPrintable(QStringLiteral("lower bob off by %1 m").arg(worst)));
}

void TestSymbolicSystem::doublePendulumKeepsItsEnergyAndReportsRodForces()
{
    const auto system = build(test::doublePendulum(1.5));
    QCOMPARE(system->extraColumnNames(), (std::vector<std::string>{"N_rod1", "N_rod2"}));
    const Trace trace = run(*system, 5.0);
    double worst = 0.0;
    for (const TraceSample& s : trace.samples) {
        worst = std::max(worst, std::abs(s.E - trace.samples.front().E));
        // N is the size of the generalized force Aᵣᵀλᵣ. Only rod2 holds the lower bob and it
        // pulls both bobs alike: N_rod2 = √2 × the lower bob's ideal force. Rod1 holds only
        // the upper bob, whose ideal force is rod1's pull plus rod2's reaction.
        const Eigen::Vector2d lower = s.Qci.segment<2>(2);
        const Eigen::Vector2d rod1 = s.Qci.segment<2>(0) + lower;
        QVERIFY(std::abs(s.extra[1] - std::sqrt(2.0) * lower.norm()) <= 1e-8 * (1 + lower.norm()));
        QVERIFY(std::abs(s.extra[0] - rod1.norm()) <= 1e-8 * (1 + rod1.norm()));
    }
    QVERIFY2(worst < 1e-7, qPrintable(QString::number(worst)));
    // At the start the bobs are at rest and horizontal: neither rod pulls yet.
    QVERIFY(std::abs(trace.samples.front().extra[0]) < 1e-12);
}

void TestSymbolicSystem::knifeEdgeFollowsItsClosedFormCircle()
{
    // A knife edge (skate) in the plane: its velocity is along its heading θ.
    SystemDescription d;
    d.coordinates = {{"x"}, {"y"}, {"th", ""}};
    d.parameters = {P::plain("m", 2.0), P::plain("J", 0.3), P::plain("v", 1.5), P::plain("w", 0.8)};
    d.masses = {"m", "m", "J"};
    d.constraints = {{"blade", Kind::Velocity, "-x_dot*sin(th) + y_dot*cos(th)"}};
    d.initial = {{"x", "0"}, {"y", "0"}, {"th", "0"}, {"x_dot", "v"}, {"th_dot", "w"}};
    const auto system = build(d);
    const Trace trace = run(*system, 6.0);
    const double v = 1.5, w = 0.8;
    double worst = 0.0;
    for (const TraceSample& s : trace.samples) {
        const double x = v / w * std::sin(w * s.t), y = v / w * (1 - std::cos(w * s.t));
        worst = std::max({worst, std::hypot(s.q[0] - x, s.q[1] - y), std::abs(s.q[2] - w * s.t)});
    }
    QVERIFY2(worst < 1e-8, qPrintable(QString::number(worst)));
}

void TestSymbolicSystem::beadOnARotatingHoopStaysAtItsOffAxisEquilibrium()
{
    // A hoop of radius R turns about the vertical z axis at a fixed rate ω (rheonomic). Above
    // ω² = g/R the bead has a relative equilibrium at cos θ* = g/(ω²R) from the bottom.
    SystemDescription d;
    d.coordinates = {{"x"}, {"y"}, {"z"}};
    d.parameters = {P::plain("m", 1.0), P::plain("R", 0.5), P::plain("w", 6.0),
                    P::plain("g", 9.81)};
    d.masses = {"m", "m", "m"};
    d.potentialEnergy = "m*g*z";
    d.constraints = {{"hoop", Kind::Holonomic, "x^2 + y^2 + z^2 - R^2"},
                     {"plane", Kind::Holonomic, "-x*sin(w*t) + y*cos(w*t)"}};
    const double R = 0.5, w = 6.0, g = 9.81;
    const double theta = std::acos(g / (w * w * R));
    d.initial = {
        {"x", "R*sqrt(1 - (g/(w^2*R))^2)"},       {"z", "-g/w^2"}, {"y", "0"}, {"x_dot", "0"},
        {"y_dot", "w*R*sqrt(1 - (g/(w^2*R))^2)"}, {"z_dot", "0"}};
    const auto system = build(d);
    QVERIFY(system->constraintsAreRheonomic());
    const Trace trace = run(*system, 3.0);
    double worst = 0.0, audit = 0.0;
    for (const TraceSample& s : trace.samples) {
        worst = std::max(worst, std::abs(s.q[2] + R * std::cos(theta)));
        audit = std::max(audit, std::abs(s.E_error));
    }
    QVERIFY2(worst < 1e-6, qPrintable(QString::number(worst)));
    // E − W_ideal − ... stays balanced with a moving constraint.
    QVERIFY2(audit < 1e-7, qPrintable(QString::number(audit)));
}

void TestSymbolicSystem::dampingWorkClosesTheEnergyBalance()
{
    SystemDescription d = test::doublePendulum(1.5);
    d.forces = {{"x2", "-0.4*x2_dot"}, {"y2", "-0.4*y2_dot"}};
    const auto system = build(d);
    const Trace trace = run(*system, 4.0);
    double audit = 0.0;
    for (const TraceSample& s : trace.samples)
        audit = std::max(audit, std::abs(s.E_error));
    QVERIFY(trace.samples.back().W_given_nc < -0.1); // the damper took energy out
    QVERIFY2(audit < 1e-7, qPrintable(QString::number(audit)));
}

void TestSymbolicSystem::initialValuesLeftOutAreCompletedFromTheConstraints()
{
    SystemDescription d;
    d.coordinates = {{"x"}, {"y"}};
    d.parameters = {P::plain("l", 1.0), P::plain("g", 9.81)};
    d.masses = {"1", "1"};
    d.potentialEnergy = "g*y";
    d.constraints = {{"rod", Kind::Holonomic, "x^2 + y^2 - l^2"}};
    d.initial = {{"x", "0.6"}, {"x_dot", "0.8"}};
    const auto system = build(d);
    Eigen::VectorXd q0, qd0;
    system->initialState(q0, qd0);
    QVERIFY(std::abs(q0[0] - 0.6) == 0.0);
    QVERIFY(std::abs(q0[1] + 0.8) < 1e-14);  // the hanging root
    QVERIFY(std::abs(qd0[1] - 0.6) < 1e-14); // x ẋ + y ẏ = 0
    const auto& notes = static_cast<const SymbolicSystem&>(*system).initialNotes();
    QCOMPARE(notes.size(), std::size_t(2));
    QVERIFY(notes[0].starts_with("y = -0.8"));
}

void TestSymbolicSystem::initialValuesThatViolateTheConstraintsAreRefused()
{
    SystemDescription d = test::doublePendulum(1.5);
    d.initial = {{"x1", "1"}, {"y1", "0.5"}, {"x2", "1.7"}, {"y2", "0.5"}};
    try {
        build(d);
        QFAIL("no error");
    } catch (const ConstraintLabError& e) {
        QCOMPARE(e.kind(), ConstraintLabError::Kind::InvalidInitialState);
        QVERIFY2(QString::fromStdString(e.what()).contains("'rod1'"), e.what());
        QVERIFY2(QString::fromStdString(e.what()).contains("(none)"), e.what());
    }
}

void TestSymbolicSystem::aNewParameterValueNeedsNoNewDerivation()
{
    const std::shared_ptr<const SymbolicModel> model =
        SymbolicModel::create(test::doublePendulum(1.5));
    const auto a = model->definition().create({});
    const auto b = model->definition().create({{"g", {1.62}}});
    Eigen::VectorXd q(4), v = Eigen::VectorXd::Zero(4), Qa(4), Qb(4);
    q << 1, 0, 1.7, 0;
    a->givenForce(q, v, 0.0, Qa);
    b->givenForce(q, v, 0.0, Qb);
    QCOMPARE(Qa[3], -1.5 * 9.81);
    QCOMPARE(Qb[3], -1.5 * 1.62);
}

void TestSymbolicSystem::twoLoadsOfOneSystemRunBitForBitAlike()
{
    // Each load makes new GiNaC symbols, whose hashes reorder sums and flip the sign GiNaC
    // factors out of (x2 − x1)²; the compiled order must not depend on that.
    SystemDescription d = test::doublePendulum(1.5);
    d.forces = {{"x2", "-0.3*x2_dot*(x2 - x1)"}, {"y2", "-0.3*y2_dot"}};
    std::vector<Trace> traces;
    for (int load = 0; load < 4; ++load)
        traces.push_back(run(*build(d), 5.0));
    for (std::size_t k = 1; k < traces.size(); ++k) {
        QCOMPARE(traces[k].samples.size(), traces[0].samples.size());
        for (std::size_t i = 0; i < traces[0].samples.size(); ++i) {
            const TraceSample &a = traces[0].samples[i], &b = traces[k].samples[i];
            QVERIFY2(a.q == b.q && a.qd == b.qd && a.Qci == b.Qci && a.E == b.E &&
                         a.residualMax == b.residualMax,
                     qPrintable(QStringLiteral("load %1 differs at t = %2").arg(k).arg(a.t)));
        }
    }
}

void TestSymbolicSystem::nonIdealForceWrittenWithTheNormalForceSlowsTheBeadAsCoulombSays()
{
    // Coulomb friction written by hand as a general non-ideal force, μ N_wire against the
    // sliding direction, on a bead already sliding down: s(t) = s0 + v0 t − ½ g (sin α − μ cos α)
    // t².
    SystemDescription d;
    d.coordinates = {{"x"}, {"y"}};
    d.parameters = {P::plain("m", 2.0), P::plain("g", 9.81), P::plain("a", 0.5),
                    P::plain("mu", 0.2)};
    d.masses = {"m", "m"};
    d.potentialEnergy = "m*g*y";
    d.constraints = {{"wire", Kind::Holonomic, "-x*sin(a) + y*cos(a)"}};
    const std::string slide = "sign(x_dot*cos(a) + y_dot*sin(a))";
    d.nonideal = {{"x", "-mu*N_wire*" + slide + "*cos(a)"},
                  {"y", "-mu*N_wire*" + slide + "*sin(a)"}};
    d.initial = {
        {"x", "3*cos(a)"}, {"y", "3*sin(a)"}, {"x_dot", "-0.5*cos(a)"}, {"y_dot", "-0.5*sin(a)"}};
    const auto system = build(d);
    const Trace trace = run(*system, 0.8);
    const double g = 9.81, a = 0.5, mu = 0.2, m = 2.0;
    const double down = g * (std::sin(a) - mu * std::cos(a));
    double worst = 0.0;
    for (const TraceSample& s : trace.samples) {
        const double along = s.q[0] * std::cos(a) + s.q[1] * std::sin(a);
        worst = std::max(worst, std::abs(along - (3.0 - 0.5 * s.t - 0.5 * down * s.t * s.t)));
        // The friction is μ times the wire's force m g cos α, and N_wire reports that force.
        QVERIFY(std::abs(s.Qcni.norm() - mu * m * g * std::cos(a)) < 1e-9);
        QVERIFY(std::abs(s.extra[0] - m * g * std::cos(a)) < 1e-9);
    }
    QVERIFY2(worst < 1e-9, qPrintable(QString::number(worst)));
}

QTEST_APPLESS_MAIN(TestSymbolicSystem)
#include "tst_SymbolicSystem.moc"
