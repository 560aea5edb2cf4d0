// One acceleration evaluation per built-in scene: from the state (q, q̇, t) and the scene's
// parameters to q̈, five ways, so that the ratios say what the engine costs against the least
// the physics needs:
//
//   ClosedForm      the hand-derived q̈ of docs/MATH.md §5, written out (the floor)
//   Ours            FundamentalEquation as the simulator calls it (dynamic-size Eigen inputs,
//                   which take its fixed-size fast path for these sizes), both friction phases
//   OursGeneral     the same with the fast path switched off: the general path of before
//   TextbookFixed   the textbook form of docs/MATH.md §2 (M^(−1/2) by eigen-decomposition,
//                   SVD pseudo-inverse of B = A M^(−1/2)) with fixed-size, allocation-free types
//   KktFixed        the bordered system [M Aᵀ; A 0] by PartialPivLU, fixed-size
//   TextbookDynamic the textbook form as commonly written (tests/support, allocates per call)
//
// Every contender forms M, Q, A, b (and C from the normal force) from the state inside the
// loop, as the simulator does; each is checked against the closed form before it is timed.
// The rigid body's M is singular: ours uses the auxiliary system of §4, the textbook form is
// given M + Aᵀ A, Q + Aᵀ b (α = 1, G = I), the bordered system needs nothing.
#include "solve/FundamentalEquation.h"

#include "../support/TextbookFundamentalEquation.h"

#include <benchmark/benchmark.h>

#include <Eigen/Dense>

#include <cmath>
#include <numbers>

namespace {

using clab::ConstrainedAcceleration;
using clab::FundamentalEquation;
using Eigen::Matrix;

template <int N> using Vec = Matrix<double, N, 1>;

// Kinetic friction −μ ‖Qᶜᵢ‖ q̇/‖q̇‖ (docs/MATH.md §3) into C.
template <typename Force, typename Velocity, typename Out>
void coulomb(double mu, const Force& Qci, const Velocity& qd, Out& C)
{
    C = (-mu * Qci.norm() / qd.norm()) * qd;
}

// Bead on a wire at 30°, sliding down with μ = 0.3 (n = 2, m = 1).
struct Bead {
    static constexpr int n = 2, m = 1;
    static constexpr bool singular = false;
    double mass = 0.5, g = 9.81, mu = 0.3, c = std::cos(std::numbers::pi / 6),
           s = std::sin(std::numbers::pi / 6), tanTheta = s / c;
    Vec<2> q{1.2, 1.2 * s / c}, qd{-0.8 * c, -0.8 * s};
    double t = 0.0;

    template <typename MM, typename VQ, typename MA, typename VB>
    void build(MM& M, VQ& Q, MA& A, VB& b) const
    {
        M << mass, 0.0, 0.0, mass;
        Q << 0.0, -mass * g;
        A << -tanTheta, 1.0;
        b << 0.0;
    }
    template <typename F, typename Out> void friction(const F& Qci, Out& C) const
    {
        coulomb(mu, Qci, qd, C);
    }
    // Along the wire: −g sin θ − μ g cos θ sgn(ẋ), in the direction (cos θ, sin θ).
    Vec<2> closedForm() const
    {
        const double along = -g * s - (qd[0] > 0.0 ? mu : -mu) * g * c;
        return {along * c, along * s};
    }
};

// Particle on a vertical ring of radius 1.5 with μ = 0.2 (n = 2, m = 1).
struct Ring {
    static constexpr int n = 2, m = 1;
    static constexpr bool singular = false;
    double mass = 0.3, g = 9.81, mu = 0.2, R = 1.5, R2 = R * R;
    Vec<2> q{R * std::cos(-0.4), R*std::sin(-0.4)}, qd{-2.0 * std::sin(-0.4), 2.0 * std::cos(-0.4)};
    double t = 0.0;

    template <typename MM, typename VQ, typename MA, typename VB>
    void build(MM& M, VQ& Q, MA& A, VB& b) const
    {
        M << mass, 0.0, 0.0, mass;
        Q << 0.0, -mass * g;
        A << q[0], q[1];
        b << -qd.squaredNorm();
    }
    template <typename F, typename Out> void friction(const F& Qci, Out& C) const
    {
        coulomb(mu, Qci, qd, C);
    }
    // Qᶜᵢ/m = −(v² − g y) (x, y)/R², and friction μ |v² − g y|/R against q̇.
    Vec<2> closedForm() const
    {
        const double v2 = qd.squaredNorm();
        const double centripetal = (v2 - g * q[1]) / R2;
        const double rub = mu * std::abs(v2 - g * q[1]) / (R * std::sqrt(v2));
        return {-centripetal * q[0] - rub * qd[0], -g - centripetal * q[1] - rub * qd[1]};
    }
};

// Nonholonomic particle ẏ = z ẋ with a force and a drag of constant size (n = 3, m = 1).
struct Nonholonomic {
    static constexpr int n = 3, m = 1;
    static constexpr bool singular = false;
    double mass = 1.3, a0 = 0.5;
    Vec<3> f{0.1, -0.3, 0.2}, q{0.3, -0.2, 0.7}, qd{1.0, 0.7, -0.4};
    double t = 0.0;

    template <typename MM, typename VQ, typename MA, typename VB>
    void build(MM& M, VQ& Q, MA& A, VB& b) const
    {
        M.setZero();
        M.diagonal().setConstant(mass);
        Q = f;
        A << -q[2], 1.0, 0.0;
        b << qd[0] * qd[2];
    }
    template <typename F, typename Out> void friction(const F&, Out& C) const
    {
        C = (-a0 / qd.norm()) * qd;
    }
    // p = (Q + C)/m; q̈ = p + (ẋ ż − (p_y − z p_x))/(1 + z²) (−z, 1, 0).
    Vec<3> closedForm() const
    {
        const double drag = -a0 / qd.norm();
        const Vec<3> p = (f + drag * qd) / mass;
        const double z = q[2];
        const double r = (qd[0] * qd[2] - (p[1] - z * p[0])) / (1.0 + z * z);
        return {p[0] - z * r, p[1] + r, p[2]};
    }
};

// Acatastatic particle ẋ − t ẏ = a(t), a = a₀ + a₁ sin ωt (n = 2, m = 1, ideal).
struct Acatastatic {
    static constexpr int n = 2, m = 1;
    static constexpr bool singular = false;
    double mass = 0.8, a1 = 0.4, omega = 2.0;
    Vec<2> force{0.3, -1.1}, q{0.5, 0.2}, qd{0.9, -0.3};
    double t = 0.7;

    double aDot() const { return a1 * omega * std::cos(omega * t); }
    template <typename MM, typename VQ, typename MA, typename VB>
    void build(MM& M, VQ& Q, MA& A, VB& b) const
    {
        M << mass, 0.0, 0.0, mass;
        Q = force;
        A << 1.0, -t;
        b << qd[1] + aDot();
    }
    template <typename F, typename Out> void friction(const F&, Out& C) const { C.setZero(); }
    // p = Q/m; q̈ = p + (ẏ + ȧ − (p_x − t p_y))/(1 + t²) (1, −t).
    Vec<2> closedForm() const
    {
        const Vec<2> p = force / mass;
        const double r = (qd[1] + aDot() - (p[0] - t * p[1])) / (1.0 + t * t);
        return {p[0] + r, p[1] - t * r};
    }
};

// Rigid body in quaternions, J = (1, 2, 3), no torque: singular M (n = 4, m = 1).
struct RigidBody {
    static constexpr int n = 4, m = 1;
    static constexpr bool singular = true;
    Eigen::Vector3d J{1.0, 2.0, 3.0};
    Vec<4> q = Vec<4>(0.9, 0.1, -0.3, 0.2).normalized(), qd = 0.5 * E(q).transpose() * omega0();
    double t = 0.0;

    static Eigen::Vector3d omega0() { return {0.4, 2.0, -0.3}; }
    static Matrix<double, 3, 4> E(const Vec<4>& u)
    {
        Matrix<double, 3, 4> e;
        e << -u(1), u(0), u(3), -u(2), //
            -u(2), -u(3), u(0), u(1),  //
            -u(3), u(2), -u(1), u(0);
        return e;
    }
    template <typename MM, typename VQ, typename MA, typename VB>
    void build(MM& M, VQ& Q, MA& A, VB& b) const
    {
        const Matrix<double, 3, 4> e = E(q);
        M = 4.0 * e.transpose() * J.asDiagonal() * e;
        Q = -8.0 * E(qd).transpose() * (J.asDiagonal() * (e * qd));
        A = q.transpose();
        b << -qd.squaredNorm();
    }
    template <typename F, typename Out> void friction(const F&, Out& C) const { C.setZero(); }
    // ü = −½ Eᵀ J⁻¹ (ω × J ω) − ¼ ‖ω‖² u, ω = 2 E u̇.
    Vec<4> closedForm() const
    {
        const Matrix<double, 3, 4> e = E(q);
        const Eigen::Vector3d w = 2.0 * e * qd;
        const Eigen::Vector3d wdot = -w.cross(J.cwiseProduct(w)).cwiseQuotient(J);
        return 0.5 * e.transpose() * wdot - 0.25 * w.squaredNorm() * q;
    }
};

template <typename Scene, typename V> bool matchesClosedForm(const Scene& scene, const V& qdd)
{
    const Vec<Scene::n> ref = scene.closedForm();
    return (ref - qdd).norm() <= 1e-9 * (1.0 + ref.norm());
}

// Defeats constant folding of the scene's state across iterations.
template <typename Scene> void touch(Scene& scene)
{
    benchmark::DoNotOptimize(scene.q.data());
    benchmark::DoNotOptimize(scene.qd.data());
    benchmark::ClobberMemory();
}

template <typename Scene> Vec<Scene::n> closedForm(const Scene& scene)
{
    return scene.closedForm();
}

template <typename Scene> void ours(benchmark::State& state, bool fixedSizePath)
{
    Scene scene;
    constexpr int n = Scene::n, m = Scene::m;
    Eigen::MatrixXd M(n, n), A(m, n);
    Eigen::VectorXd Q(n), b(m), C(n);
    FundamentalEquation eq(n, m);
    eq.setSingularMass(Scene::singular);
    eq.setFixedSizePath(fixedSizePath);
    ConstrainedAcceleration out;
    out.resize(n, m);
    const auto evaluate = [&] {
        scene.build(M, Q, A, b);
        eq.solveIdeal(M, Q, A, b, out);
        scene.friction(out.Qci, C);
        eq.addNonIdeal(C, out);
    };
    evaluate();
    if (!matchesClosedForm(scene, out.qdd)) {
        state.SkipWithError("FundamentalEquation disagrees with the closed form");
        return;
    }
    if (eq.usedFixedSizePath() != fixedSizePath) {
        state.SkipWithError("the solve did not take the path this benchmark is about");
        return;
    }
    for (auto _ : state) {
        touch(scene);
        evaluate();
        benchmark::DoNotOptimize(out.qdd.data());
    }
}

// M, Q, A, b of a scene's state in fixed-size types, and room for C.
template <typename Scene> struct FixedInputs {
    explicit FixedInputs(const Scene& scene) { scene.build(M, Q, A, b); }
    Matrix<double, Scene::n, Scene::n> M;
    Vec<Scene::n> Q;
    Matrix<double, Scene::m, Scene::n> A;
    Vec<Scene::m> b;
    Vec<Scene::n> C;
};

// The textbook form with fixed-size types: q̈ = a + M^(−1/2) B⁺ (b − A a) for the ideal part and
// M^(−1/2) (I − B⁺ B) M^(−1/2) C for the non-ideal part.
template <typename Scene> Vec<Scene::n> textbookFixed(const Scene& scene)
{
    constexpr int n = Scene::n, m = Scene::m;
    FixedInputs<Scene> in(scene);
    auto& [M, Q, A, b, C] = in;
    if constexpr (Scene::singular) {
        M += A.transpose() * A;
        Q += A.transpose() * b;
    }
    const Eigen::SelfAdjointEigenSolver<Matrix<double, n, n>> eig(M);
    const Vec<n> root = eig.eigenvalues().cwiseSqrt();
    const Matrix<double, n, n>& V = eig.eigenvectors();
    const Matrix<double, n, n> Mhalf = V * root.asDiagonal() * V.transpose();
    const Matrix<double, n, n> Mminushalf = V * root.cwiseInverse().asDiagonal() * V.transpose();
    const Matrix<double, m, n> B = A * Mminushalf;
    const Eigen::JacobiSVD<Matrix<double, m, n>> svd(B, Eigen::ComputeFullU | Eigen::ComputeFullV);
    const auto& sigma = svd.singularValues();
    Matrix<double, n, m> Bplus = Matrix<double, n, m>::Zero();
    for (int i = 0; i < sigma.size(); ++i) {
        if (sigma(i) > 1e-10 * sigma(0)) {
            Bplus += svd.matrixV().col(i) * (svd.matrixU().col(i).transpose() / sigma(i));
        }
    }
    const Vec<n> a = Mminushalf * (Mminushalf * Q);
    const Vec<m> r = b - A * a;
    const Vec<n> Qci = Mhalf * (Bplus * r);
    scene.friction(Qci, C);
    const Vec<n> projected = (Matrix<double, n, n>::Identity() - Bplus * B) * (Mminushalf * C);
    return a + Mminushalf * (Bplus * r) + Mminushalf * projected;
}

// Times a contender that maps a scene's state to q̈, after checking it against the closed form.
template <typename Scene, typename Contender>
void timeFixed(benchmark::State& state, Contender contender, const char* disagreement)
{
    Scene scene;
    if (!matchesClosedForm(scene, contender(scene))) {
        state.SkipWithError(disagreement);
        return;
    }
    for (auto _ : state) {
        touch(scene);
        Vec<Scene::n> qdd = contender(scene);
        benchmark::DoNotOptimize(qdd.data());
    }
}

// The bordered system [M Aᵀ; A 0] [q̈; −λ] = [Q; b], then [M Aᵀ; A 0] [Δq̈; −μ] = [C; 0].
template <typename Scene> Vec<Scene::n> kktFixed(const Scene& scene)
{
    constexpr int n = Scene::n, m = Scene::m;
    FixedInputs<Scene> in(scene);
    auto& [M, Q, A, b, C] = in;
    Matrix<double, n + m, n + m> K;
    K << M, A.transpose(), A, Matrix<double, m, m>::Zero();
    const Eigen::PartialPivLU<Matrix<double, n + m, n + m>> lu(K);
    Vec<n + m> rhs;
    rhs << Q, b;
    const Vec<n + m> ideal = lu.solve(rhs);
    const Vec<n> Qci = -A.transpose() * ideal.template tail<m>();
    scene.friction(Qci, C);
    rhs << C, Vec<m>::Zero();
    return ideal.template head<n>() + lu.solve(rhs).template head<n>();
}

// The textbook form as tests/support writes it: dynamic sizes, temporaries on every call.
template <typename Scene> void textbookDynamic(benchmark::State& state)
{
    using clab::testing::TextbookFundamentalEquation;
    Scene scene;
    constexpr int n = Scene::n, m = Scene::m;
    const auto evaluate = [&] {
        Eigen::MatrixXd M(n, n), A(m, n);
        Eigen::VectorXd Q(n), b(m), C(n);
        scene.build(M, Q, A, b);
        if (Scene::singular) {
            M += A.transpose() * A;
            Q += A.transpose() * b;
        }
        TextbookFundamentalEquation textbook;
        ConstrainedAcceleration out;
        textbook.solveIdeal(M, Q, A, b, out);
        scene.friction(out.Qci, C);
        textbook.addNonIdeal(C, out);
        return out;
    };
    if (!matchesClosedForm(scene, evaluate().qdd)) {
        state.SkipWithError("the textbook form disagrees with the closed form");
        return;
    }
    for (auto _ : state) {
        touch(scene);
        const ConstrainedAcceleration out = evaluate();
        benchmark::DoNotOptimize(out.qdd.data());
    }
}

#define CLAB_SCENE_BENCHMARKS(Scene)                                                               \
    void BM_ClosedForm_##Scene(benchmark::State& s)                                                \
    {                                                                                              \
        timeFixed<Scene>(s, closedForm<Scene>, "");                                                \
    }                                                                                              \
    void BM_Ours_##Scene(benchmark::State& s)                                                      \
    {                                                                                              \
        ours<Scene>(s, true);                                                                      \
    }                                                                                              \
    void BM_OursGeneral_##Scene(benchmark::State& s)                                               \
    {                                                                                              \
        ours<Scene>(s, false);                                                                     \
    }                                                                                              \
    void BM_TextbookFixed_##Scene(benchmark::State& s)                                             \
    {                                                                                              \
        timeFixed<Scene>(s, textbookFixed<Scene>, "the fixed-size textbook form disagrees");       \
    }                                                                                              \
    void BM_KktFixed_##Scene(benchmark::State& s)                                                  \
    {                                                                                              \
        timeFixed<Scene>(s, kktFixed<Scene>, "the bordered (KKT) solve disagrees");                \
    }                                                                                              \
    void BM_TextbookDynamic_##Scene(benchmark::State& s)                                           \
    {                                                                                              \
        textbookDynamic<Scene>(s);                                                                 \
    }                                                                                              \
    BENCHMARK(BM_ClosedForm_##Scene);                                                              \
    BENCHMARK(BM_Ours_##Scene);                                                                    \
    BENCHMARK(BM_OursGeneral_##Scene);                                                             \
    BENCHMARK(BM_TextbookFixed_##Scene);                                                           \
    BENCHMARK(BM_KktFixed_##Scene);                                                                \
    BENCHMARK(BM_TextbookDynamic_##Scene)

CLAB_SCENE_BENCHMARKS(Bead);
CLAB_SCENE_BENCHMARKS(Ring);
CLAB_SCENE_BENCHMARKS(Nonholonomic);
CLAB_SCENE_BENCHMARKS(RigidBody);
CLAB_SCENE_BENCHMARKS(Acatastatic);

} // namespace

BENCHMARK_MAIN();
