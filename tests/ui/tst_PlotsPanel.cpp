// The Plots dock: presets and custom plots of real traces (values checked against the trace's
// own series), the time cursor, compare-mode runs, keeping the user's choice across runs,
// falling back on another scene, export, interaction and what reaches the screen.
#include <export/PlotExportDialog.h>
#include <panels/PlotsPanel.h>
#include <plots/PlotChart.h>
#include <render/VtkSurfaceFormat.h>
#include <widgets/VtkOpenGLWidget.h>

#include <integrate/Simulator.h>
#include <scenes/SceneRegistry.h>
#include <trace/PlotCatalog.h>
#include <trace/TraceSeries.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <vtkAxis.h>
#include <vtkChartXY.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>

#include "../support/SceneRuns.h"

using namespace clab;

namespace {

// VTK needs a 3.2 core context: the default format must be set before QApplication exists.
const bool surfaceFormatSet = [] {
    VtkSurfaceFormat::makeDefault();
    return true;
}();

std::shared_ptr<const Trace> simulate(const std::string& scene,
                                      const ParameterValues& overrides = {}, double seconds = 2.0)
{
    // Missing parameters take their defaults; mu_s follows mu unless given.
    return std::make_shared<const Trace>(
        testing::runScene(scene, testing::builtInScene(scene).complete(overrides), seconds));
}

std::vector<LabelledTrace> oneRun(std::shared_ptr<const Trace> trace)
{
    return {LabelledTrace{"current", std::move(trace)}};
}

/// Pixels whose hue is within `hueTolerance` degrees of `color`'s and that are clearly coloured.
int countPixelsOfHue(const QImage& image, const QColor& color, int hueTolerance = 10)
{
    const int hue = color.hsvHue();
    int count = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            const QColor c(image.pixel(x, y));
            if (c.hsvSaturation() < 100 || c.value() < 60) {
                continue;
            }
            int dh = std::abs(c.hsvHue() - hue);
            dh = std::min(dh, 360 - dh);
            if (dh <= hueTolerance) {
                ++count;
            }
        }
    }
    return count;
}

QString outputDir()
{
    const QString dir = QStringLiteral(CLAB_BINARY_DIR "/tests/ui/plots");
    QDir().mkpath(dir);
    return dir;
}

void activate(QComboBox* combo, int index)
{
    combo->setCurrentIndex(index);
    emit combo->activated(index);
}

} // namespace

class TestPlotsPanel : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void beadOnWireListsItsPresetsAndCustom();
    void energyPresetPlotsTheTraceSeries();
    void energyAuditBalancesOnAFrictionlessWire();
    void compareModePlotsOneQuantityPerRunUnlessAskedForAll();
    void customPhasePlotShowsPositionAgainstVelocity();
    void setTimeMovesTheCursorOnlyOnTimePlots();
    void compareRunsAreLabelledByRun();
    void selectionIsKeptAcrossRunsOfTheSameScene();
    void selectionFallsBackWhenItsQuantityVanishes();
    void residualPlotIsOfferedWhileThereAreResiduals();
    void unknownQuantityShowsAMessageInsteadOfThrowing();
    void clearShowsAHint();
    void exportPlotWritesAPngOfTheRequestedSize();
    void exportPlotReportsAnUnwritableTarget();
    void exportDialogWritesAndShowsErrors();
    void widgetDrawsTheCurvesInTheirColours();
    void wheelZoomsAndResetZoomRestores();
    void zoomSurvivesANewRunOfThePlotButNotAnotherPlot();

private:
    std::shared_ptr<const Trace> bead_;
};

void TestPlotsPanel::initTestCase()
{
    QVERIFY(surfaceFormatSet);
    bead_ = simulate("bead-on-wire");
    QVERIFY(bead_->samples.size() > 100);
}

void TestPlotsPanel::beadOnWireListsItsPresetsAndCustom()
{
    PlotsPanel panel;
    QSignalSpy changed(&panel, &PlotsPanel::specChanged);
    panel.setRuns(oneRun(bead_));
    const std::vector<PlotSpec> expected = PlotCatalog::presets(*bead_);
    QCOMPARE(panel.presets().size(), expected.size());
    for (const char* id : {"energy", "forces", "residual", "path"}) {
        QVERIFY2(PlotCatalog::find(panel.presets(), id) != nullptr, id);
    }
    auto* combo = panel.findChild<QComboBox*>(QStringLiteral("presetCombo"));
    QVERIFY(combo != nullptr);
    QCOMPARE(combo->count(), static_cast<int>(expected.size()) + 1);
    for (std::size_t i = 0; i < expected.size(); ++i) {
        QCOMPARE(combo->itemText(static_cast<int>(i)), QString::fromStdString(expected[i].title));
    }
    QCOMPARE(combo->itemText(combo->count() - 1), QStringLiteral("Custom"));
    // The first trace shows the first preset.
    QCOMPARE(panel.spec(), expected.front());
    QCOMPARE(combo->currentIndex(), 0);
    QCOMPARE(changed.count(), 1);
}

void TestPlotsPanel::energyPresetPlotsTheTraceSeries()
{
    PlotsPanel panel;
    panel.setRuns(oneRun(bead_));
    QVERIFY(panel.selectPreset("forces"));
    QVERIFY(panel.selectPreset("energy"));
    QVERIFY(!panel.selectPreset("omega")); // a bead has no angular velocity
    QCOMPARE(panel.spec().id, std::string("energy"));
    QVERIFY(panel.message().isEmpty());

    const PlotData& data = panel.plotData();
    const PlotSpec spec = panel.spec();
    QCOMPARE(data.curves.size(), spec.y.size());
    const std::vector<double> t = TraceSeries::values(*bead_, "t");
    for (std::size_t i = 0; i < spec.y.size(); ++i) {
        const PlotCurve& curve = data.curves[i];
        QCOMPARE(curve.x, t);
        QCOMPARE(curve.y, TraceSeries::values(*bead_, spec.y[i]));
        QVERIFY2(
            curve.label.contains(QString::fromStdString(TraceSeries::label(*bead_, spec.y[i]))),
            qPrintable(curve.label));
    }
    QVERIFY(data.xTitle.contains(QStringLiteral("[s]")));
    // The chart draws what the panel built.
    QCOMPARE(panel.chart().data().curves.size(), data.curves.size());
}

void TestPlotsPanel::compareModePlotsOneQuantityPerRunUnlessAskedForAll()
{
    // Three μ values on the energy audit: five quantities × three runs would be fifteen curves
    // in one plot. By default every run shows E; the user picks another quantity or all.
    std::vector<LabelledTrace> runs;
    for (double mu : {0.1, 0.2, 0.3})
        runs.push_back(
            {"mu = " + std::to_string(mu).substr(0, 3), simulate("bead-on-wire", {{"mu", {mu}}})});
    PlotsPanel panel;
    panel.setRuns(runs);
    QVERIFY(panel.selectPreset("energy"));
    QVERIFY(panel.compareCombo()->isVisibleTo(&panel));
    QCOMPARE(panel.compareQuantity(), std::string("E"));
    QCOMPARE(panel.plotData().curves.size(), std::size_t(3));
    for (std::size_t r = 0; r < runs.size(); ++r)
        QCOMPARE(panel.plotData().curves[r].y, TraceSeries::values(*runs[r].trace, "E"));
    panel.setCompareQuantity("W_nonideal");
    QCOMPARE(panel.plotData().curves.size(), std::size_t(3));
    QCOMPARE(panel.plotData().curves[0].y, TraceSeries::values(*runs[0].trace, "W_nonideal"));
    panel.setCompareQuantity("*");
    QCOMPARE(panel.plotData().curves.size(), std::size_t(15));
    // One run: every quantity, no compare choice.
    panel.setRuns(oneRun(runs.back().trace));
    QVERIFY(!panel.compareCombo()->isVisibleTo(&panel));
    QCOMPARE(panel.plotData().curves.size(), std::size_t(5));
}

void TestPlotsPanel::energyAuditBalancesOnAFrictionlessWire()
{
    // Without friction the bead's energy is conserved: the plotted E stays at E(0) within the
    // integration tolerance, and E = T + V sample by sample (computed here from the columns).
    PlotsPanel panel;
    panel.setRuns(oneRun(simulate("bead-on-wire", {{"mu", {0.0}}, {"mu_s", {0.0}}})));
    QVERIFY(panel.selectPreset("energy"));
    const PlotSpec spec = panel.spec();
    const auto index = [&](const std::string& name) {
        return static_cast<std::size_t>(std::find(spec.y.begin(), spec.y.end(), name) -
                                        spec.y.begin());
    };
    const std::vector<double>& T = panel.plotData().curves.at(index("T")).y;
    const std::vector<double>& V = panel.plotData().curves.at(index("V")).y;
    const std::vector<double>& E = panel.plotData().curves.at(index("E")).y;
    double scale = 0.0;
    for (std::size_t k = 0; k < E.size(); ++k) {
        scale = std::max({scale, std::abs(T[k]), std::abs(V[k] - V[0])});
    }
    QVERIFY(scale > 0.1); // the bead really moves
    for (std::size_t k = 0; k < E.size(); ++k) {
        QVERIFY(std::abs(E[k] - (T[k] + V[k])) <= 1e-9 * std::max(1.0, std::abs(E[k])));
        QVERIFY2(std::abs(E[k] - E[0]) <= 1e-5 * scale,
                 qPrintable(QStringLiteral("E drifts by %1 at sample %2").arg(E[k] - E[0]).arg(k)));
    }
}

void TestPlotsPanel::customPhasePlotShowsPositionAgainstVelocity()
{
    PlotsPanel panel;
    panel.setRuns(oneRun(bead_));
    auto* combo = panel.findChild<QComboBox*>(QStringLiteral("presetCombo"));
    auto* xCombo = panel.findChild<QComboBox*>(QStringLiteral("xCombo"));
    auto* yList = panel.findChild<QListWidget*>(QStringLiteral("yList"));
    QVERIFY(combo && xCombo && yList);

    // Through the controls, as a user would: Custom, x on the horizontal axis, only ẋ ticked.
    activate(combo, combo->count() - 1);
    QVERIFY(panel.spec().id.empty());
    QCOMPARE(xCombo->count(), static_cast<int>(TraceSeries::names(*bead_).size()));
    activate(xCombo, xCombo->findData(QStringLiteral("x")));
    for (int row = 0; row < yList->count(); ++row) {
        QListWidgetItem* item = yList->item(row);
        item->setCheckState(item->data(Qt::UserRole).toString() == QStringLiteral("x_dot")
                                ? Qt::Checked
                                : Qt::Unchecked);
    }
    const PlotSpec spec = panel.spec();
    QCOMPARE(spec.x, std::string("x"));
    QCOMPARE(spec.y, std::vector<std::string>{"x_dot"});
    QCOMPARE(combo->currentIndex(), combo->count() - 1);

    const PlotData& data = panel.plotData();
    QCOMPARE(data.curves.size(), std::size_t(1));
    QCOMPARE(data.curves[0].x, TraceSeries::values(*bead_, "x"));
    QCOMPARE(data.curves[0].y, TraceSeries::values(*bead_, "x_dot"));
    QVERIFY2(data.xTitle.contains(QStringLiteral("[m]")), qPrintable(data.xTitle));
    QVERIFY2(data.yTitle.contains(QStringLiteral("m/s")), qPrintable(data.yTitle));

    // log y through its check box.
    auto* logY = panel.findChild<QCheckBox*>(QStringLiteral("logY"));
    QVERIFY(logY != nullptr);
    logY->setChecked(true);
    QVERIFY(panel.spec().logY);
    QVERIFY(panel.plotData().logY);
}

void TestPlotsPanel::setTimeMovesTheCursorOnlyOnTimePlots()
{
    PlotsPanel panel;
    panel.setRuns(oneRun(bead_));
    QVERIFY(panel.selectPreset("energy"));
    panel.setTime(0.75);
    QCOMPARE(panel.cursor(), 0.75);
    QCOMPARE(panel.chart().cursor(), 0.75);
    panel.setTime(1.25);
    QCOMPARE(panel.chart().cursor(), 1.25);
    // Exports leave the playback cursor out unless asked (the dialog's "Mark the playback time").
    QVERIFY(std::isnan(panel.defaultExportOptions().cursor));

    // A phase plot has no time axis: no cursor; back on a time plot it returns.
    PlotSpec phase;
    phase.x = "x";
    phase.y = {"x_dot"};
    panel.setSpec(phase);
    QVERIFY(std::isnan(panel.chart().cursor()));
    panel.setTime(1.5);
    QVERIFY(std::isnan(panel.chart().cursor()));
    QVERIFY(panel.selectPreset("forces"));
    QCOMPARE(panel.chart().cursor(), 1.5);
}

void TestPlotsPanel::compareRunsAreLabelledByRun()
{
    auto slow = simulate("bead-on-wire", {{"mu", {0.3}}});
    auto fast = simulate("bead-on-wire", {{"mu", {0.05}}});
    PlotsPanel panel;
    panel.setRuns({{"mu=0.3", slow}, {"mu=0.05", fast}});
    PlotSpec spec;
    spec.x = "t";
    spec.y = {"x_dot"};
    panel.setSpec(spec);
    const PlotData& data = panel.plotData();
    QCOMPARE(data.curves.size(), std::size_t(2));
    int earlier = -1;
    int current = -1;
    for (int i = 0; i < 2; ++i) {
        if (data.curves[i].label.contains(QStringLiteral("mu=0.3"))) {
            earlier = i;
        }
        if (data.curves[i].label.contains(QStringLiteral("mu=0.05"))) {
            current = i;
        }
    }
    QVERIFY2(earlier >= 0 && current >= 0 && earlier != current,
             qPrintable(data.curves[0].label + " / " + data.curves[1].label));
    QCOMPARE(data.curves[earlier].y, TraceSeries::values(*slow, "x_dot"));
    QCOMPARE(data.curves[current].y, TraceSeries::values(*fast, "x_dot"));
    // Less friction: the bead ends faster.
    QVERIFY(std::abs(data.curves[current].y.back()) > std::abs(data.curves[earlier].y.back()));
    // The current run is drawn solid, the earlier one not.
    QCOMPARE(data.curves[current].style, Qt::SolidLine);
    QVERIFY(data.curves[earlier].style != Qt::SolidLine);
}

void TestPlotsPanel::selectionIsKeptAcrossRunsOfTheSameScene()
{
    PlotsPanel panel;
    panel.setRuns(oneRun(bead_));
    QVERIFY(panel.selectPreset("forces"));
    QSignalSpy changed(&panel, &PlotsPanel::specChanged);

    // Live tuning: a new μ, a new trace of the same scene.
    auto tuned = simulate("bead-on-wire", {{"mu", {0.05}}});
    panel.setRuns(oneRun(tuned));
    QCOMPARE(panel.spec().id, std::string("forces"));
    QCOMPARE(changed.count(), 0);
    QCOMPARE(panel.plotData().curves.at(2).y, TraceSeries::values(*tuned, "|Qcni|"));

    // A custom phase plot is kept as well.
    PlotSpec phase;
    phase.x = "x";
    phase.y = {"x_dot", "y_dot"};
    panel.setSpec(phase);
    changed.clear();
    panel.setRuns(oneRun(bead_));
    QCOMPARE(panel.spec(), phase);
    QCOMPARE(changed.count(), 0);
    QCOMPARE(panel.plotData().curves.at(1).y, TraceSeries::values(*bead_, "y_dot"));
    auto* yList = panel.findChild<QListWidget*>(QStringLiteral("yList"));
    int ticked = 0;
    for (int row = 0; row < yList->count(); ++row) {
        ticked += yList->item(row)->checkState() == Qt::Checked ? 1 : 0;
    }
    QCOMPARE(ticked, 2);
}

void TestPlotsPanel::selectionFallsBackWhenItsQuantityVanishes()
{
    auto rigid = simulate("rigid-body");
    PlotsPanel panel;
    panel.setRuns(oneRun(bead_));
    QVERIFY(panel.selectPreset("path"));
    QSignalSpy changed(&panel, &PlotsPanel::specChanged);

    // The rigid body has no path preset: its first preset is shown.
    panel.setRuns(oneRun(rigid));
    QCOMPARE(panel.spec(), PlotCatalog::presets(*rigid).front());
    QCOMPARE(changed.count(), 1);
    QVERIFY(panel.message().isEmpty());
    QVERIFY(!panel.plotData().curves.empty());

    // A custom plot of the bead's x has nothing to show on the rigid body either.
    panel.setRuns(oneRun(bead_));
    PlotSpec phase;
    phase.x = "x";
    phase.y = {"x_dot"};
    panel.setSpec(phase);
    panel.setRuns(oneRun(rigid));
    QCOMPARE(panel.spec(), PlotCatalog::presets(*rigid).front());

    // A custom plot of quantities both scenes have survives the change of scene.
    PlotSpec energy;
    energy.x = "t";
    energy.y = {"T", "V"};
    panel.setSpec(energy);
    panel.setRuns(oneRun(bead_));
    QCOMPARE(panel.spec(), energy);
}

// The Fit dock's residuals: a ready-made plot while there are any, around a zero line; a
// residual plot remembered from another session falls back like any plot that cannot be shown.
void TestPlotsPanel::residualPlotIsOfferedWhileThereAreResiduals()
{
    const std::string id = PlotsPanel::residualPresetId;
    PlotsPanel panel;
    PlotSpec remembered;
    remembered.id = id;
    remembered.y = {"s"};
    panel.setSpec(remembered);
    panel.setRuns(oneRun(bead_));
    QCOMPARE(panel.spec(), PlotCatalog::presets(*bead_).front());
    QVERIFY(!panel.selectPreset(id));

    PlotCurve residual;
    residual.x = {0.5, 1.0, 1.5};
    residual.y = {0.01, -0.02, 0.005};
    residual.markers = true;
    panel.setResiduals({{"s", residual}});
    QCOMPARE(panel.presets().size(), PlotCatalog::presets(*bead_).size() + 1);
    QVERIFY(panel.selectPreset(id));
    const PlotData& data = panel.plotData();
    QCOMPARE(data.curves.size(), std::size_t(2));
    QCOMPARE(data.curves[0].x, (std::vector<double>{0.5, 1.5}));
    QCOMPARE(data.curves[0].y, (std::vector<double>{0.0, 0.0}));
    QCOMPARE(data.curves[1].y, residual.y);
    QVERIFY(data.curves[1].markers);
    QVERIFY2(data.yTitle.contains(QStringLiteral("[m]")), qPrintable(data.yTitle));

    // A new run of the scene keeps it; no residuals any more: back to the first plot.
    panel.setRuns(oneRun(bead_));
    QCOMPARE(panel.spec().id, id);
    QSignalSpy changed(&panel, &PlotsPanel::specChanged);
    panel.setResiduals({});
    QCOMPARE(changed.count(), 1);
    QCOMPARE(panel.spec(), PlotCatalog::presets(*bead_).front());
    QCOMPARE(panel.presets().size(), PlotCatalog::presets(*bead_).size());
}

void TestPlotsPanel::unknownQuantityShowsAMessageInsteadOfThrowing()
{
    PlotsPanel panel;
    panel.setRuns(oneRun(bead_));
    PlotSpec spec;
    spec.x = "t";
    spec.y = {"no_such_column"};
    panel.setSpec(spec);
    QVERIFY2(panel.message().contains(QStringLiteral("no_such_column")),
             qPrintable(panel.message()));
    QVERIFY(panel.plotData().curves.empty());
    auto* label = panel.findChild<QLabel*>(QStringLiteral("message"));
    QVERIFY(label != nullptr);
    QCOMPARE(label->text(), panel.message());
    QVERIFY(!panel.exportPlot(QDir::temp().filePath("never.png"), panel.defaultExportOptions())
                 .isEmpty());

    // Nothing ticked: a hint, not an empty chart.
    spec.y.clear();
    panel.setSpec(spec);
    QVERIFY(!panel.message().isEmpty());

    // A good spec brings the chart back.
    QVERIFY(panel.selectPreset("energy"));
    QVERIFY(panel.message().isEmpty());
    QVERIFY(!panel.plotData().curves.empty());
}

void TestPlotsPanel::clearShowsAHint()
{
    PlotsPanel panel;
    QVERIFY(!panel.message().isEmpty()); // nothing run yet
    panel.setRuns(oneRun(bead_));
    QVERIFY(panel.selectPreset("residual"));
    panel.clear();
    QVERIFY(!panel.message().isEmpty());
    QVERIFY(panel.plotData().curves.empty());
    QVERIFY(panel.presets().empty());
    // The choice survives: the next run of the scene shows the residual again.
    panel.setRuns(oneRun(bead_));
    QCOMPARE(panel.spec().id, std::string("residual"));
}

void TestPlotsPanel::exportPlotWritesAPngOfTheRequestedSize()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    PlotsPanel panel;
    panel.setRuns(oneRun(bead_));
    QVERIFY(panel.selectPreset("energy"));
    panel.setTime(1.0);
    PlotExporter::Options options = panel.defaultExportOptions();
    QCOMPARE(options.size, QSize(1200, 800));
    QCOMPARE(options.scale, 2.0);
    options.size = QSize(400, 300);
    options.scale = 1.5;
    const QString path = dir.filePath(QStringLiteral("energy.png"));
    const QString error = panel.exportPlot(path, options);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const QImage image(path);
    QVERIFY(!image.isNull());
    QCOMPARE(image.size(), QSize(600, 450));
    // The curves are in the file, in their colours.
    QVERIFY(countPixelsOfHue(image, panel.plotData().curves.front().color) > 100);
}

void TestPlotsPanel::exportPlotReportsAnUnwritableTarget()
{
    QTemporaryDir dir;
    PlotsPanel panel;
    panel.setRuns(oneRun(bead_));
    const QString missing = dir.filePath(QStringLiteral("no/such/dir/plot.png"));
    const QString error = panel.exportPlot(missing, panel.defaultExportOptions());
    QVERIFY(!error.isEmpty());
    QVERIFY(!QFile::exists(missing));
    const QString bad = dir.filePath(QStringLiteral("plot.txt"));
    QVERIFY(!panel.exportPlot(bad, panel.defaultExportOptions()).isEmpty());
    QVERIFY(!QFile::exists(bad));
}

void TestPlotsPanel::exportDialogWritesAndShowsErrors()
{
    QTemporaryDir dir;
    PlotsPanel panel;
    panel.setRuns(oneRun(bead_));
    PlotExporter::Options options = panel.defaultExportOptions();
    options.size = QSize(320, 240);
    options.scale = 1.0;

    const QString svg = dir.filePath(QStringLiteral("plot.svg"));
    PlotExportDialog dialog(panel.plotData(), options, svg);
    QCOMPARE(dialog.path(), svg);
    QCOMPARE(dialog.options().size, QSize(320, 240));
    auto* save = dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Save);
    QVERIFY(save->isEnabled());
    dialog.accept();
    QCOMPARE(dialog.result(), int(QDialog::Accepted));
    QVERIFY(dialog.errorText().isEmpty());
    QFile file(svg);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(file.readAll().contains("<svg"));

    // An unknown suffix: Save is disabled and exporting anyway explains why.
    PlotExportDialog bad(panel.plotData(), options, dir.filePath(QStringLiteral("plot.bmp")));
    auto* badSave = bad.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Save);
    QVERIFY(!badSave->isEnabled());
    const QString error = bad.exportNow();
    QVERIFY(!error.isEmpty());
    QCOMPARE(bad.errorText(), error);
    QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("plot.bmp"))));
    // A failure keeps the dialog open.
    bad.setPath(dir.filePath(QStringLiteral("missing/plot.png")));
    bad.accept();
    QVERIFY(bad.result() != int(QDialog::Accepted));
    QVERIFY(!bad.errorText().isEmpty());
    bad.adjustSize();
    bad.grab().save(outputDir() + QStringLiteral("/plot-export-dialog.png"));
}

void TestPlotsPanel::widgetDrawsTheCurvesInTheirColours()
{
    PlotsPanel panel;
    panel.resize(720, 520);
    panel.setRuns({{"mu=0.3", simulate("bead-on-wire", {{"mu", {0.3}}})}, {"mu=0.1", bead_}});
    QVERIFY(panel.selectPreset("energy"));
    panel.setCompareQuantity("*"); // every quantity of both runs
    panel.setTime(1.0);
    QSignalSpy frames(&panel, &PlotsPanel::frameRendered);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QTRY_VERIFY_WITH_TIMEOUT(frames.count() > 0, 10000);

    const QImage shown =
        panel.chartWidget()->grabFramebuffer().convertToFormat(QImage::Format_RGB32);
    QVERIFY(!shown.isNull());
    shown.save(outputDir() + QStringLiteral("/plots-panel-chart.png"));
    panel.grab().save(outputDir() + QStringLiteral("/plots-panel.png"));
    for (const PlotCurve& curve : panel.plotData().curves) {
        if (curve.style == Qt::SolidLine && curve.color.hsvSaturation() > 100) {
            QVERIFY2(countPixelsOfHue(shown, curve.color, 8) > 100, qPrintable(curve.label));
        }
    }
    // Not blank: a good part of the picture is neither the background nor one flat colour.
    QImage empty(shown.size(), QImage::Format_RGB32);
    empty.fill(shown.pixel(2, 2));
    int differing = 0;
    for (int y = 0; y < shown.height(); y += 2) {
        for (int x = 0; x < shown.width(); x += 2) {
            differing += shown.pixel(x, y) != empty.pixel(x, y) ? 1 : 0;
        }
    }
    QVERIFY(differing > 1000);

    // Custom shows its quantity controls, filled from the plot that was shown.
    auto* combo = panel.findChild<QComboBox*>(QStringLiteral("presetCombo"));
    activate(combo, combo->count() - 1);
    auto* yList = panel.findChild<QListWidget*>(QStringLiteral("yList"));
    QVERIFY(yList->isVisible());
    QCOMPARE(panel.plotData().curves.size(), 2 * panel.spec().y.size());
    QTest::qWait(100);
    panel.grab().save(outputDir() + QStringLiteral("/plots-panel-custom.png"));
}

void TestPlotsPanel::wheelZoomsAndResetZoomRestores()
{
    PlotsPanel panel;
    panel.resize(640, 480);
    panel.setRuns(oneRun(bead_));
    QVERIFY(panel.selectPreset("energy"));
    QSignalSpy frames(&panel, &PlotsPanel::frameRendered);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QTRY_VERIFY_WITH_TIMEOUT(frames.count() > 0, 10000);

    vtkAxis* axis = panel.chart().chart()->GetAxis(vtkAxis::BOTTOM);
    const double width0 = axis->GetMaximum() - axis->GetMinimum();
    QVERIFY(width0 > 0.0);

    // Three wheel notches forward over the middle of the chart: the x range shrinks.
    VtkOpenGLWidget* widget = panel.chartWidget();
    const QPointF centre(widget->width() / 2.0, widget->height() / 2.0);
    for (int i = 0; i < 3; ++i) {
        QWheelEvent wheel(centre, widget->mapToGlobal(centre), QPoint(), QPoint(0, 120),
                          Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(widget, &wheel);
    }
    const double zoomed = axis->GetMaximum() - axis->GetMinimum();
    QVERIFY2(zoomed < 0.9 * width0, qPrintable(QStringLiteral("%1 -> %2").arg(width0).arg(zoomed)));
    // The zoom reaches the screen.
    const int before = frames.count();
    QTRY_VERIFY_WITH_TIMEOUT(frames.count() > before, 5000);

    // A left drag pans: the range keeps its width and moves.
    const double minBefore = axis->GetMinimum();
    const auto send = [widget](QEvent::Type type, QPointF pos, Qt::MouseButton button,
                               Qt::MouseButtons buttons) {
        QMouseEvent event(type, pos, widget->mapToGlobal(pos), button, buttons, Qt::NoModifier);
        QCoreApplication::sendEvent(widget, &event);
    };
    send(QEvent::MouseButtonPress, centre, Qt::LeftButton, Qt::LeftButton);
    for (int i = 1; i <= 5; ++i) {
        send(QEvent::MouseMove, centre + QPointF(20 * i, 0), Qt::NoButton, Qt::LeftButton);
    }
    send(QEvent::MouseButtonRelease, centre + QPointF(100, 0), Qt::LeftButton, Qt::NoButton);
    QVERIFY(axis->GetMinimum() < minBefore);
    QCOMPARE(axis->GetMaximum() - axis->GetMinimum(), zoomed);

    panel.resetZoom();
    panel.chart().chart()->Update();
    QTRY_VERIFY_WITH_TIMEOUT(
        std::abs((axis->GetMaximum() - axis->GetMinimum()) - width0) < 1e-9 * width0, 5000);
}

void TestPlotsPanel::zoomSurvivesANewRunOfThePlotButNotAnotherPlot()
{
    // Live tuning: the user zooms into a detail and drags μ; every new run redraws the plot,
    // which must keep showing that detail. Reset zoom or another plot shows the data whole.
    PlotsPanel panel;
    panel.resize(640, 480);
    panel.setRuns(oneRun(bead_));
    QVERIFY(panel.selectPreset("energy"));
    QSignalSpy frames(&panel, &PlotsPanel::frameRendered);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QTRY_VERIFY_WITH_TIMEOUT(frames.count() > 0, 10000);
    vtkAxis* x = panel.chart().chart()->GetAxis(vtkAxis::BOTTOM);
    const double whole = x->GetMaximum() - x->GetMinimum();

    VtkOpenGLWidget* widget = panel.chartWidget();
    const QPointF centre(widget->width() / 2.0, widget->height() / 2.0);
    for (int i = 0; i < 3; ++i) {
        QWheelEvent wheel(centre, widget->mapToGlobal(centre), QPoint(), QPoint(0, 120),
                          Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(widget, &wheel);
    }
    const std::array<double, 4> zoomed = panel.chart().viewRange();
    QVERIFY(zoomed[1] - zoomed[0] < 0.9 * whole);

    panel.setRuns(oneRun(simulate("bead-on-wire", {{"mu", {0.05}}})));
    QCOMPARE(panel.spec().id, std::string("energy"));
    const std::array<double, 4> kept = panel.chart().viewRange();
    for (int i = 0; i < 4; ++i) {
        QCOMPARE(kept[i], zoomed[i]);
    }
    // The cursor and the new curves are drawn in that view.
    const int before = frames.count();
    QTRY_VERIFY_WITH_TIMEOUT(frames.count() > before, 5000);
    QCOMPARE(panel.chart().viewRange()[0], zoomed[0]);

    // Another plot is shown whole, and so is the first one when chosen again.
    // (The automatic range is worked out when the chart is drawn.)
    const auto shownWhole = [&] {
        const std::array<double, 4> range = panel.chart().viewRange();
        return range[1] - range[0] > 0.99 * whole;
    };
    QVERIFY(panel.selectPreset("forces"));
    QTRY_VERIFY_WITH_TIMEOUT(shownWhole(), 5000);
    QVERIFY(panel.selectPreset("energy"));
    panel.setRuns(oneRun(bead_));
    QTRY_VERIFY_WITH_TIMEOUT(shownWhole(), 5000);

    // Reset zoom ends the kept view, too.
    for (int i = 0; i < 3; ++i) {
        QWheelEvent wheel(centre, widget->mapToGlobal(centre), QPoint(), QPoint(0, 120),
                          Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(widget, &wheel);
    }
    QTRY_VERIFY_WITH_TIMEOUT(!shownWhole(), 5000);
    panel.resetZoom();
    panel.setRuns(oneRun(simulate("bead-on-wire", {{"mu", {0.1}}})));
    QTRY_VERIFY_WITH_TIMEOUT(shownWhole(), 5000);
}

QTEST_MAIN(TestPlotsPanel)
#include "tst_PlotsPanel.moc"
