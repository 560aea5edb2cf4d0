// MarkerLayer: a measured coordinate puts the body where the run is at that time with the
// coordinate replaced; another measured quantity puts it where the run's path takes that value;
// nothing without a run; "stuck" while a contact sticks.
#include <view3d/MarkerLayer.h>

#include "../../support/PointGeometry.h"

#include <QtTest>

#include <vtkNew.h>
#include <vtkRenderer.h>

using namespace clab;
using namespace clab::testing;

namespace {

/// The point moving as (t, 2t, 0) for t in [0, 1], with the extra column s = 3t.
Trace slantedRun()
{
    std::vector<TraceSample> samples;
    for (int i = 0; i <= 10; ++i) {
        const double t = 0.1 * i;
        TraceSample s = pointSample(t, Eigen::Vector3d(t, 2.0 * t, 0.0), Eigen::Vector3d::Zero());
        s.qd = Eigen::Vector3d(1.0, 2.0, 0.0);
        s.qdd = Eigen::Vector3d::Zero();
        s.extra = Eigen::VectorXd::Constant(1, 3.0 * t);
        samples.push_back(s);
    }
    Trace trace({"x", "y", "z"}, {"s"}, false);
    trace.samples = samples;
    return trace;
}

Measurements measured(const std::string& quantity, std::vector<double> values)
{
    Measurements m;
    m.times = {0.2, 0.4};
    m.columns.push_back({quantity, std::move(values), 0.0, ""});
    return m;
}

bool near(const Eigen::Vector3d& a, const Eigen::Vector3d& b)
{
    return (a - b).norm() < 1e-9;
}

} // namespace

class TestMarkerLayer : public QObject {
    Q_OBJECT
private slots:
    void measuredCoordinateReplacesTheRuns();
    void measuredQuantityFollowsThePath();
    void noRunNoMarkers();
    void stuckShowsWhileAContactSticks();
};

void TestMarkerLayer::measuredCoordinateReplacesTheRuns()
{
    vtkNew<vtkRenderer> overlay;
    MarkerLayer markers(overlay);
    const PointGeometry geometry;
    const Trace run = slantedRun();
    markers.setMeasured(measured("x", {0.5, 0.7}), {QColor(Qt::blue)});
    markers.rebuild(&geometry, &run);
    QCOMPARE(markers.positions().size(), std::size_t(2));
    QVERIFY(near(markers.positions()[0], Eigen::Vector3d(0.5, 0.4, 0.0)));
    QVERIFY(near(markers.positions()[1], Eigen::Vector3d(0.7, 0.8, 0.0)));
    QCOMPARE(markers.color(), QColor(Qt::blue));
    std::vector<SceneGeometry::LegendEntry> entries;
    markers.addLegendEntry(entries);
    QCOMPARE(entries.size(), std::size_t(1));
    QCOMPARE(entries.front().label, QStringLiteral("measured x"));
}

void TestMarkerLayer::measuredQuantityFollowsThePath()
{
    vtkNew<vtkRenderer> overlay;
    MarkerLayer markers(overlay);
    const PointGeometry geometry;
    const Trace run = slantedRun();
    // s = 0.6 is at t = 0.2; s = 3.3 is beyond the run, on its last stretch continued.
    markers.setMeasured(measured("s", {0.6, 3.3}), {});
    markers.rebuild(&geometry, &run);
    QCOMPARE(markers.positions().size(), std::size_t(2));
    QVERIFY(near(markers.positions()[0], Eigen::Vector3d(0.2, 0.4, 0.0)));
    QVERIFY(near(markers.positions()[1], Eigen::Vector3d(1.1, 2.2, 0.0)));
    // Without a colour for the column: the default orange.
    QCOMPARE(markers.color(), QColor(0xD5, 0x5E, 0x00));
}

void TestMarkerLayer::noRunNoMarkers()
{
    vtkNew<vtkRenderer> overlay;
    MarkerLayer markers(overlay);
    const PointGeometry geometry;
    markers.setMeasured(measured("x", {0.5, 0.7}), {QColor(Qt::blue)});
    markers.rebuild(&geometry, nullptr);
    QVERIFY(markers.positions().empty());
    std::vector<SceneGeometry::LegendEntry> entries;
    markers.addLegendEntry(entries);
    QVERIFY(entries.empty());
}

void TestMarkerLayer::stuckShowsWhileAContactSticks()
{
    vtkNew<vtkRenderer> overlay;
    MarkerLayer markers(overlay);
    TraceSample sample = pointSample(0.0, Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero());
    sample.contacts = Eigen::VectorXd::Constant(1, 1.0);
    markers.showEvents(sample, Eigen::Vector3d::Zero());
    QVERIFY(!markers.isStuckShown());
    sample.contacts[0] = 0.0;
    markers.showEvents(sample, Eigen::Vector3d::Zero());
    QVERIFY(markers.isStuckShown());
    markers.hideEvents();
    QVERIFY(!markers.isStuckShown());
}

QTEST_MAIN(TestMarkerLayer)
#include "tst_MarkerLayer.moc"
