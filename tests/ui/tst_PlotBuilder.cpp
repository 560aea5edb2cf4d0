// PlotBuilder: the curves carry exactly the trace's values, with labels, units and colours that
// say what they are; compare runs are told apart; log plots never see a zero.
#include <plots/ForceKind.h>
#include <plots/PlotBuilder.h>
#include <plots/RunColors.h>

#include <integrate/Simulator.h>
#include <model/ConstraintLabError.h>
#include <scenes/SceneRegistry.h>
#include <trace/PlotCatalog.h>
#include <trace/Trace.h>
#include <trace/TraceSeries.h>

#include <QtTest>

#include <cmath>
#include <memory>
#include <set>

#include "../support/SceneRuns.h"

using namespace clab;

namespace {

std::shared_ptr<const Trace> simulate(const std::string& scene, const ParameterValues& overrides)
{
    return std::make_shared<const Trace>(
        testing::runScene(scene, testing::defaultsWith(scene, overrides), 1.0));
}

/// A hand-made one-coordinate trace whose residual is exactly zero at some samples.
std::shared_ptr<const Trace> syntheticTrace()
{
    auto trace =
        std::make_shared<Trace>(std::vector<std::string>{"x"}, std::vector<std::string>{}, false);
    trace->setUnits({"m"}, {});
    const double residuals[] = {0.0, 1e-12, 0.0, -3e-10, 2e-11};
    for (int i = 0; i < 5; ++i) {
        TraceSample s;
        s.t = 0.5 * i;
        const auto one = [](double v) {
            return Eigen::VectorXd::Constant(1, v);
        };
        s.q = one(s.t);
        s.qd = one(1.0);
        s.qdd = one(0.0);
        s.Q = one(-2.0);
        s.Qci = one(0.0);
        s.Qcni = one(0.0);
        s.T = s.t * s.t;
        s.V = -s.t;
        s.E = s.T + s.V;
        s.residualMax = residuals[i];
        trace->samples.push_back(s);
    }
    return trace;
}

} // namespace

class TestPlotBuilder : public QObject {
    Q_OBJECT

private slots:
    void curveValuesAreTheTraceSeriesValues();
    void axisTitlesCarryTheUnits();
    void forceSeriesTakeTheForceColours();
    void otherSeriesTakeDistinctColours();
    void seriesColorIsTheColourBuildGivesTheCurve();
    void compareRunsNameTheirRunAndDashTheEarlierOnes();
    void everyEarlierRunHasALineStyleOfItsOwn();
    void logAxisPlotsMagnitudesAndClipsZeros();
    void logAxisClipsAnAllZeroCurveToATinyPositiveValue();
    void unknownQuantityThrowsNamingIt();
    void noRunThrows();
};

void TestPlotBuilder::curveValuesAreTheTraceSeriesValues()
{
    const auto trace = simulate("bead-on-wire", {});
    const std::vector<PlotSpec> presets = PlotCatalog::presets(*trace);
    const PlotSpec* energy = PlotCatalog::find(presets, "energy");
    QVERIFY(energy != nullptr);
    const PlotData data = PlotBuilder::build(*energy, {{"", trace}});
    QCOMPARE(data.curves.size(), energy->y.size());
    QCOMPARE(data.title, QString::fromStdString(energy->title));
    const std::vector<double> t = TraceSeries::values(*trace, "t");
    for (std::size_t i = 0; i < energy->y.size(); ++i) {
        const PlotCurve& curve = data.curves[i];
        QCOMPARE(curve.x, t);
        QCOMPARE(curve.y, TraceSeries::values(*trace, energy->y[i]));
        QCOMPARE(curve.label, QString::fromStdString(TraceSeries::label(*trace, energy->y[i])));
        QCOMPARE(curve.style, Qt::SolidLine);
    }
}

void TestPlotBuilder::axisTitlesCarryTheUnits()
{
    const auto trace = syntheticTrace();
    PlotSpec spec{"", "Energy", "t", {"T", "V", "E"}};
    PlotData data = PlotBuilder::build(spec, {{"", trace}});
    QCOMPARE(data.xTitle, QStringLiteral("t [s]"));
    QCOMPARE(data.yTitle, QStringLiteral("energy [J]"));

    // One series: its own label; a phase plot: x is a coordinate in metres.
    spec = PlotSpec{"", "Velocity", "x", {"x_dot"}};
    data = PlotBuilder::build(spec, {{"", trace}});
    QCOMPARE(data.xTitle, QStringLiteral("x [m]"));
    QCOMPARE(data.yTitle, QString::fromStdString(TraceSeries::label(*trace, "x_dot")) + " [m/s]");
    QCOMPARE(data.curves.front().x, TraceSeries::values(*trace, "x"));

    // Different units: each label with its own.
    spec = PlotSpec{"", "Mixed", "t", {"x", "T"}};
    data = PlotBuilder::build(spec, {{"", trace}});
    QVERIFY2(data.yTitle.contains("[m]") && data.yTitle.contains("[J]"), qPrintable(data.yTitle));
}

void TestPlotBuilder::forceSeriesTakeTheForceColours()
{
    const auto trace = syntheticTrace();
    const PlotSpec spec{"", "Forces", "t", {"|Qcni|", "Q_x", "|Qci|", "Qci_x"}};
    const PlotData data = PlotBuilder::build(spec, {{"", trace}});
    QCOMPARE(data.curves[0].color, forceColor(ForceKind::NonIdealConstraint));
    QCOMPARE(data.curves[1].color, forceColor(ForceKind::Given));
    QCOMPARE(data.curves[2].color, forceColor(ForceKind::IdealConstraint));
    QCOMPARE(data.curves[3].color, forceColor(ForceKind::IdealConstraint));
}

void TestPlotBuilder::otherSeriesTakeDistinctColours()
{
    const auto trace = syntheticTrace();
    const PlotSpec spec{"", "Energy", "t", {"T", "V", "E", "W_nonideal", "E_error"}};
    const PlotData data = PlotBuilder::build(spec, {{"", trace}});
    for (std::size_t i = 0; i < data.curves.size(); ++i) {
        for (std::size_t j = i + 1; j < data.curves.size(); ++j) {
            QVERIFY(data.curves[i].color != data.curves[j].color);
        }
    }
}

// What measured markers are coloured by: the colour of their quantity's curve.
void TestPlotBuilder::seriesColorIsTheColourBuildGivesTheCurve()
{
    const auto trace = syntheticTrace();
    const PlotSpec spec{"", "Mixed", "t", {"E", "|Qci|", "x", "T"}};
    const PlotData data = PlotBuilder::build(spec, {{"", trace}});
    for (std::size_t i = 0; i < spec.y.size(); ++i)
        QCOMPARE(PlotBuilder::seriesColor(spec, spec.y[i]), data.curves[i].color);
    QVERIFY(!PlotBuilder::seriesColor(spec, "V").isValid()); // not in the plot
}

void TestPlotBuilder::compareRunsNameTheirRunAndDashTheEarlierOnes()
{
    const auto slow = simulate("bead-on-wire", {{"mu", {0.1}}});
    const auto fast = simulate("bead-on-wire", {{"mu", {0.2}}});
    const PlotSpec spec{"", "Energy", "t", {"E", "T"}};
    const PlotData data = PlotBuilder::build(spec, {{"mu=0.1", slow}, {"mu=0.2", fast}});
    QCOMPARE(data.curves.size(), std::size_t{4});
    QCOMPARE(data.curves[0].label, QStringLiteral("E (mu=0.1)"));
    QCOMPARE(data.curves[1].label, QStringLiteral("T (mu=0.1)"));
    QCOMPARE(data.curves[2].label, QStringLiteral("E (mu=0.2)"));
    QCOMPARE(data.curves[3].label, QStringLiteral("T (mu=0.2)"));
    // Each run's own values.
    QCOMPARE(data.curves[0].y, TraceSeries::values(*slow, "E"));
    QCOMPARE(data.curves[2].y, TraceSeries::values(*fast, "E"));
    QVERIFY(data.curves[0].y != data.curves[2].y);
    // The earlier run: dashed, in the first compare run's colour (its ghost's in the 3D
    // view); the current one solid in the quantity's colour.
    for (int i = 0; i < 2; ++i) {
        const PlotCurve& earlier = data.curves[static_cast<std::size_t>(i)];
        const PlotCurve& current = data.curves[static_cast<std::size_t>(i + 2)];
        QCOMPARE(earlier.style, Qt::DashLine);
        QCOMPARE(current.style, Qt::SolidLine);
        QCOMPARE(earlier.color, runColor(0));
        QCOMPARE(current.color, PlotBuilder::seriesColor(spec, i == 0 ? "E" : "T"));
    }
    // The legend: one entry per quantity in its colour, one per run in its line style.
    QCOMPARE(data.legend.size(), std::size_t{4});
    QCOMPARE(data.legend[0].label, QStringLiteral("E"));
    QCOMPARE(data.legend[0].color, data.curves[2].color);
    QCOMPARE(data.legend[1].label, QStringLiteral("T"));
    QCOMPARE(data.legend[1].color, data.curves[3].color);
    QCOMPARE(data.legend[2].label, QStringLiteral("mu=0.1"));
    QCOMPARE(data.legend[2].style, Qt::DashLine);
    QCOMPARE(data.legend[2].color, runColor(0));
    QCOMPARE(data.legend[3].label, QStringLiteral("mu=0.2"));
    QCOMPARE(data.legend[3].style, Qt::SolidLine);
}

void TestPlotBuilder::everyEarlierRunHasALineStyleOfItsOwn()
{
    // Four runs of three quantities: 12 curves, but a legend of 3 + 4 entries, and the three
    // earlier runs drawn in three different dash patterns (the same quantity shares a colour).
    std::vector<LabelledTrace> runs;
    for (double mu : {0.0, 0.1, 0.2, 0.3}) {
        runs.push_back({QStringLiteral("mu=%1").arg(mu).toStdString(),
                        simulate("bead-on-wire", {{"mu", {mu}}, {"mu_s", {mu}}})});
    }
    const PlotSpec spec{"", "Energy", "t", {"E", "T", "V"}};
    const PlotData data = PlotBuilder::build(spec, runs);
    QCOMPARE(data.curves.size(), std::size_t{12});
    QCOMPARE(data.legend.size(), std::size_t{7});
    std::set<Qt::PenStyle> styles;
    for (std::size_t r = 0; r < 4; ++r) {
        const Qt::PenStyle style = data.curves[3 * r].style;
        for (std::size_t i = 0; i < 3; ++i) {
            QCOMPARE(data.curves[3 * r + i].style, style);
        }
        QCOMPARE(data.legend[3 + r].style, style);
        QCOMPARE(data.legend[3 + r].label, QString::fromStdString(runs[r].label));
        if (r < 3) {
            // Each earlier run in its own compare colour, the one its ghost has in 3D.
            QCOMPARE(data.curves[3 * r].color, runColor(r));
            QCOMPARE(data.legend[3 + r].color, runColor(r));
        }
        styles.insert(style);
    }
    QCOMPARE(styles.size(), std::size_t{4});
    QCOMPARE(data.curves.back().style, Qt::SolidLine);

    // A single quantity keeps one legend entry per curve, each naming its run.
    const PlotData single = PlotBuilder::build(PlotSpec{"", "Speed", "t", {"x_dot"}}, runs);
    QVERIFY(single.legend.empty());
    QVERIFY2(single.curves[1].label.endsWith(QStringLiteral(" (mu=0.1)")),
             qPrintable(single.curves[1].label));
}

void TestPlotBuilder::logAxisPlotsMagnitudesAndClipsZeros()
{
    const auto trace = syntheticTrace();
    const PlotSpec spec{"", "Residual", "t", {"residual_max"}, true};
    const PlotData data = PlotBuilder::build(spec, {{"", trace}});
    QVERIFY(data.logY);
    // |residual|, zeros raised to the smallest positive magnitude 1e-12.
    const std::vector<double> expected = {1e-12, 1e-12, 1e-12, 3e-10, 2e-11};
    QCOMPARE(data.curves.front().y, expected);
}

void TestPlotBuilder::logAxisClipsAnAllZeroCurveToATinyPositiveValue()
{
    const auto trace = syntheticTrace();
    const PlotSpec spec{"", "Friction", "t", {"|Qcni|"}, true};
    const PlotData data = PlotBuilder::build(spec, {{"", trace}});
    for (double y : data.curves.front().y) {
        QCOMPARE(y, 1e-300);
    }
}

void TestPlotBuilder::unknownQuantityThrowsNamingIt()
{
    const auto trace = syntheticTrace();
    for (const PlotSpec& spec : {PlotSpec{"", "Bad", "t", {"E", "warp_speed"}},
                                 PlotSpec{"", "Bad", "warp_speed", {"E"}}}) {
        try {
            PlotBuilder::build(spec, {{"", trace}});
            QFAIL("no exception for an unknown quantity");
        } catch (const ConstraintLabError& e) {
            QCOMPARE(e.kind(), ConstraintLabError::Kind::InvalidParameter);
            QVERIFY2(QString(e.what()).contains("warp_speed"), e.what());
        }
    }
}

void TestPlotBuilder::noRunThrows()
{
    const PlotSpec spec{"", "Energy", "t", {"E"}};
    QVERIFY_THROWS_EXCEPTION(ConstraintLabError, PlotBuilder::build(spec, {}));
}

QTEST_MAIN(TestPlotBuilder)
#include "tst_PlotBuilder.moc"
