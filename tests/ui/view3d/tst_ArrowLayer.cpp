// ArrowLayer: one scale for the run (the largest force 40 % of the scene), a small kind drawn
// longer and the legend saying so, spikes cut to their kind's longest arrow and marked, the true
// magnitude on the label, and hidden kinds neither drawn nor listed.
#include <view3d/ArrowLayer.h>

#include "../../support/PointGeometry.h"

#include <QtTest>

#include <vtkNew.h>
#include <vtkRenderer.h>

using namespace clab;
using namespace clab::testing;

namespace {

/// The legend's labels of `layer` for `geometry`.
QStringList legendLabels(const ArrowLayer& layer, const SceneGeometry& geometry)
{
    std::vector<SceneGeometry::LegendEntry> entries;
    layer.addLegendEntries(geometry, entries);
    QStringList labels;
    for (const auto& entry : entries)
        labels << entry.label;
    return labels;
}

} // namespace

class TestArrowLayer : public QObject {
    Q_OBJECT
private slots:
    void largestForceIsFortyPercentOfTheScene();
    void smallKindIsDrawnLongerAndSaidSo();
    void spikeIsCutToItsKindsLongestArrow();
    void hiddenKindIsNeitherDrawnNorListed();
    void fieldDrawsEveryKthBody();
};

void TestArrowLayer::largestForceIsFortyPercentOfTheScene()
{
    vtkNew<vtkRenderer> overlay;
    ArrowLayer layer(overlay);
    const PointGeometry geometry(2.0);
    std::vector<TraceSample> samples;
    for (int i = 1; i <= 10; ++i)
        samples.push_back(
            pointSample(0.1 * i, Eigen::Vector3d::Zero(), Eigen::Vector3d(0.0, -1.0 * i, 0.0)));
    layer.fitScale(&geometry, samples);
    QCOMPARE(layer.automaticScale(), 0.4 * 2.0 / 10.0);
    layer.show(geometry, samples.back());
    const ForceArrow& arrow = layer.arrow(ForceKind::Given);
    QVERIFY(arrow.isDrawn());
    QVERIFY(std::abs(arrow.length() - 0.8) < 1e-12);
    QVERIFY(!arrow.isCut());
    // It starts on the body's surface, pointing along the force.
    const Eigen::Vector3d base = arrow.tip() - arrow.vector();
    QVERIFY((base - Eigen::Vector3d(0.0, -geometry.bodyRadius(), 0.0)).norm() < 1e-12);
    // Twice the scale, twice the arrow.
    layer.setScale(2.0);
    layer.fitScale(&geometry, samples);
    layer.show(geometry, samples.front());
    QVERIFY(std::abs(layer.arrow(ForceKind::Given).length() - 2.0 * 0.08) < 1e-12);
    // No force of a kind in the run: no arrow of it.
    QVERIFY(!layer.hasForce(ForceKind::IdealConstraint));
    QVERIFY(!layer.arrow(ForceKind::IdealConstraint).isDrawn());
}

void TestArrowLayer::smallKindIsDrawnLongerAndSaidSo()
{
    vtkNew<vtkRenderer> overlay;
    ArrowLayer layer(overlay);
    const PointGeometry geometry;
    // Friction a tenth of the given force: below 0.3 of the longest arrow, drawn ×5.
    const std::vector<TraceSample> samples = {
        pointSample(0.0, Eigen::Vector3d::Zero(), Eigen::Vector3d(10.0, 0.0, 0.0),
                    Eigen::Vector3d::Zero(), Eigen::Vector3d(-1.0, 0.0, 0.0))};
    layer.fitScale(&geometry, samples);
    QCOMPARE(layer.boost(ForceKind::Given), 1.0);
    QCOMPARE(layer.boost(ForceKind::NonIdealConstraint), 5.0);
    layer.show(geometry, samples.front());
    QVERIFY(std::abs(layer.arrow(ForceKind::NonIdealConstraint).length() - 0.5 * 0.4) < 1e-12);
    const QStringList labels = legendLabels(layer, geometry);
    QCOMPARE(labels.size(), 2);
    QVERIFY(!labels[0].contains(QStringLiteral("drawn")));
    QVERIFY2(labels[1].endsWith(QStringLiteral("(drawn \u00D75)")), qPrintable(labels[1]));
}

void TestArrowLayer::spikeIsCutToItsKindsLongestArrow()
{
    vtkNew<vtkRenderer> overlay;
    ArrowLayer layer(overlay);
    const PointGeometry geometry;
    std::vector<TraceSample> samples;
    for (int i = 0; i < 99; ++i)
        samples.push_back(
            pointSample(0.01 * i, Eigen::Vector3d::Zero(), Eigen::Vector3d(1.0, 0.0, 0.0)));
    samples.push_back(pointSample(0.99, Eigen::Vector3d::Zero(), Eigen::Vector3d(100.0, 0.0, 0.0)));
    layer.fitScale(&geometry, samples);
    // The scale comes from three times the usual force, not from the spike.
    QVERIFY(std::abs(layer.automaticScale() - 0.4 / 3.0) < 1e-12);
    layer.setMagnitudesVisible(true);
    layer.show(geometry, samples.back());
    const ForceArrow& arrow = layer.arrow(ForceKind::Given);
    QVERIFY(arrow.isCut());
    QVERIFY(std::abs(arrow.length() - 0.4) < 1e-12);
    // The label keeps the true magnitude.
    QCOMPARE(layer.magnitudeText(ForceKind::Given), QStringLiteral("100 N"));
    QVERIFY(legendLabels(layer, geometry).front().endsWith(QStringLiteral("(peaks cut)")));
    layer.show(geometry, samples.front());
    QVERIFY(!layer.arrow(ForceKind::Given).isCut());
    layer.setMagnitudesVisible(false);
    layer.show(geometry, samples.front());
    QVERIFY(layer.magnitudeText(ForceKind::Given).isEmpty());
}

void TestArrowLayer::hiddenKindIsNeitherDrawnNorListed()
{
    vtkNew<vtkRenderer> overlay;
    ArrowLayer layer(overlay);
    const PointGeometry geometry;
    const std::vector<TraceSample> samples = {pointSample(0.0, Eigen::Vector3d::Zero(),
                                                          Eigen::Vector3d(0.0, -2.0, 0.0),
                                                          Eigen::Vector3d(0.0, 2.0, 0.0))};
    layer.fitScale(&geometry, samples);
    layer.setForceVisible(ForceKind::Given, false);
    layer.show(geometry, samples.front());
    QVERIFY(!layer.isForceVisible(ForceKind::Given));
    QVERIFY(!layer.arrow(ForceKind::Given).isDrawn());
    QVERIFY(layer.arrow(ForceKind::IdealConstraint).isDrawn());
    const QStringList labels = legendLabels(layer, geometry);
    QCOMPARE(labels.size(), 1);
    QCOMPARE(labels.front(), geometry.forceLabel(ForceKind::IdealConstraint));
    layer.clear();
    QVERIFY(!layer.arrow(ForceKind::IdealConstraint).isDrawn());
}

void TestArrowLayer::fieldDrawsEveryKthBody()
{
    vtkNew<vtkRenderer> overlay;
    ArrowLayer layer(overlay);
    layer.setBodyCount(100);
    // k = 3: at most 48 arrows per kind, from the last body down.
    QVERIFY(layer.shownFieldBodies().empty());
    layer.setFieldVisible(true);
    const std::vector<int> bodies = layer.shownFieldBodies();
    QCOMPARE(bodies.size(), std::size_t(34));
    QCOMPARE(bodies.front(), 100);
    QCOMPARE(bodies[1], 97);
    QVERIFY(layer.isFieldShown());
    QCOMPARE(layer.fieldLegend(QStringLiteral("bob")),
             QStringLiteral("small arrows: every 3rd bob, drawn \u00D71"));
    layer.setBodyCount(1);
    QVERIFY(!layer.isFieldShown());
}

QTEST_MAIN(TestArrowLayer)
#include "tst_ArrowLayer.moc"
