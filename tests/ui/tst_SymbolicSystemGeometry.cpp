// SymbolicSystemGeometry: a system written as equations is drawn where its view says, and each
// point's arrows are the force at that point whose generalized force comes closest to the
// system's (the coordinates' own components for a Cartesian point; F/l along the tangent for a
// pendulum written in its angle).
#include "view3d/geometry/SymbolicSystemGeometry.h"

#include <SceneFile.h>
#include <symbolic/SymbolicModel.h>

#include <QtTest>

#include <cmath>

using namespace clab;

class TestSymbolicSystemGeometry : public QObject {
    Q_OBJECT

private slots:
    void eachBobOfTheDoublePendulumCarriesItsOwnForces();
    void aPendulumInItsAngleShowsTheTangentialForce();
    void pointsMoveWithTimeWhereTheirExpressionsSaySo();
    void coordinatesWithoutAViewAreDrawnAsParticles();
};

namespace {

using P = SystemDescription::Parameter;

SceneDocument documentOf(const SystemDescription& d)
{
    return SceneDocument::fromSystem(SymbolicModel::create(d));
}

} // namespace

void TestSymbolicSystemGeometry::eachBobOfTheDoublePendulumCarriesItsOwnForces()
{
    const SceneDocument document =
        SceneFile::load(QStringLiteral(CLAB_SOURCE_DIR "/scenes/systems/double-pendulum.json"));
    const auto geometry = SceneGeometry::create(document);
    QCOMPARE(geometry->extraArrowPointCount(), 1);
    TraceSample s;
    s.q = Eigen::Vector4d(0.6, -0.8, 1.2, -1.3);
    s.Q = Eigen::Vector4d(0.5, -9.81, -0.25, -14.7);
    s.Qci = Eigen::Vector4d(3.0, 4.0, -1.0, 2.0);
    s.Qcni = Eigen::Vector4d::Zero();
    geometry->update(s);
    // The last point (bob2) is the body: its arrows are the (x2, y2) components.
    QVERIFY((geometry->bodyPosition(s.q) - Eigen::Vector3d(1.2, -1.3, 0.0)).norm() < 1e-12);
    QVERIFY((geometry->arrowVector(s, ForceKind::Given) - Eigen::Vector3d(-0.25, -14.7, 0)).norm() <
            1e-8);
    // Bob1 gets the (x1, y1) components.
    QVERIFY((geometry->extraArrowOrigin(0, s) - Eigen::Vector3d(0.6, -0.8, 0.0)).norm() < 1e-12);
    QVERIFY((geometry->extraArrowVector(0, s, ForceKind::Given) - Eigen::Vector3d(0.5, -9.81, 0))
                .norm() < 1e-8);
    QVERIFY((geometry->extraArrowVector(0, s, ForceKind::IdealConstraint) -
             Eigen::Vector3d(3.0, 4.0, 0))
                .norm() < 1e-8);
}

void TestSymbolicSystemGeometry::aPendulumInItsAngleShowsTheTangentialForce()
{
    SystemDescription d;
    d.coordinates = {{"th", ""}};
    d.parameters = {P::plain("l", 2.0), P::plain("m", 1.0)};
    d.masses = {"m*l^2"};
    d.points = {{"bob", {"l*sin(th)", "-l*cos(th)", "0"}, 0.0}};
    const auto geometry = SceneGeometry::create(documentOf(d));
    TraceSample s;
    s.q = Eigen::VectorXd::Constant(1, 0.3);
    s.Q = Eigen::VectorXd::Constant(1, -5.0); // a torque of −5 N·m about the pivot
    geometry->update(s);
    const Eigen::Vector3d f = geometry->arrowVector(s, ForceKind::Given);
    // F = torque / l along the tangent (cos θ, sin θ).
    const Eigen::Vector3d expected = -5.0 / 2.0 * Eigen::Vector3d(std::cos(0.3), std::sin(0.3), 0);
    QVERIFY2((f - expected).norm() < 1e-7, qPrintable(QString::number((f - expected).norm())));
}

void TestSymbolicSystemGeometry::pointsMoveWithTimeWhereTheirExpressionsSaySo()
{
    SystemDescription d;
    d.coordinates = {{"x"}};
    d.parameters = {P::plain("w", 2.0)};
    d.masses = {"1"};
    d.points = {{"rim", {"cos(w*t)", "sin(w*t)", "0"}, 0.0}, {"bead", {"x", "0", "0"}, 0.0}};
    const auto geometry = SceneGeometry::create(documentOf(d));
    const auto& system = static_cast<const SymbolicSystemGeometry&>(*geometry);
    const Eigen::VectorXd q = Eigen::VectorXd::Constant(1, 0.5);
    QVERIFY((system.pointPosition(0, q, 0.25) - Eigen::Vector3d(std::cos(0.5), std::sin(0.5), 0.0))
                .norm() < 1e-15);
    QVERIFY((system.pointPosition(1, q, 0.25) - Eigen::Vector3d(0.5, 0, 0)).norm() < 1e-15);
}

void TestSymbolicSystemGeometry::coordinatesWithoutAViewAreDrawnAsParticles()
{
    SystemDescription d;
    d.coordinates = {{"x1"}, {"y1"}, {"z1"}, {"x2"}, {"y2"}, {"z2"}};
    d.masses = {"1", "1", "1", "1", "1", "1"};
    const auto geometry = SceneGeometry::create(documentOf(d));
    const auto& system = static_cast<const SymbolicSystemGeometry&>(*geometry);
    QCOMPARE(system.pointCount(), 2);
    Eigen::VectorXd q(6);
    q << 1, 2, 3, 4, 5, 6;
    QVERIFY((geometry->bodyPosition(q) - Eigen::Vector3d(4, 5, 6)).norm() == 0.0);
    QVERIFY((system.pointPosition(0, q, 0.0) - Eigen::Vector3d(1, 2, 3)).norm() == 0.0);
}

QTEST_MAIN(TestSymbolicSystemGeometry)
#include "tst_SymbolicSystemGeometry.moc"
