#include "model/ConstraintLabError.h"
#include "solve/FundamentalEquation.h"
#include "solve/SparseFundamentalEquation.h"

#include "../../support/PortableRandom.h"

#include <QtTest>

#include <Eigen/Dense>
#include <Eigen/SparseCore>

#include <cmath>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

using clab::ConstrainedAcceleration;
using clab::ConstraintLabError;
using clab::FundamentalEquation;
using clab::SparseFundamentalEquation;
using Eigen::MatrixXd;
using Eigen::VectorXd;
using SparseMatrix = SparseFundamentalEquation::SparseMatrix;
using Triplets = std::vector<Eigen::Triplet<double>>;

namespace {

using Random = clab::testing::PortableRandom;

/// A problem M q̈ = Q + Qᶜ, A q̈ = b with a non-ideal force C, in sparse form.
struct Problem {
    SparseMatrix M, A;
    VectorXd Q, b, C;
};

/// Planar point masses joined by rigid links (pairs of body indices; body −1 is a fixed pivot
/// at the origin): A holds the gradients of ½(|pᵢ − pⱼ|² − ℓ²) and b = −|vᵢ − vⱼ|².
Problem linkedMasses(const std::vector<Eigen::Vector2d>& p, const std::vector<Eigen::Vector2d>& v,
                     const std::vector<std::pair<int, int>>& links, Random& random)
{
    const int bodies = static_cast<int>(p.size());
    const int n = 2 * bodies, m = static_cast<int>(links.size());
    Problem problem;
    Triplets mass, rows;
    for (int i = 0; i < n; ++i)
        mass.emplace_back(i, i, random.uniform(0.5, 2.0));
    problem.b.setZero(m);
    for (int r = 0; r < m; ++r) {
        const auto [i, j] = links[static_cast<std::size_t>(r)];
        const Eigen::Vector2d pi = i < 0 ? Eigen::Vector2d::Zero() : p[i];
        const Eigen::Vector2d vi = i < 0 ? Eigen::Vector2d::Zero() : v[i];
        const Eigen::Vector2d d = p[j] - pi, dv = v[j] - vi;
        for (int k = 0; k < 2; ++k) {
            rows.emplace_back(r, 2 * j + k, d[k]);
            if (i >= 0)
                rows.emplace_back(r, 2 * i + k, -d[k]);
        }
        problem.b[r] = -dv.squaredNorm();
    }
    problem.M.resize(n, n);
    problem.M.setFromTriplets(mass.begin(), mass.end());
    problem.A.resize(m, n);
    problem.A.setFromTriplets(rows.begin(), rows.end());
    problem.Q = random.vector(n);
    problem.C = random.vector(n);
    return problem;
}

/// A chain of `links` links hanging from the origin in a random zigzag, moving.
Problem chain(int links, Random& random)
{
    std::vector<Eigen::Vector2d> p, v;
    std::vector<std::pair<int, int>> pairs;
    Eigen::Vector2d at = Eigen::Vector2d::Zero();
    for (int i = 0; i < links; ++i) {
        const double angle = random.uniform(-2.0, -1.0);
        at += 0.1 * Eigen::Vector2d(std::cos(angle), std::sin(angle));
        p.push_back(at);
        v.push_back(random.vector(2));
        pairs.emplace_back(i - 1, i);
    }
    return linkedMasses(p, v, pairs, random);
}

struct Solution {
    ConstrainedAcceleration acc;
    int redundant = 0;
};

Solution solveDense(const Problem& p)
{
    FundamentalEquation dense(static_cast<int>(p.M.rows()), static_cast<int>(p.A.rows()));
    Solution s;
    dense.solve(MatrixXd(p.M), p.Q, MatrixXd(p.A), p.b, p.C, s.acc);
    return s;
}

Solution solveSparse(const Problem& p)
{
    SparseFundamentalEquation sparse(static_cast<int>(p.M.rows()), static_cast<int>(p.A.rows()));
    Solution s;
    sparse.solve(p.M, p.Q, p.A, p.b, p.C, s.acc);
    s.redundant = sparse.redundantCount();
    return s;
}

// Agreement relative to the size of the quantity (plus one unit for quantities near zero).
void compareAll(const ConstrainedAcceleration& s, const ConstrainedAcceleration& d)
{
    const double tol = 1e-10;
    qInfo("relative differences: q̈ %.1e, Qᶜᵢ %.1e, Qᶜₙᵢ %.1e, λ %.1e",
          (s.qdd - d.qdd).norm() / (1.0 + d.qdd.norm()),
          (s.Qci - d.Qci).norm() / (1.0 + d.Qci.norm()),
          (s.Qcni - d.Qcni).norm() / (1.0 + d.Qcni.norm()),
          (s.lambda - d.lambda).norm() / (1.0 + d.lambda.norm()));
    QVERIFY2((s.qdd - d.qdd).norm() <= tol * (1.0 + d.qdd.norm()), "q̈ differs");
    QVERIFY2((s.Qci - d.Qci).norm() <= tol * (1.0 + d.Qci.norm()), "Qᶜᵢ differs");
    QVERIFY2((s.Qcni - d.Qcni).norm() <= tol * (1.0 + d.Qcni.norm()), "Qᶜₙᵢ differs");
    QVERIFY2((s.lambda - d.lambda).norm() <= tol * (1.0 + d.lambda.norm()), "λ differs");
}

} // namespace

class TestSparseFundamentalEquation : public QObject {
    Q_OBJECT

private slots:
    void chainMatchesDensePath_data()
    {
        QTest::addColumn<int>("links");
        QTest::addColumn<bool>("friction");
        for (int links : {1, 2, 10, 60}) {
            QTest::addRow("%d links, ideal", links) << links << false;
            QTest::addRow("%d links, with C", links) << links << true;
        }
    }
    void chainMatchesDensePath()
    {
        QFETCH(int, links);
        QFETCH(bool, friction);
        Random random(17u + static_cast<std::uint32_t>(links));
        Problem p = chain(links, random);
        if (!friction)
            p.C.setZero();
        const Solution s = solveSparse(p), d = solveDense(p);
        compareAll(s.acc, d.acc);
        QCOMPARE(s.redundant, 0);
        // The answer is the constrained one: A q̈ = b.
        QVERIFY((p.A * s.acc.qdd - p.b).norm() <= 1e-10 * (1.0 + p.b.norm()));
    }

    // A closed loop of links pinned at one body has one constraint more than it needs when the
    // loop closes back on the pivot: K is singular and λ must be the minimum-norm one.
    void redundantLoopGivesMinimumNormLambda_data()
    {
        QTest::addColumn<int>("links");
        QTest::addRow("square") << 4;
        QTest::addRow("40-gon") << 40;
    }
    void redundantLoopGivesMinimumNormLambda()
    {
        QFETCH(int, links);
        Random random(5u);
        // A regular polygon through the pivot, rigidly rotating: every link is a constraint, the
        // pivot is joined to both neighbours, and a last link duplicates the first one.
        std::vector<Eigen::Vector2d> p, v;
        std::vector<std::pair<int, int>> pairs;
        const double pi = 3.14159265358979323846;
        const Eigen::Vector2d centre(1.0, 0.0);
        for (int i = 1; i < links; ++i) {
            const double angle = pi + 2.0 * pi * i / links;
            p.push_back(centre + Eigen::Vector2d(std::cos(angle), std::sin(angle)));
            v.push_back(0.3 * Eigen::Vector2d(-std::sin(angle), std::cos(angle)));
        }
        const int bodies = links - 1;
        pairs.emplace_back(-1, 0);
        for (int i = 1; i < bodies; ++i)
            pairs.emplace_back(i - 1, i);
        pairs.emplace_back(-1, bodies - 1);
        pairs.emplace_back(0, 1); // the redundant copy of a link
        const Problem pr = linkedMasses(p, v, pairs, random);
        const Solution s = solveSparse(pr), d = solveDense(pr);
        QVERIFY(s.redundant >= 1);
        compareAll(s.acc, d.acc);
        // Minimum norm: λ has no component along the null space of Aᵀ (duplicate rows share).
        const double duplicated = s.acc.lambda[1], copy = s.acc.lambda[links];
        QVERIFY(std::abs(duplicated - copy) <= 1e-10 * (1.0 + std::abs(duplicated)));
    }

    void randomSparseSystemsMatchDensePath_data()
    {
        QTest::addColumn<int>("seed");
        for (int seed = 1; seed <= 6; ++seed)
            QTest::addRow("seed %d", seed) << seed;
    }
    void randomSparseSystemsMatchDensePath()
    {
        QFETCH(int, seed);
        Random random(static_cast<std::uint32_t>(seed));
        const int n = 30, m = 12;
        // Block-diagonal M (2×2 blocks, not diagonal: the sparse LDLᵀ of M is used) and an A
        // with three entries a row; b in the range of A; with seed > 3 a redundant row.
        Triplets mass, rows;
        for (int i = 0; i < n; i += 2) {
            const double a = random.uniform(1.0, 2.0), c = random.uniform(1.0, 2.0);
            const double off = random.uniform(-0.5, 0.5);
            mass.emplace_back(i, i, a);
            mass.emplace_back(i + 1, i + 1, c);
            mass.emplace_back(i, i + 1, off);
            mass.emplace_back(i + 1, i, off);
        }
        MatrixXd A = MatrixXd::Zero(m, n);
        for (int r = 0; r < m; ++r)
            for (int k = 0; k < 3; ++k)
                A(r, static_cast<int>(random.uniform(0.0, n - 1e-9))) = random.uniform(-1.0, 1.0);
        if (seed > 3)
            A.row(m - 1) = 2.0 * A.row(0) - A.row(3);
        Problem p;
        p.M.resize(n, n);
        p.M.setFromTriplets(mass.begin(), mass.end());
        p.A = A.sparseView();
        p.b = A * random.vector(n);
        p.Q = random.vector(n);
        p.C = random.vector(n);
        const Solution s = solveSparse(p), d = solveDense(p);
        QCOMPARE(s.redundant, seed > 3 ? 1 : 0);
        compareAll(s.acc, d.acc);
    }

    // The pattern does not change from step to step: the symbolic analysis of K is done once.
    void symbolicAnalysisIsReusedAcrossSteps()
    {
        Random random(3u);
        Problem p = chain(50, random);
        SparseFundamentalEquation sparse(100, 50);
        ConstrainedAcceleration out;
        for (int step = 0; step < 5; ++step) {
            p.Q = random.vector(100);
            sparse.solve(p.M, p.Q, p.A, p.b, p.C, out);
            compareAll(out, solveDense(p).acc);
        }
        QCOMPARE(sparse.symbolicAnalyses(), 1);
        QVERIFY(sparse.lastMethod() == SparseFundamentalEquation::Method::Cholesky);
    }

    void inconsistentConstraintsAreReported()
    {
        Random random(9u);
        Problem p = chain(6, random);
        // Two copies of the first link's row asking for different accelerations.
        MatrixXd A(p.A);
        A.conservativeResize(7, Eigen::NoChange);
        A.row(6) = A.row(0);
        p.A = A.sparseView();
        p.b.conservativeResize(7);
        p.b[6] = p.b[0] + 1.0;
        SparseFundamentalEquation sparse(12, 7);
        ConstrainedAcceleration out;
        try {
            sparse.solveIdeal(p.M, p.Q, p.A, p.b, out);
            QFAIL("inconsistent b was accepted");
        } catch (const ConstraintLabError& e) {
            QVERIFY(e.kind() == ConstraintLabError::Kind::InconsistentConstraints);
            QVERIFY(std::string(e.what()).find("rank of K = 6 of 7") != std::string::npos);
        }
    }

    void singularMassIsReported()
    {
        Random random(11u);
        Problem p = chain(3, random);
        p.M.coeffRef(4, 4) = 0.0;
        SparseFundamentalEquation sparse(6, 3);
        ConstrainedAcceleration out;
        QVERIFY_THROWS_EXCEPTION(ConstraintLabError, sparse.solveIdeal(p.M, p.Q, p.A, p.b, out));
        try {
            sparse.solveIdeal(p.M, p.Q, p.A, p.b, out);
        } catch (const ConstraintLabError& e) {
            QVERIFY(e.kind() == ConstraintLabError::Kind::SingularMass);
            QVERIFY(std::string(e.what()).find("entry 5 of 6") != std::string::npos);
        }
    }

    void wronglySizedInputIsNamed()
    {
        Random random(13u);
        const Problem p = chain(3, random);
        SparseFundamentalEquation sparse(6, 2);
        ConstrainedAcceleration out;
        try {
            sparse.solveIdeal(p.M, p.Q, p.A, p.b, out);
            QFAIL("a 3×6 A was accepted for m = 2");
        } catch (const ConstraintLabError& e) {
            QVERIFY(e.kind() == ConstraintLabError::Kind::InvalidParameter);
            QVERIFY(std::string(e.what()).find("the constraint matrix A is 3×6, expected 2×6") !=
                    std::string::npos);
        }
    }
};

QTEST_APPLESS_MAIN(TestSparseFundamentalEquation)
#include "tst_SparseFundamentalEquation.moc"
