#include "model/ConstraintLabError.h"
#include "solve/FundamentalEquation.h"
#include "solve/SparseFundamentalEquation.h"

#include "../../support/AllocationCounter.h"
#include "../../support/PortableRandom.h"
#include "../../support/TextbookFundamentalEquation.h"

#include <QtTest>

#include <Eigen/Dense>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <limits>
#include <numbers>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using clab::AuxiliarySettings;
using clab::ConstrainedAcceleration;
using clab::ConstraintLabError;
using clab::FundamentalEquation;
using clab::testing::TextbookFundamentalEquation;
using Eigen::MatrixXd;
using Eigen::VectorXd;

namespace {

using Random = clab::testing::PortableRandom;

struct Problem {
    MatrixXd M;
    VectorXd Q;
    MatrixXd A;
    VectorXd b;
    VectorXd C;
    std::string label;
};

// M > 0; A of rank `rank` (full row rank when rank == m); b = A x, so always consistent.
Problem randomProblem(Random& rnd, int n, int m, int rank, const std::string& kind)
{
    Problem p;
    p.M = rnd.spd(n);
    p.Q = rnd.vector(n);
    p.A = rank == m ? rnd.matrix(m, n) : MatrixXd(rnd.matrix(m, rank) * rnd.matrix(rank, n));
    p.b = p.A * rnd.vector(n);
    p.C = rnd.vector(n);
    std::ostringstream label;
    label << kind << " n=" << n << " m=" << m << " rank(A)=" << rank;
    p.label = label.str();
    return p;
}

// M ≥ 0 of rank n − d with m ≥ d constraints, so that [M; A] has full rank generically.
Problem randomSingularProblem(Random& rnd, int n, int d, int m)
{
    Problem p;
    const MatrixXd R = rnd.matrix(n - d, n);
    p.M = R.transpose() * R;
    p.Q = rnd.vector(n);
    p.A = rnd.matrix(m, n);
    p.b = p.A * rnd.vector(n);
    p.C = rnd.vector(n);
    std::ostringstream label;
    label << "singular M n=" << n << " rank(M)=" << n - d << " m=" << m;
    p.label = label.str();
    return p;
}

// Diagonal M with masses over six decades (the point masses of the built-in scenes).
Problem randomDiagonalProblem(Random& rnd, int n, int m, int rank)
{
    Problem p = randomProblem(rnd, n, m, rank, "diagonal M");
    VectorXd masses(n);
    for (int i = 0; i < n; ++i) {
        masses(i) = std::pow(10.0, rnd.uniform(-3.0, 3.0));
    }
    p.M = masses.asDiagonal();
    return p;
}

std::vector<Problem> fullRankProblems(std::uint32_t seed)
{
    Random rnd(seed);
    std::vector<Problem> problems;
    for (int n = 2; n <= 8; ++n) {
        for (int m = 1; m <= n; ++m) {
            for (int trial = 0; trial < 3; ++trial) {
                problems.push_back(randomProblem(rnd, n, m, m, "full-rank A"));
            }
        }
    }
    return problems;
}

// Dependent rows, including more rows than coordinates.
std::vector<Problem> redundantProblems(std::uint32_t seed)
{
    Random rnd(seed);
    std::vector<Problem> problems;
    for (int n = 2; n <= 8; ++n) {
        for (int m = 2; m <= n + 2; ++m) {
            for (int trial = 0; trial < 2; ++trial) {
                const int rank = rnd.integer(1, std::min(m - 1, n));
                problems.push_back(randomProblem(rnd, n, m, rank, "redundant A"));
            }
        }
    }
    return problems;
}

std::vector<Problem> singularProblems(std::uint32_t seed)
{
    Random rnd(seed);
    std::vector<Problem> problems;
    for (int n = 2; n <= 8; ++n) {
        for (int d = 1; d < n; ++d) {
            for (int m = d; m <= n; ++m) {
                problems.push_back(randomSingularProblem(rnd, n, d, m));
            }
        }
    }
    return problems;
}

// Orthonormal basis of null(A) by SVD: the virtual displacements.
MatrixXd nullSpace(const MatrixXd& A)
{
    const auto n = A.cols();
    if (A.rows() == 0) {
        return MatrixXd::Identity(n, n);
    }
    Eigen::JacobiSVD<MatrixXd> svd(A, Eigen::ComputeFullV);
    const VectorXd& s = svd.singularValues();
    Eigen::Index rank = 0;
    for (Eigen::Index i = 0; i < s.size(); ++i) {
        rank += s(i) > 1e-10 * s(0) ? 1 : 0;
    }
    return svd.matrixV().rightCols(n - rank);
}

// Bordered (KKT) system [M Aᵀ; A 0][q̈; −μ] = [F; b]; needs it to be non-singular.
struct Kkt {
    VectorXd qdd;
    VectorXd mu;
};
Kkt kktSolve(const MatrixXd& M, const VectorXd& F, const MatrixXd& A, const VectorXd& b)
{
    const auto n = M.rows();
    const auto m = A.rows();
    MatrixXd K = MatrixXd::Zero(n + m, n + m);
    K.topLeftCorner(n, n) = M;
    K.topRightCorner(n, m) = A.transpose();
    K.bottomLeftCorner(m, n) = A;
    VectorXd rhs(n + m);
    rhs << F, b;
    const VectorXd x = K.fullPivLu().solve(rhs);
    return {x.head(n), -x.tail(m)};
}

// Relative comparison; `scale` defaults to max(1, ‖expected‖).
std::string mismatch(const std::string& context, const char* what, const VectorXd& actual,
                     const VectorXd& expected, double tol, double scale = -1.0)
{
    std::ostringstream msg;
    if (actual.size() != expected.size()) {
        msg << context << ": " << what << " has size " << actual.size() << ", expected "
            << expected.size();
        return msg.str();
    }
    const double err = (actual - expected).norm();
    if (scale < 0.0) {
        scale = std::max(1.0, expected.norm());
    }
    if (!(err <= tol * scale)) {
        msg << context << ": " << what << " differs by " << err << " (tolerance " << tol * scale
            << ")\n  actual   " << actual.transpose() << "\n  expected " << expected.transpose();
        return msg.str();
    }
    return {};
}

#define CLAB_VERIFY_CLOSE(context, what, actual, expected, ...)                                    \
    do {                                                                                           \
        const std::string why_ = mismatch(context, what, actual, expected, __VA_ARGS__);           \
        QVERIFY2(why_.empty(), why_.c_str());                                                      \
    } while (0)

// Forces computed as M q̈ − Q carry rounding of the size of ‖M‖‖q̈‖ (ill-conditioned draws of
// the singular-mass problems have ‖q̈‖ ~ 1e6), so force identities are judged against it.
double forceScale(const Problem& p, const ConstrainedAcceleration& r)
{
    return 1.0 + p.Q.norm() + p.C.norm() + p.M.norm() * r.qdd.norm();
}

std::optional<ConstraintLabError> errorOf(const std::function<void()>& f)
{
    try {
        f();
    } catch (const ConstraintLabError& e) {
        return e;
    }
    return std::nullopt;
}

#define CLAB_VERIFY_THROWS(call, expectedKind, fragment)                                           \
    do {                                                                                           \
        const auto error_ = errorOf([&] { call; });                                                \
        QVERIFY2(error_.has_value(), "expected a ConstraintLabError from " #call);                 \
        QCOMPARE(static_cast<int>(error_->kind()), static_cast<int>(expectedKind));                \
        const std::string what_ = error_->what();                                                  \
        QVERIFY2(what_.find(fragment) != std::string::npos,                                        \
                 ("message lacks '" + std::string(fragment) + "': " + what_).c_str());             \
    } while (0)

ConstrainedAcceleration solveWith(FundamentalEquation& eq, const Problem& p, bool withC)
{
    ConstrainedAcceleration out;
    if (withC) {
        eq.solve(p.M, p.Q, p.A, p.b, p.C, out);
    } else {
        eq.solveIdeal(p.M, p.Q, p.A, p.b, out);
    }
    return out;
}

ConstrainedAcceleration solveProblem(const Problem& p, bool withC)
{
    FundamentalEquation eq(static_cast<int>(p.M.rows()), static_cast<int>(p.A.rows()));
    return solveWith(eq, p, withC);
}

// Rigid body in quaternions (docs/MATH.md §5).
Eigen::Matrix<double, 3, 4> quaternionE(const Eigen::Vector4d& u)
{
    Eigen::Matrix<double, 3, 4> E;
    E << -u(1), u(0), u(3), -u(2), //
        -u(2), -u(3), u(0), u(1),  //
        -u(3), u(2), -u(1), u(0);
    return E;
}

struct RigidBody {
    Problem problem;
    Eigen::Vector4d uddClosedForm;
};

RigidBody randomRigidBody(Random& rnd)
{
    Eigen::Vector4d u = rnd.vector(4);
    u.normalize();
    const Eigen::Vector3d omega = 2.0 * rnd.vector(3);
    const Eigen::Vector3d Jd(rnd.uniform(0.5, 3.0), rnd.uniform(0.5, 3.0), rnd.uniform(0.5, 3.0));
    const Eigen::Matrix3d J = Jd.asDiagonal();
    const Eigen::Vector3d torque = rnd.vector(3);
    const Eigen::Matrix<double, 3, 4> E = quaternionE(u);
    const Eigen::Vector4d ud = 0.5 * E.transpose() * omega;

    RigidBody body;
    Problem& p = body.problem;
    p.M = 4.0 * E.transpose() * J * E;
    p.Q = -8.0 * quaternionE(ud).transpose() * J * E * ud + 2.0 * E.transpose() * torque;
    p.A = u.transpose();
    p.b = VectorXd::Constant(1, -ud.squaredNorm());
    p.C = VectorXd::Zero(4);
    p.label = "rigid body";
    const Eigen::Vector3d Jinv = Jd.cwiseInverse();
    body.uddClosedForm = -0.5 * E.transpose() * Jinv.asDiagonal() * omega.cross(J * omega) -
                         0.25 * omega.squaredNorm() * u +
                         0.5 * E.transpose() * Jinv.asDiagonal() * torque;
    return body;
}

} // namespace

class FundamentalEquationTest : public QObject {
    Q_OBJECT

private slots:
    void idealForceDoesNoVirtualWork();
    void constraintForceMatchesPrescribedWorkOnVirtualDisplacements();
    void accelerationSatisfiesConstraints();
    void duplicatedConstraintRowChangesNothing();
    void linearCombinationOfRowsChangesNothing();
    void squareRootFreeFormEqualsTextbookForm();
    void kktSolveAgrees();
    void singularMassAccelerationIsGaugeInvariant();
    void quaternionRigidBodyMatchesClosedForm();
    void singularMassTrueConstraintForceIsMqddMinusQ();
    void semiDefiniteMassPassingCholeskyIsTreatedAsSingular();
    void rankDeficientMassAndConstraintsIsReported();
    void inconsistentConstraintsAreReported();
    void disagreementWithinTheRoundingOfBIsNoContradiction();
    void nonFiniteInputIsReported();
    void wronglySizedInputIsReported();
    void unconstrainedSystemIsNewton();
    void beadOnInclinedWireMatchesClosedForm();
    void particleOnRingMatchesClosedForm();
    void nonholonomicParticleMatchesRosenberg();
    void diagonalMassMatchesTextbookForm();
    void singleConstraintMatchesTextbookForm();
    void changingUnitsOfCoordinatesChangesNothing();
    void undeclaredSemiDefiniteMassGivesTheBorderedEquationsMotion();
    void inconsistencyHiddenByRoundingIsReported();
    void particleResolvingGravityOnItsConstraintIsInEquilibriumForEveryMass();
    void solveDoesNotAllocate();
    void fixedSizePathAgreesWithGeneralPathAndKkt();
    void redundantConstraintsLeaveTheFixedSizePathForTheGeneralOne();
    void singularMassThroughFixedSizePathMatchesKkt();
    void reusedFactorsFollowEveryChangeOfMassAndConstraints();
    void fixedSizePathDoesNotAllocate();
};

void FundamentalEquationTest::idealForceDoesNoVirtualWork()
{
    std::vector<Problem> problems = fullRankProblems(11);
    for (const Problem& p : redundantProblems(12)) {
        problems.push_back(p);
    }
    for (const Problem& p : singularProblems(13)) {
        problems.push_back(p);
    }
    for (const Problem& p : problems) {
        const ConstrainedAcceleration r = solveProblem(p, true);
        const MatrixXd V = nullSpace(p.A);
        const double scale = forceScale(p, r);
        const double work = (V.transpose() * r.Qci).norm();
        QVERIFY2(work <= 1e-12 * scale,
                 (p.label + ": Qci does work " + std::to_string(work) + " on null(A)").c_str());
    }
}

void FundamentalEquationTest::constraintForceMatchesPrescribedWorkOnVirtualDisplacements()
{
    std::vector<Problem> problems = fullRankProblems(21);
    for (const Problem& p : redundantProblems(22)) {
        problems.push_back(p);
    }
    for (const Problem& p : singularProblems(23)) {
        problems.push_back(p);
    }
    for (const Problem& p : problems) {
        const ConstrainedAcceleration r = solveProblem(p, true);
        const MatrixXd V = nullSpace(p.A);
        CLAB_VERIFY_CLOSE(p.label, "vᵀ(Qci + Qcni)", V.transpose() * (r.Qci + r.Qcni),
                          V.transpose() * p.C, 1e-12, forceScale(p, r));
        // and the three forces together produce the motion: M q̈ = Q + Qᶜᵢ + Qᶜₙᵢ
        CLAB_VERIFY_CLOSE(p.label, "M q̈", p.M * r.qdd, p.Q + r.Qci + r.Qcni, 1e-12,
                          forceScale(p, r));
    }
}

void FundamentalEquationTest::accelerationSatisfiesConstraints()
{
    std::vector<Problem> problems = fullRankProblems(31);
    for (const Problem& p : redundantProblems(32)) {
        problems.push_back(p);
    }
    for (const Problem& p : singularProblems(33)) {
        problems.push_back(p);
    }
    for (const Problem& p : problems) {
        for (bool withC : {false, true}) {
            const ConstrainedAcceleration r = solveProblem(p, withC);
            CLAB_VERIFY_CLOSE(p.label, "A q̈", p.A * r.qdd, p.b, 1e-9);
        }
    }
}

void FundamentalEquationTest::duplicatedConstraintRowChangesNothing()
{
    Random rnd(41);
    for (const Problem& p : fullRankProblems(42)) {
        const int m = static_cast<int>(p.A.rows());
        const int k = rnd.integer(0, m - 1);
        Problem dup = p;
        dup.A.conservativeResize(m + 1, Eigen::NoChange);
        dup.A.row(m) = p.A.row(k);
        dup.b.conservativeResize(m + 1);
        dup.b(m) = p.b(k);

        const ConstrainedAcceleration r = solveProblem(p, true);
        const ConstrainedAcceleration d = solveProblem(dup, true);
        CLAB_VERIFY_CLOSE(p.label, "q̈", d.qdd, r.qdd, 1e-9);
        CLAB_VERIFY_CLOSE(p.label, "Qci", d.Qci, r.Qci, 1e-9);
        CLAB_VERIFY_CLOSE(p.label, "Qcni", d.Qcni, r.Qcni, 1e-9);
        // The minimum-norm multipliers share the duplicated row's multiplier equally.
        VectorXd expected(m + 1);
        expected << r.lambda, 0.0;
        expected(k) = 0.5 * r.lambda(k);
        expected(m) = 0.5 * r.lambda(k);
        CLAB_VERIFY_CLOSE(p.label, "λ", d.lambda, expected, 1e-8);
    }
}

void FundamentalEquationTest::linearCombinationOfRowsChangesNothing()
{
    Random rnd(51);
    for (const Problem& p : fullRankProblems(52)) {
        const int m = static_cast<int>(p.A.rows());
        const VectorXd w = rnd.vector(m);
        Problem extra = p;
        extra.A.conservativeResize(m + 1, Eigen::NoChange);
        extra.A.row(m) = w.transpose() * p.A;
        extra.b.conservativeResize(m + 1);
        extra.b(m) = w.dot(p.b);

        // Replacing the rows by invertible combinations of themselves describes the same
        // constraints too.
        Problem mixed = p;
        const MatrixXd T = rnd.matrix(m, m) + 2.0 * MatrixXd::Identity(m, m);
        mixed.A = T * p.A;
        mixed.b = T * p.b;

        const ConstrainedAcceleration r = solveProblem(p, true);
        for (const Problem* q : {&extra, &mixed}) {
            const ConstrainedAcceleration s = solveProblem(*q, true);
            CLAB_VERIFY_CLOSE(p.label, "q̈", s.qdd, r.qdd, 1e-9);
            CLAB_VERIFY_CLOSE(p.label, "Qci", s.Qci, r.Qci, 1e-9);
            CLAB_VERIFY_CLOSE(p.label, "Qcni", s.Qcni, r.Qcni, 1e-9);
        }
    }
}

void FundamentalEquationTest::squareRootFreeFormEqualsTextbookForm()
{
    std::vector<Problem> problems = fullRankProblems(61);
    for (const Problem& p : redundantProblems(62)) {
        problems.push_back(p);
    }
    for (const Problem& p : problems) {
        const ConstrainedAcceleration ours = solveProblem(p, true);
        const ConstrainedAcceleration ref =
            TextbookFundamentalEquation::solve(p.M, p.Q, p.A, p.b, p.C);
        CLAB_VERIFY_CLOSE(p.label, "q̈", ours.qdd, ref.qdd, 1e-9);
        CLAB_VERIFY_CLOSE(p.label, "Qci", ours.Qci, ref.Qci, 1e-9);
        CLAB_VERIFY_CLOSE(p.label, "Qcni", ours.Qcni, ref.Qcni, 1e-9);
        CLAB_VERIFY_CLOSE(p.label, "minimum-norm λ", ours.lambda, ref.lambda, 1e-8);
    }
}

void FundamentalEquationTest::kktSolveAgrees()
{
    for (const Problem& p : fullRankProblems(71)) {
        const Kkt ideal = kktSolve(p.M, p.Q, p.A, p.b);
        const ConstrainedAcceleration r = solveProblem(p, false);
        CLAB_VERIFY_CLOSE(p.label, "q̈", r.qdd, ideal.qdd, 1e-9);
        CLAB_VERIFY_CLOSE(p.label, "λ", r.lambda, ideal.mu, 1e-8);
        CLAB_VERIFY_CLOSE(p.label, "Qci", r.Qci, p.A.transpose() * ideal.mu, 1e-9);
        // Non-ideal: the total constraint force is C + Aᵀμ (its part along null(A) is C).
        const Kkt total = kktSolve(p.M, p.Q + p.C, p.A, p.b);
        const ConstrainedAcceleration s = solveProblem(p, true);
        CLAB_VERIFY_CLOSE(p.label, "q̈ with C", s.qdd, total.qdd, 1e-9);
    }
}

void FundamentalEquationTest::singularMassAccelerationIsGaugeInvariant()
{
    Random rnd(81);
    for (const Problem& p : singularProblems(82)) {
        const int n = static_cast<int>(p.M.rows());
        const int m = static_cast<int>(p.A.rows());
        FundamentalEquation automatic(n, m);
        const ConstrainedAcceleration ref = solveWith(automatic, p, true);
        QVERIFY2(automatic.usedAuxiliary(), p.label.c_str());

        std::vector<AuxiliarySettings> gauges(3);
        gauges[0].alpha = 0.37;
        const MatrixXd R = rnd.matrix(m, m);
        gauges[0].G = MatrixXd(R.transpose() * R + 0.3 * MatrixXd::Identity(m, m));
        gauges[0].z = rnd.vector(m);
        gauges[1].alpha = -3.0;
        gauges[1].z = VectorXd::Zero(m);
        gauges[2].alpha = 1.5;
        gauges[2].G = MatrixXd(2.0 * MatrixXd::Identity(m, m));
        for (const AuxiliarySettings& gauge : gauges) {
            FundamentalEquation eq(n, m);
            eq.setAuxiliary(gauge);
            const ConstrainedAcceleration r = solveWith(eq, p, true);
            CLAB_VERIFY_CLOSE(p.label, "q̈", r.qdd, ref.qdd, 1e-8);
            CLAB_VERIFY_CLOSE(p.label, "Qci", r.Qci, ref.Qci, 1e-8);
            CLAB_VERIFY_CLOSE(p.label, "Qcni", r.Qcni, ref.Qcni, 1e-8);
        }
        // and the acceleration is the one of the true system's KKT equations
        const Kkt kkt = kktSolve(p.M, p.Q + p.C, p.A, p.b);
        CLAB_VERIFY_CLOSE(p.label, "q̈ against KKT", ref.qdd, kkt.qdd, 1e-8);
    }
}

void FundamentalEquationTest::quaternionRigidBodyMatchesClosedForm()
{
    Random rnd(91);
    for (int trial = 0; trial < 20; ++trial) {
        const RigidBody body = randomRigidBody(rnd);
        const Problem& p = body.problem;
        const std::string label = "rigid body trial " + std::to_string(trial);
        const Eigen::Vector4d u = p.A.transpose();

        FundamentalEquation detected(4, 1);
        const ConstrainedAcceleration r = solveWith(detected, p, false);
        QVERIFY2(detected.usedAuxiliary(), "4 Eᵀ J E must be recognized as singular");
        CLAB_VERIFY_CLOSE(label, "ü (detected)", r.qdd, body.uddClosedForm, 1e-10);

        FundamentalEquation declared(4, 1);
        declared.setSingularMass(true);
        CLAB_VERIFY_CLOSE(label, "ü (declared)", solveWith(declared, p, false).qdd,
                          body.uddClosedForm, 1e-10);

        for (double alpha : {0.1, 1.0, 7.0}) {
            AuxiliarySettings gauge;
            gauge.alpha = alpha;
            gauge.G = MatrixXd::Constant(1, 1, rnd.uniform(0.2, 5.0));
            gauge.z = rnd.vector(1);
            FundamentalEquation eq(4, 1);
            eq.setAuxiliary(gauge);
            const ConstrainedAcceleration s = solveWith(eq, p, false);
            CLAB_VERIFY_CLOSE(label, "ü (gauge)", s.qdd, body.uddClosedForm, 1e-9);
            CLAB_VERIFY_CLOSE(label, "Qci (gauge)", s.Qci, r.Qci, 1e-9);
        }
        // The ideal force keeps ‖u‖ = 1 and exerts no torque: it lies along u.
        const Eigen::Vector4d Qci = r.Qci;
        CLAB_VERIFY_CLOSE(label, "Qci ∥ u", Qci, Eigen::Vector4d(u.dot(Qci) * u), 1e-10);
        const Eigen::Vector3d torque = 0.5 * quaternionE(u) * Qci;
        QVERIFY2(torque.norm() < 1e-10, (label + ": ideal force exerts a torque").c_str());
    }
}

void FundamentalEquationTest::singularMassTrueConstraintForceIsMqddMinusQ()
{
    Random rnd(101);
    for (const Problem& p : singularProblems(102)) {
        const int n = static_cast<int>(p.M.rows());
        const int m = static_cast<int>(p.A.rows());
        AuxiliarySettings gauge;
        gauge.alpha = rnd.uniform(0.5, 2.0);
        gauge.z = 10.0 * rnd.vector(m); // far from α² b: the auxiliary force is not the true one
        FundamentalEquation eq(n, m);
        eq.setAuxiliary(gauge);

        ConstrainedAcceleration ideal;
        eq.solveIdeal(p.M, p.Q, p.A, p.b, ideal);
        ConstrainedAcceleration full = ideal;
        eq.addNonIdeal(p.C, full);

        // References from the true system's bordered equations, with and without C.
        const Kkt kkt0 = kktSolve(p.M, p.Q, p.A, p.b);
        const Kkt kktC = kktSolve(p.M, p.Q + p.C, p.A, p.b);
        CLAB_VERIFY_CLOSE(p.label, "Qci", full.Qci, p.M * kkt0.qdd - p.Q, 1e-8);
        CLAB_VERIFY_CLOSE(p.label, "Qcni", full.Qcni, p.M * (kktC.qdd - kkt0.qdd), 1e-8);
        CLAB_VERIFY_CLOSE(p.label, "Qci + Qcni", full.Qci + full.Qcni, p.M * full.qdd - p.Q, 1e-9);
        CLAB_VERIFY_CLOSE(p.label, "Qci (ideal phase)", ideal.Qci, p.M * ideal.qdd - p.Q, 1e-9);
        QVERIFY(ideal.Qcni.isZero());
    }
}

void FundamentalEquationTest::semiDefiniteMassPassingCholeskyIsTreatedAsSingular()
{
    // Rounding makes this rank-one M "positive definite" with a pivot of 4e-16.
    MatrixXd M(2, 2);
    M << 1.0, 1.0, 1.0, 1.0 + 4.0 * std::numeric_limits<double>::epsilon();
    Eigen::LLT<MatrixXd> llt(M);
    QCOMPARE(llt.info(), Eigen::Success);

    MatrixXd A(1, 2);
    A << 1.0, -1.0;
    const VectorXd b = VectorXd::Constant(1, 0.3);
    const VectorXd Q = (VectorXd(2) << 0.5, -2.0).finished();
    FundamentalEquation eq(2, 1);
    ConstrainedAcceleration r;
    eq.solveIdeal(M, Q, A, b, r);
    QVERIFY(eq.usedAuxiliary());

    MatrixXd exact(2, 2);
    exact << 1.0, 1.0, 1.0, 1.0;
    const Kkt kkt = kktSolve(exact, Q, A, b);
    CLAB_VERIFY_CLOSE("rank-one M", "q̈", r.qdd, kkt.qdd, 1e-12);
    CLAB_VERIFY_CLOSE("rank-one M", "Qci", r.Qci, A.transpose() * kkt.mu, 1e-12);
}

void FundamentalEquationTest::rankDeficientMassAndConstraintsIsReported()
{
    using Kind = ConstraintLabError::Kind;
    Random rnd(111);
    ConstrainedAcceleration out;

    // rank M = n − 2 with a single constraint
    for (int n = 3; n <= 8; ++n) {
        const MatrixXd R = rnd.matrix(n - 2, n);
        const MatrixXd M = R.transpose() * R;
        const MatrixXd A = rnd.matrix(1, n);
        FundamentalEquation eq(n, 1);
        CLAB_VERIFY_THROWS(eq.solveIdeal(M, rnd.vector(n), A, A * rnd.vector(n), out),
                           Kind::SingularMass, "mass matrix is singular");
        // declaring the mass singular leads to the same diagnosis
        FundamentalEquation declared(n, 1);
        declared.setSingularMass(true);
        CLAB_VERIFY_THROWS(declared.solveIdeal(M, rnd.vector(n), A, A * rnd.vector(n), out),
                           Kind::SingularMass, "constraints do not determine");
    }
    // the quaternion rigid body without its normalization constraint
    const RigidBody body = randomRigidBody(rnd);
    FundamentalEquation free(4, 0);
    CLAB_VERIFY_THROWS(
        free.solveIdeal(body.problem.M, body.problem.Q, MatrixXd(0, 4), VectorXd(0), out),
        Kind::SingularMass, "singular");
    // a massless coordinate that no constraint touches
    const MatrixXd M = Eigen::Vector3d(1.0, 0.0, 0.0).asDiagonal();
    MatrixXd A(2, 3);
    A << 0.0, 1.0, 0.0, 0.0, 2.0, 0.0;
    FundamentalEquation eq(3, 2);
    CLAB_VERIFY_THROWS(eq.solveIdeal(M, rnd.vector(3), A, VectorXd::Zero(2), out),
                       Kind::SingularMass, "singular");
}

void FundamentalEquationTest::inconsistentConstraintsAreReported()
{
    using Kind = ConstraintLabError::Kind;
    Random rnd(121);
    ConstrainedAcceleration out;
    for (int n = 2; n <= 6; ++n) {
        const MatrixXd M = rnd.spd(n);
        const VectorXd Q = rnd.vector(n);
        const MatrixXd A1 = rnd.matrix(1, n);

        // the same row twice asking for different accelerations
        MatrixXd A(2, n);
        A << A1, A1;
        FundamentalEquation eq(n, 2);
        eq.solveIdeal(M, Q, A, Eigen::Vector2d(0.7, 0.7), out); // consistent: fine
        CLAB_VERIFY_THROWS(eq.solveIdeal(M, Q, A, Eigen::Vector2d(0.7, 1.2), out),
                           Kind::InconsistentConstraints, "residual");

        // 0 · q̈ = 1
        MatrixXd Z(2, n);
        Z << A1, MatrixXd::Zero(1, n);
        CLAB_VERIFY_THROWS(eq.solveIdeal(M, Q, Z, Eigen::Vector2d(0.0, 1.0), out),
                           Kind::InconsistentConstraints, "inconsistent");

        // the third row is the sum of the first two, its right-hand side is not
        const MatrixXd A2 = rnd.matrix(2, n);
        MatrixXd S(3, n);
        S << A2, A2.row(0) + A2.row(1);
        FundamentalEquation eq3(n, 3);
        eq3.solveIdeal(M, Q, S, Eigen::Vector3d(0.2, -0.5, -0.3), out);
        CLAB_VERIFY_THROWS(eq3.solveIdeal(M, Q, S, Eigen::Vector3d(0.2, -0.5, 0.3), out),
                           Kind::InconsistentConstraints, "residual");

        // on the auxiliary path as well
        FundamentalEquation aux(n, 2);
        aux.setSingularMass(true);
        CLAB_VERIFY_THROWS(aux.solveIdeal(M, Q, A, Eigen::Vector2d(0.7, 1.2), out),
                           Kind::InconsistentConstraints, "residual");
    }
}

void FundamentalEquationTest::nonFiniteInputIsReported()
{
    using Kind = ConstraintLabError::Kind;
    Random rnd(131);
    const Problem p = randomProblem(rnd, 3, 2, 2, "finite");
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    FundamentalEquation eq(3, 2);
    ConstrainedAcceleration out;

    MatrixXd M = p.M;
    M(1, 2) = nan;
    CLAB_VERIFY_THROWS(eq.solveIdeal(M, p.Q, p.A, p.b, out), Kind::NonFinite, "mass matrix M");
    VectorXd Q = p.Q;
    Q(0) = inf;
    CLAB_VERIFY_THROWS(eq.solveIdeal(p.M, Q, p.A, p.b, out), Kind::NonFinite, "given force Q");
    MatrixXd A = p.A;
    A(1, 0) = -inf;
    CLAB_VERIFY_THROWS(eq.solveIdeal(p.M, p.Q, A, p.b, out), Kind::NonFinite,
                       "constraint matrix A");
    VectorXd b = p.b;
    b(1) = nan;
    CLAB_VERIFY_THROWS(eq.solveIdeal(p.M, p.Q, p.A, b, out), Kind::NonFinite, "right-hand side b");
    VectorXd C = p.C;
    C(2) = nan;
    eq.solveIdeal(p.M, p.Q, p.A, p.b, out);
    CLAB_VERIFY_THROWS(eq.addNonIdeal(C, out), Kind::NonFinite, "non-ideal force C");
}

void FundamentalEquationTest::wronglySizedInputIsReported()
{
    using Kind = ConstraintLabError::Kind;
    Random rnd(141);
    const Problem p = randomProblem(rnd, 3, 2, 2, "sized");
    FundamentalEquation eq(3, 2);
    ConstrainedAcceleration out;
    CLAB_VERIFY_THROWS(eq.solveIdeal(p.M, p.Q, p.A.topRows(1), p.b, out), Kind::InvalidParameter,
                       "constraint matrix A is 1×3, expected 2×3");
    CLAB_VERIFY_THROWS(eq.addNonIdeal(p.C, out), Kind::InvalidParameter, "without a successful");
    eq.solveIdeal(p.M, p.Q, p.A, p.b, out);
    CLAB_VERIFY_THROWS(eq.addNonIdeal(VectorXd::Zero(2), out), Kind::InvalidParameter,
                       "non-ideal force C");
    AuxiliarySettings bad;
    bad.alpha = 0.0;
    CLAB_VERIFY_THROWS(eq.setAuxiliary(bad), Kind::InvalidParameter, "α");
    bad.alpha = 1.0;
    bad.G = MatrixXd(-MatrixXd::Identity(2, 2));
    CLAB_VERIFY_THROWS(eq.setAuxiliary(bad), Kind::InvalidParameter, "positive definite");
    CLAB_VERIFY_THROWS(eq.setTolerance(0.0), Kind::InvalidParameter, "tolerance");
}

void FundamentalEquationTest::unconstrainedSystemIsNewton()
{
    Random rnd(151);
    for (int n = 1; n <= 8; ++n) {
        const MatrixXd M = rnd.spd(n);
        const VectorXd Q = rnd.vector(n);
        const VectorXd C = rnd.vector(n);
        FundamentalEquation eq(n, 0);
        ConstrainedAcceleration out;
        eq.solve(M, Q, MatrixXd(0, n), VectorXd(0), C, out);
        const std::string label = "m = 0, n = " + std::to_string(n);
        // every displacement is virtual, so the non-ideal force is C itself
        CLAB_VERIFY_CLOSE(label, "q̈", out.qdd, M.partialPivLu().solve(Q + C), 1e-10);
        CLAB_VERIFY_CLOSE(label, "Qci", out.Qci, VectorXd::Zero(n), 0.0);
        CLAB_VERIFY_CLOSE(label, "Qcni", out.Qcni, C, 1e-12);
        QCOMPARE(out.lambda.size(), Eigen::Index(0));
    }
}

void FundamentalEquationTest::beadOnInclinedWireMatchesClosedForm()
{
    const double mass = 0.7, g = 9.81, mu = 0.3;
    for (double thetaDeg : {10.0, 30.0, 55.0}) {
        const double th = thetaDeg * std::numbers::pi / 180.0;
        const MatrixXd M = mass * MatrixXd::Identity(2, 2);
        const VectorXd Q = Eigen::Vector2d(0.0, -mass * g);
        MatrixXd A(1, 2);
        A << -std::tan(th), 1.0;
        const VectorXd b = VectorXd::Zero(1);
        FundamentalEquation eq(2, 1);
        ConstrainedAcceleration out;
        eq.solveIdeal(M, Q, A, b, out);
        const std::string label = "bead at " + std::to_string(thetaDeg) + "°";
        const Eigen::Vector2d normal =
            mass * g * std::cos(th) * Eigen::Vector2d(-std::sin(th), std::cos(th));
        CLAB_VERIFY_CLOSE(label, "Qci", out.Qci, normal, 1e-12);

        // sliding down the wire (ẋ < 0): friction points up the wire
        const Eigen::Vector2d up(std::cos(th), std::sin(th));
        const VectorXd C = mu * out.Qci.norm() * up;
        eq.addNonIdeal(C, out);
        CLAB_VERIFY_CLOSE(label, "Qcni", out.Qcni, C, 1e-12);
        const Eigen::Vector2d qdd = -g * (std::sin(th) - mu * std::cos(th)) * up;
        CLAB_VERIFY_CLOSE(label, "q̈", out.qdd, qdd, 1e-12);
    }
}

void FundamentalEquationTest::particleOnRingMatchesClosedForm()
{
    Random rnd(161);
    const double mass = 1.3, g = 9.81, R = 0.8;
    for (int trial = 0; trial < 10; ++trial) {
        const double phi = rnd.uniform(-std::numbers::pi, std::numbers::pi);
        const double speed = rnd.uniform(-3.0, 3.0);
        const Eigen::Vector2d q(R * std::cos(phi), R * std::sin(phi));
        const Eigen::Vector2d qd = speed * Eigen::Vector2d(-std::sin(phi), std::cos(phi));
        const MatrixXd M = mass * MatrixXd::Identity(2, 2);
        const VectorXd Q = Eigen::Vector2d(0.0, -mass * g);
        const MatrixXd A = q.transpose();
        const VectorXd b = VectorXd::Constant(1, -qd.squaredNorm());
        FundamentalEquation eq(2, 1);
        ConstrainedAcceleration out;
        eq.solveIdeal(M, Q, A, b, out);
        const Eigen::Vector2d Qci = -mass * (qd.squaredNorm() - g * q.y()) * q / (R * R);
        CLAB_VERIFY_CLOSE("ring", "Qci", out.Qci, Qci, 1e-12);
        // friction C = −μ‖Qᶜᵢ‖ q̇/‖q̇‖ is tangent, so all of it acts
        const VectorXd C = -0.4 * Qci.norm() * qd.normalized();
        eq.addNonIdeal(C, out);
        CLAB_VERIFY_CLOSE("ring", "Qcni", out.Qcni, C, 1e-12);
    }
}

void FundamentalEquationTest::nonholonomicParticleMatchesRosenberg()
{
    Random rnd(171);
    for (int trial = 0; trial < 10; ++trial) {
        const Eigen::Vector3d q = rnd.vector(3);
        const double z = q.z();
        Eigen::Vector3d qd = rnd.vector(3);
        qd.y() = z * qd.x(); // ẏ = z ẋ
        const Eigen::Vector3d f = rnd.vector(3);
        const double a0 = rnd.uniform(0.1, 2.0);
        MatrixXd A(1, 3);
        A << -z, 1.0, 0.0;
        const VectorXd b = VectorXd::Constant(1, qd.x() * qd.z());
        const MatrixXd M = MatrixXd::Identity(3, 3);
        FundamentalEquation eq(3, 1);
        ConstrainedAcceleration out;

        // Rosenberg: no forces, q̈ = ẋż/(1 + z²) (−z, 1, 0)
        eq.solveIdeal(M, VectorXd::Zero(3), A, b, out);
        CLAB_VERIFY_CLOSE(
            "Rosenberg", "q̈", out.qdd,
            Eigen::Vector3d(qd.x() * qd.z() / (1 + z * z) * Eigen::Vector3d(-z, 1, 0)), 1e-12);

        eq.solveIdeal(M, f, A, b, out);
        const Eigen::Vector3d Qci =
            Eigen::Vector3d(-z, 1.0, 0.0) * (qd.x() * qd.z() + z * f.x() - f.y()) / (1 + z * z);
        CLAB_VERIFY_CLOSE("nonholonomic", "Qci", out.Qci, Qci, 1e-12);
        const VectorXd C = -a0 * qd.normalized();
        eq.addNonIdeal(C, out);
        const Eigen::Vector3d Qcni =
            -a0 *
            Eigen::Vector3d(qd.x() + z * qd.y(), z * qd.x() + z * z * qd.y(),
                            qd.z() * (1 + z * z)) /
            (qd.norm() * (1 + z * z));
        CLAB_VERIFY_CLOSE("nonholonomic", "Qcni", out.Qcni, Qcni, 1e-12);
    }
}

void FundamentalEquationTest::diagonalMassMatchesTextbookForm()
{
    Random rnd(191);
    for (int n = 1; n <= 7; ++n) {
        for (int m = 0; m <= n + 1; ++m) {
            for (int trial = 0; trial < 3; ++trial) {
                const int rank = m == 0 ? 0 : rnd.integer(1, std::min(m, n));
                const Problem p = randomDiagonalProblem(rnd, n, m, rank);
                FundamentalEquation eq(n, m);
                const ConstrainedAcceleration ours = solveWith(eq, p, true);
                QVERIFY2(!eq.usedAuxiliary(), (p.label + ": took the auxiliary path").c_str());
                const ConstrainedAcceleration ref =
                    TextbookFundamentalEquation::solve(p.M, p.Q, p.A, p.b, p.C);
                // accelerations scale like Q/m, forces like M q̈: judge each against its size
                CLAB_VERIFY_CLOSE(p.label, "q̈", ours.qdd, ref.qdd, 1e-9, 1.0 + ref.qdd.norm());
                CLAB_VERIFY_CLOSE(p.label, "Qci", ours.Qci, ref.Qci, 1e-9, forceScale(p, ref));
                CLAB_VERIFY_CLOSE(p.label, "Qcni", ours.Qcni, ref.Qcni, 1e-9, forceScale(p, ref));
                CLAB_VERIFY_CLOSE(p.label, "A q̈", p.A * ours.qdd, p.b, 1e-9,
                                  1.0 + p.A.norm() * ours.qdd.norm());
            }
        }
    }

    // A massless coordinate that a constraint ties to a massive one: M = diag(m, 0) is
    // singular, [M; A] is not, and the bordered equations give the motion.
    MatrixXd M = Eigen::Vector3d(2.0, 0.0, 0.5).asDiagonal();
    MatrixXd A(1, 3);
    A << 1.0, -1.0, 0.0;
    const VectorXd Q = Eigen::Vector3d(0.3, -1.2, 0.4);
    const VectorXd b = VectorXd::Constant(1, 0.25);
    const VectorXd C = Eigen::Vector3d(0.1, 0.2, -0.3);
    FundamentalEquation eq(3, 1);
    ConstrainedAcceleration out;
    eq.solve(M, Q, A, b, C, out);
    QVERIFY(eq.usedAuxiliary());
    const Kkt kkt = kktSolve(M, Q + C, A, b);
    CLAB_VERIFY_CLOSE("massless coordinate", "q̈", out.qdd, kkt.qdd, 1e-12);
    CLAB_VERIFY_CLOSE("massless coordinate", "M q̈", M * out.qdd, Q + out.Qci + out.Qcni, 1e-12);
}

void FundamentalEquationTest::singleConstraintMatchesTextbookForm()
{
    using Kind = ConstraintLabError::Kind;
    Random rnd(201);
    for (int n = 1; n <= 8; ++n) {
        for (int trial = 0; trial < 5; ++trial) {
            const Problem p = randomProblem(rnd, n, 1, 1, "one constraint");
            const ConstrainedAcceleration ours = solveProblem(p, true);
            const ConstrainedAcceleration ref =
                TextbookFundamentalEquation::solve(p.M, p.Q, p.A, p.b, p.C);
            CLAB_VERIFY_CLOSE(p.label, "q̈", ours.qdd, ref.qdd, 1e-9);
            CLAB_VERIFY_CLOSE(p.label, "Qci", ours.Qci, ref.Qci, 1e-9);
            CLAB_VERIFY_CLOSE(p.label, "Qcni", ours.Qcni, ref.Qcni, 1e-9);
            CLAB_VERIFY_CLOSE(p.label, "λ", ours.lambda, ref.lambda, 1e-8);
        }
    }

    // 0 · q̈ = 0 constrains nothing: Newton's law with the whole of C, and λ = 0 (minimum norm).
    const MatrixXd M = rnd.spd(3);
    const VectorXd Q = rnd.vector(3);
    const VectorXd C = rnd.vector(3);
    const MatrixXd zeroRow = MatrixXd::Zero(1, 3);
    FundamentalEquation eq(3, 1);
    ConstrainedAcceleration out;
    eq.solve(M, Q, zeroRow, VectorXd::Zero(1), C, out);
    CLAB_VERIFY_CLOSE("empty constraint", "q̈", out.qdd, M.partialPivLu().solve(Q + C), 1e-12);
    CLAB_VERIFY_CLOSE("empty constraint", "Qcni", out.Qcni, C, 1e-12);
    QCOMPARE(out.lambda(0), 0.0);
    // ... and 0 · q̈ = 1 cannot hold
    CLAB_VERIFY_THROWS(eq.solveIdeal(M, Q, zeroRow, VectorXd::Ones(1), out),
                       Kind::InconsistentConstraints, "inconsistent");
}

void FundamentalEquationTest::changingUnitsOfCoordinatesChangesNothing()
{
    // Measuring coordinate i in a unit s_i times smaller (q' = S⁻¹ q, S = diag(s)) turns the
    // system into M' = S M S, Q' = S Q, A' = A S, C' = S C with q̈' = S⁻¹ q̈ and forces S Qᶜ.
    // Rank decisions are made relative to each pivot's own diagonal entry, so units over
    // twelve decades must not turn a regular problem into a singular one or the reverse.
    Random rnd(211);
    std::vector<Problem> problems = fullRankProblems(212);
    for (const Problem& p : singularProblems(213)) {
        problems.push_back(p);
    }
    for (const Problem& p : problems) {
        const int n = static_cast<int>(p.M.rows());
        VectorXd s(n);
        for (int i = 0; i < n; ++i) {
            s(i) = std::pow(10.0, rnd.uniform(-6.0, 6.0));
        }
        const auto S = s.asDiagonal();
        Problem scaled = p;
        scaled.M = S * p.M * S;
        scaled.Q = S * p.Q;
        scaled.A = p.A * S;
        scaled.C = S * p.C;
        FundamentalEquation eq(n, static_cast<int>(p.A.rows()));
        const ConstrainedAcceleration r2 = solveWith(eq, scaled, true);
        const ConstrainedAcceleration r1 = solveProblem(p, true);
        const bool singular = p.label.rfind("singular", 0) == 0;
        QCOMPARE(eq.usedAuxiliary(), singular);
        CLAB_VERIFY_CLOSE(p.label, "S q̈'", VectorXd(S * r2.qdd), r1.qdd, 1e-10,
                          1.0 + r1.qdd.norm());
        CLAB_VERIFY_CLOSE(p.label, "S⁻¹ Qci'", VectorXd(S.inverse() * r2.Qci), r1.Qci, 1e-10,
                          forceScale(p, r1));
        CLAB_VERIFY_CLOSE(p.label, "S⁻¹ Qcni'", VectorXd(S.inverse() * r2.Qcni), r1.Qcni, 1e-10,
                          forceScale(p, r1));
    }
}

void FundamentalEquationTest::undeclaredSemiDefiniteMassGivesTheBorderedEquationsMotion()
{
    // M = Rᵀ R of rank n − d, not declared singular. After a small but genuine pivot, rounding
    // in the vanishing one is amplified (like ε / pivot) and can pass the relative pivot test
    // now and then; whichever way M is judged, the motion must be the one of the bordered
    // equations and satisfy the constraints.
    Random rnd(221);
    for (int trial = 0; trial < 1500; ++trial) {
        const int n = rnd.integer(5, 8);
        const int d = rnd.integer(1, 2);
        const int m = rnd.integer(d, n);
        const Problem p = randomSingularProblem(rnd, n, d, m);
        const ConstrainedAcceleration r = solveProblem(p, true);
        const std::string label = p.label + " trial " + std::to_string(trial);
        CLAB_VERIFY_CLOSE(label, "A q̈", p.A * r.qdd, p.b, 1e-9,
                          1.0 + p.b.norm() + p.A.norm() * r.qdd.norm());
        const Kkt kkt = kktSolve(p.M, p.Q + p.C, p.A, p.b);
        CLAB_VERIFY_CLOSE(label, "q̈ against KKT", r.qdd, kkt.qdd, 1e-8, 1.0 + kkt.qdd.norm());
    }
}

void FundamentalEquationTest::inconsistencyHiddenByRoundingIsReported()
{
    // Dependent rows and masses over six decades: K = A M⁻¹ Aᵀ is singular, but its rounding
    // can look like a small genuine pivot, and an inconsistent b then "fits". The constraints
    // can still not hold, and that must be reported rather than answered.
    using Kind = ConstraintLabError::Kind;
    Random rnd(231);
    for (int trial = 0; trial < 400; ++trial) {
        const int n = rnd.integer(4, 8);
        const int m = rnd.integer(3, n + 2);
        const int rank = rnd.integer(1, std::min(m - 1, n));
        Problem p = randomDiagonalProblem(rnd, n, m, rank);
        // b(0) + 0.5 leaves the range of A when e₀ has a component outside it
        Eigen::JacobiSVD<MatrixXd> svd(p.A, Eigen::ComputeFullU);
        const double outside = svd.matrixU().rightCols(m - rank).row(0).norm();
        if (outside < 0.1) {
            continue;
        }
        p.b(0) += 0.5;
        FundamentalEquation eq(n, m);
        ConstrainedAcceleration out;
        CLAB_VERIFY_THROWS(eq.solveIdeal(p.M, p.Q, p.A, p.b, out), Kind::InconsistentConstraints,
                           "inconsistent");
    }
}

// A particle whose weight the constraint takes up exactly (bead on a horizontal wire, particle
// at the bottom or top of a vertical ring) has q̈ = 0 and b = 0: A q̈ − b is pure rounding of
// A M⁻¹ Q + A M⁻¹ Qᶜ, which must not be mistaken for inconsistent constraints. Swept over
// masses, radii and the wire's or ring's own scale, and with the diagonal fast path and the
// dense path (a non-diagonal rotation of the coordinates).
void FundamentalEquationTest::particleResolvingGravityOnItsConstraintIsInEquilibriumForEveryMass()
{
    const double g = 9.81;
    int solved = 0;
    for (int i = 1; i <= 1000; ++i) {
        const double mass = 0.01 * i;
        for (const double radius : {0.1, 1.0, 2.3, 3.3, 3.8, 4.1, 7.0}) {
            // wire y = 0 (A = [0, 1]), ring bottom (A = [x, y] = [0, −R]), ring top ([0, R])
            const std::vector<Eigen::RowVector2d> rows{
                {0.0, 1.0}, {0.0, -radius}, {0.0, radius}, {-std::tan(0.0), 1.0}};
            for (const Eigen::RowVector2d& row : rows) {
                for (const bool rotated : {false, true}) {
                    MatrixXd M = mass * MatrixXd::Identity(2, 2);
                    VectorXd Q(2);
                    Q << 0.0, -mass * g;
                    MatrixXd A = row;
                    if (rotated) {
                        // The same physics in coordinates turned by 0.3 rad: M stays m I but is
                        // solved by the dense path after a congruence with a shear.
                        Eigen::Matrix2d T;
                        T << 1.0, 0.3, 0.0, 1.0;
                        M = T.transpose() * M * T;
                        Q = T.transpose() * Q;
                        A = A * T;
                    }
                    const VectorXd b = VectorXd::Zero(1);
                    FundamentalEquation eq(2, 1);
                    ConstrainedAcceleration out;
                    try {
                        eq.solveIdeal(M, Q, A, b, out);
                    } catch (const clab::ConstraintLabError& e) {
                        QFAIL(qPrintable(QStringLiteral("m = %1, R = %2: %3")
                                             .arg(mass)
                                             .arg(radius)
                                             .arg(QString::fromUtf8(e.what()))));
                    }
                    QVERIFY2(out.qdd.norm() <= 1e-12 * g,
                             qPrintable(
                                 QStringLiteral("m = %1: |q̈| = %2").arg(mass).arg(out.qdd.norm())));
                    // The constraint carries the whole weight.
                    QVERIFY(std::abs((out.Qci + Q).norm()) <= 1e-12 * mass * g * 2);
                    ++solved;
                }
            }
        }
    }
    QCOMPARE(solved, 1000 * 7 * 4 * 2);
}

void FundamentalEquationTest::solveDoesNotAllocate()
{
#if CLAB_COUNT_MALLOC
    Random rnd(181);
    std::vector<Problem> problems;
    problems.push_back(randomProblem(rnd, 3, 2, 2, "full-rank"));
    problems.push_back(randomProblem(rnd, 6, 5, 3, "redundant"));
    problems.push_back(randomProblem(rnd, 4, 0, 0, "unconstrained"));
    problems.push_back(randomRigidBody(rnd).problem);
    problems.push_back(randomDiagonalProblem(rnd, 3, 1, 1));
    problems.push_back(randomDiagonalProblem(rnd, 5, 4, 2));
    problems.push_back(randomProblem(rnd, 4, 1, 1, "one constraint"));
    for (const Problem& p : problems) {
        FundamentalEquation eq(static_cast<int>(p.M.rows()), static_cast<int>(p.A.rows()));
        ConstrainedAcceleration out;
        out.resize(static_cast<int>(p.M.rows()), static_cast<int>(p.A.rows()));
        const long count = clab::testing::allocationsDuring([&] {
            for (int i = 0; i < 10; ++i) {
                eq.solveIdeal(p.M, p.Q, p.A, p.b, out);
                eq.addNonIdeal(p.C, out);
            }
        });
        QVERIFY2(
            count == 0,
            (p.label + ": " + std::to_string(count) + " heap allocations in 10 solves").c_str());
    }
    // the counter is live: an Eigen temporary is seen
    VectorXd probe;
    QVERIFY(clab::testing::allocationsDuring([&] { probe = VectorXd::Ones(64); }) > 0);
    QVERIFY(probe.sum() > 0.0);
#else
    QSKIP("malloc cannot be interposed in this build (sanitizer or non-glibc)");
#endif
}

namespace {

// q̈, Qᶜᵢ, Qᶜₙᵢ and λ of two solves, relative to max(1, ‖reference‖); the largest seen.
double largestDifference(const ConstrainedAcceleration& x, const ConstrainedAcceleration& ref)
{
    const auto rel = [](const VectorXd& a, const VectorXd& b) {
        return (a - b).norm() / std::max(1.0, b.norm());
    };
    return std::max({rel(x.qdd, ref.qdd), rel(x.Qci, ref.Qci), rel(x.Qcni, ref.Qcni),
                     rel(x.lambda, ref.lambda)});
}

// The two paths of one size on one problem (both phases, C included).
struct BothPaths {
    ConstrainedAcceleration fast, general;
    bool fastPathTaken = false;
};

BothPaths solveBothWays(const Problem& p, bool singularMass)
{
    const int n = static_cast<int>(p.M.rows()), m = static_cast<int>(p.A.rows());
    FundamentalEquation fast(n, m), general(n, m);
    fast.setSingularMass(singularMass);
    general.setSingularMass(singularMass);
    general.setFixedSizePath(false);
    BothPaths r;
    fast.solve(p.M, p.Q, p.A, p.b, p.C, r.fast);
    r.fastPathTaken = fast.usedFixedSizePath();
    general.solve(p.M, p.Q, p.A, p.b, p.C, r.general);
    return r;
}

} // namespace

// Every size of the fast path (n ≤ 6, m ≤ 3), dense and diagonal M, with a non-ideal force:
// the fast path, the general path and the bordered (KKT) equations agree.
void FundamentalEquationTest::fixedSizePathAgreesWithGeneralPathAndKkt()
{
    Random rnd(1801);
    double worstGeneral = 0.0, worstKkt = 0.0;
    int solves = 0;
    for (int n = 1; n <= 6; ++n) {
        for (int m = 1; m <= std::min(3, n); ++m) {
            for (int trial = 0; trial < 6; ++trial) {
                const Problem p = trial % 2 == 0 ? randomProblem(rnd, n, m, m, "full-rank A")
                                                 : randomDiagonalProblem(rnd, n, m, m);
                const BothPaths r = solveBothWays(p, false);
                QVERIFY2(r.fastPathTaken, p.label.c_str());
                const double general = largestDifference(r.fast, r.general);
                QVERIFY2(general <= 1e-12, (p.label + ": " + std::to_string(general)).c_str());
                const Kkt kkt = kktSolve(p.M, p.Q + p.C, p.A, p.b);
                CLAB_VERIFY_CLOSE(p.label, "q̈ against KKT", r.fast.qdd, kkt.qdd, 1e-12);
                worstGeneral = std::max(worstGeneral, general);
                worstKkt = std::max(worstKkt,
                                    (r.fast.qdd - kkt.qdd).norm() / std::max(1.0, kkt.qdd.norm()));
                ++solves;
            }
        }
    }
    qInfo("%d systems: fast vs general %.2g, fast vs KKT %.2g (relative)", solves, worstGeneral,
          worstKkt);
}

// Dependent rows make K singular: the fast path hands over, and the general path's
// minimum-norm solve gives the motion of the independent rows alone.
void FundamentalEquationTest::redundantConstraintsLeaveTheFixedSizePathForTheGeneralOne()
{
    Random rnd(1802);
    for (int n = 1; n <= 6; ++n) {
        for (int m = 2; m <= 3; ++m) {
            const int rank = rnd.integer(1, std::min(m - 1, n));
            Problem p;
            p.M = rnd.spd(n);
            p.Q = rnd.vector(n);
            p.C = rnd.vector(n);
            const MatrixXd A0 = rnd.matrix(rank, n);
            const MatrixXd T = rnd.matrix(m - rank, rank);
            const VectorXd b0 = A0 * rnd.vector(n);
            p.A.resize(m, n);
            p.A << A0, T * A0;
            p.b.resize(m);
            p.b << b0, T * b0;
            p.label = "redundant n=" + std::to_string(n) + " m=" + std::to_string(m);
            const BothPaths r = solveBothWays(p, false);
            QVERIFY2(!r.fastPathTaken, p.label.c_str());
            QCOMPARE(r.fast.qdd, r.general.qdd); // the same code ran
            QCOMPARE(r.fast.Qcni, r.general.Qcni);
            const Kkt kkt = kktSolve(p.M, p.Q + p.C, A0, b0);
            CLAB_VERIFY_CLOSE(p.label, "q̈ against KKT of the independent rows", r.fast.qdd, kkt.qdd,
                              1e-12);
        }
    }
}

// A semi-definite M declared singular goes through the auxiliary system on the fast path too.
void FundamentalEquationTest::singularMassThroughFixedSizePathMatchesKkt()
{
    Random rnd(1803);
    double worst = 0.0;
    for (int n = 2; n <= 6; ++n) {
        for (int m = 1; m <= 3; ++m) {
            for (int d = 1; d <= std::min(m, n - 1); ++d) {
                if (m > n) {
                    continue;
                }
                const Problem p = randomSingularProblem(rnd, n, d, m);
                const BothPaths r = solveBothWays(p, true);
                QVERIFY2(r.fastPathTaken, p.label.c_str());
                const double general = largestDifference(r.fast, r.general);
                QVERIFY2(general <= 1e-12, (p.label + ": " + std::to_string(general)).c_str());
                const Kkt kkt = kktSolve(p.M, p.Q + p.C, p.A, p.b);
                // Rounding grows with ‖M‖ ‖q̈‖ (see forceScale).
                CLAB_VERIFY_CLOSE(p.label, "q̈ against KKT", r.fast.qdd, kkt.qdd, 1e-12,
                                  forceScale(p, r.fast));
                worst = std::max(worst, general);
            }
        }
    }
    // The quaternion rigid body of the built-in scene, against its closed form.
    const RigidBody body = randomRigidBody(rnd);
    FundamentalEquation eq(4, 1);
    eq.setSingularMass(true);
    ConstrainedAcceleration out;
    eq.solve(body.problem.M, body.problem.Q, body.problem.A, body.problem.b, body.problem.C, out);
    QVERIFY(eq.usedFixedSizePath());
    QVERIFY(eq.usedAuxiliary());
    CLAB_VERIFY_CLOSE("rigid body", "ü against the closed form", out.qdd, body.uddClosedForm,
                      1e-12);
    qInfo("singular M: fast vs general %.2g (relative)", worst);
}

// The fast path keeps its factors while M and A repeat; a solve after any change must equal a
// fresh solve bit for bit (M only, A only, both, the auxiliary system switched on and off).
void FundamentalEquationTest::reusedFactorsFollowEveryChangeOfMassAndConstraints()
{
    Random rnd(1804);
    const Problem first = randomProblem(rnd, 3, 1, 1, "first");
    const Problem second = randomProblem(rnd, 3, 1, 1, "second");
    Problem massOnly = first, constraintsOnly = first;
    massOnly.M = second.M;
    constraintsOnly.A = second.A;
    constraintsOnly.b = second.b;
    const Problem singular = randomSingularProblem(rnd, 3, 1, 1);
    struct Step {
        const Problem* problem;
        bool singularMass;
    };
    const std::vector<Step> steps = {
        {&first, false},  {&first, false},   {&massOnly, false}, {&constraintsOnly, false},
        {&second, false}, {&singular, true}, {&singular, true},  {&first, true},
        {&first, false},  {&singular, true}};
    FundamentalEquation reused(3, 1);
    for (const Step& step : steps) {
        const Problem& p = *step.problem;
        reused.setSingularMass(step.singularMass);
        ConstrainedAcceleration out, fresh;
        reused.solve(p.M, p.Q, p.A, p.b, p.C, out);
        QVERIFY2(reused.usedFixedSizePath(), p.label.c_str());
        FundamentalEquation once(3, 1);
        once.setSingularMass(step.singularMass);
        once.solve(p.M, p.Q, p.A, p.b, p.C, fresh);
        QCOMPARE(out.qdd, fresh.qdd);
        QCOMPARE(out.Qci, fresh.Qci);
        QCOMPARE(out.Qcni, fresh.Qcni);
        QCOMPARE(out.lambda, fresh.lambda);
    }
}

void FundamentalEquationTest::fixedSizePathDoesNotAllocate()
{
#if CLAB_COUNT_MALLOC
    Random rnd(1805);
    for (int n = 1; n <= 6; ++n) {
        for (int m = 1; m <= std::min(3, n); ++m) {
            // Two problems in turn, so that the factors are formed on every solve.
            const Problem p = randomProblem(rnd, n, m, m, "full-rank A");
            const Problem q = randomDiagonalProblem(rnd, n, m, m);
            FundamentalEquation eq(n, m);
            ConstrainedAcceleration out;
            out.resize(n, m);
            bool fast = true;
            const long count = clab::testing::allocationsDuring([&] {
                for (int i = 0; i < 10; ++i) {
                    const Problem& r = i % 2 == 0 ? p : q;
                    eq.solveIdeal(r.M, r.Q, r.A, r.b, out);
                    eq.addNonIdeal(r.C, out);
                    fast = fast && eq.usedFixedSizePath();
                }
            });
            QVERIFY2(fast, p.label.c_str());
            QVERIFY2(count == 0,
                     (p.label + ": " + std::to_string(count) + " heap allocations in 10 solves")
                         .c_str());
        }
    }
#else
    QSKIP("malloc cannot be counted here (sanitizer or non-glibc C library)");
#endif
}

void FundamentalEquationTest::disagreementWithinTheRoundingOfBIsNoContradiction()
{
    // One rod written twice, as a projection sees it: φ₁ = r² − 1 and φ₂ = r − 1 give the rows
    // 2 qᵀ and qᵀ / r and b = −φ, which agree only to the rounding of their evaluation.
    using Kind = ConstraintLabError::Kind;
    const Eigen::Vector2d q(0.6, -0.8);
    MatrixXd A(2, 2);
    A << 2.0 * q.transpose(), q.transpose();
    const Eigen::Vector2d b(-2e-14, -1e-14 + 1e-16); // apart by 1e-16, a ulp of the terms
    const MatrixXd M = MatrixXd::Identity(2, 2);
    const VectorXd Q = VectorXd::Zero(2);
    ConstrainedAcceleration out;
    FundamentalEquation eq(2, 2);
    CLAB_VERIFY_THROWS(eq.solveIdeal(M, Q, A, b, out), Kind::InconsistentConstraints,
                       "inconsistent");
    // Known to within 1e-15 per entry: the minimum-norm step of the rank-1 system is taken.
    eq.setRightHandSideRounding(1e-15);
    eq.solveIdeal(M, Q, A, b, out);
    QVERIFY((A * out.qdd - b).norm() < 2e-16);
    QVERIFY(std::abs(q.dot(out.qdd) - (-1e-14)) < 1e-16); // along the rod, by the rod's length
    // A real contradiction stays one.
    CLAB_VERIFY_THROWS(eq.solveIdeal(M, Q, A, Eigen::Vector2d(-2e-14, 1e-14), out),
                       Kind::InconsistentConstraints, "inconsistent");
    // The sparse solver takes the same rounding.
    clab::SparseFundamentalEquation sparse(2, 2);
    const clab::SparseFundamentalEquation::SparseMatrix Ms = M.sparseView(), As = A.sparseView();
    CLAB_VERIFY_THROWS(sparse.solveIdeal(Ms, Q, As, b, out), Kind::InconsistentConstraints,
                       "inconsistent");
    sparse.setRightHandSideRounding(1e-15);
    sparse.solveIdeal(Ms, Q, As, b, out);
    QVERIFY((A * out.qdd - b).norm() < 2e-16);
    CLAB_VERIFY_THROWS(eq.setRightHandSideRounding(-1.0), Kind::InvalidParameter, "rounding");
}

QTEST_APPLESS_MAIN(FundamentalEquationTest)
#include "tst_FundamentalEquation.moc"
