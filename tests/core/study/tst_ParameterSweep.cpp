#include "model/ConstraintLabError.h"
#include "study/ParameterSweep.h"
#include "scenes/SceneRegistry.h"
#include "integrate/Simulator.h"

#include <QtTest>

#include <atomic>
#include <cmath>
#include <string>
#include <vector>

using namespace clab;

namespace {

SceneDocument beadDocument(double tEnd = 1.0)
{
    SceneDocument document = SceneDocument::fromDefinition(*SceneRegistry::find("bead-on-wire"));
    document.simulation.tEnd = tEnd;
    document.simulation.dt = 0.05;
    return document;
}

// The reference: one run of the scene with exactly these (complete) parameters.
Trace singleRun(const SceneDocument& document, const ParameterValues& values)
{
    const auto system = SceneRegistry::find(document.scene)->create(values);
    return Simulator(*system).run(document.simulation);
}

// Bit-for-bit equality of every cell and of the events.
bool identical(const Trace& a, const Trace& b)
{
    if (a.columnNames() != b.columnNames() || a.samples.size() != b.samples.size() ||
        a.events.size() != b.events.size())
        return false;
    std::vector<double> ra, rb;
    for (std::size_t k = 0; k < a.samples.size(); ++k) {
        a.row(k, ra);
        b.row(k, rb);
        if (ra != rb)
            return false;
    }
    for (std::size_t k = 0; k < a.events.size(); ++k)
        if (a.events[k].t != b.events[k].t || a.events[k].contact != b.events[k].contact ||
            a.events[k].kind != b.events[k].kind)
            return false;
    return true;
}

double last(const Trace& trace, const std::string& column)
{
    return trace.column(trace.columnIndex(column)).back();
}

template <typename F> ConstraintLabError expectError(F&& f)
{
    try {
        f();
    } catch (const ConstraintLabError& e) {
        return e;
    }
    throw std::runtime_error("no ConstraintLabError was thrown");
}

} // namespace

class TestParameterSweep : public QObject {
    Q_OBJECT

private slots:
    void labelIsShortestRoundTrip();
    void sweepEqualsSingleRunsBitForBit_data();
    void sweepEqualsSingleRunsBitForBit();
    void followerFollowsTheSweptValue();
    void explicitFollowerKeepsItsValue();
    void frictionDissipatesMoreForLargerMu();
    void invalidValueThrowsBeforeAnyRun();
    void unknownSceneOrParameterThrows();
    void emptyOrVectorSweepThrows();
    void failingRunReportsFirstFailingValue();
    void gridPointsEqualSingleRunsWithBothValues();
    void shardsCoverTheGridOnceInOrder();
    void gridRejectsAParameterSweptTwice();
};

void TestParameterSweep::labelIsShortestRoundTrip()
{
    QCOMPARE(ParameterSweep::label("mu", 0.1), std::string("mu=0.1"));
    QCOMPARE(ParameterSweep::label("v0", -2.0), std::string("v0=-2"));
    QCOMPARE(ParameterSweep::label("mu", 0.1 + 0.2), std::string("mu=0.30000000000000004"));
    QCOMPARE(ParameterSweep::label("g", 1e-20), std::string("g=1e-20"));
}

void TestParameterSweep::sweepEqualsSingleRunsBitForBit_data()
{
    QTest::addColumn<int>("threads");
    QTest::newRow("one thread") << 1;
    QTest::newRow("two threads") << 2;
    QTest::newRow("all cores") << 0;
}

void TestParameterSweep::sweepEqualsSingleRunsBitForBit()
{
    QFETCH(int, threads);
    const SceneDocument document = beadDocument();
    // Not sorted, so that order is really value order and not completion order.
    const std::vector<double> values = {0.3, 0.0, 0.1};
    const std::vector<LabelledTrace> runs = ParameterSweep::run(document, "mu", values, threads);
    QCOMPARE(runs.size(), values.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
        QCOMPARE(runs[i].label, ParameterSweep::label("mu", values[i]));
        QVERIFY(runs[i].trace);
        // mu_s follows mu in the default document.
        const Trace reference = singleRun(document, {{"mu", {values[i]}}, {"mu_s", {values[i]}}});
        QVERIFY2(identical(*runs[i].trace, reference), runs[i].label.c_str());
    }
    // The runs differ from each other, so the comparison above could tell them apart.
    QVERIFY(!identical(*runs[0].trace, *runs[1].trace));
    QVERIFY(!identical(*runs[1].trace, *runs[2].trace));
}

void TestParameterSweep::followerFollowsTheSweptValue()
{
    // A document that leaves mu_s out (as a scene file may) and a completed one (mu_s = mu).
    SceneDocument partial = beadDocument();
    partial.parameters.erase("mu_s");
    for (const SceneDocument& document : {partial, beadDocument()}) {
        const std::vector<LabelledTrace> runs = ParameterSweep::run(document, "mu", {0.5}, 1);
        QVERIFY(identical(*runs[0].trace, singleRun(document, {{"mu", {0.5}}, {"mu_s", {0.5}}})));
    }
}

void TestParameterSweep::explicitFollowerKeepsItsValue()
{
    SceneDocument document = beadDocument();
    document.parameters["mu_s"] = {0.7};
    // The bead starts at rest on a 30° wire: with mu_s = 0.7 > tan 30° it stays stuck whatever
    // mu ≤ 0.7 is; had mu_s followed mu = 0.1 it would slide.
    const std::vector<LabelledTrace> runs = ParameterSweep::run(document, "mu", {0.1}, 1);
    QVERIFY(identical(*runs[0].trace, singleRun(document, {{"mu", {0.1}}, {"mu_s", {0.7}}})));
    QCOMPARE(last(*runs[0].trace, "x_dot"), 0.0);
    // A swept value above the explicit mu_s is invalid and named.
    const ConstraintLabError e = expectError([&] {
        ParameterSweep::run(document, "mu", {0.1, 0.9}, 1);
    });
    QCOMPARE(e.kind(), ConstraintLabError::Kind::InvalidParameter);
    QVERIFY2(std::string(e.what()).rfind("mu=0.9: ", 0) == 0, e.what());
    QVERIFY2(std::string(e.what()).find("mu_s") != std::string::npos, e.what());
}

void TestParameterSweep::frictionDissipatesMoreForLargerMu()
{
    const SceneDocument document = beadDocument(1.0);
    const std::vector<double> mus = {0.0, 0.1, 0.2, 0.25, 0.3, 0.5};
    const std::vector<LabelledTrace> runs = ParameterSweep::run(document, "mu", mus, 2);
    const double g = 9.81, theta = 30.0 * M_PI / 180.0, s0 = 2.0, t = 1.0;
    double previousSpeed = INFINITY, previousDistance = 1.0, previousWork = 0.0;
    for (std::size_t i = 0; i < mus.size(); ++i) {
        const Trace& trace = *runs[i].trace;
        const double speed = std::hypot(last(trace, "x_dot"), last(trace, "y_dot"));
        // Signed position along the wire (up-slope positive); the bead may pass the origin.
        const double s = last(trace, "x") * std::cos(theta) + last(trace, "y") * std::sin(theta);
        const double distance = s0 - s;
        const double work = last(trace, "W_nonideal");
        // Closed form: the bead slides down with a = g (sin θ − μ cos θ) from rest.
        const double a = g * (std::sin(theta) - mus[i] * std::cos(theta));
        QVERIFY2(std::abs(speed - a * t) < 1e-6, runs[i].label.c_str());
        QVERIFY2(std::abs(distance - 0.5 * a * t * t) < 1e-6, runs[i].label.c_str());
        // Friction's work: −μ N d with N = m g cos θ.
        QVERIFY(std::abs(work + mus[i] * g * std::cos(theta) * distance) < 1e-6);
        QVERIFY(work <= 0.0);
        if (i > 0) {
            QVERIFY(speed < previousSpeed);
            QVERIFY(distance < previousDistance);
            // Friction dissipates more per metre travelled ...
            QVERIFY(-work / distance > -previousWork / previousDistance);
            // ... and, in a fixed time, more in all while the shorter slide does not outweigh
            // it: W(μ) ∝ −μ (sin θ − μ cos θ) falls while μ < tan θ / 2 ≈ 0.29.
            if (mus[i] < std::tan(theta) / 2.0)
                QVERIFY(work < previousWork);
        }
        previousSpeed = speed;
        previousDistance = distance;
        previousWork = work;
    }
}

void TestParameterSweep::invalidValueThrowsBeforeAnyRun()
{
    SceneDocument document = beadDocument(100.0);
    std::atomic<int> steps{0};
    const RunControl counting{[&steps](double) {
        ++steps;
        return true;
    }};
    const ConstraintLabError e = expectError([&] {
        ParameterSweep::run(document, "mu", {0.1, 0.2, -1.0}, 2, counting);
    });
    QCOMPARE(e.kind(), ConstraintLabError::Kind::InvalidParameter);
    const std::string message = e.what();
    QVERIFY2(message.rfind("mu=-1: ", 0) == 0, e.what());
    QVERIFY2(message.find("'mu'") != std::string::npos, e.what());
    QCOMPARE(steps.load(), 0); // no run started
}

void TestParameterSweep::unknownSceneOrParameterThrows()
{
    SceneDocument document = beadDocument();
    ConstraintLabError e = expectError([&] { ParameterSweep::run(document, "friction", {0.1}); });
    QCOMPARE(e.kind(), ConstraintLabError::Kind::InvalidParameter);
    QVERIFY2(std::string(e.what()).find("'friction'") != std::string::npos, e.what());
    QVERIFY2(std::string(e.what()).find("mu_s") != std::string::npos, e.what()); // lists them

    document.scene = "no-such-scene";
    e = expectError([&] { ParameterSweep::run(document, "mu", {0.1}); });
    QCOMPARE(e.kind(), ConstraintLabError::Kind::InvalidParameter);
    QVERIFY2(std::string(e.what()).find("'no-such-scene'") != std::string::npos, e.what());
}

void TestParameterSweep::emptyOrVectorSweepThrows()
{
    ConstraintLabError e = expectError([] { ParameterSweep::run(beadDocument(), "mu", {}); });
    QCOMPARE(e.kind(), ConstraintLabError::Kind::InvalidParameter);
    QVERIFY2(std::string(e.what()).find("no values") != std::string::npos, e.what());

    const SceneDocument body = SceneDocument::fromDefinition(*SceneRegistry::find("rigid-body"));
    e = expectError([&] { ParameterSweep::run(body, "J", {1.0}); });
    QCOMPARE(e.kind(), ConstraintLabError::Kind::InvalidParameter);
    QVERIFY2(std::string(e.what()).find("'J'") != std::string::npos, e.what());

    e = expectError([] { ParameterSweep::run(beadDocument(), "mu", {0.1}, -1); });
    QCOMPARE(e.kind(), ConstraintLabError::Kind::InvalidParameter);
}

void TestParameterSweep::failingRunReportsFirstFailingValue()
{
    // Too few steps allowed: every run fails; the first value's error is the one reported.
    SceneDocument document = beadDocument(5.0);
    document.simulation.maxSteps = 3;
    for (int threads : {1, 2}) {
        const ConstraintLabError e = expectError([&] {
            ParameterSweep::run(document, "mu", {0.3, 0.1, 0.2}, threads);
        });
        const ConstraintLabError single = expectError([&] {
            singleRun(document, {{"mu", {0.3}}, {"mu_s", {0.3}}});
        });
        QCOMPARE(e.kind(), single.kind());
        QCOMPARE(std::string(e.what()), "mu=0.3: " + std::string(single.what()));
    }
}

void TestParameterSweep::gridPointsEqualSingleRunsWithBothValues()
{
    const SceneDocument base = beadDocument();
    const std::vector<SweepAxis> axes = {{"mu", {0.1, 0.3}}, {"angle_deg", {20.0, 35.0, 50.0}}};
    QCOMPARE(ParameterSweep::gridSize(axes), std::size_t(6));
    const auto runs = ParameterSweep::runGrid(base, axes, 0, 6, 2);
    QCOMPARE(runs.size(), std::size_t(6));
    std::size_t i = 0;
    for (double mu : axes[0].values)
        for (double angle : axes[1].values) {
            const std::string expected =
                ParameterSweep::label("mu", mu) + " " + ParameterSweep::label("angle_deg", angle);
            QCOMPARE(runs[i].label, expected);
            ParameterValues values = SceneRegistry::find("bead-on-wire")->defaults();
            values["mu"] = values["mu_s"] = {mu}; // mu_s follows the swept mu
            values["angle_deg"] = {angle};
            QVERIFY(identical(*runs[i].trace, singleRun(base, values)));
            ++i;
        }
    // A part of the grid is those points' runs.
    const auto part = ParameterSweep::runGrid(base, axes, 2, 5, 1);
    QCOMPARE(part.size(), std::size_t(3));
    for (std::size_t k = 0; k < part.size(); ++k) {
        QCOMPARE(part[k].label, runs[k + 2].label);
        QVERIFY(identical(*part[k].trace, *runs[k + 2].trace));
    }
}

void TestParameterSweep::shardsCoverTheGridOnceInOrder()
{
    for (std::size_t points : {7u, 8u, 100u})
        for (int n : {1, 3, 7}) {
            std::size_t next = 0;
            for (int k = 1; k <= n; ++k) {
                const auto [first, last] = ParameterSweep::shard(points, k, n);
                QCOMPARE(first, next);
                QVERIFY(last > first);
                QVERIFY(last - first <= points / static_cast<std::size_t>(n) + 1);
                next = last;
            }
            QCOMPARE(next, points);
        }
    const auto e = expectError([] { ParameterSweep::shard(4, 5, 5); });
    QVERIFY(QString::fromUtf8(e.what()).contains("5 shards for 4 grid points"));
    QVERIFY(QString::fromUtf8(expectError([] { ParameterSweep::shard(4, 0, 2); }).what())
                .contains("K/N needs 1 <= K <= N"));
}

void TestParameterSweep::gridRejectsAParameterSweptTwice()
{
    const auto e = expectError([] {
        ParameterSweep::runGrid(beadDocument(), {{"mu", {0.1}}, {"mu", {0.2}}}, 0, 1);
    });
    QCOMPARE(e.kind(), ConstraintLabError::Kind::InvalidParameter);
    QVERIFY(QString::fromUtf8(e.what()).contains("'mu' is swept twice"));
}

QTEST_GUILESS_MAIN(TestParameterSweep)
#include "tst_ParameterSweep.moc"
