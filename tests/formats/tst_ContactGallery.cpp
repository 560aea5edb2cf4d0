// The built-in examples with one-sided contacts (scenes/systems/*.json), loaded from their
// files and run with their own settings, against closed forms: the loop-the-loop leaves its
// track where cos φ = (2gR − v₀²)/(3gR) or goes round at v₀² ≥ 5gR; the ladder leaves the wall
// when its top is at 2/3 of its initial height, then slides on the floor alone; the bouncing
// ball comes to rest at t₁(1 + e)/(1 − e) with its energy audit closed by W_impact; the particle
// leaves the smooth sphere at cos θ = (2 cos θ₀ + v₀²/gR)/3; the block on the curved ramp
// leaves its end at the speed energy conservation gives, v² = 2gR (cos α − cos θ₀), and flies
// on the parabola of that launch to its apex and its landing point.
#include "SceneFile.h"
#include "integrate/Simulator.h"
#include "symbolic/SymbolicModel.h"
#include "trace/PlotCatalog.h"
#include "trace/TraceSeries.h"

#include "../support/SceneRuns.h"

#include <QtTest>

#include <cmath>

using namespace clab;

class TestContactGallery : public QObject {
    Q_OBJECT

private slots:
    void loopTheLoopTooSlowLeavesTheTrackWhereTheClosedFormSays();
    void loopTheLoopFastEnoughGoesRound();
    void ladderLeavesTheWallAtTwoThirdsOfItsInitialHeight();
    void bouncingBallComesToRestAtTheAccumulationTime();
    void bouncingBallsEnergyAuditPlotShowsWImpactAndClosesThroughTheImpacts();
    void particleLeavesTheSmoothSphereWhereTheClosedFormSays();
    void particleLeavesTheRoughSphereWhereItsReducedModelsNormalForceVanishes();
    void blockLeavesTheCurvedRampAtItsEndWithTheSpeedEnergyConservationGives();
    void blockFliesOffTheRampOnTheParabolaOfItsLaunchToApexAndLanding();
};

namespace {

constexpr double g = 9.81;

SceneDocument load(const char* file)
{
    return SceneFile::load(QStringLiteral(CLAB_SOURCE_DIR "/scenes/systems/") +
                           QLatin1String(file));
}

using Run = testing::DocumentRun;

Run run(const SceneDocument& document, std::initializer_list<std::pair<std::string, double>> set,
        double tEnd = 0.0)
{
    ParameterValues values = document.parameters;
    for (const auto& [name, v] : set)
        values.at(name) = {v};
    return testing::runDocument(document, values, tEnd);
}

double value(const Trace& trace, const TraceSample& s, const std::string& name)
{
    std::vector<double> row;
    trace.row(s, row);
    const int i = trace.columnIndex(name);
    if (i < 0)
        throw std::runtime_error("no column " + name);
    return row[static_cast<std::size_t>(i)];
}

std::vector<double> times(const Trace& trace, ContactEvent::Kind kind, const std::string& name)
{
    std::vector<double> out;
    for (const ContactEvent& e : trace.events)
        if (e.kind == kind && trace.unilateralNames()[static_cast<std::size_t>(e.contact)] == name)
            out.push_back(e.t);
    return out;
}

} // namespace

void TestContactGallery::loopTheLoopTooSlowLeavesTheTrackWhereTheClosedFormSays()
{
    const SceneDocument document = load("loop-the-loop.json");
    const double R = 1.0, v0 = 6.0;
    const Run r = run(document, {{"R", R}, {"v0", v0}});
    const std::vector<double> leave = times(r.trace, ContactEvent::Kind::Leave, "track");
    QVERIFY(!leave.empty());
    // The state at the leave time: a second run ends there.
    const Run upTo = run(document, {{"R", R}, {"v0", v0}}, leave[0]);
    const TraceSample& at = upTo.trace.samples.back();
    const double expected = (2.0 * g * R - v0 * v0) / (3.0 * g * R);
    QVERIFY2(std::abs(std::cos(value(upTo.trace, at, "phi")) - expected) < 1e-9,
             qPrintable(QString("cos φ = %1, expected %2")
                            .arg(std::cos(value(upTo.trace, at, "phi")), 0, 'g', 12)
                            .arg(expected, 0, 'g', 12)));
    for (const TraceSample& s : r.trace.samples) {
        QVERIFY(R - std::hypot(s.q[0], s.q[1] - R) >= -1e-9); // never outside the track
        QVERIFY(std::abs(s.E_error) < 1e-7);
    }
}

void TestContactGallery::loopTheLoopFastEnoughGoesRound()
{
    const SceneDocument document = load("loop-the-loop.json");
    const double R = 1.0, v0 = std::sqrt(5.0 * g * R) * 1.001;
    const Run r = run(document, {{"R", R}, {"v0", v0}});
    QVERIFY(r.trace.events.empty());
    double top = 0.0;
    for (const TraceSample& s : r.trace.samples) {
        top = std::max(top, s.q[1]);
        QVERIFY(value(r.trace, s, "N_track") > 0.0);
    }
    QVERIFY(top > 2.0 * R - 1e-4); // sampled every 5 ms: the top itself may fall between
    QVERIFY(top <= 2.0 * R + 1e-9);
}

void TestContactGallery::ladderLeavesTheWallAtTwoThirdsOfItsInitialHeight()
{
    const SceneDocument document = load("ladder.json");
    const double L = 3.0, theta0 = 0.3;
    const Run r = run(document, {{"L", L}, {"theta0", theta0}});
    const std::vector<double> leave = times(r.trace, ContactEvent::Kind::Leave, "wall");
    QCOMPARE(leave.size(), std::size_t(1));
    const Run upTo = run(document, {{"L", L}, {"theta0", theta0}}, leave[0]);
    const double top = value(upTo.trace, upTo.trace.samples.back(), "top_height");
    QVERIFY2(std::abs(top - 2.0 / 3.0 * L * std::cos(theta0)) < 1e-9,
             qPrintable(QString("top at %1, expected %2")
                            .arg(top, 0, 'g', 12)
                            .arg(2.0 / 3.0 * L * std::cos(theta0), 0, 'g', 12)));
    const std::vector<double> lands = times(r.trace, ContactEvent::Kind::Impact, "top_on_floor");
    QVERIFY(!lands.empty());
    for (const TraceSample& s : r.trace.samples) {
        QVERIFY(value(r.trace, s, "top_height") >= -1e-9);
        if (s.t > leave[0] && s.t < lands[0]) {
            QCOMPARE(value(r.trace, s, "N_wall"), 0.0);
            QVERIFY(value(r.trace, s, "N_floor") > 0.0);
        }
        QVERIFY(std::abs(s.E_error) < 1e-7);
    }
}

void TestContactGallery::bouncingBallComesToRestAtTheAccumulationTime()
{
    const SceneDocument document = load("bouncing-ball.json");
    const double h0 = 1.0, e = 0.5;
    const Run r = run(document, {{"h0", h0}, {"e", e}});
    const double t1 = std::sqrt(2.0 * h0 / g), tInf = t1 * (1.0 + e) / (1.0 - e);
    const std::vector<double> touch = times(r.trace, ContactEvent::Kind::Touch, "floor");
    QCOMPARE(touch.size(), std::size_t(1));
    QVERIFY2(std::abs(touch[0] - tInf) < 1e-9, qPrintable(QString::number(touch[0] - tInf)));
    const double m = document.parameters.at("m")[0];
    QVERIFY(std::abs(r.trace.samples.back().W_impact + m * g * h0) < 1e-8);
    for (const TraceSample& s : r.trace.samples)
        QVERIFY(s.q[0] >= -1e-9 && std::abs(s.E_error) < 1e-8);
}

void TestContactGallery::bouncingBallsEnergyAuditPlotShowsWImpactAndClosesThroughTheImpacts()
{
    const Run r = run(load("bouncing-ball.json"), {});
    const std::vector<PlotSpec> presets = PlotCatalog::presets(r.trace); // find() points into it
    const PlotSpec* energy = PlotCatalog::find(presets, "energy");
    QVERIFY(energy);
    QCOMPARE(energy->y,
             (std::vector<std::string>{"T", "V", "E", "W_nonideal", "W_impact", "E_balance"}));
    // The plotted balance is the simulator's E_error to the bit: zero through every impact.
    const std::vector<double> balance = TraceSeries::values(r.trace, "E_balance");
    QCOMPARE(balance.size(), r.trace.samples.size());
    for (std::size_t i = 0; i < balance.size(); ++i)
        QCOMPARE(balance[i], r.trace.samples[i].E_error);
    QVERIFY(TraceSeries::label(r.trace, "E_balance").ends_with(" − W_impact"));
}

void TestContactGallery::particleLeavesTheSmoothSphereWhereTheClosedFormSays()
{
    const SceneDocument document = load("particle-off-sphere.json");
    const double R = 1.0, theta0 = 0.2, v0 = 1.0;
    const Run r = run(document, {{"R", R}, {"theta0", theta0}, {"v0", v0}, {"mu", 0.0}});
    const std::vector<double> leave = times(r.trace, ContactEvent::Kind::Leave, "sphere");
    QCOMPARE(leave.size(), std::size_t(1));
    const Run upTo =
        run(document, {{"R", R}, {"theta0", theta0}, {"v0", v0}, {"mu", 0.0}}, leave[0]);
    const double expected = (2.0 * std::cos(theta0) + v0 * v0 / (g * R)) / 3.0;
    const TraceSample& at = upTo.trace.samples.back();
    QVERIFY2(std::abs(at.q[1] / R - expected) < 1e-9, qPrintable(QString("cos θ = %1, expected %2")
                                                                     .arg(at.q[1] / R, 0, 'g', 12)
                                                                     .arg(expected, 0, 'g', 12)));
}

void TestContactGallery::particleLeavesTheRoughSphereWhereItsReducedModelsNormalForceVanishes()
{
    const SceneDocument document = load("particle-off-sphere.json");
    const double R = 1.0, theta0 = 0.2, v0 = 1.0, mu = 0.3;
    const Run r = run(document, {{"R", R}, {"theta0", theta0}, {"v0", v0}, {"mu", mu}});
    const std::vector<double> leave = times(r.trace, ContactEvent::Kind::Leave, "sphere");
    QCOMPARE(leave.size(), std::size_t(1));
    const Run upTo =
        run(document, {{"R", R}, {"theta0", theta0}, {"v0", v0}, {"mu", mu}}, leave[0]);
    const double theta = value(upTo.trace, upTo.trace.samples.back(), "theta");
    // The reduced model in the angle from the top, sliding: R θ̈ = g sin θ − μ N/m with the
    // normal force N/m = g cos θ − R θ̇²; RK4 until N/m changes sign, then linear in between.
    const auto rhs = [&](double th, double w, double& dth, double& dw) {
        dth = w;
        dw = (g * std::sin(th) - mu * (g * std::cos(th) - R * w * w)) / R;
    };
    double th = theta0, w = v0 / R, t = 0.0;
    const double h = 1e-5;
    double n = g * std::cos(th) - R * w * w;
    double reference = std::nan("");
    while (t < 2.0) {
        double k1t, k1w, k2t, k2w, k3t, k3w, k4t, k4w;
        rhs(th, w, k1t, k1w);
        rhs(th + h / 2 * k1t, w + h / 2 * k1w, k2t, k2w);
        rhs(th + h / 2 * k2t, w + h / 2 * k2w, k3t, k3w);
        rhs(th + h * k3t, w + h * k3w, k4t, k4w);
        const double th1 = th + h / 6 * (k1t + 2 * k2t + 2 * k3t + k4t);
        const double w1 = w + h / 6 * (k1w + 2 * k2w + 2 * k3w + k4w);
        const double n1 = g * std::cos(th1) - R * w1 * w1;
        if (n1 <= 0.0) {
            reference = th + (th1 - th) * n / (n - n1);
            break;
        }
        th = th1, w = w1, n = n1, t += h;
    }
    QVERIFY(std::isfinite(reference));
    QVERIFY2(std::abs(theta - reference) < 1e-8,
             qPrintable(QString("leaves at θ = %1, reduced model %2")
                            .arg(theta, 0, 'g', 12)
                            .arg(reference, 0, 'g', 12)));
    // Friction makes it stay on longer than on the smooth sphere.
    QVERIFY(std::cos(theta) < (2.0 * std::cos(theta0) + v0 * v0 / (g * R)) / 3.0);
}

namespace {

// The curved ramp's defaults (scenes/systems/curved-ramp.json): circle of radius R whose lowest
// point is H above the floor, start at rest θ₀ before it, end (launch) α past it.
struct Ramp {
    double R = 2.0, H = 0.5, theta0 = 1.3, alpha = 0.5;
    double endX() const { return R * std::sin(alpha); }
    double endY() const { return H + R * (1.0 - std::cos(alpha)); }
    /// Energy conservation on the smooth ramp from rest.
    double launchSpeed() const
    {
        return std::sqrt(2.0 * g * R * (std::cos(alpha) - std::cos(theta0)));
    }
    /// Flight time from the end to the floor: endY + v sin α τ − g τ²/2 = 0.
    double flightTime() const
    {
        const double vy = launchSpeed() * std::sin(alpha);
        return (vy + std::sqrt(vy * vy + 2.0 * g * endY())) / g;
    }
    /// How far (x, y) is above the ramp's circle while x is before the end (≥ 0 off it).
    double aboveCircle(double x, double y) const { return R - std::hypot(x, y - H - R); }
};

} // namespace

void TestContactGallery::blockLeavesTheCurvedRampAtItsEndWithTheSpeedEnergyConservationGives()
{
    const SceneDocument document = load("curved-ramp.json");
    const Ramp ramp;
    const Run r = run(document, {});
    const std::vector<double> leave = times(r.trace, ContactEvent::Kind::Leave, "ramp");
    QCOMPARE(leave.size(), std::size_t(1));
    const Run upTo = run(document, {}, leave[0]);
    const TraceSample& at = upTo.trace.samples.back();
    QVERIFY2(std::abs(at.q[0] - ramp.endX()) < 1e-9 && std::abs(at.q[1] - ramp.endY()) < 1e-9,
             qPrintable(QString("leaves at (%1, %2), the end is at (%3, %4)")
                            .arg(at.q[0], 0, 'g', 12)
                            .arg(at.q[1], 0, 'g', 12)
                            .arg(ramp.endX(), 0, 'g', 12)
                            .arg(ramp.endY(), 0, 'g', 12)));
    const Eigen::Vector2d v(at.qd[0], at.qd[1]);
    const double speed = ramp.launchSpeed();
    QVERIFY2(std::abs(v.norm() - speed) < 1e-8,
             qPrintable(QString("speed %1, energy says %2").arg(v.norm(), 0, 'g', 12).arg(speed)));
    // Along the ramp's end: α above the horizontal.
    QVERIFY(std::abs(std::atan2(v.y(), v.x()) - ramp.alpha) < 1e-8);
    // While on the ramp: on its circle, never inside it, and pressed against it.
    for (const TraceSample& s : r.trace.samples) {
        if (s.t >= leave[0])
            break;
        QVERIFY2(std::abs(ramp.aboveCircle(s.q[0], s.q[1])) < 1e-9,
                 qPrintable(QString("at t = %1 the block is %2 off the ramp")
                                .arg(s.t)
                                .arg(ramp.aboveCircle(s.q[0], s.q[1]))));
        QVERIFY(value(r.trace, s, "N_ramp") > 0.0);
    }
}

void TestContactGallery::blockFliesOffTheRampOnTheParabolaOfItsLaunchToApexAndLanding()
{
    const SceneDocument document = load("curved-ramp.json");
    const Ramp ramp;
    const Run r = run(document, {});
    const std::vector<double> leave = times(r.trace, ContactEvent::Kind::Leave, "ramp");
    const std::vector<double> lands = times(r.trace, ContactEvent::Kind::Impact, "floor");
    QCOMPARE(leave.size(), std::size_t(1));
    QCOMPARE(lands.size(), std::size_t(1));
    const double v = ramp.launchSpeed(), vx = v * std::cos(ramp.alpha),
                 vy = v * std::sin(ramp.alpha);
    QVERIFY2(std::abs(lands[0] - leave[0] - ramp.flightTime()) < 1e-9,
             qPrintable(QString("flight of %1 s, the parabola's %2 s")
                            .arg(lands[0] - leave[0], 0, 'g', 12)
                            .arg(ramp.flightTime(), 0, 'g', 12)));
    // The apex, vy/g after the launch, (v sin α)²/(2g) above the end.
    const Run apex = run(document, {}, leave[0] + vy / g);
    const TraceSample& top = apex.trace.samples.back();
    QVERIFY(std::abs(top.q[0] - (ramp.endX() + vx * vy / g)) < 1e-8);
    QVERIFY(std::abs(top.q[1] - (ramp.endY() + vy * vy / (2.0 * g))) < 1e-8);
    QVERIFY(std::abs(top.qd[1]) < 1e-8);
    // The landing point, on the floor vx τ beyond the end.
    const Run landing = run(document, {}, lands[0]);
    const TraceSample& down = landing.trace.samples.back();
    const double landX = ramp.endX() + vx * ramp.flightTime();
    QVERIFY2(std::abs(down.q[0] - landX) < 1e-8 && std::abs(down.q[1]) < 1e-9,
             qPrintable(QString("lands at x = %1, the parabola at %2")
                            .arg(down.q[0], 0, 'g', 12)
                            .arg(landX, 0, 'g', 12)));
    // No push in the air; a plastic landing takes the vertical kinetic energy m (vy² + 2 g y)/2,
    // then the block slides on at vx. Never below the floor; the audit closes throughout.
    const double m = document.parameters.at("m")[0];
    for (const TraceSample& s : r.trace.samples) {
        QVERIFY(s.q[1] >= -1e-9);
        QVERIFY(std::abs(s.E_error) < 1e-7);
        if (s.t > leave[0] && s.t < lands[0]) {
            QCOMPARE(value(r.trace, s, "N_ramp"), 0.0);
            QCOMPARE(value(r.trace, s, "N_floor"), 0.0);
        }
        if (s.t > lands[0]) {
            QVERIFY(std::abs(s.qd[0] - vx) < 1e-8 && std::abs(s.q[1]) < 1e-9);
            QVERIFY(std::abs(s.W_impact + 0.5 * m * (vy * vy + 2.0 * g * ramp.endY())) < 1e-7);
        }
    }
}

QTEST_APPLESS_MAIN(TestContactGallery)
#include "tst_ContactGallery.moc"
