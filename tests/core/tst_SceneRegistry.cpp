#include "ConstraintLabError.h"
#include "SceneRegistry.h"
#include "Simulator.h"

#include "../support/AllocationCounter.h"

#include <QtTest>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <map>
#include <random>

using namespace clab;

// Scenes must not allocate in their evaluation methods (MechanicalSystem.h): counted with the
// test programs' allocation counter.
using clab::testing::g_allocations;
using clab::testing::g_countAllocations;

class TestSceneRegistry : public QObject {
    Q_OBJECT

private slots:
    void builtInScenesAreListedInOrder();
    void findLooksScenesUpByName();
    void parameterNamesAndUnitsAreStable();
    void everySceneIsDescribed();
    void defaultsAreValidAndConsistent();
    void accelerationKeepsConstraintsAlongTaylorStep();
    void constraintFunctionsAgreeWithAccelerationRows();
    void evaluationAllocatesNothing();
};

void TestSceneRegistry::builtInScenesAreListedInOrder()
{
    std::vector<std::string> names;
    for (const SceneDefinition& d : SceneRegistry::builtIn())
        names.push_back(d.name);
    QCOMPARE(names, (std::vector<std::string>{"bead-on-wire", "ring", "nonholonomic-particle",
                                              "rigid-body", "acatastatic-particle", "chain"}));
    // The list is built once: the same objects on every call.
    QCOMPARE(&SceneRegistry::builtIn(), &SceneRegistry::builtIn());
}

void TestSceneRegistry::findLooksScenesUpByName()
{
    for (const SceneDefinition& d : SceneRegistry::builtIn())
        QCOMPARE(SceneRegistry::find(d.name), &d);
    QVERIFY(SceneRegistry::find("Ring") == nullptr);
    QVERIFY(SceneRegistry::find("") == nullptr);
    QVERIFY(SceneRegistry::find("pendulum") == nullptr);
}

// Users' scripts and scene files name these parameters: renaming one breaks them.
void TestSceneRegistry::parameterNamesAndUnitsAreStable()
{
    using Specs = std::vector<std::pair<std::string, std::string>>; // name, unit
    const std::map<std::string, Specs> expected = {
        {"bead-on-wire",
         {{"mass", "kg"},
          {"g", "m/s²"},
          {"angle_deg", "deg"},
          {"mu", ""},
          {"mu_s", ""},
          {"s0", "m"},
          {"v0", "m/s"}}},
        {"ring",
         {{"mass", "kg"},
          {"g", "m/s²"},
          {"radius", "m"},
          {"mu", ""},
          {"mu_s", ""},
          {"phi0_deg", "deg"},
          {"v0", "m/s"}}},
        {"nonholonomic-particle",
         {{"mass", "kg"},
          {"fx", "N"},
          {"fy", "N"},
          {"fz", "N"},
          {"a0", "N"},
          {"x0", "m"},
          {"y0", "m"},
          {"z0", "m"},
          {"xdot0", "m/s"},
          {"zdot0", "m/s"}}},
        {"rigid-body", {{"J", "kg·m²"}, {"torque", "N·m"}, {"quat0", ""}, {"omega0", "rad/s"}}},
        {"acatastatic-particle",
         {{"mass", "kg"},
          {"fx", "N"},
          {"fy", "N"},
          {"a0", "m/s"},
          {"a1", "m/s"},
          {"omega", "rad/s"},
          {"x0", "m"},
          {"y0", "m"},
          {"ydot0", "m/s"}}},
        {"chain",
         {{"links", ""},
          {"length", "m"},
          {"mass", "kg"},
          {"pinned", ""},
          {"g", "m/s²"},
          {"omega0", "rad/s"}}},
    };
    for (const SceneDefinition& d : SceneRegistry::builtIn()) {
        Specs actual;
        for (const ParameterSpec& p : d.parameters)
            actual.emplace_back(p.name, p.unit);
        QCOMPARE(actual, expected.at(d.name));
    }
    const SceneDefinition& rigid = *SceneRegistry::find("rigid-body");
    QCOMPARE(rigid.parameter("J")->size(), 3);
    QCOMPARE(rigid.parameter("torque")->size(), 3);
    QCOMPARE(rigid.parameter("quat0")->size(), 4);
    QCOMPARE(rigid.parameter("omega0")->size(), 3);
}

void TestSceneRegistry::everySceneIsDescribed()
{
    for (const SceneDefinition& d : SceneRegistry::builtIn()) {
        QVERIFY(!d.title.empty());
        QVERIFY2(d.description.size() > 80, d.name.c_str());
        QVERIFY(d.factory);
        for (const ParameterSpec& p : d.parameters) {
            QVERIFY2(!p.description.empty(), p.name.c_str());
            QVERIFY2(p.size() >= 1, p.name.c_str());
            QVERIFY2(p.min <= p.max, p.name.c_str());
        }
        // Masses and lengths that must be positive say so.
        for (const char* positive : {"mass", "radius"})
            if (const ParameterSpec* p = d.parameter(positive))
                QVERIFY(p->minExclusive && p->min == 0.0);
    }
    const SceneDefinition& bead = *SceneRegistry::find("bead-on-wire");
    QCOMPARE(bead.parameter("angle_deg")->min, 0.0);
    QCOMPARE(bead.parameter("angle_deg")->max, 90.0);
    QVERIFY(SceneRegistry::find("rigid-body")->parameter("quat0")->nonZero);
}

void TestSceneRegistry::defaultsAreValidAndConsistent()
{
    const std::map<std::string, std::vector<double>> documented = {{"mass", {1}},
                                                                   {"g", {9.81}},
                                                                   {"J", {1, 2, 3}},
                                                                   {"torque", {0, 0, 0}},
                                                                   {"quat0", {1, 0, 0, 0}}};
    for (const SceneDefinition& d : SceneRegistry::builtIn()) {
        const ParameterValues v = d.defaults();
        d.validate(v);
        for (const auto& [name, value] : documented)
            if (v.count(name))
                QCOMPARE(v.at(name), value);
        const auto sys = d.create({});
        QCOMPARE(int(sys->coordinateNames().size()), sys->dof());
        Eigen::VectorXd q(sys->dof()), qd(sys->dof()), r(sys->residualCount());
        sys->initialState(q, qd);
        sys->constraintResiduals(q, qd, sys->initialTime(), r);
        QVERIFY2(r.cwiseAbs().maxCoeff() <= 1e-12, d.name.c_str());
        // Each default scene moves: something is not in equilibrium.
        Simulator sim(*sys);
        Eigen::VectorXd Q;
        ConstrainedAcceleration acc;
        sim.evaluate(q, qd, sys->initialTime(), Q, acc);
        QVERIFY2(acc.qdd.norm() + qd.norm() > 0.1, d.name.c_str());
    }
}

// In every scene, moving, the fundamental equation's q̈ satisfies A q̈ = b, and a short Taylor
// step along it keeps the residuals at O(h²) (φ̇ and ψ) or O(h³) (φ); an A or b that is not the
// derivative of the residuals (a missing velocity term in b, say) leaves an O(h) error instead.
void TestSceneRegistry::accelerationKeepsConstraintsAlongTaylorStep()
{
    const std::map<std::string, ParameterValues> moving = {
        {"bead-on-wire", {{"v0", {1.5}}}},
        {"ring", {{"v0", {2.0}}, {"phi0_deg", {30.0}}}},
        {"nonholonomic-particle", {{"z0", {0.7}}}},
        {"rigid-body", {{"omega0", {0.5, 2.0, -1.0}}, {"quat0", {1, 2, 3, 4}}}},
        {"acatastatic-particle", {{"ydot0", {0.8}}}},
        {"chain", {{"omega0", {1.5}}}},
    };
    for (const SceneDefinition& d : SceneRegistry::builtIn()) {
        const auto sys = d.create(moving.at(d.name));
        Simulator sim(*sys);
        const int n = sys->dof(), m = sys->constraintCount();
        Eigen::VectorXd q(n), qd(n), Q(n), b(m), r(sys->residualCount());
        Eigen::MatrixXd A(m, n);
        sys->initialState(q, qd);
        QVERIFY(qd.norm() > 0.5);
        const double t = sys->initialTime();
        ConstrainedAcceleration acc;
        sim.evaluate(q, qd, t, Q, acc);
        sys->constraintMatrix(q, qd, t, A, b);
        QVERIFY(b.norm() > 0 || d.name == "bead-on-wire"); // velocity terms are exercised
        QVERIFY2((A * acc.qdd - b).norm() <= 1e-12 * (1 + b.norm() + A.norm() * acc.qdd.norm()),
                 d.name.c_str());
        const double h = 1e-5;
        const Eigen::VectorXd q1 = q + h * qd + 0.5 * h * h * acc.qdd;
        const Eigen::VectorXd qd1 = qd + h * acc.qdd;
        sys->constraintResiduals(q1, qd1, t + h, r);
        QVERIFY2(r.cwiseAbs().maxCoeff() <= 1e-7,
                 qPrintable(QString::fromStdString(d.name) + ": " +
                            QString::number(r.cwiseAbs().maxCoeff())));
    }
}

// The position- and velocity-level constraints used for stabilization describe the same
// constraints as A q̈ = b: ∂φ/∂q (by central differences) is J and the first h rows of A;
// φ = 0 and Av q̇ = bv hold at the initial state; and along a Taylor step with the fundamental
// equation's q̈, Av q̇ − bv changes only at O(h²) (its derivative is A q̈ − b = 0).
void TestSceneRegistry::constraintFunctionsAgreeWithAccelerationRows()
{
    const std::map<std::string, ParameterValues> moving = {
        {"bead-on-wire", {{"v0", {1.5}}, {"angle_deg", {35.0}}}},
        {"ring", {{"v0", {2.0}}, {"phi0_deg", {30.0}}, {"radius", {1.7}}}},
        {"nonholonomic-particle", {{"z0", {0.7}}}},
        {"rigid-body", {{"omega0", {0.5, 2.0, -1.0}}, {"quat0", {1, 2, 3, 4}}}},
        {"acatastatic-particle", {{"ydot0", {0.8}}}},
        {"chain", {{"omega0", {1.5}}, {"links", {7}}}},
    };
    const std::map<std::string, int> holonomic = {{"bead-on-wire", 1},          {"ring", 1},
                                                  {"nonholonomic-particle", 0}, {"rigid-body", 1},
                                                  {"acatastatic-particle", 0},  {"chain", 7}};
    std::mt19937 rng(123);
    std::normal_distribution<double> normal;
    for (const SceneDefinition& d : SceneRegistry::builtIn()) {
        const auto sys = d.create(moving.at(d.name));
        QVERIFY(sys->providesConstraintFunctions());
        const int n = sys->dof(), m = sys->constraintCount(), h = sys->holonomicCount();
        QCOMPARE(h, holonomic.at(d.name));
        Eigen::VectorXd q(n), qd(n), Q(n), b(m), phi(h), phiPlus(h), phiMinus(h), bv(m), bv1(m);
        Eigen::MatrixXd A(m, n), J(h, n), Jdummy(h, n), Av(m, n), Av1(m, n);
        sys->initialState(q, qd);
        const double t = sys->initialTime();
        sys->constraintMatrix(q, qd, t, A, b);
        sys->positionConstraints(q, t, phi, J);
        sys->velocityConstraints(q, t, Av, bv);
        const QByteArray name = d.name.c_str();
        QVERIFY2(phi.size() == 0 || phi.cwiseAbs().maxCoeff() <= 1e-14, name);
        QVERIFY2((Av * qd - bv).cwiseAbs().maxCoeff() <= 1e-13 * (1 + qd.norm()), name);
        QVERIFY2((J - A.topRows(h)).norm() <= 1e-14 * (1 + A.norm()), name);
        QVERIFY2((Av.topRows(h) - J).norm() <= 1e-14 * (1 + J.norm()), name);
        // ∂φ/∂q along random directions, off the manifold too.
        for (int k = 0; k < 5 && h > 0; ++k) {
            Eigen::VectorXd p(n), dir(n);
            for (int i = 0; i < n; ++i) {
                p[i] = q[i] + 0.3 * normal(rng);
                dir[i] = normal(rng);
            }
            const double eps = 1e-6;
            sys->positionConstraints(p, t, phi, J);
            sys->positionConstraints(p + eps * dir, t, phiPlus, Jdummy);
            sys->positionConstraints(p - eps * dir, t, phiMinus, Jdummy);
            const Eigen::VectorXd slope = (phiPlus - phiMinus) / (2 * eps);
            QVERIFY2((slope - J * dir).norm() <= 1e-7 * (1 + (J * dir).norm()), name);
        }
        Simulator sim(*sys);
        ConstrainedAcceleration acc;
        sim.evaluate(q, qd, t, Q, acc);
        const double step = 1e-5;
        const Eigen::VectorXd q1 = q + step * qd + 0.5 * step * step * acc.qdd;
        const Eigen::VectorXd qd1 = qd + step * acc.qdd;
        sys->velocityConstraints(q1, t + step, Av1, bv1);
        const Eigen::VectorXd change = (Av1 * qd1 - bv1) - (Av * qd - bv);
        QVERIFY2(change.cwiseAbs().maxCoeff() <= 1e-7,
                 qPrintable(QString(name) + ": " + QString::number(change.cwiseAbs().maxCoeff())));
    }
}

void TestSceneRegistry::evaluationAllocatesNothing()
{
#if !CLAB_COUNT_MALLOC
    QSKIP("malloc cannot be counted in this build (sanitizer or non-glibc)");
#else
    // The counter itself works.
    g_countAllocations = true;
    void* volatile probe = std::malloc(64);
    g_countAllocations = false;
    std::free(probe);
    QVERIFY(g_allocations.load() >= 1);

    for (const SceneDefinition& d : SceneRegistry::builtIn()) {
        const auto sys = d.create({});
        const int n = sys->dof(), m = sys->constraintCount();
        const int h = sys->holonomicCount();
        Eigen::MatrixXd M(n, n), A(m, n), J(h, n), Av(m, n);
        Eigen::VectorXd phi(h), bv(m);
        Eigen::VectorXd q(n), qd(n), Q(n), b(m), C(n),
            Qci = Eigen::VectorXd::Ones(n), r(sys->residualCount()),
            extra(Eigen::Index(sys->extraColumnNames().size()));
        sys->initialState(q, qd);
        qd.array() += 0.25; // a moving state, so that friction and drag are evaluated
        double sink = 0;
        g_allocations = 0;
        g_countAllocations = true;
        for (int k = 0; k < 10; ++k) {
            const double t = 0.1 * k;
            sys->massMatrix(q, t, M);
            sys->givenForce(q, qd, t, Q);
            sys->constraintMatrix(q, qd, t, A, b);
            sys->nonIdealForce(q, qd, t, Qci, C);
            sys->constraintResiduals(q, qd, t, r);
            sys->extraColumns(q, qd, t, extra);
            sys->positionConstraints(q, t, phi, J);
            sys->velocityConstraints(q, t, Av, bv);
            sink += sys->kineticEnergy(q, qd, t) + sys->potentialEnergy(q, t) +
                    sys->nonConservativePower(q, qd, t);
        }
        g_countAllocations = false;
        QVERIFY2(g_allocations.load() == 0,
                 qPrintable(
                     QString("%1: %2 allocations").arg(d.name.c_str()).arg(g_allocations.load())));
        QVERIFY(std::isfinite(sink));
    }
#endif
}

QTEST_APPLESS_MAIN(TestSceneRegistry)
#include "tst_SceneRegistry.moc"
