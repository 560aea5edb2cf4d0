#include "model/ConstraintLabError.h"
#include "scenes/SceneRegistry.h"
#include "integrate/Simulator.h"
#include "scenes/Chain.h"

#include "../../support/SceneParameters.h"

#include <QtTest>

#include <Eigen/Eigenvalues>

#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <random>
#include <string>
#include <vector>

using namespace clab;

namespace {

ParameterValues chainValues(int links, int pinned, double length = 2.0, double mass = 1.0)
{
    return {{"links", {static_cast<double>(links)}},   {"length", {length}}, {"mass", {mass}},
            {"pinned", {static_cast<double>(pinned)}}, {"g", {9.81}},        {"omega0", {0.0}}};
}

/// The chain started at rest from a given shape (the scene's own start is fixed).
class ChainFrom : public Chain {
public:
    ChainFrom(const ParameterValues& values, Eigen::VectorXd q0) : Chain(values), q0_(std::move(q0))
    {
    }
    void initialState(Eigen::VectorXd& q0, Eigen::VectorXd& qd0) const override
    {
        q0 = q0_;
        qd0.setZero(q0_.size());
    }

private:
    Eigen::VectorXd q0_;
};

/// Independent reference: the linearized reduced model of a hanging chain of N equal bobs m on
/// links ℓ, in the horizontal displacements u of the bobs. Link i (from the top) carries the
/// N − i + 1 bobs below it, tension Tᵢ = (N − i + 1) m g, and m üᵢ = Tᵢ₊₁ (uᵢ₊₁ − uᵢ)/ℓ −
/// Tᵢ (uᵢ − uᵢ₋₁)/ℓ with u₀ = 0. Returns ω² (ascending) and the mode shapes.
Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> hangingChainModes(int N, double ell, double g)
{
    Eigen::MatrixXd S = Eigen::MatrixXd::Zero(N, N); // stiffness / m
    for (int i = 1; i <= N; ++i) {
        const double Ti = (N - i + 1) * g / ell; // Tᵢ / (m ℓ)
        S(i - 1, i - 1) += Ti;
        if (i > 1) {
            S(i - 2, i - 2) += Ti;
            S(i - 1, i - 2) -= Ti;
            S(i - 2, i - 1) -= Ti;
        }
    }
    return Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(S);
}

/// A hanging shape whose horizontal displacements are u (exactly on the constraints).
Eigen::VectorXd hangingShape(const Eigen::VectorXd& u, double ell)
{
    Eigen::VectorXd q(2 * u.size());
    double y = 0.0, previous = 0.0;
    for (Eigen::Index i = 0; i < u.size(); ++i) {
        const double dx = u[i] - previous;
        y -= std::sqrt(ell * ell - dx * dx);
        q[2 * i] = u[i];
        q[2 * i + 1] = y;
        previous = u[i];
    }
    return q;
}

/// The period of small swings of an N-link chain started at rest in the hanging shape with
/// horizontal displacements `shape`, measured over three periods of about `expected` from the
/// zero crossings of the simulated motion projected onto that shape.
double measuredPeriod(int links, const Eigen::VectorXd& shape, Simulator::SolvePath path,
                      double expected)
{
    const double length = 2.0;
    const ChainFrom chain(chainValues(links, 1, length), hangingShape(shape, length / links));
    Simulator simulator(chain, path);
    SimulationOptions options;
    options.tEnd = 3.0 * expected;
    options.dt = expected / 400.0;
    options.rtol = 1e-11;
    options.atol = 1e-14;
    const Trace trace = simulator.run(options);
    // Projection onto the mode: s(t) = shapeᵀ x(t) / shapeᵀ shape; its zero crossings.
    std::vector<double> crossings;
    double previous = 0.0, previousT = 0.0;
    for (std::size_t k = 0; k < trace.samples.size(); ++k) {
        const TraceSample& sample = trace.samples[k];
        double s = 0.0;
        for (int i = 0; i < links; ++i)
            s += shape[i] * sample.q[2 * i];
        if (k > 0 && (previous > 0.0) != (s > 0.0))
            crossings.push_back(previousT + (sample.t - previousT) * previous / (previous - s));
        previous = s;
        previousT = sample.t;
    }
    if (crossings.size() < 5)
        return std::numeric_limits<double>::quiet_NaN();
    return 2.0 * (crossings.back() - crossings.front()) / static_cast<double>(crossings.size() - 1);
}

} // namespace

class TestChain : public QObject {
    Q_OBJECT

private slots:
    // Users' scripts and scene files name these parameters: renaming one breaks them.
    void parametersKeepTheirNamesAndUnits()
    {
        const SceneDefinition d = Chain::definition();
        QCOMPARE(testing::namesAndUnits(d), (testing::NamesAndUnits{{"links", ""},
                                                                    {"length", "m"},
                                                                    {"mass", "kg"},
                                                                    {"pinned", ""},
                                                                    {"g", "m/s²"},
                                                                    {"omega0", "rad/s"}}));
    }

    void startsOnItsConstraints_data()
    {
        QTest::addColumn<int>("links");
        QTest::addColumn<int>("pinned");
        for (int links : {1, 2, 7, 40})
            QTest::addRow("%d links, one end", links) << links << 1;
        for (int links : {2, 3, 7, 40})
            QTest::addRow("%d links, both ends", links) << links << 2;
    }
    void startsOnItsConstraints()
    {
        QFETCH(int, links);
        QFETCH(int, pinned);
        // Spinning: with both ends pinned only the part of the spin the pivots allow is kept.
        ParameterValues values = chainValues(links, pinned);
        values["omega0"] = {0.7};
        const Chain chain(values);
        Eigen::VectorXd q, qd, r;
        chain.initialState(q, qd);
        chain.constraintResiduals(q, qd, 0.0, r);
        QVERIFY(r.lpNorm<Eigen::Infinity>() <= 1e-14);
        QVERIFY(qd.norm() > 0.0 || links == 2); // two links between two pivots cannot move
        if (pinned == 2)
            QCOMPARE(chain.span(), 1.0); // half the length
        QCOMPARE(static_cast<int>(chain.coordinateNames().size()), 2 * links);
        QCOMPARE(chain.coordinateNames().back(), "y" + std::to_string(links));
    }

    // The same chain, in the same moving state, solved on both paths.
    void sparseAndDensePathsAgree_data()
    {
        QTest::addColumn<int>("links");
        QTest::addColumn<int>("pinned");
        for (int links : {3, 25, 80})
            for (int pinned : {1, 2})
                QTest::addRow("%d links, %d pinned", links, pinned) << links << pinned;
    }
    void sparseAndDensePathsAgree()
    {
        QFETCH(int, links);
        QFETCH(int, pinned);
        const Chain chain(chainValues(links, pinned));
        Simulator dense(chain, Simulator::SolvePath::Dense);
        Simulator sparse(chain, Simulator::SolvePath::Sparse);
        QVERIFY(!dense.usesSparsePath());
        QVERIFY(sparse.usesSparsePath());
        Eigen::VectorXd q, qd;
        chain.initialState(q, qd);
        std::mt19937 gen(static_cast<std::uint32_t>(links));
        for (Eigen::Index i = 0; i < qd.size(); ++i)
            qd[i] = (static_cast<double>(gen()) / 4294967296.0 - 0.5);
        Eigen::VectorXd Qd, Qs;
        ConstrainedAcceleration d, s;
        dense.evaluate(q, qd, 0.0, Qd, d);
        sparse.evaluate(q, qd, 0.0, Qs, s);
        const double tol = 1e-10;
        QVERIFY((s.qdd - d.qdd).norm() <= tol * d.qdd.norm());
        QVERIFY((s.Qci - d.Qci).norm() <= tol * d.Qci.norm());
        QVERIFY((s.lambda - d.lambda).norm() <= tol * d.lambda.norm());
        // And over a short run, projection included.
        SimulationOptions options;
        options.tEnd = 0.2;
        options.dt = 0.05;
        const Trace td = dense.run(options), ts = sparse.run(options);
        QCOMPARE(ts.samples.size(), td.samples.size());
        const auto& a = ts.samples.back();
        const auto& b = td.samples.back();
        QVERIFY((a.q - b.q).norm() <= 1e-7 * b.q.norm());
        QVERIFY(std::abs(a.E_error) <= 1e-8 * chain.bobMass() * links * 9.81 * 2.0);
    }

    // Baumgarte's terms enter b the same way on both paths.
    void baumgarteStabilizationAgreesOnBothPaths()
    {
        const Chain chain(chainValues(30, 2));
        SimulationOptions options;
        options.tEnd = 0.3;
        options.dt = 0.1;
        options.stabilization = Stabilization::Baumgarte;
        const Trace dense = Simulator(chain, Simulator::SolvePath::Dense).run(options);
        const Trace sparse = Simulator(chain, Simulator::SolvePath::Sparse).run(options);
        const auto& a = sparse.samples.back();
        const auto& b = dense.samples.back();
        QVERIFY((a.q - b.q).norm() <= 1e-7 * b.q.norm());
        QVERIFY((a.Qci - b.Qci).norm() <= 1e-6 * b.Qci.norm());
        QVERIFY(a.residualMax <= 1e-6);
    }

    void largeChainsTakeTheSparsePath()
    {
        const Chain small(chainValues(5, 1)), large(chainValues(100, 1));
        QVERIFY(!Simulator(small).usesSparsePath());
        QVERIFY(Simulator(large).usesSparsePath());
    }

    // Small swings about the hanging shape are the normal modes of the discrete chain: the
    // period measured on the full constrained simulation against √ of the eigenvalues of the
    // linearized reduced model.
    void normalModeFrequenciesMatchDiscreteChain_data()
    {
        QTest::addColumn<int>("links");
        QTest::addColumn<int>("mode");
        QTest::addColumn<int>("pathInt");
        QTest::addRow("6 links, mode 1, dense") << 6 << 0 << 0;
        QTest::addRow("6 links, mode 3, dense") << 6 << 2 << 0;
        QTest::addRow("24 links, mode 1, sparse") << 24 << 0 << 1;
        QTest::addRow("24 links, mode 2, sparse") << 24 << 1 << 1;
    }
    void normalModeFrequenciesMatchDiscreteChain()
    {
        QFETCH(int, links);
        QFETCH(int, mode);
        QFETCH(int, pathInt);
        const double length = 2.0, ell = length / links, g = 9.81;
        const auto modes = hangingChainModes(links, ell, g);
        const double omega = std::sqrt(modes.eigenvalues()[mode]);
        Eigen::VectorXd shape = modes.eigenvectors().col(mode);
        shape *= 1e-4 * length / shape.lpNorm<Eigen::Infinity>();
        const double period = 2.0 * std::numbers::pi / omega;
        const double measured = measuredPeriod(
            links, shape, pathInt == 1 ? Simulator::SolvePath::Sparse : Simulator::SolvePath::Dense,
            period);
        qInfo("ω = %.9f rad/s from the reduced model, %.9f from the simulation", omega,
              2.0 * std::numbers::pi / measured);
        QVERIFY(std::abs(measured - period) <= 1e-5 * period);
    }

    // The continuous limit: a uniform hanging chain of length L swings in the modes
    // ωₖ = (j₀,ₖ / 2) √(g / L), j₀,ₖ the zeros of the Bessel function J₀. The simulated chain
    // of N point masses tends to them at first order in 1/N: its error about halves with each
    // doubling of N, and the extrapolation 2 ω(2N) − ω(N) lands on the continuum.
    void normalModesTendToTheContinuousChainsBesselFrequencies()
    {
        const double length = 2.0, g = 9.81;
        const double besselZeros[2] = {2.404825557695773, 5.520078110286311};
        for (int mode = 0; mode < 2; ++mode) {
            const double continuous = 0.5 * besselZeros[mode] * std::sqrt(g / length);
            double previousError = 0.0;
            double previousOmega = 0.0;
            double extrapolated = 0.0;
            for (int links : {12, 24, 48}) {
                const double ell = length / links;
                const auto modes = hangingChainModes(links, ell, g);
                Eigen::VectorXd shape = modes.eigenvectors().col(mode);
                shape *= 1e-4 * length / shape.lpNorm<Eigen::Infinity>();
                const double measured = measuredPeriod(links, shape, Simulator::SolvePath::Sparse,
                                                       2.0 * std::numbers::pi / continuous);
                const double omega = 2.0 * std::numbers::pi / measured;
                const double error = std::abs(omega - continuous) / continuous;
                qInfo("mode %d, %d links: ω = %.6f rad/s, continuum %.6f, relative error %.3e",
                      mode + 1, links, omega, continuous, error);
                if (previousError > 0.0)
                    QVERIFY2(error <= previousError / 1.8,
                             qPrintable(QStringLiteral("mode %1: %2 links give %3, half as many "
                                                       "gave %4")
                                            .arg(mode + 1)
                                            .arg(links)
                                            .arg(error)
                                            .arg(previousError)));
                extrapolated = 2.0 * omega - previousOmega;
                previousError = error;
                previousOmega = omega;
            }
            qInfo("mode %d extrapolated: %.6f rad/s", mode + 1, extrapolated);
            QVERIFY(std::abs(extrapolated - continuous) <= 1e-3 * continuous);
        }
    }

    // Without friction nothing but gravity and the ideal link forces act: E stays E(0).
    void energyIsConservedWithoutFriction_data()
    {
        QTest::addColumn<int>("links");
        QTest::addColumn<int>("pinned");
        QTest::addRow("12 links from horizontal") << 12 << 1;
        QTest::addRow("60 links from horizontal") << 60 << 1;
        QTest::addRow("60 links, both ends") << 60 << 2;
    }
    void energyIsConservedWithoutFriction()
    {
        QFETCH(int, links);
        QFETCH(int, pinned);
        const Chain chain(chainValues(links, pinned));
        Simulator simulator(chain);
        SimulationOptions options;
        options.tEnd = 0.5;
        options.dt = 0.05;
        options.rtol = 1e-8;
        options.atol = 1e-11;
        const Trace trace = simulator.run(options);
        const double scale = 1.0 * 9.81 * 2.0; // m g L
        double worstEnergy = 0.0, worstResidual = 0.0, drop = 0.0;
        for (const TraceSample& s : trace.samples) {
            worstEnergy = std::max(worstEnergy, std::abs(s.E - trace.samples.front().E));
            worstResidual = std::max(worstResidual, s.residualMax);
            drop = std::max(drop, std::abs(s.V - trace.samples.front().V));
        }
        qInfo("|E − E(0)| ≤ %.3g J, residual ≤ %.3g, |ΔV| up to %.3g J", worstEnergy, worstResidual,
              drop);
        QVERIFY(drop > 0.01 * scale); // the chain did move
        QVERIFY(worstEnergy <= 1e-6 * scale);
        QVERIFY(worstResidual <= 1e-9);
    }

    void badParametersAreNamed()
    {
        try {
            Chain chain(chainValues(2, 1));
            ParameterValues v = chainValues(2, 1);
            v["links"] = {2.5};
            Chain bad(v);
            QFAIL("2.5 links were accepted");
        } catch (const ConstraintLabError& e) {
            QVERIFY(std::string(e.what()).find("'links'") != std::string::npos);
            QVERIFY(std::string(e.what()).find("whole number") != std::string::npos);
        }
        try {
            Chain bad(chainValues(1, 2));
            QFAIL("one link pinned at both ends was accepted");
        } catch (const ConstraintLabError& e) {
            QVERIFY(std::string(e.what()).find("at least 2 links") != std::string::npos);
        }
        const SceneDefinition* definition = SceneRegistry::find("chain");
        QVERIFY(definition);
        QVERIFY_THROWS_EXCEPTION(ConstraintLabError, definition->create({{"links", {20000.0}}}));
    }
};

QTEST_APPLESS_MAIN(TestChain)
#include "tst_Chain.moc"
