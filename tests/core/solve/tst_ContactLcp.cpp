// Lemke's method against a brute-force enumeration of the active sets: for a positive definite
// W the complementarity problem has exactly one solution, which one of the 2^k sets gives.
#include "../../support/PortableRandom.h"
#include "solve/ContactLcp.h"

#include <QtTest>

#include <vector>

using namespace clab;

class TestContactLcp : public QObject {
    Q_OBJECT

private slots:
    void nothingPressedNeedsNoForce();
    void oneContactTakesExactlyTheForceThatStopsIt();
    void lemkeFindsTheSolutionThatEnumeratingTheActiveSetsFinds();
    void semidefiniteRedundantContactsStillGetAConsistentForce();
    void aProblemWithoutSolutionEndsOnARay();
};

namespace {

// Every z with z_S = −W_SS⁻¹ c_S on a set S and zero elsewhere that is complementary.
std::vector<Eigen::VectorXd> enumerate(const Eigen::MatrixXd& W, const Eigen::VectorXd& c)
{
    const int k = static_cast<int>(c.size());
    std::vector<Eigen::VectorXd> solutions;
    for (int mask = 0; mask < (1 << k); ++mask) {
        std::vector<int> S;
        for (int i = 0; i < k; ++i)
            if (mask & (1 << i))
                S.push_back(i);
        Eigen::MatrixXd WSS(S.size(), S.size());
        Eigen::VectorXd cS(S.size());
        for (std::size_t a = 0; a < S.size(); ++a) {
            cS[a] = c[S[a]];
            for (std::size_t b = 0; b < S.size(); ++b)
                WSS(a, b) = W(S[a], S[b]);
        }
        Eigen::VectorXd z = Eigen::VectorXd::Zero(k);
        if (!S.empty()) {
            const Eigen::VectorXd zS = WSS.ldlt().solve(-cS);
            for (std::size_t a = 0; a < S.size(); ++a)
                z[S[a]] = zS[a];
        }
        const Eigen::VectorXd w = W * z + c;
        if (z.minCoeff() >= -1e-12 && w.minCoeff() >= -1e-10)
            solutions.push_back(z);
    }
    return solutions;
}

} // namespace

void TestContactLcp::nothingPressedNeedsNoForce()
{
    const ContactLcp::Result r =
        ContactLcp::solve(Eigen::Matrix2d::Identity(), Eigen::Vector2d(1.0, 0.0));
    QVERIFY(r.solved);
    QCOMPARE(r.z.norm(), 0.0);
}

void TestContactLcp::oneContactTakesExactlyTheForceThatStopsIt()
{
    // A mass 2 pressed into the floor by 9.81·2: w = z/2 − 9.81, so z = 19.62 and w = 0.
    Eigen::MatrixXd W(1, 1);
    W << 0.5;
    const ContactLcp::Result r = ContactLcp::solve(W, Eigen::VectorXd::Constant(1, -9.81));
    QVERIFY(r.solved);
    QVERIFY(std::abs(r.z[0] - 19.62) < 1e-12);
    QVERIFY(std::abs(r.w[0]) < 1e-12);
}

void TestContactLcp::lemkeFindsTheSolutionThatEnumeratingTheActiveSetsFinds()
{
    testing::PortableRandom random(29);
    for (int trial = 0; trial < 300; ++trial) {
        const int k = 1 + trial % 6;
        const Eigen::MatrixXd W = random.spd(k);
        const Eigen::VectorXd c = random.vector(k);
        const std::vector<Eigen::VectorXd> reference = enumerate(W, c);
        QCOMPARE(reference.size(), std::size_t(1)); // positive definite: exactly one
        const ContactLcp::Result r = ContactLcp::solve(W, c);
        QVERIFY(r.solved);
        QVERIFY2((r.z - reference[0]).norm() <= 1e-10 * (1.0 + reference[0].norm()),
                 qPrintable(QString("trial %1").arg(trial)));
        QVERIFY(r.w.minCoeff() >= -1e-10);
        QVERIFY(std::abs(r.z.dot(r.w)) <= 1e-10);
    }
}

void TestContactLcp::semidefiniteRedundantContactsStillGetAConsistentForce()
{
    // Two copies of one contact: W = [[1, 1], [1, 1]]; any split of the force works, but the
    // motion (W z + c) is unique and must vanish on both.
    Eigen::MatrixXd W(2, 2);
    W << 1, 1, 1, 1;
    const ContactLcp::Result r = ContactLcp::solve(W, Eigen::Vector2d(-3.0, -3.0));
    QVERIFY(r.solved);
    QVERIFY(std::abs(r.z.sum() - 3.0) < 1e-12);
    QVERIFY(r.w.cwiseAbs().maxCoeff() < 1e-12);
    QVERIFY(r.z.minCoeff() >= 0.0);
}

void TestContactLcp::aProblemWithoutSolutionEndsOnARay()
{
    // w = −z − 1 is negative for every z ≥ 0: no solution (a contact that pulls itself in).
    Eigen::MatrixXd W(1, 1);
    W << -1.0;
    QVERIFY(!ContactLcp::solve(W, Eigen::VectorXd::Constant(1, -1.0)).solved);
}

QTEST_APPLESS_MAIN(TestContactLcp)
#include "tst_ContactLcp.moc"
