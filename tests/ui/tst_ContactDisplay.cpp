// One-sided contacts in the desktop application (issue 29, docs/MATH.md §11), on the built-in
// bouncing ball and particle off a sphere: the Forces dock says whether each contact is open,
// closed or just struck; the energy audit plots W_impact and its balance closes through the
// impacts; plots against time mark each event with a vertical line, and the trail marks where
// it happened; each impact shows its impulse m (1 + e) v⁻ briefly as an arrow. The ball's
// impacts come at t₁ = √(2h₀/g), t₁ + 2e t₁, …, and it lies still from t₁(1 + e)/(1 − e) on.

#include "../support/ContactEventTimes.h"
#include <MainWindow.h>
#include <SceneFile.h>
#include <panels/ContactReadouts.h>
#include <panels/ForcesPanel.h>
#include <panels/PlotsPanel.h>
#include <plots/PlotChart.h>
#include <plots/PlotData.h>
#include <session/PlaybackClock.h>
#include <trace/PlotCatalog.h>
#include <view3d/ContactMarks.h>
#include <view3d/ImpulseArrow.h>
#include <view3d/SceneView.h>
#include <view3d/geometry/SceneGeometry.h>

#include <QTest>

#include <vtkChartXY.h>
#include <vtkPlot.h>
#include <vtkRenderer.h>
#include <vtkTable.h>

#include "../support/MainWindowFixture.h"
#include "../support/SceneRuns.h"

#include <cmath>

using namespace clab;

using clab::testing::eventTimes;

namespace {

[[maybe_unused]] const bool surfaceFormatSet = testing::setSurfaceFormat();

constexpr int timeout = 60000;
constexpr double g = 9.81, h0 = 1.0, e = 0.5, m = 0.1; // the ball's defaults
const double t1 = std::sqrt(2.0 * h0 / g);

SceneDocument systemFile(const char* file)
{
    return SceneFile::load(QStringLiteral(CLAB_SOURCE_DIR "/scenes/systems/") +
                           QLatin1String(file));
}

/// The chart's plot labelled `label`, or null.
vtkPlot* plotLabelled(vtkChartXY* chart, const char* label)
{
    for (vtkIdType i = 0; i < chart->GetNumberOfPlots(); ++i)
        if (std::string(chart->GetPlot(i)->GetLabel()) == label)
            return chart->GetPlot(i);
    return nullptr;
}

} // namespace

class ContactDisplayTest : public QObject {
    Q_OBJECT

private:
    testing::IsolatedSettings settings_;
    std::unique_ptr<MainWindow> window_;

    MainWindow& windowWith(const char* file)
    {
        MainWindow& window = testing::newWindow(window_);
        testing::showDocument(window, systemFile(file));
        return window;
    }

    static QString readoutAt(MainWindow& window, double t)
    {
        window.clock()->setTime(t);
        return window.forcesPanel()->readoutText();
    }

private slots:
    void initTestCase() { QVERIFY2(settings_.start(), qPrintable(settings_.problem())); }

    void forcesDockSaysWhetherTheFloorIsOpenStruckOrClosed()
    {
        MainWindow& window = windowWith("bouncing-ball.json");
        QTRY_VERIFY_WITH_TIMEOUT(window.trace() != nullptr, timeout);
        // Falling towards the first impact: open.
        QCOMPARE(readoutAt(window, 0.5 * t1), QStringLiteral("Contact floor: open (lifted off)"));
        // Just after it: struck, and on the way up again.
        QCOMPARE(readoutAt(window, t1 + 0.004),
                 QStringLiteral("Contact floor: impact, then open (lifted off)"));
        // The apex of the first rebound, e t₁ later: open, the impact no longer shown.
        QCOMPARE(readoutAt(window, t1 + e * t1),
                 QStringLiteral("Contact floor: open (lifted off)"));
        // At rest after t₁(1 + e)/(1 − e): closed, the floor carrying the weight m g.
        const double rest = t1 * (1.0 + e) / (1.0 - e);
        QCOMPARE(readoutAt(window, rest + 0.2),
                 QStringLiteral("Contact floor: closed, N_floor = %1 N").arg(0.1 * g, 0, 'f', 3));
    }

    void forcesDockSaysWhenTheParticleLeavesTheSphere()
    {
        MainWindow& window = windowWith("particle-off-sphere.json");
        QTRY_VERIFY_WITH_TIMEOUT(window.trace() != nullptr, timeout);
        const std::vector<double> leave = eventTimes(*window.trace(), ContactEvent::Kind::Leave);
        QCOMPARE(leave.size(), std::size_t(1));
        // The friction contact's line ("Contact: sliding") comes first, the sphere's under it.
        QStringList lines = readoutAt(window, 0.5 * leave[0]).split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 2);
        QVERIFY2(lines[1].startsWith(QStringLiteral("Contact sphere: closed, N_sphere = ")),
                 qPrintable(lines[1]));
        lines = readoutAt(window, leave[0] + 0.1).split(QLatin1Char('\n'));
        QCOMPARE(lines.value(1), QStringLiteral("Contact sphere: open (lifted off)"));
    }

    void energyAuditPlotsWImpactAndClosesThroughTheImpacts()
    {
        MainWindow& window = windowWith("bouncing-ball.json");
        QTRY_VERIFY_WITH_TIMEOUT(window.trace() != nullptr, timeout);
        PlotsPanel* plots = window.plotsPanel();
        plots->setSpec(*PlotCatalog::find(plots->presets(), "energy"));
        const PlotData& data = plots->plotData();
        const PlotCurve* impact = nullptr;
        const PlotCurve* balance = nullptr;
        for (const PlotCurve& curve : data.curves) {
            if (curve.label == QStringLiteral("W_impact"))
                impact = &curve;
            if (curve.label.startsWith(QStringLiteral("E − E₀")))
                balance = &curve;
        }
        QVERIFY(impact);
        QVERIFY(balance);
        QVERIFY(balance->label.endsWith(QStringLiteral(" − W_impact")));
        // W_impact is an energy like the others: one unit on the axis.
        QVERIFY2(data.yTitle.endsWith(QStringLiteral("[J]")) &&
                     data.yTitle.count(QStringLiteral("[")) == 1,
                 qPrintable(data.yTitle));
        // Every bounce takes energy until the ball lies still: all of m g h₀ in the end.
        QVERIFY(std::abs(impact->y.back() + 0.1 * g * h0) < 1e-8);
        for (double y : balance->y)
            QVERIFY2(std::abs(y) < 1e-8, qPrintable(QString::number(y)));
    }

    void plotsAgainstTimeMarkEachContactEvent()
    {
        MainWindow& window = windowWith("bouncing-ball.json");
        QTRY_VERIFY_WITH_TIMEOUT(window.trace() != nullptr, timeout);
        PlotsPanel* plots = window.plotsPanel();
        plots->setSpec(*PlotCatalog::find(plots->presets(), "energy"));
        const std::vector<double> impacts = eventTimes(*window.trace(), ContactEvent::Kind::Impact);
        QVERIFY(impacts.size() > 3);
        const std::vector<double>& lines = plots->plotData().eventX;
        // One line per impact, and the touch at rest on the last impact's line or its own.
        QVERIFY(lines.size() >= impacts.size());
        QVERIFY(std::abs(lines[0] - t1) < 1e-9);
        QVERIFY(std::abs(lines[1] - (t1 + 2.0 * e * t1)) < 1e-9);
        vtkPlot* drawn = plotLabelled(plots->chart().chart(), PlotChart::kEventLinesLabel);
        QVERIFY(drawn);
        QCOMPARE(drawn->GetInput()->GetNumberOfRows(), static_cast<vtkIdType>(2 * lines.size()));
        // A phase portrait (ẏ against y) is not a plot against time: no lines there.
        plots->setSpec({"", "Phase portrait", "y", {"y_dot"}});
        QVERIFY(plots->plotData().eventX.empty());
    }

    void phasePortraitMarksEachContactEventOnItsCurve()
    {
        MainWindow& window = windowWith("bouncing-ball.json");
        QTRY_VERIFY_WITH_TIMEOUT(window.trace() != nullptr, timeout);
        PlotsPanel* plots = window.plotsPanel();
        plots->setSpec({"", "Phase portrait", "y", {"y_dot"}});
        const PlotData& data = plots->plotData();
        // One mark per instant with events (the last impact and the touch at rest share one).
        const std::vector<double> impacts = eventTimes(*window.trace(), ContactEvent::Kind::Impact);
        QCOMPARE(data.eventPointX.size(), impacts.size());
        QCOMPARE(data.eventPointY.size(), impacts.size());
        // Each on the floor, y = 0, to within the sample step's flight (v⁻ dt), on the segment
        // the curve draws across the jump of ẏ from −v⁻ to e v⁻ (v⁻ = √(2 g h₀) at the first).
        const double vFirst = std::sqrt(2.0 * g * h0);
        const double dt = window.trace()->samples[1].t - window.trace()->samples[0].t;
        for (std::size_t i = 0; i < impacts.size(); ++i) {
            QVERIFY2(
                std::abs(data.eventPointX[i]) <= vFirst * dt,
                qPrintable(QStringLiteral("mark %1 at y = %2").arg(i).arg(data.eventPointX[i])));
            QVERIFY(data.eventPointY[i] >= -vFirst - 1e-9 && data.eventPointY[i] <= e * vFirst);
        }
        vtkPlot* drawn = plotLabelled(plots->chart().chart(), PlotChart::kEventPointsLabel);
        QVERIFY(drawn);
        QCOMPARE(drawn->GetInput()->GetNumberOfRows(),
                 static_cast<vtkIdType>(data.eventPointX.size()));
        // Against time: lines, not marks.
        plots->setSpec(*PlotCatalog::find(plots->presets(), "energy"));
        QVERIFY(plots->plotData().eventPointX.empty());
    }

    void trailMarksWhereTheBallStruckTheFloor()
    {
        MainWindow& window = windowWith("bouncing-ball.json");
        QTRY_VERIFY_WITH_TIMEOUT(window.trace() != nullptr, timeout);
        SceneView* view = window.sceneView();
        window.clock()->setTime(0.5 * t1);
        QVERIFY(view->shownContactMarks().empty());
        // Once the trail has passed the first impact: one mark, on the floor (y = 0).
        window.clock()->setTime(t1 + 0.01);
        std::vector<Eigen::Vector3d> marks = view->shownContactMarks();
        QCOMPARE(marks.size(), std::size_t(1));
        QVERIFY2(marks[0].norm() < 1e-9, qPrintable(QString::number(marks[0].norm())));
        // At rest: one per instant with events (the last impact and the touch share one).
        window.clock()->setTime(2.0);
        marks = view->shownContactMarks();
        QCOMPARE(marks.size(), eventTimes(*window.trace(), ContactEvent::Kind::Impact).size());
        // Each mark is stepped from the sample before its event: exact in free flight, and off
        // by micrometres where several of the last bounces fall between two samples.
        const std::vector<double> impacts = eventTimes(*window.trace(), ContactEvent::Kind::Impact);
        const double dt = window.trace()->samples[1].t - window.trace()->samples[0].t;
        for (std::size_t i = 0; i < marks.size(); ++i) {
            const bool sampledFlight = i == 0 || impacts[i] - impacts[i - 1] > dt;
            QVERIFY2(std::abs(marks[i].y()) < (sampledFlight ? 1e-9 : 1e-4),
                     qPrintable(QStringLiteral("mark %1 at y = %2").arg(i).arg(marks[i].y())));
        }
    }

    void impactShowsItsImpulseBrieflyAsAnArrow()
    {
        MainWindow& window = windowWith("bouncing-ball.json");
        QTRY_VERIFY_WITH_TIMEOUT(window.trace() != nullptr, timeout);
        SceneView* view = window.sceneView();
        view->setMagnitudesVisible(true);
        const ImpulseArrow& arrow = view->impulseArrow();
        const std::vector<double> impacts = eventTimes(*window.trace(), ContactEvent::Kind::Impact);
        QVERIFY(impacts.size() > 3);
        window.clock()->setTime(0.5 * t1);
        QVERIFY(!arrow.isShown());
        QVERIFY(arrow.labelText().isEmpty());
        // At the first impact: the floor's impulse m (1 + e) v⁻ with v⁻ = √(2 g h₀), upwards,
        // from the ball, labelled with its size.
        const double first = m * (1.0 + e) * std::sqrt(2.0 * g * h0);
        window.clock()->setTime(impacts[0]);
        QVERIFY(arrow.isShown());
        QVERIFY2((arrow.shownImpulse() - Eigen::Vector3d(0.0, first, 0.0)).norm() < 1e-9,
                 qPrintable(QString::number(arrow.shownImpulse().y(), 'g', 12)));
        QVERIFY(arrow.arrow().vector().normalized().y() > 1.0 - 1e-12);
        QCOMPARE(arrow.labelText(), QStringLiteral("%1 N\u00B7s").arg(first, 0, 'g', 3));
        // Still there a little later, gone well before the next impact.
        window.clock()->setTime(impacts[0] + 0.9 * ImpulseArrow::kShownFor);
        QVERIFY(arrow.isShown());
        window.clock()->setTime(impacts[0] + 1.1 * ImpulseArrow::kShownFor);
        QVERIFY(!arrow.isShown());
        QVERIFY(arrow.labelText().isEmpty());
        // The second impact's is e times the first, drawn shorter in proportion.
        window.clock()->setTime(impacts[1] + 0.01);
        const double second = arrow.arrow().length();
        QVERIFY(std::abs(arrow.shownImpulse().y() - e * first) < 1e-9);
        window.clock()->setTime(impacts[0] + 0.01);
        QVERIFY(std::abs(arrow.arrow().length() * e - second) < 1e-9 * second);
        // Labels off: the arrow stays, its label goes.
        view->setMagnitudesVisible(false);
        QVERIFY(arrow.isShown());
        QVERIFY(arrow.labelText().isEmpty());
    }

    void blockLandingFromTheRampShowsTheFloorsImpulseAndNoneAtTheLaunch()
    {
        MainWindow& window = windowWith("curved-ramp.json");
        QTRY_VERIFY_WITH_TIMEOUT(window.trace() != nullptr, timeout);
        const ImpulseArrow& arrow = window.sceneView()->impulseArrow();
        const std::vector<double> leave = eventTimes(*window.trace(), ContactEvent::Kind::Leave);
        QVERIFY(!leave.empty());
        // Leaving the ramp's end takes no impulse: no arrow there.
        window.clock()->setTime(leave[0] + 0.01);
        QVERIFY(!arrow.isShown());
        // The plastic landing stops the vertical speed √((v sin α)² + 2 g y_end) of the flight
        // from the end (R = 2, H = 0.5, θ₀ = 1.3, α = 0.5, m = 1): that much, upwards.
        const double R = 2.0, H = 0.5, theta0 = 1.3, alpha = 0.5;
        const double vy =
            std::sqrt(2.0 * g * R * (std::cos(alpha) - std::cos(theta0))) * std::sin(alpha);
        const double landing = std::sqrt(vy * vy + 2.0 * g * (H + R * (1.0 - std::cos(alpha))));
        const std::vector<double> impacts = eventTimes(*window.trace(), ContactEvent::Kind::Impact);
        window.clock()->setTime(impacts.back() + 0.01);
        QVERIFY(arrow.isShown());
        QVERIFY2((arrow.shownImpulse() - Eigen::Vector3d(0.0, landing, 0.0)).norm() < 1e-8,
                 qPrintable(QString::number(arrow.shownImpulse().y(), 'g', 12)));
    }

    void legendNamesTheTrailsMarksAndImpulsesOnlyWhenThereAreAny()
    {
        const SceneDocument ball = systemFile("bouncing-ball.json");
        const auto geometry = SceneGeometry::create(ball);
        auto overlay = vtkSmartPointer<vtkRenderer>::New();
        ContactMarks marks(overlay);
        std::vector<SceneGeometry::LegendEntry> entries;
        marks.addLegendEntry(entries);
        QVERIFY(entries.empty());
        Trace trace = testing::runDocument(ball, ball.parameters, 0.0).trace;
        marks.rebuild(geometry.get(), &trace);
        marks.addLegendEntry(entries);
        QCOMPARE(entries.size(), std::size_t(2));
        QCOMPARE(entries[0].label, QStringLiteral("contact lets go, touches or is struck"));
        QCOMPARE(entries[1].label, QStringLiteral("impulse (impact)"));
    }
};

QTEST_MAIN(ContactDisplayTest)
#include "tst_ContactDisplay.moc"
