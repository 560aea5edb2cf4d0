// The gallery of systems written as equations (scenes/systems/*.json), each loaded from its
// file, run with the file's own settings and checked against a reference that does not come
// from the engine: a closed form, a conservation law, or a reduced model in the physicist's
// own coordinates that the test integrates itself with odeint.
#include "SceneFile.h"
#include "integrate/Simulator.h"
#include "symbolic/SymbolicModel.h"

#include "../support/SceneRuns.h"

#include <QtTest>

#include <boost/numeric/odeint.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <limits>
#include <numbers>
#include <stdexcept>

using namespace clab;

class TestSystemGallery : public QObject {
    Q_OBJECT

private slots:
    void cycloidBeadWinsTheRaceAtTheClosedFormTime_data();
    void cycloidBeadWinsTheRaceAtTheClosedFormTime();
    void roughWiresSlowBothBeadsAsTheirReducedModelsSay();
    void sphericalPendulumKeepsItsAngularMomentumAboutTheVertical();
    void sphericalPendulumFollowsItsReducedModelInThePolarAngle();
    void sphericalPendulumAtTheConicalSpeedCirclesAtConstantHeight();
    void rotatingHoopAboveTheCriticalRateSwingsAboutItsOffAxisEquilibrium();
    void rotatingHoopBelowTheCriticalRateSwingsAboutTheBottom();
    void atwoodMachineAcceleratesAndPullsAsItsClosedFormSays_data();
    void atwoodMachineAcceleratesAndPullsAsItsClosedFormSays();
    void chaplyginSleighTradesItsSpinForForwardSpeedAsItsClosedFormSays_data();
    void chaplyginSleighTradesItsSpinForForwardSpeedAsItsClosedFormSays();
    void chaplyginSleighKeepsItsEnergyAndItsBladeConstraint();
    void rollingDiskCirclesAtConstantTiltWithTheSteadySpin();
    void rollingDiskFollowsItsNewtonEulerReducedModel_data();
    void rollingDiskFollowsItsNewtonEulerReducedModel();
};

namespace {

constexpr double pi = std::numbers::pi;
namespace odeint = boost::numeric::odeint;

SceneDocument load(const char* file)
{
    return SceneFile::load(QStringLiteral(CLAB_SOURCE_DIR "/scenes/systems/") +
                           QLatin1String(file));
}

double value(const ParameterValues& values, const std::string& name)
{
    return values.at(name).at(0);
}

// The document's parameter values with some changed; an unknown name throws (a typo fails).
ParameterValues with(const SceneDocument& document,
                     std::initializer_list<std::pair<std::string, double>> changes)
{
    ParameterValues values = document.parameters;
    for (const auto& [name, v] : changes)
        values.at(name) = {v};
    return values;
}

using Run = testing::DocumentRun;

Run run(const SceneDocument& document, const ParameterValues& values, double tEnd = 0.0)
{
    return testing::runDocument(document, values, tEnd);
}

Eigen::Index column(const MechanicalSystem& system, const std::string& name)
{
    const std::vector<std::string> names = system.extraColumnNames();
    const auto it = std::find(names.begin(), names.end(), name);
    if (it == names.end())
        throw std::runtime_error("no trace column " + name);
    return it - names.begin();
}

QString number(double v)
{
    return QString::number(v, 'g', 17);
}

// A reduced model integrated to 1e-13 with dense output, read at increasing times.
template <std::size_t N> class Reference {
public:
    using State = std::array<double, N>;
    using Rhs = std::function<void(const State&, State&, double)>;

    Reference(Rhs rhs, const State& start)
        : rhs_(std::move(rhs)),
          stepper_(odeint::make_dense_output(1e-13, 1e-13, odeint::runge_kutta_dopri5<State>()))
    {
        stepper_.initialize(start, 0.0, 1e-5);
    }

    State at(double t)
    {
        while (stepper_.current_time() < t)
            stepper_.do_step(rhs_);
        State s;
        stepper_.calc_state(t, s);
        return s;
    }

    // The first time after the current step at which component i rises through `level`,
    // located by bisection on the dense output.
    double crossing(std::size_t i, double level)
    {
        while (stepper_.current_state()[i] < level)
            stepper_.do_step(rhs_);
        double lo = stepper_.previous_time(), hi = stepper_.current_time();
        State s;
        for (int k = 0; k < 200 && hi - lo > 1e-15; ++k) {
            const double mid = (lo + hi) / 2;
            stepper_.calc_state(mid, s);
            (s[i] < level ? lo : hi) = mid;
        }
        return (lo + hi) / 2;
    }

private:
    Rhs rhs_;
    typename odeint::result_of::make_dense_output<odeint::runge_kutta_dopri5<State>>::type stepper_;
};

// --- Brachistochrone ---

// The time at which the file's system, with its "end" replaced by `end`, first reaches it.
double arrival(const SceneDocument& document, const ParameterValues& values, const std::string& end)
{
    SystemDescription description = document.system->description();
    description.end = end;
    const auto model = SymbolicModel::create(description);
    const auto system = model->definition().create(values);
    SimulationOptions options = document.simulation;
    options.tEnd = 20.0;
    options.stopAtEnd = true;
    const Trace trace = Simulator(*system).run(options);
    return trace.reachedEnd ? trace.samples.back().t : std::numeric_limits<double>::quiet_NaN();
}

// The straight wire from the start on the cycloid, (R(φ0 − sin φ0), −R(1 − cos φ0)), to its
// lowest point (πR, −2R): its length L and sin α of its slope.
struct Chord {
    double length, sinAlpha, cosAlpha;
};

Chord chord(double R, double phi0)
{
    const double dx = pi * R - R * (phi0 - std::sin(phi0));
    const double dy = 2 * R - R * (1 - std::cos(phi0));
    const double L = std::hypot(dx, dy);
    return {L, dy / L, dx / L};
}

// --- Rotating hoop ---

// The bead's angle from the bottom in the hoop's turning plane, from its Cartesian position.
double hoopAngle(const TraceSample& s, double w)
{
    const double rho = s.q[0] * std::cos(w * s.t) + s.q[1] * std::sin(w * s.t);
    return std::atan2(rho, -s.q[2]);
}

// The bead on the hoop in its angle alone (Lagrange in the turning frame):
// θ'' = sin θ (ω² cos θ − g/R). Compares every sample's angle; returns the largest difference.
double hoopAgainstReducedModel(const Trace& trace, double R, double w, double g, double theta0)
{
    Reference<2> reference(
        [&](const auto& s, auto& ds, double) {
            ds = {s[1], std::sin(s[0]) * (w * w * std::cos(s[0]) - g / R)};
        },
        {theta0, 0.0});
    double worst = 0.0;
    for (const TraceSample& s : trace.samples)
        worst = std::max(worst, std::abs(hoopAngle(s, w) - reference.at(s.t)[0]));
    return worst;
}

// Mean of the angle over whole swings: from the first to the last local maximum.
struct Swing {
    double mean, low, high;
};

Swing swing(const Trace& trace, double w)
{
    std::vector<double> theta;
    for (const TraceSample& s : trace.samples)
        theta.push_back(hoopAngle(s, w));
    std::vector<std::size_t> maxima;
    for (std::size_t i = 1; i + 1 < theta.size(); ++i)
        if (theta[i] > theta[i - 1] && theta[i] >= theta[i + 1])
            maxima.push_back(i);
    if (maxima.size() < 3)
        throw std::runtime_error("fewer than two whole swings");
    double sum = 0.0;
    for (std::size_t i = maxima.front(); i < maxima.back(); ++i)
        sum += theta[i];
    return {sum / static_cast<double>(maxima.back() - maxima.front()),
            *std::min_element(theta.begin(), theta.end()),
            *std::max_element(theta.begin(), theta.end())};
}

// The Jacobi integral of the bead in the turning frame: ½ m |v_rel|² − ½ m ω² ρ² + m g z.
double jacobiIntegral(const TraceSample& s, double m, double w, double g)
{
    const Eigen::Vector3d r = s.q.head<3>(), v = s.qd.head<3>();
    const Eigen::Vector3d relative = v - Eigen::Vector3d(0, 0, w).cross(r);
    return m * relative.squaredNorm() / 2 - m * w * w * (r[0] * r[0] + r[1] * r[1]) / 2 +
           m * g * r[2];
}

} // namespace

void TestSystemGallery::cycloidBeadWinsTheRaceAtTheClosedFormTime_data()
{
    QTest::addColumn<double>("R");
    QTest::addColumn<double>("phi0");
    QTest::addColumn<double>("g");
    QTest::newRow("from just below the cusp") << 1.0 << 0.01 << 9.81;
    // The cycloid is also the tautochrone: from rest anywhere on it, the same time.
    QTest::newRow("from a third of the way down the arch") << 1.0 << 1.0 << 9.81;
    QTest::newRow("a larger wire on the Moon") << 2.5 << 0.01 << 1.62;
}

void TestSystemGallery::cycloidBeadWinsTheRaceAtTheClosedFormTime()
{
    QFETCH(double, R);
    QFETCH(double, phi0);
    QFETCH(double, g);
    const SceneDocument document = load("brachistochrone.json");
    QVERIFY(document.system);
    QCOMPARE(value(document.parameters, "mu"), 0.0);
    const ParameterValues values = with(document, {{"R", R}, {"phi0", phi0}, {"g", g}});

    // Each bead's own arrival at the end point x = πR, located by the engine like the file's end.
    const double tCycloid = arrival(document, values, "pi*R - x1");
    const double tChord = arrival(document, values, "pi*R - x2");
    // Closed forms: on the cycloid s'' = −(g/4R) s in the arc length from the bottom, a quarter
    // period π√(R/g) from rest anywhere; on the straight wire a constant g sin α over L.
    const double cycloidTime = pi * std::sqrt(R / g);
    const Chord c = chord(R, phi0);
    const double chordTime = std::sqrt(2 * c.length / (g * c.sinAlpha));
    qInfo("cycloid %.15f s (closed form %.15f), chord %.15f s (closed form %.15f)", tCycloid,
          cycloidTime, tChord, chordTime);
    QVERIFY2(std::abs(tCycloid - cycloidTime) <= 1e-6,
             qPrintable(number(tCycloid) + " vs " + number(cycloidTime)));
    QVERIFY2(std::abs(tChord - chordTime) <= 1e-6,
             qPrintable(number(tChord) + " vs " + number(chordTime)));
    QVERIFY(tCycloid < tChord);

    // The file's own run: the race ends when the second bead, the one on the straight wire,
    // arrives; the cycloid bead is lower (so faster) all the way and is past the bottom by then.
    const Run race = run(document, values);
    QVERIFY(race.trace.reachedEnd);
    const TraceSample& last = race.trace.samples.back();
    QVERIFY2(std::abs(last.t - tChord) <= 1e-8, qPrintable(number(last.t)));
    QVERIFY(std::abs(last.q[3] - pi * R) <= 1e-8 && last.q[0] > pi * R);
    for (const TraceSample& s : race.trace.samples)
        if (s.t > 0 && s.t <= tCycloid)
            QVERIFY2(s.q[1] < s.q[4], qPrintable(QStringLiteral("at t = %1").arg(s.t)));
}

void TestSystemGallery::roughWiresSlowBothBeadsAsTheirReducedModelsSay()
{
    const SceneDocument document = load("brachistochrone.json");
    const double R = 1.0, phi0 = 0.01, g = 9.81, mu = 0.2;
    const ParameterValues values =
        with(document, {{"R", R}, {"phi0", phi0}, {"g", g}, {"mu", mu}, {"mu_s", mu}});
    const double tCycloid = arrival(document, values, "pi*R - x1");
    const double tChord = arrival(document, values, "pi*R - x2");

    // Straight wire: the inclined plane, g (sin α − μ cos α) along it.
    const Chord c = chord(R, phi0);
    const double chordTime = std::sqrt(2 * c.length / (g * (c.sinAlpha - mu * c.cosAlpha)));
    // Cycloid: the bead in (φ, v) by hand. The tangent is (sin φ/2, −cos φ/2), ds/dφ = 2R sin φ/2,
    // the curvature 1/(4R sin φ/2) toward the inside normal (cos φ/2, sin φ/2), so the wire
    // pushes with N = m (v²/(4R sin φ/2) + g sin φ/2) and v' = g cos φ/2 − μ N/m while it slides.
    Reference<2> bead(
        [&](const auto& s, auto& ds, double) {
            const double half = std::sin(s[0] / 2);
            ds = {s[1] / (2 * R * half),
                  g * std::cos(s[0] / 2) - mu * (s[1] * s[1] / (4 * R * half) + g * half)};
        },
        {phi0, 0.0});
    const double cycloidTime = bead.crossing(0, pi);
    qInfo("with mu = %.1f: cycloid %.15f s (reduced model %.15f), chord %.15f s (closed form "
          "%.15f)",
          mu, tCycloid, cycloidTime, tChord, chordTime);
    QVERIFY2(std::abs(tCycloid - cycloidTime) <= 1e-6,
             qPrintable(number(tCycloid) + " vs " + number(cycloidTime)));
    QVERIFY2(std::abs(tChord - chordTime) <= 1e-6,
             qPrintable(number(tChord) + " vs " + number(chordTime)));
    QVERIFY(tCycloid < tChord);
    QVERIFY(tCycloid > pi * std::sqrt(R / g)); // friction costs time
}

void TestSystemGallery::sphericalPendulumKeepsItsAngularMomentumAboutTheVertical()
{
    const SceneDocument document = load("spherical-pendulum.json");
    QVERIFY(document.system);
    const Run r = run(document, document.parameters);
    QCOMPARE(r.trace.samples.back().t, 10.0);
    const double m = value(document.parameters, "m"), l = value(document.parameters, "l");
    const double g = value(document.parameters, "g");
    const double theta0 = value(document.parameters, "theta0_deg") * pi / 180;
    const double v0 = value(document.parameters, "v0");
    const Eigen::Index Lz = column(*r.system, "L_z");
    // Gravity and the rod's pull exert no torque about the vertical: L_z stays m l sin θ0 v0.
    const double L0 = m * l * std::sin(theta0) * v0;
    const double E0 = r.trace.samples.front().E;
    double worstL = 0.0, worstE = 0.0, widest = 0.0;
    for (const TraceSample& s : r.trace.samples) {
        const double L = m * (s.q[0] * s.qd[1] - s.q[1] * s.qd[0]);
        QVERIFY(std::abs(s.extra[Lz] - L) <= 1e-12);
        worstL = std::max(worstL, std::abs(L - L0));
        // E = ½ m |v|² + m g z with nothing added or taken away.
        const double E = m * s.qd.squaredNorm() / 2 + m * g * s.q[2];
        QVERIFY(std::abs(s.E - E) <= 1e-12);
        worstE = std::max(worstE, std::abs(E - E0));
        widest = std::max(widest, std::abs(s.q[1]));
    }
    qInfo("over 10 s: |L_z - L_z(0)| <= %.3g (L_z(0) = %.6f), |E - E(0)| <= %.3g", worstL, L0,
          worstE);
    QVERIFY(widest > 0.5 * l); // it really swings out of its starting plane
    QVERIFY2(worstL < 1e-8, qPrintable(number(worstL)));
    QVERIFY2(worstE < 1e-8, qPrintable(number(worstE)));
}

void TestSystemGallery::sphericalPendulumFollowsItsReducedModelInThePolarAngle()
{
    const SceneDocument document = load("spherical-pendulum.json");
    const Run r = run(document, document.parameters);
    const double m = value(document.parameters, "m"), l = value(document.parameters, "l");
    const double g = value(document.parameters, "g");
    const double theta0 = value(document.parameters, "theta0_deg") * pi / 180;
    const double L = m * l * std::sin(theta0) * value(document.parameters, "v0");
    // Lagrange in the polar angle θ from the downward vertical and the azimuth ϕ, with
    // ϕ' = L / (m l² sin²θ) from the conserved L_z:  θ'' = sin θ cos θ ϕ'² − (g/l) sin θ.
    Reference<3> reference(
        [&](const auto& s, auto& ds, double) {
            const double sn = std::sin(s[0]), phiDot = L / (m * l * l * sn * sn);
            ds = {s[1], sn * std::cos(s[0]) * phiDot * phiDot - g / l * sn, phiDot};
        },
        {theta0, 0.0, 0.0});
    double worst = 0.0;
    for (const TraceSample& s : r.trace.samples) {
        const auto at = reference.at(s.t);
        const Eigen::Vector3d p(l * std::sin(at[0]) * std::cos(at[2]),
                                l * std::sin(at[0]) * std::sin(at[2]), -l * std::cos(at[0]));
        worst = std::max(worst, (s.q - p).norm());
    }
    qInfo("largest distance from the reduced model over 10 s: %.3g m", worst);
    QVERIFY2(worst < 1e-7, qPrintable(number(worst)));
}

void TestSystemGallery::sphericalPendulumAtTheConicalSpeedCirclesAtConstantHeight()
{
    const SceneDocument document = load("spherical-pendulum.json");
    const double l = value(document.parameters, "l"), g = value(document.parameters, "g");
    const double theta0 = value(document.parameters, "theta0_deg") * pi / 180;
    // The conical pendulum: at v0 = √(g l sin θ tan θ) the bob circles at Ω = √(g / (l cos θ)).
    const double v0 = std::sqrt(g * l * std::sin(theta0) * std::tan(theta0));
    const double Omega = std::sqrt(g / (l * std::cos(theta0)));
    const Run r = run(document, with(document, {{"v0", v0}}));
    double worst = 0.0;
    for (const TraceSample& s : r.trace.samples) {
        const Eigen::Vector3d p(l * std::sin(theta0) * std::cos(Omega * s.t),
                                l * std::sin(theta0) * std::sin(Omega * s.t),
                                -l * std::cos(theta0));
        worst = std::max(worst, (s.q - p).norm());
    }
    qInfo("conical pendulum: largest distance from the circle over 10 s: %.3g m", worst);
    QVERIFY2(worst < 1e-7, qPrintable(number(worst)));
}

void TestSystemGallery::rotatingHoopAboveTheCriticalRateSwingsAboutItsOffAxisEquilibrium()
{
    const SceneDocument document = load("rotating-hoop.json");
    QVERIFY(document.system);
    const double R = value(document.parameters, "R"), g = value(document.parameters, "g");
    const double m = value(document.parameters, "m"), w = value(document.parameters, "w");
    QVERIFY(w * w > g / R);
    const double thetaStar = std::acos(g / (w * w * R));
    const double theta0 = thetaStar + 0.1; // a tenth of a radian off, at rest on the hoop
    const Run r = run(document, with(document, {{"theta0_deg", theta0 * 180 / pi}}), 20.0);
    const Eigen::Index theta = column(*r.system, "theta");
    const double h0 = jacobiIntegral(r.trace.samples.front(), m, w, g);
    double worstH = 0.0;
    for (const TraceSample& s : r.trace.samples) {
        QVERIFY(std::abs(s.extra[theta] - hoopAngle(s, w)) <= 1e-12);
        worstH = std::max(worstH, std::abs(jacobiIntegral(s, m, w, g) - h0));
    }
    const Swing sw = swing(r.trace, w);
    const double worst = hoopAgainstReducedModel(r.trace, R, w, g, theta0);
    qInfo("w = %.1f rad/s: theta* = %.6f rad, mean %.6f rad (%.3f %% off), swings %.4f..%.4f; "
          "reduced model within %.3g rad, Jacobi integral within %.3g J",
          w, thetaStar, sw.mean, 100 * std::abs(sw.mean / thetaStar - 1), sw.low, sw.high, worst,
          worstH);
    QVERIFY2(std::abs(sw.mean - thetaStar) <= 0.02 * thetaStar, qPrintable(number(sw.mean)));
    QVERIFY(sw.low > 0 && sw.low < thetaStar && sw.high > thetaStar); // never near the bottom
    QVERIFY2(worst < 1e-7, qPrintable(number(worst)));
    QVERIFY2(worstH < 1e-9, qPrintable(number(worstH)));
}

void TestSystemGallery::rotatingHoopBelowTheCriticalRateSwingsAboutTheBottom()
{
    const SceneDocument document = load("rotating-hoop.json");
    const double R = value(document.parameters, "R"), g = value(document.parameters, "g");
    const double m = value(document.parameters, "m");
    // The start of the test above (a tenth of a radian beyond θ* at the file's rate), with the
    // hoop turning at half the file's rate, below the critical √(g/R).
    const double fast = value(document.parameters, "w"), w = fast / 2;
    QVERIFY(w * w < g / R);
    const double theta0 = std::acos(g / (fast * fast * R)) + 0.1;
    const Run r =
        run(document, with(document, {{"w", w}, {"theta0_deg", theta0 * 180 / pi}}), 20.0);
    const double h0 = jacobiIntegral(r.trace.samples.front(), m, w, g);
    double worstH = 0.0;
    for (const TraceSample& s : r.trace.samples)
        worstH = std::max(worstH, std::abs(jacobiIntegral(s, m, w, g) - h0));
    const Swing sw = swing(r.trace, w);
    const double worst = hoopAgainstReducedModel(r.trace, R, w, g, theta0);
    qInfo("w = %.1f rad/s: mean %.6f rad, swings %.4f..%.4f (start %.4f); reduced model within "
          "%.3g rad, Jacobi integral within %.3g J",
          w, sw.mean, sw.low, sw.high, theta0, worst, worstH);
    // Symmetric swings through the bottom, from θ0 to −θ0 and back.
    QVERIFY2(std::abs(sw.mean) <= 0.02 * theta0, qPrintable(number(sw.mean)));
    QVERIFY(std::abs(sw.low + theta0) <= 1e-3 && std::abs(sw.high - theta0) <= 1e-3);
    QVERIFY2(worst < 1e-7, qPrintable(number(worst)));
    QVERIFY2(worstH < 1e-9, qPrintable(number(worstH)));
}

void TestSystemGallery::atwoodMachineAcceleratesAndPullsAsItsClosedFormSays_data()
{
    QTest::addColumn<double>("m1");
    QTest::addColumn<double>("m2");
    QTest::newRow("the file's nearly equal masses") << 1.2 << 1.0;
    QTest::newRow("the heavier mass on the right") << 1.0 << 3.0;
    QTest::newRow("ten times heavier") << 5.0 << 0.5;
}

void TestSystemGallery::atwoodMachineAcceleratesAndPullsAsItsClosedFormSays()
{
    QFETCH(double, m1);
    QFETCH(double, m2);
    const SceneDocument document = load("atwood-machine.json");
    QVERIFY(document.system);
    const ParameterValues values = with(document, {{"m1", m1}, {"m2", m2}});
    const Run r = run(document, values);
    const double g = value(values, "g"), ell = value(values, "ell"), radius = value(values, "r");
    QCOMPARE(value(values, "v0"), 0.0);
    const double a = g * (m1 - m2) / (m1 + m2);         // the left mass sinks at a
    const double tension = 2 * m1 * m2 * g / (m1 + m2); // the string pulls each mass up
    const Eigen::Index N = column(*r.system, "N_string");
    double worstA = 0.0, worstY = 0.0, worstPull = 0.0, worstN = 0.0;
    for (const TraceSample& s : r.trace.samples) {
        worstA = std::max({worstA, std::abs(s.qdd[0] + a), std::abs(s.qdd[1] - a)});
        worstY = std::max(worstY, std::abs(s.q[0] - (-ell / 2 - a * s.t * s.t / 2)));
        worstPull =
            std::max({worstPull, std::abs(s.Qci[0] - tension), std::abs(s.Qci[1] - tension)});
        // N is |λ| ‖A_row‖ with A_row = (1, 1): the string acts on both masses, √2 × the tension.
        worstN = std::max(worstN, std::abs(s.extra[N] - std::sqrt(2.0) * tension));
    }
    // The run ends when the rising mass reaches the pulley, ell/2 − r above its start.
    QVERIFY(r.trace.reachedEnd);
    const double tEnd = std::sqrt(2 * (ell / 2 - radius) / std::abs(a));
    qInfo("a = %.6f m/s², tension %.6f N: acceleration within %.3g, position within %.3g, pull "
          "within %.3g, N_string within %.3g of √2 × tension; the end at %.15f s (closed form "
          "%.15f)",
          a, tension, worstA, worstY, worstPull, worstN, r.trace.samples.back().t, tEnd);
    QVERIFY2(worstA <= 1e-10, qPrintable(number(worstA)));
    QVERIFY2(worstY <= 1e-10, qPrintable(number(worstY)));
    QVERIFY2(worstPull <= 1e-10 * tension, qPrintable(number(worstPull)));
    QVERIFY2(worstN <= 1e-10 * tension, qPrintable(number(worstN)));
    QVERIFY2(std::abs(r.trace.samples.back().t - tEnd) <= 1e-9,
             qPrintable(number(r.trace.samples.back().t)));
}

void TestSystemGallery::chaplyginSleighTradesItsSpinForForwardSpeedAsItsClosedFormSays_data()
{
    QTest::addColumn<double>("u0");
    QTest::addColumn<double>("w0");
    QTest::addColumn<double>("a");
    QTest::newRow("the file's push and spin") << 0.2 << 2.0 << 0.3;
    QTest::newRow("started backwards, it turns round") << -0.5 << -1.5 << 0.3;
    QTest::newRow("blade ahead of the centre of mass") << 0.2 << 2.0 << -0.3;
}

void TestSystemGallery::chaplyginSleighTradesItsSpinForForwardSpeedAsItsClosedFormSays()
{
    QFETCH(double, u0);
    QFETCH(double, w0);
    QFETCH(double, a);
    const SceneDocument document = load("chaplygin-sleigh.json");
    QVERIFY(document.system);
    const ParameterValues values = with(document, {{"u0", u0}, {"w0", w0}, {"a", a}});
    const Run r = run(document, values);
    const double m = value(values, "m"), J = value(values, "J");

    // Reference, derived by hand. In body axes, with u the forward speed of the centre of mass,
    // ω = θ' and the blade a behind the centre, the blade allows no sideways slip at the blade:
    // the centre moves sideways at aω. The blade's sideways force λ gives
    //     m (u' − aω·ω) = 0,   m (aω' + uω) = λ,   J ω' = −a λ,
    // so u' = a ω² and (J + m a²) ω' = −m a u ω. With I = J + m a², the energy m u² + I ω² =
    // m u∞² is constant, and
    //     u = u∞ tanh(k t + c),   ω = sgn(ω0) √(m/I) u∞ sech(k t + c),
    //     θ = sgn(ω0) √(I/m)/a (gd(k t + c) − gd(c)),   k = a m u∞ / I,  c = atanh(u0/u∞),
    // with gd(z) = atan(sinh z). The centre's path x' = u cos θ − aω sin θ, y' = u sin θ +
    // aω cos θ is integrated here with odeint.
    const double I = J + m * a * a;
    const double uInf = std::sqrt(u0 * u0 + I / m * w0 * w0);
    const double k = a * m * uInf / I, c = std::atanh(u0 / uInf), sign = w0 > 0 ? 1.0 : -1.0;
    const auto u = [&](double t) {
        return uInf * std::tanh(k * t + c);
    };
    const auto omega = [&](double t) {
        return sign * std::sqrt(m / I) * uInf / std::cosh(k * t + c);
    };
    const auto theta = [&](double t) {
        return sign * std::sqrt(I / m) / a *
               (std::atan(std::sinh(k * t + c)) - std::atan(std::sinh(c)));
    };
    Reference<2> centre(
        [&](const auto&, auto& ds, double t) {
            const double th = theta(t), v = u(t), aw = a * omega(t);
            ds = {v * std::cos(th) - aw * std::sin(th), v * std::sin(th) + aw * std::cos(th)};
        },
        {0.0, 0.0});
    double worstSpeed = 0.0, worstAngle = 0.0, worstPath = 0.0;
    for (const TraceSample& s : r.trace.samples) {
        const double th = s.q[2];
        const double forward = s.qd[0] * std::cos(th) + s.qd[1] * std::sin(th);
        worstSpeed =
            std::max({worstSpeed, std::abs(forward - u(s.t)), std::abs(s.qd[2] - omega(s.t))});
        worstAngle = std::max(worstAngle, std::abs(th - theta(s.t)));
        const auto at = centre.at(s.t);
        worstPath = std::max(worstPath, std::hypot(s.q[0] - at[0], s.q[1] - at[1]));
    }
    const TraceSample& last = r.trace.samples.back();
    qInfo("u0 = %.2f, w0 = %.2f, a = %.2f: u %.12f -> %.12f (closed form %.12f); speeds within "
          "%.3g, heading within %.3g rad, path within %.3g m",
          u0, w0, a, u0, last.extra[column(*r.system, "u")], u(last.t), worstSpeed, worstAngle,
          worstPath);
    QVERIFY2(worstSpeed < 1e-8, qPrintable(number(worstSpeed)));
    QVERIFY2(worstAngle < 1e-8, qPrintable(number(worstAngle)));
    QVERIFY2(worstPath < 1e-7, qPrintable(number(worstPath)));
    // In the end it slides along its axis, blade trailing, at u∞ (forwards when a > 0).
    QVERIFY(std::abs(last.qd[2]) < 1e-6 * std::abs(w0));
    QVERIFY(std::abs(last.extra[column(*r.system, "u")] - (a > 0 ? uInf : -uInf)) < 1e-6);
}

void TestSystemGallery::chaplyginSleighKeepsItsEnergyAndItsBladeConstraint()
{
    const SceneDocument document = load("chaplygin-sleigh.json");
    const Run r = run(document, document.parameters);
    const double m = value(document.parameters, "m"), J = value(document.parameters, "J");
    const double a = value(document.parameters, "a"), u0 = value(document.parameters, "u0");
    const double w0 = value(document.parameters, "w0");
    // ½ m |v|² + ½ J ω² with the centre moving at (u0, a w0) in body axes.
    const double E0 = m * (u0 * u0 + a * a * w0 * w0) / 2 + J * w0 * w0 / 2;
    double worstE = 0.0, worstSlip = 0.0, worstResidual = 0.0;
    for (const TraceSample& s : r.trace.samples) {
        const double E =
            m * (s.qd[0] * s.qd[0] + s.qd[1] * s.qd[1]) / 2 + J * s.qd[2] * s.qd[2] / 2;
        worstE = std::max(worstE, std::abs(E - E0));
        // The blade's sideways velocity, at the blade (a behind the centre).
        const double th = s.q[2];
        const double slip = -(s.qd[0] + a * std::sin(th) * s.qd[2]) * std::sin(th) +
                            (s.qd[1] - a * std::cos(th) * s.qd[2]) * std::cos(th);
        worstSlip = std::max(worstSlip, std::abs(slip));
        worstResidual = std::max(worstResidual, s.residualMax);
    }
    // The energy moved from the spin into the forward motion.
    const TraceSample& last = r.trace.samples.back();
    const double spinShare = J * last.qd[2] * last.qd[2] / 2 / E0;
    qInfo("over %.0f s: |E - E(0)| <= %.3g (E(0) = %.6f J), blade slip <= %.3g m/s, engine "
          "residual <= %.3g; spin energy at the end %.3g of E",
          last.t, worstE, E0, worstSlip, worstResidual, spinShare);
    QVERIFY2(worstE < 1e-9, qPrintable(number(worstE)));
    QVERIFY2(worstSlip < 1e-9, qPrintable(number(worstSlip)));
    QVERIFY2(worstResidual < 1e-9, qPrintable(number(worstResidual)));
    QVERIFY(spinShare < 1e-12);
}

namespace {

// The rolling disk by Newton–Euler, derived by hand in the frame (e1, n, u) that turns with the
// heading ψ and the tilt θ but not with the spin: e1 = (cos ψ, sin ψ, 0) the horizontal
// diameter, n the disk's axis, u from the contact point to the centre. With w3 = φ' + ψ' sin θ the
// spin about the axis, the centre moves at r (w3 e1 − θ' n); momentum and angular momentum about
// the centre (moments I1 = m r²/4, I3 = m r²/2), with the contact force eliminated, give
//     (I1 + m r²) θ'' = −I1 ψ'² sin θ cos θ + (I3 + m r²) ψ' w3 cos θ + m g r sin θ
//     I1 cos θ ψ''     = 2 I1 ψ' θ' sin θ − I3 θ' w3
//     (I3 + m r²) w3'  = −m r² ψ' θ' cos θ
// and the centre's path x' = r w3 cos ψ + r θ' cos θ sin ψ, y' = r w3 sin ψ − r θ' cos θ cos ψ.
// State: θ, θ', ψ, ψ', w3, φ, x, y.
struct Disk {
    double m, r, g;

    void operator()(const std::array<double, 8>& s, std::array<double, 8>& ds, double) const
    {
        const double I1 = m * r * r / 4, I3 = m * r * r / 2;
        const double sn = std::sin(s[0]), cs = std::cos(s[0]);
        const double thetaDot = s[1], psiDot = s[3], w3 = s[4];
        ds[0] = thetaDot;
        ds[1] = (-I1 * psiDot * psiDot * sn * cs + (I3 + m * r * r) * psiDot * w3 * cs +
                 m * g * r * sn) /
                (I1 + m * r * r);
        ds[2] = psiDot;
        ds[3] = (2 * I1 * psiDot * thetaDot * sn - I3 * thetaDot * w3) / (I1 * cs);
        ds[4] = -m * r * r * psiDot * thetaDot * cs / (I3 + m * r * r);
        ds[5] = w3 - psiDot * sn;
        ds[6] = r * w3 * std::cos(s[2]) + r * thetaDot * cs * std::sin(s[2]);
        ds[7] = r * w3 * std::sin(s[2]) - r * thetaDot * cs * std::cos(s[2]);
    }

    // The spin w3 at which the disk rolls round a circle at a constant tilt θ turning at Ω:
    // θ'' = 0 above with θ' = 0.
    double steadySpin(double theta, double Omega) const
    {
        const double I1 = m * r * r / 4, I3 = m * r * r / 2;
        return std::sin(theta) * (I1 * Omega * Omega * std::cos(theta) - m * g * r) /
               ((I3 + m * r * r) * Omega * std::cos(theta));
    }
};

} // namespace

void TestSystemGallery::rollingDiskCirclesAtConstantTiltWithTheSteadySpin()
{
    const SceneDocument document = load("rolling-disk.json");
    QVERIFY(document.system);
    QCOMPARE(value(document.parameters, "wobble0"), 0.0);
    const Run r = run(document, document.parameters);
    const Disk disk{value(document.parameters, "m"), value(document.parameters, "r"),
                    value(document.parameters, "g")};
    const double theta0 = value(document.parameters, "tilt0_deg") * pi / 180;
    const double Omega = value(document.parameters, "turn0");
    const double w3 = disk.steadySpin(theta0, Omega);
    // Steady: the tilt and the rates stay, the centre goes round a circle of radius r w3 / Ω.
    const double radius = disk.r * w3 / Omega;
    const Eigen::Index spin = column(*r.system, "spin");
    double worstAngle = 0.0, worstRate = 0.0, worstPath = 0.0;
    for (const TraceSample& s : r.trace.samples) {
        worstAngle =
            std::max({worstAngle, std::abs(s.q[4] - theta0), std::abs(s.q[3] - Omega * s.t)});
        worstRate = std::max({worstRate, std::abs(s.qd[3] - Omega), std::abs(s.extra[spin] - w3)});
        worstPath = std::max(worstPath, std::hypot(s.q[0] - radius * std::sin(Omega * s.t),
                                                   s.q[1] - radius * (1 - std::cos(Omega * s.t))));
    }
    qInfo("tilt %.4f rad, turning %.1f rad/s, steady spin %.12f rad/s: angles within %.3g rad, "
          "rates within %.3g rad/s, centre within %.3g m of its circle (radius %.6f m) over %.0f s",
          theta0, Omega, w3, worstAngle, worstRate, worstPath, std::abs(radius),
          r.trace.samples.back().t);
    QVERIFY2(worstAngle < 1e-8, qPrintable(number(worstAngle)));
    QVERIFY2(worstRate < 1e-8, qPrintable(number(worstRate)));
    QVERIFY2(worstPath < 1e-8, qPrintable(number(worstPath)));
}

void TestSystemGallery::rollingDiskFollowsItsNewtonEulerReducedModel_data()
{
    QTest::addColumn<double>("tilt0_deg");
    QTest::addColumn<double>("turn0");
    QTest::addColumn<double>("wobble0");
    QTest::newRow("a gentle wobble") << 20.0 << 3.0 << 1.0;
    QTest::newRow("a wobble through the upright") << 20.0 << 3.0 << 3.0;
    QTest::newRow("leaning the other way, turning the other way") << -30.0 << -2.0 << 0.5;
}

void TestSystemGallery::rollingDiskFollowsItsNewtonEulerReducedModel()
{
    QFETCH(double, tilt0_deg);
    QFETCH(double, turn0);
    QFETCH(double, wobble0);
    const SceneDocument document = load("rolling-disk.json");
    const ParameterValues values =
        with(document, {{"tilt0_deg", tilt0_deg}, {"turn0", turn0}, {"wobble0", wobble0}});
    const Run r = run(document, values);
    const Disk disk{value(values, "m"), value(values, "r"), value(values, "g")};
    const double theta0 = tilt0_deg * pi / 180;
    Reference<8> reference(
        disk, {theta0, wobble0, 0.0, turn0, disk.steadySpin(theta0, turn0), 0.0, 0.0, 0.0});
    const double E0 = r.trace.samples.front().E;
    double worstAngle = 0.0, worstPath = 0.0, worstE = 0.0, worstResidual = 0.0;
    for (const TraceSample& s : r.trace.samples) {
        const auto at = reference.at(s.t);
        worstAngle = std::max({worstAngle, std::abs(s.q[4] - at[0]), std::abs(s.q[3] - at[2]),
                               std::abs(s.q[5] - at[5])});
        worstPath = std::max({worstPath, std::hypot(s.q[0] - at[6], s.q[1] - at[7]),
                              std::abs(s.q[2] - disk.r * std::cos(at[0]))});
        worstE = std::max(worstE, std::abs(s.E - E0));
        worstResidual = std::max(worstResidual, s.residualMax);
        QVERIFY(std::abs(s.q[4]) < pi / 2); // it has not fallen over
    }
    qInfo("angles within %.3g rad, centre within %.3g m of the reduced model; |E - E(0)| <= %.3g "
          "(E(0) = %.6f J), constraint residual <= %.3g",
          worstAngle, worstPath, worstE, E0, worstResidual);
    QVERIFY2(worstAngle < 1e-7, qPrintable(number(worstAngle)));
    QVERIFY2(worstPath < 1e-7, qPrintable(number(worstPath)));
    // Rolling without slipping does no work.
    QVERIFY2(worstE < 1e-9, qPrintable(number(worstE)));
    QVERIFY2(worstResidual < 1e-9, qPrintable(number(worstResidual)));
}

QTEST_APPLESS_MAIN(TestSystemGallery)
#include "tst_SystemGallery.moc"
