// The Fit dock in the main window: the shipped bead measurements (made with mu = 0.4, σ = 0.2
// cm) fitted back, applied as one undo step, a bad file, cancelling, and the live residual RMS
// checked against the bead's closed form s(t) = s0 − ½ g (sin θ − μ cos θ) t².

#include <FitPanel.h>
#include <GuiSceneStore.h>
#include <MainWindow.h>
#include <MessageBanner.h>
#include <PlotsPanel.h>
#include <SceneRegistry.h>
#include <SceneSession.h>
#include <SimulationWorker.h>
#include <VtkOpenGLWidget.h>

#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QSettings>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include "../support/MainWindowFixture.h"

#include <cmath>
#include <numbers>

using namespace clab;

namespace {

const bool surfaceFormatSet = testing::setSurfaceFormat();

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

    QTemporaryDir settingsDir_;
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

    static double rmsOf(const std::vector<double>& residuals)
    {
        double sum = 0.0;
        for (double r : residuals)
            sum += r * r;
        return std::sqrt(sum / static_cast<double>(residuals.size()));
    }

private slots:
    void initTestCase()
    {
        QVERIFY(surfaceFormatSet);
        QVERIFY(testing::isolateSettings(settingsDir_));
    }

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
        QVERIFY2(panel.summaryLabel()->text().contains(QStringLiteral("χ²")),
                 qPrintable(panel.summaryLabel()->text()));
        QVERIFY(mu(*window.session()) == 0.2); // a fit never changes the scene by itself

        QUndoStack* undo = window.session()->undoStack();
        const int steps = undo->count();
        QVERIFY(panel.applyResult());
        QCOMPARE(mu(*window.session()), fitted);
        QCOMPARE(undo->count(), steps + 1);
        undo->undo();
        QCOMPARE(mu(*window.session()), 0.2);
        undo->redo();
        QCOMPARE(mu(*window.session()), fitted);

        // At the fitted μ the residuals are the noise the data were made with (σ = 2 mm).
        QVERIFY(waitForTrajectory(window));
        QTRY_VERIFY_WITH_TIMEOUT(!panel.residuals().empty(), timeout);
        const double rms = rmsOf(panel.residuals()[0]);
        qInfo("residual rms at the fitted mu: %.6g m", rms);
        QVERIFY(rms > 0.0015 && rms < 0.0025);
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
        spec.y = {"x"};
        window.plotsPanel()->setSpec(spec);
        QVERIFY(markers() == nullptr);
    }
};

QTEST_MAIN(FitPanelTest)
#include "tst_FitPanel.moc"
