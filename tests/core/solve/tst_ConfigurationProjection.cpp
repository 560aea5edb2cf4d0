// ConfigurationProjection: a drag of the bead off its wire ends on the wire at the nearest
// point (the closed-form projection onto the line gives s0); a drag of the double pendulum's
// bobs keeps both rod lengths to 1e-12; a flick's velocity satisfies A q̇ = b and, for the
// bead, is the flick's component along the wire.
#include "solve/ConfigurationProjection.h"

#include "scenes/SceneRegistry.h"
#include "scenes/SceneStart.h"
#include "symbolic/SymbolicModel.h"

#include "../../support/SystemDescriptions.h"

#include <QtTest>

#include <cmath>
#include <numbers>

using namespace clab;

namespace {

// The view's point of a system in the plane: coordinates (i, i + 1), z = 0.
ConfigurationProjection::Point planarPoint(int i)
{
    return [i](const Eigen::VectorXd& q) {
        return Eigen::Vector3d(q[i], q[i + 1], 0.0);
    };
}

std::unique_ptr<MechanicalSystem> doublePendulum()
{
    const auto model = SymbolicModel::create(test::doublePendulum());
    return model->definition().create(model->definition().defaults());
}

double velocityResidual(const MechanicalSystem& system, const Eigen::VectorXd& q,
                        const Eigen::VectorXd& qd)
{
    Eigen::MatrixXd Av(system.constraintCount(), system.dof());
    Eigen::VectorXd bv(system.constraintCount());
    system.velocityConstraints(q, 0.0, Av, bv);
    return (Av * qd - bv).lpNorm<Eigen::Infinity>();
}

} // namespace

class TestConfigurationProjection : public QObject {
    Q_OBJECT

private slots:
    void beadDraggedOffTheWireEndsAtTheNearestPointOnIt();
    void doublePendulumDraggedKeepsBothRodLengths();
    void flickVelocitySatisfiesTheConstraints();
    void flickOfTheBeadKeepsItsComponentAlongTheWire();
};

void TestConfigurationProjection::beadDraggedOffTheWireEndsAtTheNearestPointOnIt()
{
    const SceneDefinition& bead = *SceneRegistry::find("bead-on-wire");
    const ParameterValues values = bead.defaults(); // 30°, s0 = 2 m
    const auto system = bead.create(values);
    Eigen::VectorXd q, qd;
    system->initialState(q, qd);
    const Eigen::Vector3d target(3.1, 0.4, 0.25); // off the wire, in front of its plane
    const Eigen::VectorXd dragged =
        ConfigurationProjection(*system).dragTo(q, 0.0, planarPoint(0), target);
    // The nearest point of the line s (cos θ, sin θ, 0): s = target · (cos θ, sin θ, 0).
    const double theta = std::numbers::pi / 6.0;
    const double s = target.x() * std::cos(theta) + target.y() * std::sin(theta);
    QVERIFY(std::abs(dragged[0] - s * std::cos(theta)) <= 1e-12);
    QVERIFY(std::abs(dragged[1] - s * std::sin(theta)) <= 1e-12);
    // The scene's start parameters say so.
    const ParameterValues start = SceneStart::of("bead-on-wire")(values, dragged, qd);
    QVERIFY2(std::abs(start.at("s0")[0] - s) <= 1e-12,
             qPrintable(QString("s0 = %1, nearest s = %2")
                            .arg(start.at("s0")[0], 0, 'g', 17)
                            .arg(s, 0, 'g', 17)));
    QCOMPARE(start.at("angle_deg")[0], values.at("angle_deg")[0]);
}

void TestConfigurationProjection::doublePendulumDraggedKeepsBothRodLengths()
{
    const auto system = doublePendulum();
    Eigen::VectorXd q, qd;
    system->initialState(q, qd);
    const ConfigurationProjection projection(*system);
    const auto lengthsHold = [](const Eigen::VectorXd& x) {
        const double l1 = Eigen::Vector2d(x[0], x[1]).norm();
        const double l2 = Eigen::Vector2d(x[2] - x[0], x[3] - x[1]).norm();
        return std::abs(l1 - 1.0) <= 1e-12 && std::abs(l2 - 0.7) <= 1e-12;
    };
    // The lower bob to a point it can reach: it gets there, and both rods keep their lengths.
    const Eigen::Vector3d reachable(0.5, -1.2, 0.0);
    const Eigen::VectorXd lower = projection.dragTo(q, 0.0, planarPoint(2), reachable);
    QVERIFY(lengthsHold(lower));
    QVERIFY((Eigen::Vector3d(lower[2], lower[3], 0.0) - reachable).norm() <= 1e-9);
    // Far beyond its reach: the chain stretches towards it, rods still exact.
    const Eigen::Vector3d far(-4.0, 3.0, 0.5);
    const Eigen::VectorXd stretched = projection.dragTo(lower, 0.0, planarPoint(2), far);
    QVERIFY(lengthsHold(stretched));
    const Eigen::Vector2d towards = Eigen::Vector2d(-4.0, 3.0).normalized();
    QVERIFY((Eigen::Vector2d(stretched[2], stretched[3]) - 1.7 * towards).norm() <= 1e-6);
    // The upper bob: the lower one follows.
    const Eigen::VectorXd upper = projection.dragTo(q, 0.0, planarPoint(0), {0.0, -2.0, 0.0});
    QVERIFY(lengthsHold(upper));
    // Out of its reach, it ends near the lowest point of its circle (the iteration converges
    // slowly there; see docs/MATH.md §12).
    QVERIFY(std::abs(upper[0]) <= 0.05 && std::abs(upper[1] + 1.0) <= 1e-3);
}

void TestConfigurationProjection::flickVelocitySatisfiesTheConstraints()
{
    const auto system = doublePendulum();
    Eigen::VectorXd q, qd;
    system->initialState(q, qd);
    const ConfigurationProjection projection(*system);
    q = projection.dragTo(q, 0.0, planarPoint(2), {0.9, -0.9, 0.0});
    const Eigen::VectorXd thrown = projection.flick(q, 0.0, planarPoint(2), {2.0, 1.5, 0.3});
    QVERIFY(thrown.norm() > 0.1);
    QVERIFY2(velocityResidual(*system, q, thrown) <= 1e-12,
             qPrintable(QString::number(velocityResidual(*system, q, thrown), 'g', 3)));
}

void TestConfigurationProjection::flickOfTheBeadKeepsItsComponentAlongTheWire()
{
    const SceneDefinition& bead = *SceneRegistry::find("bead-on-wire");
    const auto system = bead.create(bead.defaults());
    Eigen::VectorXd q, qd;
    system->initialState(q, qd);
    const Eigen::Vector3d flick(1.0, 2.0, -0.5);
    const Eigen::VectorXd thrown =
        ConfigurationProjection(*system).flick(q, 0.0, planarPoint(0), flick);
    // Mass-weighted projection of a point mass's velocity onto the wire: v·e along e.
    const Eigen::Vector2d e(std::cos(std::numbers::pi / 6.0), std::sin(std::numbers::pi / 6.0));
    const Eigen::Vector2d expected = e.dot(flick.head<2>()) * e;
    QVERIFY((thrown - expected).norm() <= 1e-12);
    QVERIFY(velocityResidual(*system, q, thrown) <= 1e-15);
}

QTEST_APPLESS_MAIN(TestConfigurationProjection)
#include "tst_ConfigurationProjection.moc"
