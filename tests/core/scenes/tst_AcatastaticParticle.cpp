#include "../../support/SceneForces.h"
#include "model/ConstraintLabError.h"
#include "solve/FundamentalEquation.h"
#include "integrate/Simulator.h"
#include "scenes/AcatastaticParticle.h"

#include "../../support/SceneParameters.h"

#include <QtTest>

#include <cmath>
#include <random>

using namespace clab;

namespace {

using Forces = test::SceneForces;

Forces solve(const MechanicalSystem& s, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
             double t)
{
    return test::solveScene(s, q, qd, t);
}

struct Setup {
    double mass = 1, fx = 0, fy = 0, a0 = 0, a1 = 0, omega = 0, x0 = 0, y0 = 0, ydot0 = 0;
    ParameterValues values() const
    {
        return {{"mass", {mass}},   {"fx", {fx}}, {"fy", {fy}}, {"a0", {a0}},      {"a1", {a1}},
                {"omega", {omega}}, {"x0", {x0}}, {"y0", {y0}}, {"ydot0", {ydot0}}};
    }
    double a(double t) const { return a0 + a1 * std::sin(omega * t); }
    double aDot(double t) const { return a1 * omega * std::cos(omega * t); }
};

Setup randomSetup(std::mt19937& rng)
{
    std::uniform_real_distribution<double> mass(0.1, 10), f(-5, 5), a(-2, 2), w(0, 5);
    Setup s;
    s.mass = mass(rng), s.fx = f(rng), s.fy = f(rng), s.a0 = a(rng), s.a1 = a(rng);
    s.omega = w(rng), s.x0 = f(rng), s.y0 = f(rng), s.ydot0 = a(rng);
    return s;
}

// A random state on the constraint at time t: ẋ = a(t) + t ẏ.
void randomState(std::mt19937& rng, const Setup& p, double t, Eigen::VectorXd& q,
                 Eigen::VectorXd& qd)
{
    std::uniform_real_distribution<double> u(-5, 5);
    q = Eigen::Vector2d(u(rng), u(rng));
    const double yd = u(rng);
    qd = Eigen::Vector2d(p.a(t) + t * yd, yd);
}

void expectInvalid(const ParameterValues& v, const QString& mustMention)
{
    try {
        AcatastaticParticle::definition().create(v);
        QFAIL(qPrintable("no error for " + mustMention));
    } catch (const ConstraintLabError& e) {
        QCOMPARE(e.kind(), ConstraintLabError::Kind::InvalidParameter);
        QVERIFY2(QString::fromUtf8(e.what()).contains(mustMention), e.what());
    }
}

} // namespace

class TestAcatastaticParticle : public QObject {
    Q_OBJECT

private slots:
    // Users' scripts and scene files name these parameters: renaming one breaks them.
    void parametersKeepTheirNamesAndUnits()
    {
        const SceneDefinition d = AcatastaticParticle::definition();
        QCOMPARE(testing::namesAndUnits(d), (testing::NamesAndUnits{{"mass", "kg"},
                                                                    {"fx", "N"},
                                                                    {"fy", "N"},
                                                                    {"a0", "m/s"},
                                                                    {"a1", "m/s"},
                                                                    {"omega", "rad/s"},
                                                                    {"x0", "m"},
                                                                    {"y0", "m"},
                                                                    {"ydot0", "m/s"}}));
    }

    void forcesMatchClosedForm();
    void accelerationMatchesClosedForm();
    void initialStateSatisfiesConstraints();
    void invalidParametersAreRejected();
    void constraintIsRheonomic();
    void energyBalanceIncludesIdealWork();
};

// Qᶜᵢ = (1, −t) λ, λ = (m (ẏ + ȧ) − f_x + t f_y)/(1 + t²) (solve A M⁻¹ Aᵀ λ = b − A M⁻¹ f by
// hand); no non-ideal force.
void TestAcatastaticParticle::forcesMatchClosedForm()
{
    std::mt19937 rng(1001);
    std::uniform_real_distribution<double> time(0, 20);
    for (int trial = 0; trial < 300; ++trial) {
        const Setup p = randomSetup(rng);
        const auto sys = AcatastaticParticle::definition().create(p.values());
        const double t = time(rng);
        Eigen::VectorXd q, qd;
        randomState(rng, p, t, q, qd);
        const Forces f = solve(*sys, q, qd, t);
        const double lambda = (p.mass * (qd[1] + p.aDot(t)) - p.fx + t * p.fy) / (1 + t * t);
        const Eigen::Vector2d Qci = lambda * Eigen::Vector2d(1, -t);
        const double scale = p.mass * (std::abs(qd[1]) + std::abs(p.aDot(t))) + std::abs(p.fx) +
                             (1 + t) * std::abs(p.fy);
        QVERIFY2((f.acc.Qci - Qci).norm() <= 1e-12 * scale, qPrintable(QString::number(trial)));
        QCOMPARE(f.acc.Qcni.norm(), 0.0);
        QVERIFY((f.Q - Eigen::Vector2d(p.fx, p.fy)).norm() == 0.0);
    }
}

// Paper 001, eq. (41): m (1 + t²) (ẍ, ÿ) = [t² t; t 1] (X, Y) + m (ẏ + ȧ) (1, −t).
void TestAcatastaticParticle::accelerationMatchesClosedForm()
{
    std::mt19937 rng(77);
    std::uniform_real_distribution<double> time(0, 20);
    for (int trial = 0; trial < 300; ++trial) {
        const Setup p = randomSetup(rng);
        const auto sys = AcatastaticParticle::definition().create(p.values());
        const double t = time(rng);
        Eigen::VectorXd q, qd;
        randomState(rng, p, t, q, qd);
        const Forces f = solve(*sys, q, qd, t);
        Eigen::Matrix2d P;
        P << t * t, t, t, 1;
        const Eigen::Vector2d expected = (P * Eigen::Vector2d(p.fx, p.fy) +
                                          p.mass * (qd[1] + p.aDot(t)) * Eigen::Vector2d(1, -t)) /
                                         (p.mass * (1 + t * t));
        const double scale =
            (std::abs(qd[1]) + std::abs(p.aDot(t))) + (std::abs(p.fx) + std::abs(p.fy)) / p.mass;
        QVERIFY2((f.acc.qdd - expected).norm() <= 1e-12 * scale,
                 qPrintable(QString::number(trial)));
        // Differentiated constraint: ẍ − t ÿ = ẏ + ȧ.
        QVERIFY(std::abs(f.acc.qdd[0] - t * f.acc.qdd[1] - qd[1] - p.aDot(t)) <=
                1e-12 * (1 + t) * scale);
    }
}

void TestAcatastaticParticle::initialStateSatisfiesConstraints()
{
    std::mt19937 rng(12);
    for (int trial = 0; trial < 100; ++trial) {
        const Setup p = randomSetup(rng);
        const auto sys = AcatastaticParticle::definition().create(p.values());
        QCOMPARE(sys->initialTime(), 0.0);
        Eigen::VectorXd q(2), qd(2), r(sys->residualCount());
        sys->initialState(q, qd);
        // At t = 0 the constraint reads ẋ = a(0) = a₀.
        QVERIFY((q - Eigen::Vector2d(p.x0, p.y0)).norm() == 0.0);
        QVERIFY((qd - Eigen::Vector2d(p.a0, p.ydot0)).norm() <= 1e-15 * (1 + std::abs(p.a0)));
        sys->constraintResiduals(q, qd, 0.0, r);
        QVERIFY(std::abs(r[0]) <= 1e-14 * (1 + std::abs(p.a0)));
    }
    // Residual ẋ − t ẏ − a(t) off the constraint.
    Setup p;
    p.a0 = 1, p.a1 = 2, p.omega = 3;
    const auto sys = AcatastaticParticle::definition().create(p.values());
    Eigen::VectorXd r(1);
    sys->constraintResiduals(Eigen::Vector2d(0, 0), Eigen::Vector2d(4, 0.5), 2.0, r);
    QVERIFY(std::abs(r[0] - (4 - 2 * 0.5 - p.a(2.0))) < 1e-15);
}

void TestAcatastaticParticle::invalidParametersAreRejected()
{
    expectInvalid({{"mass", {-3.0}}}, "mass");
    expectInvalid({{"omega", {std::nan("")}}}, "omega");
    expectInvalid({{"a1", {1.0, 1.0}}}, "a1");
    expectInvalid({{"xdot0", {1.0}}}, "xdot0"); // follows from the constraint
}

void TestAcatastaticParticle::constraintIsRheonomic()
{
    const auto sys = AcatastaticParticle::definition().create({});
    QVERIFY(sys->constraintsAreRheonomic());
    // The constraint matrix changes with t, so the same state is accelerated differently.
    Eigen::MatrixXd A(1, 2);
    Eigen::VectorXd b(1);
    sys->constraintMatrix(Eigen::Vector2d(0, 0), Eigen::Vector2d(1, 0), 3.0, A, b);
    QCOMPARE(A(0, 0), 1.0);
    QCOMPARE(A(0, 1), -3.0);
}

// The constraint moves with time, so its ideal force does work on the actual motion:
// E(t) − E(0) = W_ideal, and W_ideal is far from zero.
void TestAcatastaticParticle::energyBalanceIncludesIdealWork()
{
    Setup p;
    p.mass = 0.8, p.fx = 0.3, p.fy = -1, p.a0 = 1, p.a1 = 0.5, p.omega = 2, p.ydot0 = 0.2;
    const auto sys = AcatastaticParticle::definition().create(p.values());
    Simulator sim(*sys);
    SimulationOptions opt;
    opt.tEnd = 10;
    opt.dt = 0.05;
    const Trace trace = sim.run(opt);
    QVERIFY(trace.hasIdealWork());
    const TraceSample& first = trace.samples.front();
    double maxE = 0;
    for (const TraceSample& s : trace.samples)
        maxE = std::max(maxE, std::abs(s.T) + std::abs(s.V));
    for (const TraceSample& s : trace.samples) {
        // A few hundred steps at rtol = 1e-9.
        QVERIFY2(std::abs((s.E - first.E) - s.W_ideal) <= 1e-7 * maxE,
                 qPrintable(QString("t = %1: ΔE = %2, W_ideal = %3")
                                .arg(s.t)
                                .arg(s.E - first.E)
                                .arg(s.W_ideal)));
        QCOMPARE(s.W_nonideal, 0.0);
        QVERIFY(s.residualMax < 1e-6);
    }
    QVERIFY(std::abs(trace.samples.back().W_ideal) > 0.1);
}

QTEST_APPLESS_MAIN(TestAcatastaticParticle)
#include "tst_AcatastaticParticle.moc"
