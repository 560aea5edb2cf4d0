// SystemDifference: which entries of a system typed in the editor differ from the system shown,
// keyed as the file and SystemError key them.
#include "symbolic/SystemDifference.h"

#include <QtTest>

using namespace clab;

namespace {

SystemDescription pendulum()
{
    SystemDescription d;
    d.coordinates = {{"x", "m"}, {"y", "m"}};
    d.parameters = {SystemDescription::Parameter::plain("m", 1.0),
                    SystemDescription::Parameter::plain("l", 1.0)};
    d.kineticEnergy = "m*(x_dot^2 + y_dot^2)/2";
    d.potentialEnergy = "m*g*y";
    d.constraints = {{"rod", SystemDescription::Constraint::Kind::Holonomic, "x^2 + y^2 - l^2"}};
    d.initial = {{"x", "l"}, {"y", "0"}};
    d.points = {{"bob", {"x", "y", "0"}, 0.06}};
    return d;
}

} // namespace

class TestSystemDifference : public QObject {
    Q_OBJECT

private slots:
    void sameSystemHasNoDifference()
    {
        QVERIFY(SystemDifference::between(pendulum(), pendulum()).empty());
    }

    void editedEnergyIsNamedWithBothTexts()
    {
        SystemDescription typed = pendulum();
        typed.kineticEnergy = "m*(x_dot^2 + y_dot^2)/2x";
        const auto changes = SystemDifference::between(pendulum(), typed);
        QCOMPARE(changes.size(), std::size_t(1));
        QCOMPARE(changes[0].key, std::string("system.kinetic_energy"));
        QCOMPARE(changes[0].shown, std::string("m*(x_dot^2 + y_dot^2)/2"));
        QCOMPARE(changes[0].typed, std::string("m*(x_dot^2 + y_dot^2)/2x"));
    }

    void initialValuesAndForcesCompareByNameNotOrder()
    {
        SystemDescription typed = pendulum();
        std::swap(typed.initial[0], typed.initial[1]);
        QVERIFY(SystemDifference::between(pendulum(), typed).empty());
        typed.initial.push_back({"x_dot", "1"});
        typed.forces.push_back({"y", "-y_dot"});
        const auto changes = SystemDifference::between(pendulum(), typed);
        QCOMPARE(changes.size(), std::size_t(2));
        QCOMPARE(changes[0].key, std::string("system.forces.y"));
        QCOMPARE(changes[0].shown, std::string());
        QCOMPARE(changes[1].key, std::string("system.initial.x_dot"));
        QCOMPARE(changes[1].typed, std::string("1"));
    }

    void parametersConstraintsAndPointsAreEachTheirOwnKey()
    {
        SystemDescription typed = pendulum();
        typed.parameters[1].value = 2.0;
        typed.constraints[0].expression = "x^2 + y^2 - l";
        typed.points.push_back({"P1", {"x", "0", "0"}, 0.0});
        const auto changes = SystemDifference::between(pendulum(), typed);
        QCOMPARE(changes.size(), std::size_t(3));
        QCOMPARE(changes[0].key, std::string("system.parameters.l"));
        QCOMPARE(changes[0].shown, std::string("1"));
        QCOMPARE(changes[0].typed, std::string("2"));
        QCOMPARE(changes[1].key, std::string("system.constraints[0]"));
        QCOMPARE(changes[1].shown, std::string("rod: φ = x^2 + y^2 - l^2"));
        QCOMPARE(changes[2].key, std::string("view.points[1]"));
        QCOMPARE(changes[2].shown, std::string());
        QCOMPARE(changes[2].typed, std::string("P1 at (x, 0, 0)"));
    }

    void renamedCoordinateIsOneChangeOfTheList()
    {
        SystemDescription typed = pendulum();
        typed.coordinates.push_back({"xc", "m"});
        const auto changes = SystemDifference::between(pendulum(), typed);
        QCOMPARE(changes.size(), std::size_t(1));
        QCOMPARE(changes[0].key, std::string("system.coordinates"));
        QCOMPARE(changes[0].shown, std::string("x (m), y (m)"));
        QCOMPARE(changes[0].typed, std::string("x (m), y (m), xc (m)"));
    }
};

QTEST_APPLESS_MAIN(TestSystemDifference)
#include "tst_SystemDifference.moc"
