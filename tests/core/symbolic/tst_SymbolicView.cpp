// SymbolicView: a system's view points follow (q, t) and its curves run over their parameter,
// with the parameter values the view was made with.
#include "symbolic/SymbolicModel.h"
#include "symbolic/SymbolicView.h"

#include <QtTest>

#include <cmath>
#include <numbers>

using namespace clab;

class TestSymbolicView : public QObject {
    Q_OBJECT

private slots:
    void pointsFollowTheCoordinatesAndTime();
    void curvesRunOverTheirParameterWithTheGivenValues();
};

namespace {

using P = SystemDescription::Parameter;

// A bead on a hoop of radius R, the hoop turning about the vertical at rate w: the bead's
// point moves with its angle, a marker on the rim with t alone.
SystemDescription hoop()
{
    SystemDescription d;
    d.coordinates = {{"theta", "rad"}};
    d.parameters = {P::plain("m", 1.0), P::plain("R", 1.0), P::plain("w", 2.0)};
    d.kineticEnergy = "m*R^2*theta_dot^2/2";
    d.points = {{"rim", {"R*cos(w*t)", "0", "R*sin(w*t)"}, 0.0},
                {"bead", {"R*sin(theta)", "-R*cos(theta)"}, 0.0}};
    d.curves = {{"R*cos(s)", "R*sin(s)", "0", "s", 0.0, 2 * std::numbers::pi}};
    return d;
}

} // namespace

void TestSymbolicView::pointsFollowTheCoordinatesAndTime()
{
    const auto model = SymbolicModel::create(hoop());
    const SymbolicView view(model, model->definition().complete({{"R", {2.0}}}));
    Eigen::VectorXd xyz;
    view.points(Eigen::VectorXd::Constant(1, std::numbers::pi / 2), 0.0, xyz);
    QCOMPARE(xyz.size(), Eigen::Index(6));
    QCOMPARE(xyz[0], 2.0); // the rim at t = 0
    QCOMPARE(xyz[2], 0.0);
    QCOMPARE(xyz[3], 2.0); // the bead at θ = π/2, on the given R
    QVERIFY(std::abs(xyz[4]) < 1e-15);
    QCOMPARE(xyz[5], 0.0); // a point of two expressions lies in z = 0

    const double t = std::numbers::pi / 4; // w t = π/2 with the default w = 2
    view.points(Eigen::VectorXd::Zero(1), t, xyz);
    QVERIFY(std::abs(xyz[0]) < 1e-15);
    QCOMPARE(xyz[2], 2.0);
    QCOMPARE(xyz[4], -2.0);
}

void TestSymbolicView::curvesRunOverTheirParameterWithTheGivenValues()
{
    const auto model = SymbolicModel::create(hoop());
    const SymbolicView view(model, model->definition().complete({{"R", {3.0}}}));
    const std::vector<Eigen::Vector3d> ring = view.curve(0, 5);
    QCOMPARE(ring.size(), std::size_t(5));
    QVERIFY((ring[0] - Eigen::Vector3d(3.0, 0.0, 0.0)).norm() < 1e-14);
    QVERIFY((ring[1] - Eigen::Vector3d(0.0, 3.0, 0.0)).norm() < 1e-14);
    QVERIFY((ring[2] - Eigen::Vector3d(-3.0, 0.0, 0.0)).norm() < 1e-14);
    QVERIFY((ring[4] - ring[0]).norm() < 1e-14); // from 0 to 2π: closed
}

QTEST_APPLESS_MAIN(TestSymbolicView)
#include "tst_SymbolicView.moc"
