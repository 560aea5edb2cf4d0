#include "integrate/Simulator.h"
#include "model/ConstraintLabError.h"
#include "scenes/SceneRegistry.h"

#include "../../support/AllocationCounter.h"

#include <QtTest>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <map>
#include <random>
#include <set>

using namespace clab;

// Scenes must not allocate in their evaluation methods (MechanicalSystem.h): counted with the
// test programs' allocation counter.
using clab::testing::g_allocations;
using clab::testing::g_countAllocations;

class TestSceneRegistry : public QObject {
    Q_OBJECT

private slots:
    void builtInScenesHaveDistinctNamesAndAreBuiltOnce();
    void findLooksScenesUpByName();
    void nameListNamesEverySceneInListingOrder();
    void everySceneIsDescribed();
    void keyParametersAreScalarsAndFrictionComesFirst();
    void defaultsAreValidAndConsistent();
    void accelerationKeepsConstraintsAlongTaylorStep();
    void constraintFunctionsAgreeWithAccelerationRows();
    void evaluationAllocatesNothing();
};

void TestSceneRegistry::builtInScenesHaveDistinctNamesAndAreBuiltOnce()
{
    std::set<std::string> names;
    for (const SceneDefinition& d : SceneRegistry::builtIn()) {
        // Command-line names: lower case words joined by hyphens.
        QVERIFY2(!d.name.empty() &&
                     d.name.find_first_not_of("abcdefghijklmnopqrstuvwxyz-") == std::string::npos,
                 d.name.c_str());
        QVERIFY2(names.insert(d.name).second, d.name.c_str());
    }
    QVERIFY(names.size() >= 6);
    // The list is built once: the same objects on every call.
    QCOMPARE(&SceneRegistry::builtIn(), &SceneRegistry::builtIn());
}

void TestSceneRegistry::findLooksScenesUpByName()
{
    for (const SceneDefinition& d : SceneRegistry::builtIn()) {
        QCOMPARE(SceneRegistry::find(d.name), &d);
        std::string capitalized = d.name;
        capitalized[0] = static_cast<char>(std::toupper(capitalized[0]));
        QVERIFY(SceneRegistry::find(capitalized) == nullptr); // names are case-sensitive
    }
    QVERIFY(SceneRegistry::find("") == nullptr);
    QVERIFY(SceneRegistry::find("pendulum") == nullptr);
}

void TestSceneRegistry::nameListNamesEverySceneInListingOrder()
{
    std::string expected;
    for (const SceneDefinition& d : SceneRegistry::builtIn())
        expected += expected.empty() ? d.name : ", " + d.name;
    QCOMPARE(SceneRegistry::nameList(), expected);
    QVERIFY(SceneRegistry::nameList().starts_with("bead-on-wire, ring, "));
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
        // The scene states what the generic tests expect of it.
        d.validate(d.complete(d.expected.moving));
        QVERIFY2(!d.expected.coordinates.empty(), d.name.c_str());
    }
}

// Presentation mode shows the key parameters as sliders: scalars the scene has, no repeats,
// μ first where the scene has friction; only a scene of vector parameters has none.
void TestSceneRegistry::keyParametersAreScalarsAndFrictionComesFirst()
{
    for (const SceneDefinition& d : SceneRegistry::builtIn()) {
        const bool scalarParameter =
            std::any_of(d.parameters.begin(), d.parameters.end(),
                        [](const ParameterSpec& p) { return p.size() == 1; });
        QCOMPARE(d.keyParameters.empty(), !scalarParameter);
        QVERIFY2(d.keyParameters.size() <= 4, d.name.c_str());
        for (std::size_t i = 0; i < d.keyParameters.size(); ++i) {
            const ParameterSpec* p = d.parameter(d.keyParameters[i]);
            QVERIFY2(p && p->size() == 1, (d.name + ": " + d.keyParameters[i]).c_str());
            QVERIFY2(
                std::count(d.keyParameters.begin(), d.keyParameters.end(), d.keyParameters[i]) == 1,
                d.keyParameters[i].c_str());
        }
        if (d.parameter("mu"))
            QCOMPARE(d.keyParameters.front(), std::string("mu"));
    }
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
    for (const SceneDefinition& d : SceneRegistry::builtIn()) {
        const auto sys = d.create(d.expected.moving);
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
        QVERIFY(b.norm() > 0 || !d.expected.velocityTermsInB); // velocity terms are exercised
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
    std::mt19937 rng(123);
    std::normal_distribution<double> normal;
    for (const SceneDefinition& d : SceneRegistry::builtIn()) {
        const auto sys = d.create(d.expected.moving);
        QVERIFY(sys->providesConstraintFunctions());
        const int n = sys->dof(), m = sys->constraintCount(), h = sys->holonomicCount();
        QCOMPARE(h, d.expected.holonomicCount);
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
