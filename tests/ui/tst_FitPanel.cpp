// The Fit dock in the main window: the shipped bead measurements (made with mu = 0.4, σ = 0.2
// cm) fitted back, applied as one undo step, a bad file, cancelling, and the live residual RMS
// checked against the bead's closed form s(t) = s0 − ½ g (sin θ − μ cos θ) t²; the same data
// in other units and another time origin; the measured markers in the 3D view against the
// wire's and the ring's closed forms; the residual plot of the Plots dock; a stale result.

#include <GuiSceneStore.h>
#include <MainWindow.h>
#include <RoundedValue.h>
#include <panels/FitPanel.h>
#include <panels/PlotsPanel.h>
#include <panels/ResidualPlot.h>
#include <render/VtkSurfaceFormat.h>
#include <scenes/SceneRegistry.h>
#include <session/SceneSession.h>
#include <session/SimulationWorker.h>
#include <view3d/SceneView.h>
#include <widgets/MessageBanner.h>

#include <QCheckBox>
#include <QDockWidget>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include "../support/MainWindowFixture.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numbers>

using namespace clab;

namespace {

[[maybe_unused]] const bool surfaceFormatSet = testing::setSurfaceFormat();

constexpr int timeout = 120000;
const QString example =
    QStringLiteral(CLAB_SOURCE_DIR) + QStringLiteral("/scenes/measurements/bead-mu0.4.csv");

// The bead as the example's data were made (s0 = 25 m, 30°, 5 s), started from mu = 0.2.
SceneDocument exampleBead()
{
    SceneDocument document = SceneDocument::fromDefinition(*SceneRegistry::find("bead-on-wire"));
    document.parameters["s0"] = {25.0};
    document.parameters["mu"] = {0.2};
    document.simulation.tEnd = 5.0;
    document.simulation.dt = 0.01;
    return document;
}

double mu(const SceneSession& session)
{
    return session.document().parameters.at("mu").at(0);
}

} // namespace

class FitPanelTest : public QObject {
    Q_OBJECT

    testing::IsolatedSettings settings_;
    std::unique_ptr<MainWindow> window_;

    MainWindow& freshWindow()
    {
        MainWindow& window = testing::showDocument(testing::newWindow(window_), exampleBead());
        window.showPanel(QStringLiteral("fit"));
        return window;
    }

    // Waits for the trajectory of the session's current μ.
    bool waitForTrajectory(MainWindow& window)
    {
        return QTest::qWaitFor(
            [&] {
                return window.trace() && !window.worker()->isBusy() &&
                       window.shownDocument().parameters.at("mu") ==
                           window.session()->document().parameters.at("mu");
            },
            timeout);
    }

    // The example loaded and its column mapped to the bead's s, centimetres to metres.
    FitPanel& loadedPanel(MainWindow& window)
    {
        FitPanel& panel = *window.fitPanel();
        if (!panel.loadFile(example))
            qWarning("%s", qPrintable(panel.messageLabel()->text()));
        if (!panel.mapColumn(QStringLiteral("pos_cm"), QStringLiteral("s"), 0.01, 0.002))
            qWarning("could not map pos_cm to s");
        return panel;
    }

    // RMS of measured − closed-form s(t) for the bead at μ.
    static double closedFormRms(const Measurements& measured, double mu)
    {
        const double theta = 30.0 * std::numbers::pi / 180.0;
        const double a = 9.81 * (std::sin(theta) - mu * std::cos(theta));
        double sum = 0.0;
        for (std::size_t i = 0; i < measured.times.size(); ++i) {
            const double t = measured.times[i];
            const double r = measured.columns[0].values[i] - (25.0 - 0.5 * a * t * t);
            sum += r * r;
        }
        return std::sqrt(sum / static_cast<double>(measured.times.size()));
    }

    // Fits μ alone and waits for the result.
    static bool fitMu(FitPanel& panel)
    {
        if (!panel.setFitted(QStringLiteral("mu"), true) || !panel.startFit())
            return false;
        return QTest::qWaitFor([&] { return !panel.isFitting(); }, timeout) &&
               panel.result().converged;
    }

    // The example's rows rewritten by `row(t, pos_cm)`, under `header`.
    static QString rewrittenExample(const QTemporaryDir& dir, const QString& name,
                                    const QString& header,
                                    const std::function<QString(double, double)>& row)
    {
        QFile in(example);
        if (!in.open(QIODevice::ReadOnly))
            return {};
        QString text = header + QLatin1Char('\n');
        for (const QByteArray& line : in.readAll().split('\n')) {
            const QList<QByteArray> fields = line.trimmed().split(',');
            bool ok1 = false, ok2 = false;
            const double t = fields.value(0).toDouble(&ok1);
            const double pos = fields.value(1).toDouble(&ok2);
            if (ok1 && ok2 && fields.size() == 2)
                text += row(t, pos) + QLatin1Char('\n');
        }
        const QString path = dir.filePath(name);
        QFile out(path);
        if (!out.open(QIODevice::WriteOnly))
            return {};
        out.write(text.toUtf8());
        return path;
    }

    static double rmsOf(const std::vector<double>& residuals)
    {
        double sum = 0.0;
        for (double r : residuals)
            sum += r * r;
        return std::sqrt(sum / static_cast<double>(residuals.size()));
    }

private slots:
    void initTestCase() { QVERIFY2(settings_.start(), qPrintable(settings_.problem())); }

    void cleanup() { window_.reset(); }

    void fitPanelIsADockReachableByName()
    {
        MainWindow& window = freshWindow();
        QVERIFY(window.panelNames().contains(QStringLiteral("fit")));
        QVERIFY(window.fitPanel()->isVisibleTo(&window));
    }

    void fittedMuIsTheOneTheDataWereMadeWithAndApplyIsOneUndoStep()
    {
        MainWindow& window = freshWindow();
        QVERIFY(waitForTrajectory(window));
        FitPanel& panel = loadedPanel(window);
        QVERIFY(panel.setFitted(QStringLiteral("mu"), true));
        QVERIFY2(panel.startFit(), qPrintable(panel.messageLabel()->text()));
        QTRY_VERIFY_WITH_TIMEOUT(!panel.isFitting(), timeout);

        const FitResult& result = panel.result();
        QCOMPARE(result.parameters, std::vector<std::string>{"mu"});
        QVERIFY(result.converged);
        const double fitted = result.values[0], se = result.standardErrors[0];
        qInfo("fitted mu = %.6f ± %.2g", fitted, se);
        QVERIFY(se > 0.0 && se < 0.01);
        QVERIFY(std::abs(fitted - 0.4) < 3.0 * se);
        QVERIFY(panel.resultTable()->rowCount() == 1);
        // χ²/dof worded as the CLI words it, with the RMS in its unit.
        QVERIFY2(panel.summaryLabel()->text().contains(
                     QStringLiteral("chi^2/dof: %1 (499 degrees of freedom; near 1 when the model "
                                    "and sigma fit the data)")
                         .arg(result.residualVariance, 0, 'g', 4)),
                 qPrintable(panel.summaryLabel()->text()));
        QVERIFY(
            panel.summaryLabel()->text().contains(QStringLiteral("residual RMS of pos_cm (s): %1 m")
                                                      .arg(result.columnRms[0], 0, 'g', 4)));
        QVERIFY(mu(*window.session()) == 0.2); // a fit never changes the scene by itself

        // Apply takes the value to the digits of its error, one undo step.
        const double rounded = RoundedValue(fitted, se).value();
        QVERIFY(rounded != fitted);
        QCOMPARE(panel.resultTable()->item(0, 1)->text(), RoundedValue(fitted, se).valueText());
        QUndoStack* undo = window.session()->undoStack();
        const int steps = undo->count();
        QVERIFY(panel.applyResult());
        QCOMPARE(mu(*window.session()), rounded);
        QCOMPARE(undo->count(), steps + 1);
        undo->undo();
        QCOMPARE(mu(*window.session()), 0.2);
        undo->redo();
        QCOMPARE(mu(*window.session()), rounded);
        // Asked for all digits, it takes them.
        undo->undo();
        panel.fullPrecisionBox()->setChecked(true);
        QVERIFY(panel.applyResult());
        QCOMPARE(mu(*window.session()), fitted);

        // At the fitted μ the residuals are the noise the data were made with (σ = 2 mm).
        QVERIFY(waitForTrajectory(window));
        QTRY_VERIFY_WITH_TIMEOUT(!panel.residuals().empty(), timeout);
        const double rms = rmsOf(panel.residuals()[0]);
        qInfo("residual rms at the fitted mu: %.6g m", rms);
        QVERIFY(rms > 0.0015 && rms < 0.0025);
    }

    // Issue 32: from s0 = 2 m the bead cannot reach data that start at 25 m. The fit fails
    // and says why, Apply stays disabled, and "Fit s0 too" fits the start as well, which
    // succeeds.
    void aWrongStartFailsAndOffersToFitTheStart()
    {
        SceneDocument wrong = exampleBead();
        wrong.parameters["s0"] = {2.0};
        MainWindow& window = testing::showDocument(testing::newWindow(window_), wrong);
        window.showPanel(QStringLiteral("fit"));
        QVERIFY(waitForTrajectory(window));
        FitPanel& panel = loadedPanel(window);
        QVERIFY(panel.setFitted(QStringLiteral("mu"), true));
        QVERIFY(panel.startFit());
        QTRY_VERIFY_WITH_TIMEOUT(!panel.isFitting(), timeout);
        QVERIFY(panel.result().failed());
        QVERIFY2(panel.messageLabel()->text().contains(
                     "the data of pos_cm start at 25 m (t = 0.01 s), the model at 2 m"),
                 qPrintable(panel.messageLabel()->text()));
        QVERIFY(!panel.applyButton()->isEnabled());
        QVERIFY(panel.applyBlockedReason().contains("the fit failed"));
        QVERIFY(!panel.applyResult());
        QVERIFY(!panel.summaryLabel()->text().contains("nan", Qt::CaseInsensitive));
        QVERIFY(panel.fitStartButton()->isVisibleTo(&panel));
        QVERIFY2(panel.fitStartButton()->text().contains("s₀"),
                 qPrintable(panel.fitStartButton()->text()));

        QTest::mouseClick(panel.fitStartButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!panel.isFitting(), timeout);
        QCOMPARE(panel.result().parameters, (std::vector<std::string>{"mu", "s0"}));
        QVERIFY2(!panel.result().failed(), panel.result().failure.c_str());
        QVERIFY(std::abs(panel.result().values[0] - 0.4) < 3.0 * panel.result().standardErrors[0]);
        QVERIFY(panel.applyButton()->isEnabled());
        QVERIFY(!panel.fitStartButton()->isVisibleTo(&panel));
        // No header of the result table is cut off (the table fits the dock), and no
        // correlation reads "nan".
        QVERIFY2(panel.summaryLabel()->text().contains(QStringLiteral(
                     "Correlation of Kinetic friction μ and Start position s₀: -0.7")),
                 qPrintable(panel.summaryLabel()->text()));
        const QTableWidget& table = *panel.resultTable();
        QVERIFY(!table.horizontalScrollBar()->isVisible());
        for (int c = 0; c < table.columnCount(); ++c) {
            const QString header = table.horizontalHeaderItem(c)->text();
            QVERIFY2(table.columnWidth(c) >=
                         table.horizontalHeader()->fontMetrics().horizontalAdvance(header),
                     qPrintable(header));
            for (int r = 0; r < table.rowCount(); ++r)
                QVERIFY(!table.item(r, c)->text().contains("nan", Qt::CaseInsensitive));
        }
    }

    // When the fit ends the residual plot shows the fitted model's residuals (the noise, σ =
    // 2 mm), not those of the scene's μ = 0.2 still on screen.
    void residualPlotShowsTheFittedModelWhenTheFitEnds()
    {
        MainWindow& window = freshWindow();
        QVERIFY(waitForTrajectory(window));
        FitPanel& panel = loadedPanel(window);
        const Measurements measured = panel.measurements();
        QVERIFY(std::abs(rmsOf(panel.residuals().at(0)) - closedFormRms(measured, 0.2)) < 1e-6);
        QSignalSpy finished(&panel, &FitPanel::fitFinished);
        QVERIFY(fitMu(panel));
        QCOMPARE(finished.count(), 1);
        QCOMPARE(panel.residuals().size(), std::size_t(1));
        const double rms = rmsOf(panel.residuals()[0]);
        QVERIFY2(std::abs(rms - panel.result().columnRms[0]) < 1e-12,
                 qPrintable(QString::number(rms)));
        QVERIFY(rms > 0.0015 && rms < 0.0025);
        QVERIFY(std::abs(rmsOf(panel.residualCurves().at(0).second.y) - rms) < 1e-12);
        // The figures carry units.
        QVERIFY2(panel.rmsLabel()->text().contains(QStringLiteral(" m")),
                 qPrintable(panel.rmsLabel()->text()));
        QVERIFY(mu(*window.session()) == 0.2);
    }

    // A Tracker export (title line, tab-separated) maps its column s to the bead's s by name.
    void trackerColumnsNamedLikeQuantitiesMapThemselves()
    {
        QTemporaryDir dir;
        const QString tracker = rewrittenExample(
            dir, QStringLiteral("tracker.txt"), QStringLiteral("mass A\nt\ts"),
            [](double t, double cm) {
                return QStringLiteral("%1\t%2").arg(t, 0, 'g', 17).arg(cm / 100.0, 0, 'g', 17);
            });
        MainWindow& window = freshWindow();
        QVERIFY(waitForTrajectory(window));
        FitPanel& panel = *window.fitPanel();
        QVERIFY2(panel.loadFile(tracker), qPrintable(panel.messageLabel()->text()));
        QCOMPARE(panel.mappedMeasurements().columns.size(), std::size_t(1));
        QCOMPARE(panel.mappedMeasurements().columns[0].quantity, std::string("s"));
        QCOMPARE(panel.mappedMeasurements().times.size(), std::size_t(500));
        QVERIFY2(panel.messageLabel()->text().contains(QStringLiteral("s → s")),
                 qPrintable(panel.messageLabel()->text()));
    }

    void aBadFileSaysWhereAndKeepsTheOldData()
    {
        MainWindow& window = freshWindow();
        QVERIFY(waitForTrajectory(window)); // the quantities to map come from the trace
        FitPanel& panel = loadedPanel(window);
        const std::size_t values = panel.measurements().valueCount();
        QCOMPARE(values, std::size_t(500));

        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("bad.csv"));
        QFile file(bad);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("# a comment\ntime,pos_cm\n0.01,2500\n0.02,25x0\n");
        file.close();
        QVERIFY(!panel.loadFile(bad));
        const QString message = panel.messageLabel()->text();
        QVERIFY2(message.contains(QStringLiteral("line 4")), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("pos_cm")), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("not a number")), qPrintable(message));
        QVERIFY(panel.messageLabel()->isVisibleTo(&window));
        QCOMPARE(panel.measurements().valueCount(), values); // still the example
    }

    void cancellingAFitLeavesTheSceneUnchanged()
    {
        MainWindow& window = freshWindow();
        QVERIFY(waitForTrajectory(window));
        FitPanel& panel = loadedPanel(window);
        QVERIFY(panel.setFitted(QStringLiteral("mu"), true));
        QVERIFY(panel.setFitted(QStringLiteral("angle_deg"), true));
        const SceneDocument before = window.session()->document();
        const int steps = window.session()->undoStack()->count();
        QVERIFY(panel.startFit());
        QVERIFY(panel.isFitting());
        panel.cancelFit();
        QTRY_VERIFY_WITH_TIMEOUT(!panel.isFitting(), timeout);
        QVERIFY(panel.result().parameters.empty());
        QVERIFY2(panel.progressLabel()->text().contains(QStringLiteral("Cancelled")),
                 qPrintable(panel.progressLabel()->text()));
        QVERIFY(!panel.applyResult());
        QCOMPARE(window.session()->undoStack()->count(), steps);
        QVERIFY(window.session()->document().parameters == before.parameters);
    }

    void residualRmsFollowsMuAndMatchesTheClosedForm()
    {
        MainWindow& window = freshWindow();
        QVERIFY(waitForTrajectory(window));
        FitPanel& panel = loadedPanel(window);
        const Measurements measured = panel.measurements();
        QVERIFY(!panel.residuals().empty());
        const QString at02 = panel.rmsLabel()->text();
        const double rms02 = rmsOf(panel.residuals()[0]);
        QVERIFY(std::abs(rms02 - closedFormRms(measured, 0.2)) < 1e-6 * rms02 + 1e-6);

        window.session()->edit(QStringLiteral("mu"), {0.4});
        QVERIFY(waitForTrajectory(window));
        QTRY_VERIFY_WITH_TIMEOUT(panel.rmsLabel()->text() != at02, timeout);
        const double rms04 = rmsOf(panel.residuals()[0]);
        qInfo("rms at mu 0.2: %.6g m, at 0.4: %.6g m", rms02, rms04);
        QVERIFY(std::abs(rms04 - closedFormRms(measured, 0.4)) < 1e-6 * rms04 + 1e-6);
        QVERIFY(rms04 < rms02);
    }

    // The measured points are drawn over the simulated s(t), and only in plots of s against t.
    void measuredPointsAreMarkersOverTheirQuantity()
    {
        MainWindow& window = freshWindow();
        QVERIFY(waitForTrajectory(window));
        const Measurements measured = loadedPanel(window).measurements();
        const auto markers = [&]() -> const PlotCurve* {
            for (const PlotCurve& curve : window.plotsPanel()->plotData().curves)
                if (curve.markers)
                    return &curve;
            return nullptr;
        };
        PlotSpec spec;
        spec.y = {"s"};
        window.plotsPanel()->setSpec(spec);
        QVERIFY(markers() != nullptr);
        QCOMPARE(markers()->x, measured.times);
        QCOMPARE(markers()->y, measured.columns[0].values); // in metres, as s
        // In the colour of the curve they lie on, here and in the 3D view.
        QCOMPARE(markers()->color, window.plotsPanel()->plotData().curves.at(0).color);
        QCOMPARE(window.sceneView()->measuredMarkerColor(), markers()->color);
        spec.y = {"x", "s"};
        window.plotsPanel()->setSpec(spec);
        QVERIFY(markers() != nullptr);
        const QColor second = window.plotsPanel()->plotData().curves.at(1).color;
        QVERIFY(second != window.plotsPanel()->plotData().curves.at(0).color);
        QCOMPARE(markers()->color, second);
        QCOMPARE(window.sceneView()->measuredMarkerColor(), second);
        QCOMPARE(window.fitPanel()->residualPlot()->colors().at(0), second);
        spec.y = {"x"};
        window.plotsPanel()->setSpec(spec);
        QVERIFY(markers() == nullptr);
    }

    // The bead's s puts the marker on the wire at that arc length: s (cos θ, sin θ, 0).
    void measuredMarkersLieOnTheWireWhereTheDataPutTheBead()
    {
        MainWindow& window = freshWindow();
        QVERIFY(waitForTrajectory(window));
        QVERIFY(window.sceneView()->measuredMarkers().empty()); // no data: no markers
        FitPanel& panel = loadedPanel(window);
        const Measurements measured = panel.measurements();
        const std::vector<Eigen::Vector3d> markers = window.sceneView()->measuredMarkers();
        QCOMPARE(markers.size(), measured.times.size());
        const double theta = 30.0 * std::numbers::pi / 180.0;
        double worst = 0.0;
        for (std::size_t i = 0; i < markers.size(); ++i) {
            const double s = measured.columns[0].values[i];
            const Eigen::Vector3d wire(s * std::cos(theta), s * std::sin(theta), 0.0);
            worst = std::max(worst, (markers[i] - wire).norm());
        }
        qInfo("largest distance of a marker from s (cos θ, sin θ, 0): %.3g m", worst);
        QVERIFY(worst < 1e-9 * 25.0);

        // Another μ moves the simulated bead, not the markers.
        window.session()->edit(QStringLiteral("mu"), {0.4});
        QVERIFY(waitForTrajectory(window));
        const std::vector<Eigen::Vector3d> again = window.sceneView()->measuredMarkers();
        QCOMPARE(again.size(), markers.size());
        for (std::size_t i = 0; i < markers.size(); ++i)
            QVERIFY((again[i] - markers[i]).norm() < 1e-9 * 25.0);

        // A new mapping moves them: metres read as centimetres put them 100 times nearer 0.
        QVERIFY(panel.mapColumn(QStringLiteral("pos_cm"), QStringLiteral("s"), 0.0001, 0.002));
        const std::vector<Eigen::Vector3d> scaled = window.sceneView()->measuredMarkers();
        QCOMPARE(scaled.size(), markers.size());
        QVERIFY((scaled[0] - 0.01 * markers[0]).norm() < 1e-9 * 25.0);
        // Unmapped: none.
        QVERIFY(panel.mapColumn(QStringLiteral("pos_cm"), QString()));
        QVERIFY(window.sceneView()->measuredMarkers().empty());
    }

    // Measured coordinates are the point; a coordinate not measured comes from the run, here
    // the bead's closed form y(t) = s(t) sin θ at μ = 0.2.
    void measuredCoordinatesAreThePoint()
    {
        MainWindow& window = freshWindow();
        QVERIFY(waitForTrajectory(window));
        QTemporaryDir dir;
        QString text = QStringLiteral("t,x_m,y_m\n");
        for (int i = 1; i <= 30; ++i)
            text +=
                QStringLiteral("%1,%2,%3\n").arg(0.1 * i).arg(1.0 + 0.1 * i).arg(2.0 - 0.05 * i);
        const QString path = dir.filePath(QStringLiteral("xy.csv"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(text.toUtf8());
        file.close();
        FitPanel& panel = *window.fitPanel();
        QVERIFY(panel.loadFile(path));
        QVERIFY(panel.mapColumn(QStringLiteral("x_m"), QStringLiteral("x")));
        QVERIFY(panel.mapColumn(QStringLiteral("y_m"), QStringLiteral("y")));
        const Measurements measured = panel.measurements();
        std::vector<Eigen::Vector3d> markers = window.sceneView()->measuredMarkers();
        QCOMPARE(markers.size(), std::size_t(30));
        for (std::size_t i = 0; i < markers.size(); ++i)
            QVERIFY(markers[i] == Eigen::Vector3d(measured.columns[0].values[i],
                                                  measured.columns[1].values[i], 0.0));

        QVERIFY(panel.mapColumn(QStringLiteral("y_m"), QString()));
        markers = window.sceneView()->measuredMarkers();
        QCOMPARE(markers.size(), std::size_t(30));
        const double theta = 30.0 * std::numbers::pi / 180.0;
        const double a = 9.81 * (std::sin(theta) - 0.2 * std::cos(theta));
        double worst = 0.0;
        for (std::size_t i = 0; i < markers.size(); ++i) {
            const double t = measured.times[i];
            QCOMPARE(markers[i].x(), measured.columns[0].values[i]);
            worst = std::max(worst,
                             std::abs(markers[i].y() - (25.0 - 0.5 * a * t * t) * std::sin(theta)));
        }
        qInfo("largest |y − s(t) sin θ| of a marker with y from the run: %.3g m", worst);
        QVERIFY(worst < 1e-6);
    }

    // The ring's φ puts the marker on the ring at that angle from the lowest point:
    // R (sin φ, −cos φ, 0), up to the sag of the run's chords, R Δφ² / 8.
    void measuredAnglesPutMarkersOnTheRing()
    {
        window_.reset();
        window_ = std::make_unique<MainWindow>(std::make_shared<GuiSceneStore>());
        SceneDocument ring = SceneDocument::fromDefinition(*SceneRegistry::find("ring"));
        ring.simulation.tEnd = 2.0;
        window_->setDocument(ring);
        window_->resize(1200, 800);
        window_->show();
        MainWindow& window = *window_;
        QVERIFY(
            QTest::qWaitFor([&] { return window.trace() && !window.worker()->isBusy(); }, timeout));
        const Trace& trace = *window.trace();
        const double radius = ring.parameters.at("radius").at(0);
        const int phi = trace.columnIndex("phi");
        QVERIFY(phi >= 0);
        // Between samples, a third of the way; in degrees, as a file might give them.
        QTemporaryDir dir;
        QString text = QStringLiteral("t,angle_deg\n");
        double sag = 0.0;
        const std::vector<double> column = trace.column(phi);
        for (std::size_t j = 0; j + 1 < trace.samples.size(); j += 7) {
            const double a = column[j], b = column[j + 1];
            sag = std::max(sag, radius * (b - a) * (b - a) / 8.0);
            const double t = trace.samples[j].t + 0.003;
            text += QStringLiteral("%1,%2\n")
                        .arg(t, 0, 'g', 17)
                        .arg((a + (b - a) / 3.0) * 180.0 / std::numbers::pi, 0, 'g', 17);
        }
        const QString path = dir.filePath(QStringLiteral("ring.csv"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(text.toUtf8());
        file.close();
        FitPanel& panel = *window.fitPanel();
        QVERIFY2(panel.loadFile(path), qPrintable(panel.messageLabel()->text()));
        QVERIFY(panel.mapColumn(QStringLiteral("angle_deg"), QStringLiteral("phi"),
                                std::numbers::pi / 180.0));
        const Measurements measured = panel.measurements();
        const std::vector<Eigen::Vector3d> markers = window.sceneView()->measuredMarkers();
        QCOMPARE(markers.size(), measured.times.size());
        QVERIFY(markers.size() > 20);
        double worst = 0.0;
        for (std::size_t i = 0; i < markers.size(); ++i) {
            const double angle = measured.columns[0].values[i];
            const Eigen::Vector3d onRing(radius * std::sin(angle), -radius * std::cos(angle), 0.0);
            worst = std::max(worst, (markers[i] - onRing).norm());
        }
        qInfo("largest distance of a marker from R (sin φ, −cos φ, 0): %.3g m (chord sag %.3g m)",
              worst, sag);
        QVERIFY(worst <= sag + 1e-9);
    }

    // The Plots dock offers measured − simulated once a column is mapped, around a zero line,
    // and no longer when none is.
    void residualPlotInThePlotsDockMatchesTheClosedForm()
    {
        MainWindow& window = freshWindow();
        QVERIFY(waitForTrajectory(window));
        PlotsPanel& plots = *window.plotsPanel();
        const std::string id = PlotsPanel::residualPresetId;
        QVERIFY(!plots.selectPreset(id)); // nothing measured yet
        FitPanel& panel = loadedPanel(window);
        const Measurements measured = panel.measurements();
        QVERIFY(plots.selectPreset(id));
        const PlotData& data = plots.plotData();
        QCOMPARE(data.curves.size(), std::size_t(2));
        const PlotCurve& zero = data.curves[0];
        QVERIFY(!zero.markers);
        QCOMPARE(zero.y, (std::vector<double>{0.0, 0.0}));
        QCOMPARE(zero.x, (std::vector<double>{measured.times.front(), measured.times.back()}));
        const PlotCurve& points = data.curves[1];
        QVERIFY(points.markers);
        QCOMPARE(points.x, measured.times);
        QCOMPARE(points.y, panel.residuals()[0]);
        QCOMPARE(points.color, plots.measuredColor("s"));
        QVERIFY(std::abs(rmsOf(points.y) - closedFormRms(measured, 0.2)) < 1e-6);

        // It follows μ, and goes when nothing is mapped.
        window.session()->edit(QStringLiteral("mu"), {0.4});
        QVERIFY(waitForTrajectory(window));
        QTRY_VERIFY_WITH_TIMEOUT(
            std::abs(rmsOf(plots.plotData().curves.at(1).y) - closedFormRms(measured, 0.4)) < 1e-6,
            timeout);
        QVERIFY(panel.mapColumn(QStringLiteral("pos_cm"), QString()));
        QVERIFY(plots.spec().id != id); // back to a plot of the trace
        QVERIFY(!plots.plotData().curves.empty());
        QVERIFY(!plots.selectPreset(id));
    }

    // Millimetres with scale 0.001, and times in ms from another origin (scale 0.001, offset
    // 0.5 s) in a column load would not take for time, fit as the same data in metres.
    void otherUnitsAndTimeOriginGiveTheSameFit()
    {
        QTemporaryDir dir;
        const QString metres = rewrittenExample(
            dir, QStringLiteral("m.csv"), QStringLiteral("t,pos_m"), [](double t, double cm) {
                return QStringLiteral("%1,%2").arg(t, 0, 'g', 17).arg(cm / 100.0, 0, 'g', 17);
            });
        const QString millimetres =
            rewrittenExample(dir, QStringLiteral("mm.csv"), QStringLiteral("pos_mm,clock_ms"),
                             [](double t, double cm) {
                                 return QStringLiteral("%1,%2")
                                     .arg(cm * 10.0, 0, 'g', 17)
                                     .arg((t - 0.5) * 1000.0, 0, 'g', 17);
                             });
        QVERIFY(!metres.isEmpty() && !millimetres.isEmpty());

        MainWindow& window = freshWindow();
        QVERIFY(waitForTrajectory(window));
        FitPanel& panel = *window.fitPanel();
        QVERIFY(panel.loadFile(metres));
        QVERIFY(panel.mapColumn(QStringLiteral("pos_m"), QStringLiteral("s"), 1.0, 0.002));
        const Measurements inMetres = panel.measurements();
        QVERIFY(fitMu(panel));
        const double muMetres = panel.result().values[0];

        QVERIFY(panel.loadFile(millimetres));
        QVERIFY(!panel.mapColumn(QStringLiteral("clock_ms"), QStringLiteral("s"))); // the time
        QVERIFY(panel.setTimeColumn(QStringLiteral("clock_ms"), 0.001, 0.5));
        QVERIFY(panel.mapColumn(QStringLiteral("pos_mm"), QStringLiteral("s"), 0.001, 0.002));
        const Measurements inMillimetres = panel.measurements();
        QCOMPARE(inMillimetres.times.size(), inMetres.times.size());
        for (std::size_t i = 0; i < inMetres.times.size(); ++i) {
            QVERIFY(std::abs(inMillimetres.times[i] - inMetres.times[i]) < 1e-12);
            QVERIFY(std::abs(inMillimetres.columns[0].values[i] - inMetres.columns[0].values[i]) <
                    1e-12);
        }
        QVERIFY(fitMu(panel));
        const double muMillimetres = panel.result().values[0];
        qInfo("mu from metres %.9f, from millimetres and ms %.9f", muMetres, muMillimetres);
        QVERIFY(std::abs(muMillimetres - muMetres) < 1e-7);
    }

    // A result fitted to another scene or other data cannot be applied, and says why.
    void aStaleFitCannotBeApplied()
    {
        MainWindow& window = freshWindow();
        QVERIFY(waitForTrajectory(window));
        FitPanel& panel = loadedPanel(window);
        QVERIFY(!panel.applyButton()->isEnabled()); // nothing fitted
        QVERIFY(fitMu(panel));
        QVERIFY(panel.applyButton()->isEnabled());
        QVERIFY(panel.applyBlockedReason().isEmpty());
        QVERIFY(!panel.applyNote()->isVisibleTo(&window));

        const auto blocked = [&](const char* why) {
            const QString reason = panel.applyBlockedReason();
            if (!reason.contains(QLatin1String(why)))
                qWarning("reason: %s", qPrintable(reason));
            return reason.contains(QLatin1String(why)) && !panel.applyButton()->isEnabled() &&
                   panel.applyButton()->toolTip() == reason &&
                   panel.applyNote()->isVisibleTo(&window) && panel.applyNote()->text() == reason;
        };
        QUndoStack* undo = window.session()->undoStack();
        const int steps = undo->count();
        window.session()->edit(QStringLiteral("angle_deg"), {31.0});
        QVERIFY(blocked("scene changed"));
        QVERIFY(!panel.applyResult());
        QCOMPARE(undo->count(), steps + 1);
        undo->undo();
        QVERIFY(panel.applyButton()->isEnabled()); // the scene is the fitted one again

        QVERIFY(panel.mapColumn(QStringLiteral("pos_cm"), QStringLiteral("s"), 0.01, 0.003));
        QVERIFY(blocked("mapping"));
        QVERIFY(panel.mapColumn(QStringLiteral("pos_cm"), QStringLiteral("s"), 0.01, 0.002));
        QVERIFY(panel.applyButton()->isEnabled());

        QVERIFY(panel.applyResult());
        QVERIFY(blocked("in the scene"));
        undo->undo();
        QVERIFY(panel.applyButton()->isEnabled());

        loadedPanel(window); // the same file and mapping, loaded again
        QVERIFY(blocked("loaded again"));
        QVERIFY(!panel.applyResult());
        QCOMPARE(mu(*window.session()), 0.2);
    }

    // Parameters read as the Scene dock names them ("Kinetic friction μ"); the key on hover.
    void parametersAreListedByTheirLabels()
    {
        MainWindow& window = freshWindow();
        const SceneDefinition* definition = window.session()->definition();
        QVERIFY(definition != nullptr);
        const QList<QCheckBox*> boxes =
            window.fitPanel()->parameterBox()->findChildren<QCheckBox*>();
        int labelled = 0;
        for (const ParameterSpec& spec : definition->parameters) {
            if (spec.size() != 1 || spec.wholeNumber)
                continue;
            const QString label = QString::fromStdString(spec.displayLabel());
            const QString key = QString::fromStdString(spec.name);
            const auto box = std::find_if(boxes.begin(), boxes.end(),
                                          [&](QCheckBox* b) { return b->text() == label; });
            QVERIFY2(box != boxes.end(), qPrintable(label));
            QVERIFY((*box)->toolTip().contains(key));
            labelled += label != key ? 1 : 0;
        }
        QVERIFY(labelled > 0);
        QVERIFY(std::none_of(boxes.begin(), boxes.end(),
                             [](QCheckBox* b) { return b->text() == QStringLiteral("mu"); }));

        QVERIFY(waitForTrajectory(window));
        FitPanel& panel = loadedPanel(window);
        QVERIFY(fitMu(panel));
        QCOMPARE(panel.resultTable()->item(0, 0)->text(), QStringLiteral("Kinetic friction μ"));
        QVERIFY(panel.resultTable()->item(0, 0)->toolTip().contains(QStringLiteral("mu")));

        // A count (the chain's links, its pinned ends) is not offered: a fit varies continuously.
        window.setDocument(SceneDocument::fromDefinition(*SceneRegistry::find("chain")));
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete); // the bead's rows
        const QList<QCheckBox*> chainBoxes =
            window.fitPanel()->parameterBox()->findChildren<QCheckBox*>();
        QVERIFY(!chainBoxes.isEmpty());
        for (const ParameterSpec& spec : window.session()->definition()->parameters) {
            const QString label = QString::fromStdString(spec.displayLabel());
            const bool offered = std::any_of(chainBoxes.begin(), chainBoxes.end(),
                                             [&](QCheckBox* b) { return b->text() == label; });
            QVERIFY2(offered == (spec.size() == 1 && !spec.wholeNumber), qPrintable(label));
        }
    }
};

QTEST_MAIN(FitPanelTest)
#include "tst_FitPanel.moc"
