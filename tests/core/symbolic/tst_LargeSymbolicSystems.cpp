// Format-2 systems at any size (docs/MATH.md §10): a chain written as equations takes the
// simulator's sparse path as the built-in chain does, with the dense path's accelerations and
// the built-in chain's; the derivation is the one dense differentiation gives; and what loading
// builds grows linearly with the chain (counted, not timed).
#include "integrate/Simulator.h"
#include "scenes/Chain.h"
#include "solve/FundamentalEquation.h"
#include "symbolic/SymbolicDerivation.h"
#include "symbolic/SymbolicModel.h"
#include "symbolic/SymbolicTapes.h"

#include "../../support/ChainStates.h"
#include "../../support/SystemDescriptions.h"

#include <QtTest>

using namespace clab;

class TestLargeSymbolicSystems : public QObject {
    Q_OBJECT

private slots:
    void derivationIsTheDenseDifferentiation_data();
    void derivationIsTheDenseDifferentiation();
    void aChainsMatricesHoldOnlyTheEntriesItsExpressionsReach();
    void sparseMatricesHoldTheDenseEntries();
    void aLargeChainTakesTheSparsePathAndASmallOneTheDense();
    void aVaryingMassMatrixKeepsTheDensePath();
    void sparsePathGivesTheDensePathsAccelerations();
    void chainFromEquationsAcceleratesAsTheBuiltInChain();
    void rodForcesOfALargeChainAreThoseOfTheDenseSolve();
    void tapesGrowLinearlyWithTheChain();
};

namespace {

using Kind = SystemDescription::Constraint::Kind;
using P = SystemDescription::Parameter;

bool same(const GiNaC::ex& a, const GiNaC::ex& b)
{
    return (a - b).expand().normal().is_zero();
}

const GiNaC::symbol& sym(const GiNaC::ex& e)
{
    return GiNaC::ex_to<GiNaC::symbol>(e);
}

/// Coupled velocities, a moving frame and a velocity constraint: M full, Q with velocity terms.
SystemDescription coupled()
{
    SystemDescription d;
    d.coordinates = {{"r"}, {"th"}, {"z"}};
    d.parameters = {P::plain("m", 2.0), P::plain("w", 0.7), P::plain("g", 9.81)};
    d.kineticEnergy = "m*(r_dot^2 + r^2*(th_dot + w)^2 + z_dot^2)/2 + r*r_dot*z_dot";
    d.potentialEnergy = "m*g*z + r^2*sin(th)";
    d.forces = {{"th", "-0.1*th_dot*r"}};
    d.constraints = {{"", Kind::Holonomic, "z - r*cos(th) - t/10"},
                     {"", Kind::Velocity, "r_dot - r*z_dot*sin(th)"}};
    d.initial = {{"r", "1"}, {"th", "0.2"}};
    return d;
}

std::unique_ptr<MechanicalSystem> chainSystem(int rods)
{
    return SymbolicModel::create(test::pendulumChain(rods))->definition().create({});
}

using test::movingState;

/// Outputs and instructions of every tape: what loading compiles.
long tapeSize(const SymbolicModel& model)
{
    long size = 0;
    for (const ExpressionTape* tape : const_cast<SymbolicModel::Tapes&>(model.tapes()).all())
        size += tape->outputCount() + tape->instructionCount();
    return size;
}

} // namespace

void TestLargeSymbolicSystems::derivationIsTheDenseDifferentiation_data()
{
    QTest::addColumn<int>("which");
    QTest::newRow("coupled, moving frame, velocity constraint") << 0;
    QTest::newRow("double pendulum") << 1;
    QTest::newRow("chain of 4 rods") << 2;
}

void TestLargeSymbolicSystems::derivationIsTheDenseDifferentiation()
{
    // Every entry against the derivatives taken by every symbol, as the derivation did before
    // it skipped the symbols an expression does not contain.
    QFETCH(int, which);
    const SystemDescription d = which == 0   ? coupled()
                                : which == 1 ? test::doublePendulum()
                                             : test::pendulumChain(4);
    const auto model = SymbolicModel::create(d);
    const SymbolicDerivation& x = model->derivation();
    const auto n = x.q.size();
    for (std::size_t i = 0; i < n; ++i) {
        const GiNaC::ex p = x.T.diff(sym(x.qd[i]));
        for (std::size_t j = 0; j < n; ++j)
            QVERIFY(same(x.M(static_cast<unsigned>(i), static_cast<unsigned>(j)),
                         p.diff(sym(x.qd[j]))));
        GiNaC::ex f = x.T.diff(sym(x.q[i])) - p.diff(sym(x.t));
        for (std::size_t k = 0; k < n; ++k)
            f -= p.diff(sym(x.q[k])) * x.qd[k];
        QVERIFY(same(x.Qinertial[i], f));
        QVERIFY(same(x.Qpotential[i], -x.V.diff(sym(x.q[i]))));
    }
    for (std::size_t r = 0; r < x.A.size(); ++r) {
        const GiNaC::ex& e = x.constraint[r];
        const bool holonomic = static_cast<int>(r) < model->holonomicCount();
        GiNaC::ex rate = holonomic ? e.diff(sym(x.t)) : e;
        for (std::size_t k = 0; k < n; ++k) {
            const GiNaC::ex a = e.diff(sym(holonomic ? x.q[k] : x.qd[k]));
            QVERIFY(same(x.A[r][k], a));
            if (holonomic)
                rate += a * x.qd[k];
        }
        GiNaC::ex b = -rate.diff(sym(x.t));
        for (std::size_t k = 0; k < n; ++k)
            b -= rate.diff(sym(x.q[k])) * x.qd[k];
        QVERIFY(same(x.b[r], b));
    }
}

void TestLargeSymbolicSystems::aChainsMatricesHoldOnlyTheEntriesItsExpressionsReach()
{
    // Rod i holds bobs i − 1 and i only, T each velocity once: every other entry is a
    // structural zero, neither derived nor on a tape.
    const int rods = 50;
    const auto model = SymbolicModel::create(test::pendulumChain(rods));
    const SymbolicModel::Tapes& tapes = model->tapes();
    QCOMPARE(tapes.massPattern.nonZeros(), 2 * rods);
    QCOMPARE(tapes.constraintPattern.nonZeros(), 4 * rods - 2);
    QCOMPARE(tapes.positionPattern.nonZeros(), 4 * rods - 2);
    for (int k = 0; k < tapes.constraintPattern.nonZeros(); ++k) {
        const int bob = tapes.constraintPattern.col(k) / 2;
        const int rod = tapes.constraintPattern.row(k);
        QVERIFY(bob == rod || bob == rod - 1);
    }
    QCOMPARE(tapes.mass.outputCount(), 2 * rods);
    QCOMPARE(tapes.constraint.outputCount(), 4 * rods - 2 + rods);
}

void TestLargeSymbolicSystems::sparseMatricesHoldTheDenseEntries()
{
    for (const SystemDescription& d : {coupled(), test::pendulumChain(5)}) {
        const auto system = SymbolicModel::create(d)->definition().create({});
        const int n = system->dof(), m = system->constraintCount(), h = system->holonomicCount();
        Eigen::VectorXd q, qd;
        movingState(*system, q, qd);
        Eigen::MatrixXd M, A, J(h, n), Av(m, n);
        Eigen::VectorXd b, phi(h), bv(m), sparseB, sparsePhi, sparseBv;
        MechanicalSystem::SparseMatrix S;
        system->massMatrix(q, 0.3, M);
        system->sparseMassMatrix(q, 0.3, S);
        QCOMPARE(Eigen::MatrixXd(S), M);
        system->constraintMatrix(q, qd, 0.3, A, b);
        system->sparseConstraintMatrix(q, qd, 0.3, S, sparseB);
        QCOMPARE(Eigen::MatrixXd(S), A);
        QCOMPARE(sparseB, b);
        system->positionConstraints(q, 0.3, phi, J);
        system->sparsePositionConstraints(q, 0.3, sparsePhi, S);
        QCOMPARE(Eigen::MatrixXd(S), J);
        QCOMPARE(sparsePhi, phi);
        system->velocityConstraints(q, 0.3, Av, bv);
        system->sparseVelocityConstraints(q, 0.3, S, sparseBv);
        QCOMPARE(Eigen::MatrixXd(S), Av);
        QCOMPARE(sparseBv, bv);
        // The same matrix again: the pattern is kept, only the values change.
        const auto* values = S.valuePtr();
        system->sparseVelocityConstraints(q * 1.01, 0.3, S, sparseBv);
        QCOMPARE(S.valuePtr(), values);
    }
}

void TestLargeSymbolicSystems::aLargeChainTakesTheSparsePathAndASmallOneTheDense()
{
    const auto large = chainSystem(30);
    QVERIFY(large->providesSparseMatrices());
    QVERIFY(Simulator(*large).usesSparsePath());
    const auto small = chainSystem(3);
    QVERIFY(!Simulator(*small).usesSparsePath());
}

void TestLargeSymbolicSystems::aVaryingMassMatrixKeepsTheDensePath()
{
    // M depends on r: it could turn singular, which only the dense path handles.
    const auto system = SymbolicModel::create(coupled())->definition().create({});
    QVERIFY(!system->providesSparseMatrices());
}

void TestLargeSymbolicSystems::sparsePathGivesTheDensePathsAccelerations()
{
    const auto system = chainSystem(30);
    Eigen::VectorXd q, qd, Qdense, Qsparse;
    movingState(*system, q, qd);
    ConstrainedAcceleration dense, sparse;
    Simulator(*system, Simulator::SolvePath::Dense).evaluate(q, qd, 0.0, Qdense, dense);
    Simulator(*system, Simulator::SolvePath::Sparse).evaluate(q, qd, 0.0, Qsparse, sparse);
    const double scale = dense.qdd.lpNorm<Eigen::Infinity>();
    QVERIFY(scale > 1.0);
    QVERIFY2((sparse.qdd - dense.qdd).lpNorm<Eigen::Infinity>() <= 1e-11 * scale,
             qPrintable(QString::number((sparse.qdd - dense.qdd).lpNorm<Eigen::Infinity>())));
    QVERIFY((sparse.Qci - dense.Qci).lpNorm<Eigen::Infinity>() <=
            1e-11 * dense.Qci.lpNorm<Eigen::Infinity>());
}

void TestLargeSymbolicSystems::chainFromEquationsAcceleratesAsTheBuiltInChain()
{
    // The same bobs, rods and gravity: the same q̈ at the same state, though the rods' equations
    // are scaled differently (|d|² − l² here, (|d|² − ℓ²)/2ℓ there).
    const int rods = 30;
    const auto fromEquations = chainSystem(rods);
    const Chain builtIn = test::builtInChain(rods);
    Eigen::VectorXd q, qd, q2, qd2, Q;
    movingState(*fromEquations, q, qd);
    builtIn.initialState(q2, qd2);
    QVERIFY((q - q2).lpNorm<Eigen::Infinity>() < 1e-14);
    ConstrainedAcceleration a, b;
    Simulator(*fromEquations).evaluate(q, qd, 0.0, Q, a);
    Simulator(builtIn).evaluate(q, qd, 0.0, Q, b);
    QVERIFY((a.qdd - b.qdd).lpNorm<Eigen::Infinity>() <= 1e-10 * b.qdd.lpNorm<Eigen::Infinity>());
}

void TestLargeSymbolicSystems::rodForcesOfALargeChainAreThoseOfTheDenseSolve()
{
    // The N_rod columns of a large system come from the sparse solve: the dense one's |λᵣ|‖Aᵣ‖.
    const auto system = chainSystem(30);
    const int n = system->dof(), m = system->constraintCount();
    Eigen::VectorXd q, qd, Q, b, columns;
    movingState(*system, q, qd);
    Eigen::MatrixXd M, A;
    system->massMatrix(q, 0.0, M);
    system->givenForce(q, qd, 0.0, Q);
    system->constraintMatrix(q, qd, 0.0, A, b);
    FundamentalEquation dense(n, m);
    ConstrainedAcceleration out;
    out.resize(n, m);
    dense.solveIdeal(M, Q, A, b, out);
    system->extraColumns(q, qd, 0.0, columns);
    QCOMPARE(columns.size(), Eigen::Index(m));
    for (int r = 0; r < m; ++r) {
        const double expected = std::abs(out.lambda[r]) * A.row(r).norm();
        QVERIFY2(std::abs(columns[r] - expected) <= 1e-11 * (1.0 + expected),
                 qPrintable(QString("N_rod%1: %2 vs %3").arg(r + 1).arg(columns[r]).arg(expected)));
    }
}

void TestLargeSymbolicSystems::tapesGrowLinearlyWithTheChain()
{
    // Four times the rods, four times the compiled work: dense matrices would give sixteen.
    const auto small = SymbolicModel::create(test::pendulumChain(100));
    const auto large = SymbolicModel::create(test::pendulumChain(400));
    const double ratio = double(tapeSize(*large)) / double(tapeSize(*small));
    QVERIFY2(ratio > 3.5 && ratio < 4.5, qPrintable(QString::number(ratio)));
}

QTEST_APPLESS_MAIN(TestLargeSymbolicSystems)
#include "tst_LargeSymbolicSystems.moc"
