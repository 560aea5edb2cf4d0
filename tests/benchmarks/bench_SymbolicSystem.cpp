// Systems written as equations against hand-coded ones, in one run (compare the ratios):
// one acceleration evaluation (M, Q, A, b, the friction terms and the fundamental equation) of
// the bead on a wire, file form vs BeadOnWire; the double pendulum, file form (Cartesian, two
// rods) vs its closed form in angles and vs the same Cartesian form coded by hand; and the cost of
// loading a system: parse, differentiate and compile a pendulum chain of 10 rods.
#include "scenes/SceneRegistry.h"
#include "solve/FundamentalEquation.h"
#include "symbolic/SymbolicModel.h"

#include "../support/SystemDescriptions.h"

#include <benchmark/benchmark.h>

#include <cmath>
#include <string>

namespace {

using namespace clab;
using Kind = SystemDescription::Constraint::Kind;
using P = SystemDescription::Parameter;

SystemDescription bead()
{
    SystemDescription d;
    d.coordinates = {{"x"}, {"y"}};
    d.parameters = {P::plain("mass", 1), P::plain("g", 9.81),   P::plain("angle_deg", 30),
                    P::plain("mu", 0.2), P::plain("mu_s", 0.2), P::plain("s0", 2)};
    d.masses = {"mass", "mass"};
    d.potentialEnergy = "mass*g*y";
    d.constraints = {
        {"wire", Kind::Holonomic, "-x*sin(angle_deg*pi/180) + y*cos(angle_deg*pi/180)"}};
    d.friction = {{"bead",
                   {"x_dot*cos(angle_deg*pi/180) + y_dot*sin(angle_deg*pi/180)"},
                   {"wire"},
                   "mu",
                   "mu_s",
                   ""}};
    d.initial = {{"x", "s0*cos(angle_deg*pi/180)"}, {"y", "s0*sin(angle_deg*pi/180)"}};
    return d;
}

// m = 1 and l = 0.5 on each rod, as the hand-coded pendulums below.
SystemDescription pendulumChain(int links)
{
    return test::pendulumChain(links, 0.5 * links, 1.0 * links);
}

// One right-hand side of the simulator for a sliding contact: the system's terms, the ideal
// phase, the friction and the non-ideal phase.
void accelerate(const MechanicalSystem& s, FundamentalEquation& fe, const Eigen::VectorXd& q,
                const Eigen::VectorXd& qd, Eigen::MatrixXd& M, Eigen::VectorXd& Q,
                Eigen::MatrixXd& A, Eigen::VectorXd& b, Eigen::MatrixXd& G, Eigen::VectorXd& gamma,
                Eigen::VectorXd& C, ConstrainedAcceleration& out)
{
    s.massMatrix(q, 0.0, M);
    s.givenForce(q, qd, 0.0, Q);
    s.constraintMatrix(q, qd, 0.0, A, b);
    fe.solveIdeal(M, Q, A, b, out);
    if (s.contactCount() > 0) {
        s.slipJacobian(0, q, qd, 0.0, G, gamma);
        const double f = s.kineticFrictionForce(0, q, qd, 0.0, out.Qci);
        C.noalias() = -f * G.row(0).transpose();
    } else {
        C.setZero();
    }
    fe.addNonIdeal(C, out);
}

void runAcceleration(benchmark::State& state, const MechanicalSystem& system)
{
    const int n = system.dof(), m = system.constraintCount();
    FundamentalEquation fe(n, m);
    Eigen::VectorXd q(n), qd(n), Q(n), b(m), gamma(1), C(n);
    Eigen::MatrixXd M(n, n), A(m, n), G(1, n);
    ConstrainedAcceleration out;
    out.resize(n, m);
    system.initialState(q, qd);
    qd.setConstant(-0.3);
    for (auto _ : state) {
        accelerate(system, fe, q, qd, M, Q, A, b, G, gamma, C, out);
        benchmark::DoNotOptimize(out.qdd.data());
    }
}

void BM_BeadAcceleration_HandCoded(benchmark::State& state)
{
    const auto system = SceneRegistry::find("bead-on-wire")->create({});
    runAcceleration(state, *system);
}
BENCHMARK(BM_BeadAcceleration_HandCoded);

void BM_BeadAcceleration_FromEquations(benchmark::State& state)
{
    const auto model = SymbolicModel::create(bead());
    const auto system = model->definition().create({});
    runAcceleration(state, *system);
}
BENCHMARK(BM_BeadAcceleration_FromEquations);

void BM_DoublePendulumAcceleration_ClosedFormInAngles(benchmark::State& state)
{
    const double m1 = 1, m2 = 1, l1 = 1, l2 = 0.7, g = 9.81;
    double th1 = 0.4, th2 = -0.3, w1 = 0.7, w2 = -1.1;
    for (auto _ : state) {
        const double d = th1 - th2, c = std::cos(d), s = std::sin(d);
        const double a11 = (m1 + m2) * l1 * l1, a12 = m2 * l1 * l2 * c, a22 = m2 * l2 * l2;
        const double f1 = -m2 * l1 * l2 * s * w2 * w2 - (m1 + m2) * g * l1 * std::sin(th1);
        const double f2 = m2 * l1 * l2 * s * w1 * w1 - m2 * g * l2 * std::sin(th2);
        const double det = a11 * a22 - a12 * a12;
        double acc1 = (a22 * f1 - a12 * f2) / det, acc2 = (a11 * f2 - a12 * f1) / det;
        benchmark::DoNotOptimize(acc1);
        benchmark::DoNotOptimize(acc2);
        benchmark::DoNotOptimize(th1);
    }
}
BENCHMARK(BM_DoublePendulumAcceleration_ClosedFormInAngles);

// The same Cartesian double pendulum written by hand in C++: what the file form costs over
// hand-written M, Q, A and b through the same fundamental equation.
class HandCodedDoublePendulum : public MechanicalSystem {
public:
    int dof() const override { return 4; }
    int constraintCount() const override { return 2; }
    std::vector<std::string> coordinateNames() const override { return {"x1", "y1", "x2", "y2"}; }
    void massMatrix(const Eigen::VectorXd&, double, Eigen::MatrixXd& M) const override
    {
        M.setZero(4, 4);
        M.diagonal() << m1_, m1_, m2_, m2_;
    }
    void givenForce(const Eigen::VectorXd&, const Eigen::VectorXd&, double,
                    Eigen::VectorXd& Q) const override
    {
        Q << 0.0, -m1_ * g_, 0.0, -m2_ * g_;
    }
    void constraintMatrix(const Eigen::VectorXd& q, const Eigen::VectorXd& v, double,
                          Eigen::MatrixXd& A, Eigen::VectorXd& b) const override
    {
        const double dx = q[2] - q[0], dy = q[3] - q[1], du = v[2] - v[0], dw = v[3] - v[1];
        A << 2 * q[0], 2 * q[1], 0, 0, -2 * dx, -2 * dy, 2 * dx, 2 * dy;
        b << -2 * (v[0] * v[0] + v[1] * v[1]), -2 * (du * du + dw * dw);
    }
    int residualCount() const override { return 0; }
    void constraintResiduals(const Eigen::VectorXd&, const Eigen::VectorXd&, double,
                             Eigen::VectorXd&) const override
    {
    }
    double potentialEnergy(const Eigen::VectorXd& q, double) const override
    {
        return g_ * (m1_ * q[1] + m2_ * q[3]);
    }
    void initialState(Eigen::VectorXd& q0, Eigen::VectorXd& qd0) const override
    {
        q0 << 0.5, 0.0, 1.0, 0.0;
        qd0.setZero(4);
    }

private:
    double m1_ = 1, m2_ = 1, g_ = 9.81;
};

void BM_DoublePendulumAcceleration_HandCodedCartesian(benchmark::State& state)
{
    const HandCodedDoublePendulum system;
    runAcceleration(state, system);
}
BENCHMARK(BM_DoublePendulumAcceleration_HandCodedCartesian);

void BM_DoublePendulumAcceleration_FromEquations(benchmark::State& state)
{
    const auto model = SymbolicModel::create(pendulumChain(2));
    const auto system = model->definition().create({});
    runAcceleration(state, *system);
}
BENCHMARK(BM_DoublePendulumAcceleration_FromEquations);

void BM_LoadAndDerive_PendulumChain(benchmark::State& state)
{
    const SystemDescription d = pendulumChain(static_cast<int>(state.range(0)));
    for (auto _ : state) {
        const auto model = SymbolicModel::create(d);
        benchmark::DoNotOptimize(model.get());
    }
}
BENCHMARK(BM_LoadAndDerive_PendulumChain)->Arg(2)->Arg(10)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
