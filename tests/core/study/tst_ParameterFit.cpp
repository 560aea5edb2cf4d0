#include "integrate/Simulator.h"
#include "model/ConstraintLabError.h"
#include "scenes/SceneRegistry.h"
#include "study/ParameterFit.h"

#include <QtTest>

#include <cmath>
#include <memory>
#include <numbers>
#include <random>
#include <string>
#include <vector>

using namespace clab;

namespace {

constexpr double g = 9.81;

SceneDocument document(const std::string& scene, const ParameterValues& values)
{
    // As a file that states only these values: the others take their defaults, and mu_s
    // follows mu.
    SceneDocument d = SceneDocument::fromDefinition(*SceneRegistry::find(scene));
    d.parameters = d.definition()->complete(values);
    return d;
}

// The bead of the closed form: s(t) = s0 − ½ g (sin θ − μ cos θ) t², sliding from rest down a
// wire long enough for the whole record.
struct Bead {
    double mu = 0.4, thetaDeg = 30.0, s0 = 25.0;
    double acceleration() const
    {
        const double theta = thetaDeg * std::numbers::pi / 180.0;
        return g * (std::sin(theta) - mu * std::cos(theta));
    }
    double s(double t) const { return s0 - 0.5 * acceleration() * t * t; }
    // ∂s/∂μ, the column of the Jacobian.
    double dsdmu(double t) const
    {
        return 0.5 * g * std::cos(thetaDeg * std::numbers::pi / 180.0) * t * t;
    }
    SceneDocument sceneWithMu(double startMu) const
    {
        return document(
            "bead-on-wire",
            {{"mu", {startMu}}, {"angle_deg", {thetaDeg}}, {"s0", {s0}}, {"v0", {0.0}}});
    }
};

// `count` samples every `dt` from dt on, of a function, plus seeded Gaussian noise of σ.
template <typename F>
Measurements measured(F truth, const std::string& quantity, int count, double dt, double sigma,
                      unsigned seed, bool giveSigma)
{
    std::mt19937_64 random(seed);
    std::normal_distribution<double> noise(0.0, sigma);
    Measurements m;
    m.columns.push_back({quantity, {}, giveSigma ? sigma : 0.0, "pos"});
    for (int i = 1; i <= count; ++i) {
        const double t = i * dt;
        m.times.push_back(t);
        m.columns[0].values.push_back(truth(t) + (sigma > 0.0 ? noise(random) : 0.0));
    }
    return m;
}

FitOptions fitting(std::vector<std::string> names)
{
    FitOptions options;
    options.parameters = std::move(names);
    return options;
}

double mean(const std::vector<double>& v)
{
    double sum = 0.0;
    for (double x : v)
        sum += x;
    return sum / static_cast<double>(v.size());
}

double spread(const std::vector<double>& v)
{
    const double m = mean(v);
    double sum = 0.0;
    for (double x : v)
        sum += (x - m) * (x - m);
    return std::sqrt(sum / static_cast<double>(v.size() - 1));
}

bool mentions(const std::vector<std::string>& warnings, const std::string& text)
{
    for (const std::string& w : warnings)
        if (w.find(text) != std::string::npos)
            return true;
    return false;
}

std::string errorOf(const SceneDocument& d, const Measurements& m, const FitOptions& o)
{
    try {
        ParameterFit::run(d, m, o);
    } catch (const ConstraintLabError& e) {
        return e.what();
    }
    return "no error";
}

} // namespace

class tst_ParameterFit : public QObject {
    Q_OBJECT

private slots:
    // Synthetic bead data from the closed form with noise of known σ: over 100 seeds the fitted
    // μ lies within 3 standard errors of the truth (≥ 95 %), the reported standard error equals
    // the closed form σ/‖∂s/∂μ‖, and the spread of the estimates agrees with it within 30 %.
    void fittedFrictionScattersAsItsStandardErrorSays()
    {
        const Bead bead;
        const double sigma = 0.01;
        double norm2 = 0.0;
        for (int i = 1; i <= 500; ++i)
            norm2 += std::pow(bead.dsdmu(0.01 * i), 2);
        const double expectedError = sigma / std::sqrt(norm2);

        std::vector<double> estimates, variances;
        int within = 0;
        for (unsigned seed = 1; seed <= 100; ++seed) {
            const Measurements m =
                measured([&](double t) { return bead.s(t); }, "s", 500, 0.01, sigma, seed, true);
            const FitResult r = ParameterFit::run(bead.sceneWithMu(0.3), m, fitting({"mu"}));
            QVERIFY2(r.converged, r.stopReason.c_str());
            QVERIFY(r.warnings.empty());
            QVERIFY(std::abs(r.standardErrors[0] / expectedError - 1.0) < 1e-3);
            estimates.push_back(r.values[0]);
            within += std::abs(r.values[0] - bead.mu) <= 3.0 * r.standardErrors[0] ? 1 : 0;
            // σ given: χ²/dof is about 1 for a model that fits.
            variances.push_back(r.residualVariance);
        }
        const double ratio = spread(estimates) / expectedError;
        qInfo("bead: %d of 100 within 3 SE; spread / SE = %.3f; SE = %.3g", within, ratio,
              expectedError);
        QVERIFY(within >= 95);
        QVERIFY(std::abs(ratio - 1.0) <= 0.3);
        QVERIFY(std::abs(mean(variances) - 1.0) < 0.03); // its spread is √(2/499) per trial
    }

    // The ring swings and sticks (tan φ ≤ μₛ at rest) within the record; data from a run at the
    // true μ plus noise, no σ given (the covariance is scaled by the residual variance).
    void ringThatSticksGivesFrictionWithinItsError()
    {
        const double truth = 0.3, sigma = 0.005;
        const SceneDocument truthScene = document("ring", {{"mu", {truth}}, {"phi0_deg", {60.0}}});
        const auto system = SceneRegistry::find("ring")->create(truthScene.parameters);
        SimulationOptions options;
        options.tEnd = 3.0;
        options.dt = 0.01;
        const Trace trace = Simulator(*system).run(options);
        QVERIFY(!trace.events.empty()); // it sticks
        QCOMPARE(trace.samples.back().contacts[0], 0.0);
        const int phi = trace.columnIndex("phi");
        const std::vector<double> phiTrue = trace.column(phi);

        std::vector<double> estimates, errors;
        int within = 0;
        for (unsigned seed = 1; seed <= 100; ++seed) {
            const Measurements m = measured(
                [&](double t) { return phiTrue[static_cast<std::size_t>(std::lround(t / 0.01))]; },
                "phi", 300, 0.01, sigma, seed, false);
            const FitResult r = ParameterFit::run(
                document("ring", {{"mu", {0.2}}, {"phi0_deg", {60.0}}}), m, fitting({"mu"}));
            QVERIFY2(r.converged, r.stopReason.c_str());
            estimates.push_back(r.values[0]);
            errors.push_back(r.standardErrors[0]);
            within += std::abs(r.values[0] - truth) <= 3.0 * r.standardErrors[0] ? 1 : 0;
            // No σ given: the residual variance estimates σ².
            QVERIFY(std::abs(std::sqrt(r.residualVariance) / sigma - 1.0) < 0.2);
            QVERIFY(std::abs(r.columnRms[0] / sigma - 1.0) < 0.2);
        }
        const double ratio = spread(estimates) / mean(errors);
        qInfo("ring: %d of 100 within 3 SE; spread / SE = %.3f; SE = %.3g", within, ratio,
              mean(errors));
        QVERIFY(within >= 95);
        QVERIFY(std::abs(ratio - 1.0) <= 0.3);
    }

    void fitFromFarAwayConverges()
    {
        const Bead bead;
        const Measurements m =
            measured([&](double t) { return bead.s(t); }, "s", 500, 0.01, 0.01, 7, true);
        std::vector<int> iterations;
        FitControl control;
        control.progress = [&](const FitProgress& p) {
            iterations.push_back(p.iteration);
        };
        const FitResult r = ParameterFit::run(bead.sceneWithMu(0.01), m, fitting({"mu"}), control);
        QVERIFY(r.converged);
        QCOMPARE(r.start[0], 0.01);
        QVERIFY(std::abs(r.values[0] - bead.mu) <= 3.0 * r.standardErrors[0]);
        QVERIFY(!iterations.empty());
        QCOMPARE(iterations.back(), r.iterations);
        QVERIFY(r.runs > 2 * r.iterations);
    }

    // Times off any regular grid are interpolated on the run's output: noise-free data give μ
    // to the interpolation's accuracy.
    void irregularTimesAreInterpolated()
    {
        const Bead bead;
        std::mt19937_64 random(3);
        std::uniform_real_distribution<double> jitter(0.0, 0.009);
        Measurements m;
        m.columns.push_back({"s", {}, 0.0, ""});
        for (int i = 1; i <= 200; ++i) {
            const double t = 0.02 * i + jitter(random);
            m.times.push_back(t);
            m.columns[0].values.push_back(bead.s(t));
        }
        const FitResult r = ParameterFit::run(bead.sceneWithMu(0.2), m, fitting({"mu"}));
        QVERIFY(std::abs(r.values[0] - bead.mu) < 1e-7);
        QVERIFY(r.columnRms[0] < 1e-7);
    }

    // A trace on screen sampled at measured times between its samples (what the GUI's live
    // RMS compares) is the closed form there, and each measured column is one block.
    void simulatedAtSamplesATraceBetweenItsSamples()
    {
        const Bead bead;
        const SceneDocument scene = bead.sceneWithMu(bead.mu);
        const auto system = SceneRegistry::find("bead-on-wire")->create(scene.parameters);
        SimulationOptions options;
        options.tEnd = 4.0;
        options.dt = 0.05;
        const Trace trace = Simulator(*system).run(options);
        Measurements m;
        m.columns.push_back({"s", {}, 0.0, "pos"});
        m.columns.push_back({"x", {}, 0.0, "horizontal"});
        for (int i = 0; i < 50; ++i) {
            m.times.push_back(0.013 + 0.077 * i);
            m.columns[0].values.push_back(0.0);
            m.columns[1].values.push_back(0.0);
        }
        const std::vector<double> values = ParameterFit::simulatedAt(trace, m);
        QCOMPARE(values.size(), std::size_t(100));
        double worst = 0.0;
        for (std::size_t i = 0; i < m.times.size(); ++i) {
            const double t = m.times[i];
            worst = std::max(worst, std::abs(values[i] - bead.s(t)));
            const double theta = bead.thetaDeg * std::numbers::pi / 180.0;
            worst = std::max(worst, std::abs(values[50 + i] - bead.s(t) * std::cos(theta)));
        }
        qInfo("largest deviation from the closed form: %.3g", worst);
        QVERIFY(worst < 1e-6);

        m.columns[1].quantity = "speed_of_light";
        try {
            ParameterFit::simulatedAt(trace, m);
            QFAIL("an unknown quantity was accepted");
        } catch (const ConstraintLabError& e) {
            QVERIFY2(std::string(e.what()).find("speed_of_light") != std::string::npos, e.what());
            QVERIFY2(std::string(e.what()).find("'horizontal'") != std::string::npos, e.what());
        }
    }

    // The bead reaches the foot of the wire inside the record and stays there: the misfit
    // follows the moving end time and the fit recovers μ.
    void runThatEndsEarlyHoldsItsLastValue()
    {
        Bead bead;
        bead.s0 = 2.0;
        const double tFoot = std::sqrt(2.0 * bead.s0 / bead.acceleration());
        QVERIFY(tFoot < 2.5);
        const Measurements m = measured([&](double t) { return t < tFoot ? bead.s(t) : 0.0; }, "s",
                                        300, 0.01, 0.002, 11, true);
        SceneDocument scene = bead.sceneWithMu(0.35);
        scene.simulation.stopAtEnd = true;
        const FitResult r = ParameterFit::run(scene, m, fitting({"mu"}));
        QVERIFY(r.converged);
        QVERIFY(std::abs(r.values[0] - bead.mu) <= 3.0 * r.standardErrors[0]);

        // The residuals are continuous in μ while the end time crosses seven measured times:
        // a step δ of μ moves no simulated value by more than max |∂s/∂μ| δ (½ g cos θ t² at
        // t = 3 s is 38 m), where dropping or jumping a sample would move one by centimetres.
        const double delta = 1e-4;
        std::vector<double> before;
        double largestMove = 0.0;
        for (int k = 0; k <= 200; ++k) {
            SceneDocument trial = scene;
            trial.parameters["mu"] = trial.parameters["mu_s"] = {0.39 + delta * k};
            std::vector<double> r = ParameterFit::residuals(trial, m);
            for (std::size_t i = 0; i < before.size(); ++i)
                largestMove = std::max(largestMove, std::abs(r[i] - before[i]) * 0.002);
            before = std::move(r);
        }
        QVERIFY2(largestMove < 38.0 * delta, std::to_string(largestMove).c_str());
    }

    // μₛ of a bead that never stops does nothing: reported as not determined, μ still fitted.
    void staticFrictionOfABodyThatNeverStopsIsNotDetermined()
    {
        const Bead bead;
        const Measurements m =
            measured([&](double t) { return bead.s(t); }, "s", 500, 0.01, 0.01, 5, true);
        SceneDocument scene = bead.sceneWithMu(0.3);
        scene.parameters["mu_s"] = {0.5}; // below tan 30° = 0.577: it slides from the start
        const FitResult r = ParameterFit::run(scene, m, fitting({"mu", "mu_s"}));
        QVERIFY(r.determined[0]);
        QVERIFY(!r.determined[1]);
        QVERIFY(std::isinf(r.standardErrors[1]));
        QVERIFY(std::isnan(r.covariance(0, 1)));
        QVERIFY(mentions(r.warnings, "mu_s is not determined"));
        QVERIFY(std::abs(r.values[0] - bead.mu) <= 3.0 * r.standardErrors[0]);
    }

    // μₛ starts tied to μ = 0.3 and is fitted too; the slide pulls μ to 0.4, μₛ (which does
    // nothing) stays behind and runs raised to μ: the result says so and shows the raised value.
    void staticFrictionBelowKineticRunsRaisedAndSaysSo()
    {
        const Bead bead;
        const Measurements m =
            measured([&](double t) { return bead.s(t); }, "s", 500, 0.01, 0.01, 5, true);
        const FitResult r = ParameterFit::run(bead.sceneWithMu(0.3), m, fitting({"mu", "mu_s"}));
        QVERIFY(std::abs(r.values[0] - bead.mu) <= 3.0 * r.standardErrors[0]);
        QCOMPARE(r.values[1], r.values[0]);
        QVERIFY(mentions(r.warnings, "mu_s ran as mu"));
    }

    // The slide fixes only g (sin θ − μ cos θ): μ and θ are not determined separately.
    void frictionAndAngleAreNotDeterminedSeparately()
    {
        const Bead bead;
        const Measurements m =
            measured([&](double t) { return bead.s(t); }, "s", 500, 0.01, 0.01, 5, true);
        const FitResult r =
            ParameterFit::run(bead.sceneWithMu(0.3), m, fitting({"mu", "angle_deg"}));
        QVERIFY(!r.determined[0] && !r.determined[1]);
        QVERIFY(mentions(r.warnings, "mu and angle_deg are not determined separately"));
        // What is determined is the acceleration.
        Bead fitted = bead;
        fitted.mu = r.values[0];
        fitted.thetaDeg = r.values[1];
        QVERIFY(std::abs(fitted.acceleration() / bead.acceleration() - 1.0) < 1e-3);
    }

    // The data start at 25 m, the model at 2 m: μ alone cannot bring the bead there. The fit
    // fails, says where each starts, and names s0 as what to fit too; fitting it succeeds.
    void wrongStartFailsAndNamesTheStartParameter()
    {
        const Bead bead;
        const Measurements m =
            measured([&](double t) { return bead.s(t); }, "s", 500, 0.01, 0.002, 3, false);
        SceneDocument scene = bead.sceneWithMu(0.2);
        scene.parameters["s0"] = {2.0};
        const FitResult r = ParameterFit::run(scene, m, fitting({"mu"}));
        QVERIFY(r.failed());
        QVERIFY2(r.failure.find("the data of pos start at 25 m (t = 0.01 s), the model at 2 m; "
                                "fit s0 too, or set it") != std::string::npos,
                 r.failure.c_str());
        QCOMPARE(r.startParameters, std::vector<std::string>{"s0"});

        const FitResult both = ParameterFit::run(scene, m, fitting({"mu", "s0"}));
        QVERIFY2(!both.failed(), both.failure.c_str());
        QVERIFY(std::abs(both.values[0] - bead.mu) <= 3.0 * both.standardErrors[0]);
        QVERIFY(std::abs(both.values[1] - bead.s0) <= 3.0 * both.standardErrors[1]);
    }

    // A good fit is no failure, even of data that hardly move (noise about a body at rest),
    // and its residuals are the fitted model's, simulated − measured, in SI units.
    void goodFitsDoNotFailAndGiveTheirResiduals()
    {
        const Bead bead;
        const Measurements m =
            measured([&](double t) { return bead.s(t); }, "s", 500, 0.01, 0.002, 3, true);
        const FitResult r = ParameterFit::run(bead.sceneWithMu(0.3), m, fitting({"mu"}));
        QVERIFY2(!r.failed(), r.failure.c_str());
        QCOMPARE(r.residuals.size(), std::size_t(1));
        QCOMPARE(r.residuals[0].size(), std::size_t(500));
        Bead fitted = bead;
        fitted.mu = r.values[0];
        for (std::size_t i : {std::size_t(0), std::size_t(250), std::size_t(499)})
            QVERIFY(std::abs(r.residuals[0][i] - (fitted.s(m.times[i]) - m.columns[0].values[i])) <
                    1e-6);

        // At rest (μ = 0.7 > tan 30°), measured with noise: the model at rest fits.
        Bead resting = bead;
        resting.mu = 0.7;
        const Measurements still =
            measured([&](double) { return resting.s0; }, "s", 200, 0.01, 0.002, 4, false);
        const FitResult atRest =
            ParameterFit::run(resting.sceneWithMu(0.7), still, fitting({"s0"}));
        QVERIFY2(!atRest.failed(), atRest.failure.c_str());
        // Exact data at rest (no spread at all) fitted exactly are no failure either.
        const Measurements exact =
            measured([&](double) { return resting.s0; }, "s", 200, 0.01, 0.0, 4, false);
        SceneDocument near = resting.sceneWithMu(0.7);
        near.parameters["s0"] = {24.5};
        const FitResult exactFit = ParameterFit::run(near, exact, fitting({"s0"}));
        QVERIFY2(!exactFit.failed(), exactFit.failure.c_str());
        QVERIFY(std::abs(exactFit.values[0] - resting.s0) < 1e-6);
    }

    // Two parameters the data do determine: the start position and μ, with their correlation.
    void startPositionAndFrictionTogether()
    {
        const Bead bead;
        const Measurements m =
            measured([&](double t) { return bead.s(t); }, "s", 500, 0.01, 0.01, 9, true);
        SceneDocument scene = bead.sceneWithMu(0.3);
        scene.parameters["s0"] = {24.0};
        const FitResult r = ParameterFit::run(scene, m, fitting({"mu", "s0"}));
        QVERIFY(r.converged);
        QVERIFY(r.warnings.empty());
        // The reference: the linear least-squares covariance of s = s0 + c μ t² from the normal
        // equations.
        Eigen::MatrixXd J(500, 2);
        for (int i = 0; i < 500; ++i)
            J.row(i) << bead.dsdmu(0.01 * (i + 1)) / 0.01, 1.0 / 0.01;
        const Eigen::MatrixXd C = (J.transpose() * J).inverse();
        QVERIFY(std::abs(r.covariance(0, 0) / C(0, 0) - 1.0) < 1e-3);
        QVERIFY(std::abs(r.covariance(1, 1) / C(1, 1) - 1.0) < 1e-3);
        QVERIFY(std::abs(r.correlation(0, 1) - C(0, 1) / std::sqrt(C(0, 0) * C(1, 1))) < 1e-3);
        QCOMPARE(r.correlation(0, 0), 1.0);
        QVERIFY(std::abs(r.values[1] - bead.s0) <= 3.0 * r.standardErrors[1]);
    }

    // A stored start (a drag's) overrides s0: fitting s0 is refused before any run, with the
    // way out; μ, which does not set the start, is still fitted from it.
    void fittingAStartParameterThatAStoredStartOverridesIsRefused()
    {
        const Bead bead;
        const Measurements m =
            measured([&](double t) { return bead.s(t); }, "s", 50, 0.01, 0.0, 1, false);
        SceneDocument scene = bead.sceneWithMu(0.3);
        const std::unique_ptr<MechanicalSystem> system =
            scene.definition()->create(scene.parameters);
        Eigen::VectorXd q, qd;
        system->initialState(q, qd);
        scene.simulation.start = StartState(system->initialTime(), q, qd);
        const std::string error = errorOf(scene, m, fitting({"s0"}));
        QVERIFY2(error.find("s0 sets where the run starts, but the scene has a stored start") !=
                     std::string::npos,
                 error.c_str());
        const FitResult r = ParameterFit::run(scene, m, fitting({"mu"}));
        QVERIFY2(!r.failed(), r.failure.c_str());
        QVERIFY(std::abs(r.values[0] - bead.mu) < 1e-4);
    }

    // Every trial stays within the bounds; a truth outside them leaves μ on its bound.
    void boundsAreRespected()
    {
        const Bead bead;
        const Measurements m =
            measured([&](double t) { return bead.s(t); }, "s", 500, 0.01, 0.01, 5, true);
        FitOptions options = fitting({"mu"});
        options.bounds["mu"] = {0.1, 0.3};
        double lowest = 1.0, highest = 0.0;
        FitControl control;
        control.progress = [&](const FitProgress& p) {
            lowest = std::min(lowest, p.values[0]);
            highest = std::max(highest, p.values[0]);
        };
        const FitResult r = ParameterFit::run(bead.sceneWithMu(0.2), m, options, control);
        QVERIFY(lowest >= 0.1 && highest <= 0.3);
        QVERIFY(std::abs(r.values[0] - 0.3) < 1e-6);
        QVERIFY(r.atBound[0]);
        QVERIFY(mentions(r.warnings, "mu ended at its bound 0.3"));

        options.bounds["mu"] = {0.5, 0.6};
        QVERIFY(errorOf(bead.sceneWithMu(0.2), m, options).find("outside its bounds") !=
                std::string::npos);
    }

    // Cancelling returns the best values so far and leaves the document as it was.
    void cancelLeavesTheSceneUnchanged()
    {
        const Bead bead;
        const Measurements m =
            measured([&](double t) { return bead.s(t); }, "s", 500, 0.01, 0.01, 5, true);
        const SceneDocument scene = bead.sceneWithMu(0.01);
        const SceneDocument before = scene;
        bool stop = false;
        FitControl control;
        control.progress = [&](const FitProgress&) {
            stop = true;
        };
        control.keepGoing = [&] {
            return !stop;
        };
        const FitResult r = ParameterFit::run(scene, m, fitting({"mu"}), control);
        QVERIFY(r.cancelled);
        QVERIFY(!r.converged);
        QCOMPARE(r.iterations, 1);
        QVERIFY(r.values[0] != 0.01);
        QCOMPARE(r.covariance.size(), Eigen::Index(0));
        QVERIFY(scene == before);

        // Cancelled inside the first run.
        control.keepGoing = [] {
            return false;
        };
        const FitResult none = ParameterFit::run(scene, m, fitting({"mu"}), control);
        QVERIFY(none.cancelled);
        QCOMPARE(none.values[0], 0.01);
    }

    // A misfit landscape over μ and θ: each point's residuals are those of one evaluation at
    // its values, and χ² is smallest at the truth.
    void residualGridIsTheMisfitAtEachPoint()
    {
        const Bead bead;
        const Measurements m =
            measured([&](double t) { return bead.s(t); }, "s", 100, 0.05, 0.0, 1, false);
        const std::vector<SweepAxis> axes = {{"mu", {0.3, 0.4, 0.5}}, {"angle_deg", {25.0, 30.0}}};
        const auto grid = ParameterFit::residualGrid(bead.sceneWithMu(0.2), m, axes, 1, 6, 2);
        QCOMPARE(grid.size(), std::size_t(5));
        std::size_t best = 0;
        double bestChi2 = 1e300;
        for (std::size_t k = 0; k < grid.size(); ++k) {
            const std::size_t point = k + 1;
            SceneDocument scene = bead.sceneWithMu(axes[0].values[point / 2]);
            scene.parameters["angle_deg"] = {axes[1].values[point % 2]};
            QVERIFY(grid[k] == ParameterFit::residuals(scene, m));
            double chi2 = 0.0;
            for (double r : grid[k])
                chi2 += r * r;
            if (chi2 < bestChi2) {
                bestChi2 = chi2;
                best = point;
            }
        }
        QCOMPARE(best, std::size_t(3)); // mu = 0.4, angle 30°
        QVERIFY(bestChi2 < 1e-12);
    }

    // Issue 34: data near 1e308 squared to infinity, every trial looked alike, and the fit
    // reported convergence with μ at its start. They are refused, naming the value.
    void dataBeyondTheNumericRangeAreRefusedNotReportedConverged()
    {
        const Bead bead;
        const SceneDocument scene = bead.sceneWithMu(0.3);
        Measurements m = measured([&](double t) { return bead.s(t); }, "s", 10, 0.1, 0.0, 1, false);
        for (double& v : m.columns[0].values)
            v = 1e306 * (1.0 + std::abs(v)); // finite, near the top of the range
        const std::string error = errorOf(scene, m, fitting({"mu"}));
        QVERIFY2(error.find("'pos': value #") != std::string::npos &&
                     error.find("out of the numeric range of a fit") != std::string::npos,
                 error.c_str());
    }

    void badInputIsNamed()
    {
        const Bead bead;
        const SceneDocument scene = bead.sceneWithMu(0.3);
        const Measurements good =
            measured([&](double t) { return bead.s(t); }, "s", 10, 0.1, 0.0, 1, false);
        QVERIFY(errorOf(scene, good, fitting({"friction"})).find("no parameter 'friction'") !=
                std::string::npos);
        QVERIFY(errorOf(scene, good, fitting({})).find("no parameter to fit") != std::string::npos);
        QVERIFY(errorOf(scene, good, fitting({"mu", "mu"})).find("given twice") !=
                std::string::npos);

        Measurements m = good;
        m.times[4] = m.times[3];
        QVERIFY(
            errorOf(scene, m, fitting({"mu"})).find("measured time #5 (t = 0.4 s) is not after") !=
            std::string::npos);
        m = good;
        m.columns[0].values[2] = std::nan("");
        QVERIFY(
            errorOf(scene, m, fitting({"mu"})).find("'pos': value #3 (t = 0.3 s) is not finite") !=
            std::string::npos);
        m = good;
        m.columns[0].quantity = "height";
        QVERIFY(errorOf(scene, m, fitting({"mu"})).find("no trace quantity 'height'") !=
                std::string::npos);
        m = good;
        m.columns.push_back({"x", m.columns[0].values, 0.01, "xpos"});
        QVERIFY(
            errorOf(scene, m, fitting({"mu"})).find("for some measured columns but not for all") !=
            std::string::npos);
        m = good;
        m.times[0] = -0.1;
        QVERIFY(errorOf(scene, m, fitting({"mu"})).find("before the scene's start") !=
                std::string::npos);
        m = good;
        m.times.resize(1);
        m.columns[0].values.resize(1);
        QVERIFY(
            errorOf(scene, m, fitting({"mu", "s0"})).find("1 measured values cannot determine 2") !=
            std::string::npos);
        FitOptions options = fitting({"mu"});
        options.bounds["mu"] = {0.5, 0.2};
        QVERIFY(errorOf(scene, good, options).find("lower < upper") != std::string::npos);
        options = fitting({"mu"});
        options.bounds["s0"] = {0.0, 1.0};
        QVERIFY(errorOf(scene, good, options).find("'s0', which is not fitted") !=
                std::string::npos);
        // A count (the chain's links) cannot change by a finite-difference step.
        Measurements chainData = good;
        chainData.columns[0].quantity = "x1";
        QVERIFY(errorOf(document("chain", {}), chainData, fitting({"links"}))
                    .find("'links' is a count") != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(tst_ParameterFit)
#include "tst_ParameterFit.moc"
