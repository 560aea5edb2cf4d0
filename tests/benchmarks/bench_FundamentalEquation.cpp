// FundamentalEquation (square-root-free form) against the textbook form of docs/MATH.md §2 on the
// same inputs, for the problem sizes of the built-in scenes.
#include "FundamentalEquation.h"

#include "../support/TextbookFundamentalEquation.h"

#include <benchmark/benchmark.h>

#include <Eigen/Dense>

#include <cmath>

namespace {

using clab::ConstrainedAcceleration;
using clab::FundamentalEquation;
using clab::testing::TextbookFundamentalEquation;
using Eigen::MatrixXd;
using Eigen::VectorXd;

struct Inputs {
    MatrixXd M;
    VectorXd Q;
    MatrixXd A;
    VectorXd b;
    VectorXd C;
    bool singular = false;
};

// Bead on a wire inclined at 30°, sliding down with friction μ = 0.3 (2×1).
Inputs beadOnWire()
{
    const double m = 0.5, g = 9.81, th = 0.5235987755982988, mu = 0.3;
    Inputs in;
    in.M = m * MatrixXd::Identity(2, 2);
    in.Q = Eigen::Vector2d(0.0, -m * g);
    in.A.resize(1, 2);
    in.A << -std::tan(th), 1.0;
    in.b = VectorXd::Zero(1);
    in.C = mu * m * g * std::cos(th) * Eigen::Vector2d(std::cos(th), std::sin(th));
    return in;
}

// Nonholonomic particle ẏ = z ẋ with constant drag (3×1).
Inputs nonholonomicParticle()
{
    const Eigen::Vector3d q(0.3, -0.2, 0.7);
    const Eigen::Vector3d qd(1.0, q.z() * 1.0, -0.4);
    Inputs in;
    in.M = MatrixXd::Identity(3, 3);
    in.Q = Eigen::Vector3d(0.1, -0.3, 0.2);
    in.A.resize(1, 3);
    in.A << -q.z(), 1.0, 0.0;
    in.b = VectorXd::Constant(1, qd.x() * qd.z());
    in.C = -0.5 * qd.normalized();
    return in;
}

Eigen::Matrix<double, 3, 4> quaternionE(const Eigen::Vector4d& u)
{
    Eigen::Matrix<double, 3, 4> E;
    E << -u(1), u(0), u(3), -u(2), //
        -u(2), -u(3), u(0), u(1),  //
        -u(3), u(2), -u(1), u(0);
    return E;
}

// Rigid body in quaternions, J = (1, 2, 3): singular 4×4 mass matrix, one constraint.
Inputs quaternionRigidBody()
{
    const Eigen::Vector4d u = Eigen::Vector4d(0.9, 0.1, -0.3, 0.2).normalized();
    const Eigen::Vector3d omega(0.4, 2.0, -0.3);
    const Eigen::Matrix3d J = Eigen::Vector3d(1.0, 2.0, 3.0).asDiagonal();
    const Eigen::Matrix<double, 3, 4> E = quaternionE(u);
    const Eigen::Vector4d ud = 0.5 * E.transpose() * omega;
    Inputs in;
    in.M = 4.0 * E.transpose() * J * E;
    in.Q = -8.0 * quaternionE(ud).transpose() * J * E * ud;
    in.A = u.transpose();
    in.b = VectorXd::Constant(1, -ud.squaredNorm());
    in.C = VectorXd::Zero(4);
    in.singular = true;
    return in;
}

// The textbook form needs M > 0: for a singular M it is given the auxiliary system
// M + Aᵀ A, Q + Aᵀ b of docs/MATH.md §4 (α = 1, G = I), formed inside the loop as ours does.
ConstrainedAcceleration textbook(const Inputs& in)
{
    if (in.singular) {
        const MatrixXd Ma = in.M + in.A.transpose() * in.A;
        const VectorXd Qa = in.Q + in.A.transpose() * in.b;
        return TextbookFundamentalEquation::solve(Ma, Qa, in.A, in.b, in.C);
    }
    return TextbookFundamentalEquation::solve(in.M, in.Q, in.A, in.b, in.C);
}

void runOurs(benchmark::State& state, const Inputs& in)
{
    FundamentalEquation eq(static_cast<int>(in.M.rows()), static_cast<int>(in.A.rows()));
    eq.setSingularMass(in.singular);
    ConstrainedAcceleration out;
    eq.solve(in.M, in.Q, in.A, in.b, in.C, out);
    // timing a wrong answer is pointless
    if ((out.qdd - textbook(in).qdd).norm() > 1e-9 * (1.0 + out.qdd.norm())) {
        state.SkipWithError("FundamentalEquation disagrees with the textbook form");
        return;
    }
    for (auto _ : state) {
        eq.solve(in.M, in.Q, in.A, in.b, in.C, out);
        benchmark::DoNotOptimize(out.qdd.data());
        benchmark::ClobberMemory();
    }
}

void runTextbook(benchmark::State& state, const Inputs& in)
{
    for (auto _ : state) {
        const ConstrainedAcceleration out = textbook(in);
        benchmark::DoNotOptimize(out.qdd.data());
        benchmark::ClobberMemory();
    }
}

void BM_Ours_BeadOnWire_2x1(benchmark::State& s)
{
    runOurs(s, beadOnWire());
}
void BM_Textbook_BeadOnWire_2x1(benchmark::State& s)
{
    runTextbook(s, beadOnWire());
}
void BM_Ours_Nonholonomic_3x1(benchmark::State& s)
{
    runOurs(s, nonholonomicParticle());
}
void BM_Textbook_Nonholonomic_3x1(benchmark::State& s)
{
    runTextbook(s, nonholonomicParticle());
}
void BM_Ours_QuaternionSingular_4x1(benchmark::State& s)
{
    runOurs(s, quaternionRigidBody());
}
void BM_Textbook_QuaternionSingular_4x1(benchmark::State& s)
{
    runTextbook(s, quaternionRigidBody());
}

BENCHMARK(BM_Ours_BeadOnWire_2x1);
BENCHMARK(BM_Textbook_BeadOnWire_2x1);
BENCHMARK(BM_Ours_Nonholonomic_3x1);
BENCHMARK(BM_Textbook_Nonholonomic_3x1);
BENCHMARK(BM_Ours_QuaternionSingular_4x1);
BENCHMARK(BM_Textbook_QuaternionSingular_4x1);

} // namespace

BENCHMARK_MAIN();
