#include "model/ConstraintLabError.h"
#include "scenes/SceneRegistry.h"
#include "integrate/Simulator.h"
#include "scenes/SlidingChain.h"

#include "../../support/SceneParameters.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>
#include <string>
#include <tuple>
#include <utility>

using namespace clab;

namespace {

ParameterValues chainValues(int links, double mu, double overhang, double edge = 0.03,
                            double length = 2.0, double v0 = 0.0)
{
    return {{"links", {static_cast<double>(links)}},
            {"length", {length}},
            {"mass", {1.0}},
            {"mu", {mu}},
            {"overhang", {overhang}},
            {"edge", {edge}},
            {"v0", {v0}},
            {"g", {9.81}}};
}

/// Independent reference: the chain as one degree of freedom, the path coordinate s of its
/// first bob (bob i + 1 at s − i ℓ). Every bob moves along
/// the path at the same speed, so T = ½ m ṡ² and m s̈ is gravity's pull along the path,
/// (m/N) g Σ sin(slope at bob i), minus kinetic friction μ (m/N) g on each bob on the table
/// while the chain slides forward. Integrated by classical RK4 with a fixed small step.
class ReducedChain {
public:
    ReducedChain(int links, double length, double mu, double edge, double g)
        : n_(links), ell_(length / links), mu_(mu), edge_(edge), g_(g)
    {
    }

    /// s̈ with the first bob at s (moving forward) and `onTable` bobs on the table.
    double acceleration(double s, int onTable) const
    {
        double pull = 0.0;
        for (int i = 0; i < n_; ++i) {
            const double si = s - i * ell_;
            if (si <= 0.0)
                continue;
            pull += si < 0.5 * std::numbers::pi * edge_ ? std::sin(si / edge_) : 1.0;
        }
        return g_ * (pull - mu_ * onTable) / n_;
    }
    int onTable(double s) const
    {
        int count = 0;
        for (int i = 0; i < n_; ++i)
            count += s - i * ell_ <= 0.0 ? 1 : 0;
        return count;
    }

    /// Hanging length at s (each bob stands for ℓ of chain about it).
    double hanging(double s) const
    {
        double sum = 0.0;
        for (int i = 0; i < n_; ++i)
            sum += std::clamp(s - i * ell_ + 0.5 * ell_, 0.0, ell_);
        return sum;
    }

    /// (s, ṡ) after time t from (s0, v0), with steps of at most h. Friction changes by a jump
    /// when a bob leaves the table: a step that would cross one is cut where it does (bisection),
    /// so RK4 never steps over the jump.
    std::pair<double, double> advance(double s0, double v0, double t, double h) const
    {
        double s = s0, v = v0, time = 0.0;
        int count = onTable(s0);
        while (time < t) {
            const double dt = std::min(h, t - time);
            auto [s1, v1] = step(s, v, dt, count);
            if (count > 0 && s1 > (n_ - count) * ell_) {
                // Bob n − count (0-based) reaches s = 0 when the first is at (n − count) ℓ.
                const double edge = (n_ - count) * ell_;
                double lo = 0.0, hi = dt;
                for (int k = 0; k < 80; ++k) {
                    const double mid = 0.5 * (lo + hi);
                    (step(s, v, mid, count).first < edge ? lo : hi) = mid;
                }
                std::tie(s1, v1) = step(s, v, hi, count);
                --count;
                time += hi;
            } else {
                time += dt;
            }
            s = s1;
            v = v1;
        }
        return {s, v};
    }

private:
    std::pair<double, double> step(double s, double v, double dt, int count) const
    {
        const double a1 = acceleration(s, count);
        const double a2 = acceleration(s + 0.5 * dt * v, count);
        const double a3 = acceleration(s + 0.5 * dt * (v + 0.5 * dt * a1), count);
        const double a4 = acceleration(s + dt * (v + 0.5 * dt * a2), count);
        return {s + dt * (v + dt * (a1 + a2 + a3) / 6.0),
                v + dt * (a1 + 2.0 * a2 + 2.0 * a3 + a4) / 6.0};
    }

    int n_;
    double ell_, mu_, edge_, g_;
};

double pathCoordinateOfFirstBob(const SlidingChain& chain, const Eigen::VectorXd& q)
{
    return chain.pathCoordinate(q.head<2>());
}

Trace runFor(const SlidingChain& chain, double tEnd, double dt, bool stopAtEnd = false,
             Simulator::SolvePath path = Simulator::SolvePath::Automatic, double rtol = 1e-10)
{
    Simulator simulator(chain, path);
    SimulationOptions options;
    options.tEnd = tEnd;
    options.dt = dt;
    options.rtol = rtol;
    options.atol = 1e-3 * rtol;
    options.stopAtEnd = stopAtEnd;
    return simulator.run(options);
}

} // namespace

class TestSlidingChain : public QObject {
    Q_OBJECT

private slots:
    // Users' scripts and scene files name these parameters: renaming one breaks them.
    void parametersKeepTheirNamesAndUnits()
    {
        QCOMPARE(testing::namesAndUnits(SlidingChain::definition()),
                 (testing::NamesAndUnits{{"links", ""},
                                         {"length", "m"},
                                         {"mass", "kg"},
                                         {"mu", ""},
                                         {"overhang", "m"},
                                         {"edge", "m"},
                                         {"v0", "m/s"},
                                         {"g", "m/s²"}}));
    }

    // The path: continuous with a continuous unit tangent through the edge, and s(p(s)) = s.
    void pathIsSmoothAndItsCoordinateInvertsIt()
    {
        const SlidingChain chain(chainValues(10, 0.0, 0.5, 0.1));
        const double quarter = 0.5 * std::numbers::pi * 0.1;
        for (double s :
             {-1.0, -1e-9, 0.0, 1e-9, 0.05, quarter - 1e-9, quarter, quarter + 1e-9, 0.7}) {
            QVERIFY(std::abs(chain.pathCoordinate(chain.pathPoint(s)) - s) <= 1e-12);
            QVERIFY(std::abs(chain.pathTangent(s).norm() - 1.0) <= 1e-14);
            const double h = 1e-7;
            const Eigen::Vector2d slope =
                (chain.pathPoint(s + h) - chain.pathPoint(s - h)) / (2.0 * h);
            QVERIFY((slope - chain.pathTangent(s)).norm() <= 1e-6);
        }
    }

    void startsOnItsConstraints_data()
    {
        QTest::addColumn<int>("links");
        QTest::addColumn<double>("overhang");
        QTest::addColumn<double>("v0");
        QTest::addRow("2 pieces, none over") << 2 << 0.0 << 0.0;
        QTest::addRow("7 pieces, bobs on the edge") << 7 << 0.3 << 1.0;
        QTest::addRow("40 pieces, over the side") << 40 << 0.5 << 0.5;
        QTest::addRow("40 pieces, all hanging") << 40 << 2.0 << 0.0;
    }
    void startsOnItsConstraints()
    {
        QFETCH(int, links);
        QFETCH(double, overhang);
        QFETCH(double, v0);
        const SlidingChain chain(chainValues(links, 0.2, overhang, 0.1, 2.0, v0));
        Eigen::VectorXd q, qd, r;
        chain.initialState(q, qd);
        chain.constraintResiduals(q, qd, 0.0, r);
        QVERIFY(r.lpNorm<Eigen::Infinity>() <= 1e-14);
        QVERIFY(std::abs(chain.hangingLength(q) - overhang) <= 1e-14);
        QVERIFY(std::abs(chain.pathSpeed(q, qd) - v0) <= 1e-14);
        QCOMPARE(chain.coordinateNames().back(), "y" + std::to_string(links));
    }

    // The same chain, in the same moving state, on both paths; with friction (its normal force
    // from the ideal phase, its share removed by the non-ideal phase) and without.
    void sparseAndDensePathsAgree_data()
    {
        QTest::addColumn<int>("links");
        QTest::addColumn<double>("mu");
        for (int links : {12, 60})
            for (double mu : {0.0, 0.4})
                QTest::addRow("%d pieces, mu %g", links, mu) << links << mu;
    }
    void sparseAndDensePathsAgree()
    {
        QFETCH(int, links);
        QFETCH(double, mu);
        const SlidingChain chain(chainValues(links, mu, 0.6, 0.2, 2.0, 1.5));
        Simulator dense(chain, Simulator::SolvePath::Dense);
        Simulator sparse(chain, Simulator::SolvePath::Sparse);
        Eigen::VectorXd q, qd, Qd, Qs;
        chain.initialState(q, qd);
        ConstrainedAcceleration d, s;
        dense.evaluate(q, qd, 0.0, Qd, d);
        sparse.evaluate(q, qd, 0.0, Qs, s);
        const double tol = 1e-10;
        QVERIFY((s.qdd - d.qdd).norm() <= tol * d.qdd.norm());
        QVERIFY((s.Qci - d.Qci).norm() <= tol * d.Qci.norm());
        QVERIFY((s.Qcni - d.Qcni).norm() <= tol * std::max(1.0, d.Qcni.norm()));
        QCOMPARE(d.Qcni.norm() > 0.1, mu > 0.0);
        if (links > 12)
            return; // the dense path's runs are slow at 120 coordinates
        const Trace td = runFor(chain, 0.2, 0.05, false, Simulator::SolvePath::Dense, 1e-8);
        const Trace ts = runFor(chain, 0.2, 0.05, false, Simulator::SolvePath::Sparse, 1e-8);
        QCOMPARE(ts.samples.size(), td.samples.size());
        QVERIFY((ts.samples.back().q - td.samples.back().q).norm() <=
                1e-8 * td.samples.back().q.norm());
    }

    // The full constrained simulation (2N coordinates, 2N − 1 constraints) against the
    // one-coordinate model of the same discrete chain.
    void followsTheReducedPathModel_data()
    {
        QTest::addColumn<int>("links");
        QTest::addColumn<double>("mu");
        QTest::addRow("8 pieces, frictionless") << 8 << 0.0;
        QTest::addRow("8 pieces, mu 0.3") << 8 << 0.3;
        QTest::addRow("30 pieces, mu 0.15") << 30 << 0.15;
    }
    void followsTheReducedPathModel()
    {
        QFETCH(int, links);
        QFETCH(double, mu);
        const double length = 2.0, edge = 0.2, overhang = 0.9;
        const SlidingChain chain(chainValues(links, mu, overhang, edge, length));
        const Trace trace = runFor(chain, 0.8, 0.1);
        const ReducedChain reduced(links, length, mu, edge, 9.81);
        const double s0 = overhang - 0.5 * length / links;
        double worst = 0.0;
        for (const TraceSample& sample : trace.samples) {
            const auto [s, v] = reduced.advance(s0, 0.0, sample.t, 2e-5);
            const auto [sHalf, vHalf] = reduced.advance(s0, 0.0, sample.t, 1e-5);
            QVERIFY(std::abs(sHalf - s) <= 1e-9); // the reference is converged
            worst = std::max(worst, std::abs(pathCoordinateOfFirstBob(chain, sample.q) - s));
            QVERIFY(std::abs(chain.pathSpeed(sample.q, sample.qd) - v) <= 1e-7 * (1.0 + v));
        }
        qInfo("largest |s − s_reduced| = %.3g m", worst);
        QVERIFY(worst <= 1e-8);
        QVERIFY(pathCoordinateOfFirstBob(chain, trace.samples.back().q) > s0 + 0.3); // it moved
    }

    // For many pieces and a sharp edge the chain approaches the continuous chain of the
    // textbook: hanging length x with L ẍ = g (x − μ (L − x)), so from rest
    // x(t) = x* + (x₀ − x*) cosh(√((1 + μ) g / L) t), x* = μ L / (1 + μ).
    void approachesTheContinuousChainsClosedForm_data()
    {
        QTest::addColumn<double>("mu");
        QTest::addRow("frictionless: x0 cosh(sqrt(g/L) t)") << 0.0;
        QTest::addRow("mu 0.25") << 0.25;
    }
    void approachesTheContinuousChainsClosedForm()
    {
        QFETCH(double, mu);
        const double length = 2.0, g = 9.81, x0 = 0.7;
        const double omega = std::sqrt((1.0 + mu) * g / length), xStar = mu * length / (1.0 + mu);
        for (int links : {100, 200}) {
            const SlidingChain chain(chainValues(links, mu, x0, 1e-3, length));
            const Trace trace =
                runFor(chain, 0.6, 0.05, false, Simulator::SolvePath::Automatic, 1e-8);
            double worst = 0.0;
            for (const TraceSample& s : trace.samples) {
                const double closed = xStar + (x0 - xStar) * std::cosh(omega * s.t);
                worst = std::max(worst, std::abs(s.extra[0] - closed) / closed);
            }
            qInfo("N = %d: largest relative error of the hanging length %.3g (%zu steps, %zu "
                  "rejected)",
                  links, worst, trace.stats.acceptedSteps, trace.stats.rejectedSteps);
            QVERIFY(trace.samples.back().extra[0] > 1.5 * x0); // well under way
            QVERIFY(worst <= 1.5e-3);
        }
    }

    // Static friction: below x* the pull of the overhang is within μ times the weight on the
    // table and the chain stays; above it, it slides.
    void staticFrictionHoldsAShortOverhang_data()
    {
        QTest::addColumn<double>("fraction"); // of the continuum threshold x*
        QTest::addColumn<bool>("slides");
        QTest::addRow("0.8 x*: held") << 0.8 << false;
        QTest::addRow("1.2 x*: slides") << 1.2 << true;
    }
    void staticFrictionHoldsAShortOverhang()
    {
        QFETCH(double, fraction);
        QFETCH(bool, slides);
        const double length = 2.0, mu = 0.4, xStar = mu * length / (1.0 + mu);
        const SlidingChain chain(chainValues(50, mu, fraction * xStar, 0.01, length));
        const Trace trace = runFor(chain, 2.0, 0.1, false, Simulator::SolvePath::Automatic, 1e-8);
        const double moved = trace.samples.back().extra[0] - trace.samples.front().extra[0];
        qInfo("hanging length changed by %.3g m in 2 s", moved);
        if (slides) {
            QVERIFY(moved > 0.1);
        } else {
            QVERIFY(std::abs(moved) <= 1e-9);
            // The table holds it with static friction: a force against the pull, within μN.
            const TraceSample& last = trace.samples.back();
            double friction = 0.0;
            for (int i = 0; i < chain.links(); ++i)
                if (last.q[2 * i] <= 0.0)
                    friction += last.Qcni[2 * i];
            QVERIFY(friction < 0.0);
        }
    }

    // Energy: conserved without friction; with it, E(0) − E(t) is the work friction did.
    void energyBalances_data()
    {
        QTest::addColumn<double>("mu");
        QTest::addRow("frictionless") << 0.0;
        QTest::addRow("mu 0.3") << 0.3;
    }
    void energyBalances()
    {
        QFETCH(double, mu);
        const SlidingChain chain(chainValues(40, mu, 0.9, 0.05));
        const Trace trace = runFor(chain, 1.0, 0.05, true);
        const double scale = 1.0 * 9.81 * 2.0; // m g L
        double worst = 0.0, residual = 0.0;
        for (const TraceSample& s : trace.samples) {
            worst = std::max(worst, std::abs(s.E_error));
            residual = std::max(residual, s.residualMax);
        }
        const TraceSample& last = trace.samples.back();
        qInfo("|E_error| ≤ %.3g J, friction work %.4g J, residual ≤ %.3g", worst, last.W_nonideal,
              residual);
        QVERIFY(worst <= 1e-7 * scale);
        QVERIFY(residual <= 1e-9);
        if (mu > 0.0)
            QVERIFY(last.W_nonideal < -0.02 * scale);
        else
            QVERIFY(std::abs(last.W_nonideal) <= 1e-9 * scale);
        QVERIFY(std::abs(last.E - trace.samples.front().E - last.W_nonideal) <= 1e-7 * scale);
    }

    // With stop-at-end the run ends where the last piece reaches the edge; the reduced model
    // says when.
    void runEndsWhenTheChainLeavesTheTable()
    {
        const int links = 10;
        const double length = 2.0, edge = 0.2, overhang = 1.0;
        const SlidingChain chain(chainValues(links, 0.1, overhang, edge, length));
        const Trace trace = runFor(chain, 10.0, 0.01, true);
        const TraceSample& last = trace.samples.back();
        QVERIFY(last.t < 5.0);
        QVERIFY(std::abs(chain.endFunction(last.q, last.qd, last.t)) <= 1e-9);
        // The last bob at s = 0 puts the first at (N − 1) ℓ: where the reduced model has it then.
        const ReducedChain reduced(links, length, 0.1, edge, 9.81);
        const double s0 = overhang - 0.5 * length / links, target = (links - 1) * length / links;
        const auto [sEnd, vEnd] = reduced.advance(s0, 0.0, last.t, 1e-5);
        QVERIFY(std::abs(sEnd - target) <= 1e-7 * (1.0 + vEnd));
    }

    // A bob's acceleration jumps by v²/R where it enters or leaves the edge: each of those
    // moments is located and the integrator restarted there (one restart per border crossed),
    // instead of the error control refusing step after step across the jump.
    void everyEdgeCrossingIsLocated()
    {
        const SlidingChain chain(chainValues(12, 0.2, 0.8, 0.15));
        const Trace trace = runFor(chain, 3.0, 0.05, true);
        const double quarter = 0.5 * std::numbers::pi * 0.15;
        int crossings = 0;
        for (int i = 0; i < chain.links(); ++i) {
            const double from = chain.pathCoordinate(trace.samples.front().q.segment<2>(2 * i));
            const double to = chain.pathCoordinate(trace.samples.back().q.segment<2>(2 * i));
            crossings += (from <= 0.0 && to > 0.0 ? 1 : 0) + (from < quarter && to >= quarter);
        }
        const RunStats& stats = trace.stats;
        qInfo("%d crossings; %s", crossings, stats.summary().c_str());
        QVERIFY(crossings >= 12);
        // The last crossing (the last bob leaving the table) ends the run instead.
        QCOMPARE(static_cast<int>(stats.restarts - stats.projections), crossings - 1);
        QVERIFY(stats.rejectedSteps < stats.acceptedSteps);
        QVERIFY(trace.reachedEnd);
    }

    void longChainsTakeTheSparsePath()
    {
        QVERIFY(!Simulator(SlidingChain(chainValues(5, 0.3, 0.5))).usesSparsePath());
        QVERIFY(Simulator(SlidingChain(chainValues(200, 0.3, 0.5))).usesSparsePath());
    }

    void badParametersAreNamed()
    {
        try {
            SlidingChain bad(chainValues(10, 0.3, 2.5));
            QFAIL("an overhang longer than the chain was accepted");
        } catch (const ConstraintLabError& e) {
            QVERIFY(std::string(e.what()).find("overhang") != std::string::npos);
            QVERIFY(std::string(e.what()).find("longer than the chain") != std::string::npos);
        }
        ParameterValues v = chainValues(10, 0.3, 0.5);
        v["links"] = {7.5};
        QVERIFY_THROWS_EXCEPTION(ConstraintLabError, SlidingChain{v});
        const SceneDefinition* definition = SceneRegistry::find("sliding-chain");
        QVERIFY(definition);
        QVERIFY_THROWS_EXCEPTION(ConstraintLabError, definition->create({{"edge", {0.0}}}));
        QVERIFY_THROWS_EXCEPTION(ConstraintLabError, definition->create({{"v0", {-1.0}}}));
    }
};

QTEST_APPLESS_MAIN(TestSlidingChain)
#include "tst_SlidingChain.moc"
