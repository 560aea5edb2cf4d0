// SystemCoordinates: a coordinate's extra force and initial values belong to its name; a rename
// that passes through another coordinate's name takes none of that coordinate's values.
#include <panels/SystemCoordinates.h>

#include <QtTest>

using namespace clab;

namespace {

SystemDescription pendulum()
{
    SystemDescription d;
    d.coordinates = {{"x", "m"}, {"y", "m"}};
    d.masses = {"m", "2*m"};
    d.forces = {{"x", "-x_dot"}};
    d.initial = {{"x", "l"}, {"y", "0"}, {"y_dot", "1"}};
    return d;
}

std::string start(const SystemDescription& d, const std::string& name)
{
    for (const auto& v : d.initial)
        if (v.name == name)
            return v.expression;
    return "<none>";
}

} // namespace

class SystemCoordinatesTest : public QObject {
    Q_OBJECT

private slots:
    void renameThroughAnotherNameTakesNoneOfItsValues()
    {
        SystemDescription d = pendulum();
        SystemCoordinates c(d);
        c.add();
        QCOMPARE(d.coordinates[2].name, std::string("q1"));
        for (const char* name : {"", "x", "xc"})
            c.rename(2, name);
        QCOMPARE(start(d, "x"), std::string("l"));
        QCOMPARE(start(d, "xc"), std::string("<none>"));
        QCOMPARE(d.forces.size(), std::size_t(1));
        QCOMPARE(d.forces[0].name, std::string("x"));
    }

    void heldValuesReturnUnderTheNextOwnName()
    {
        SystemDescription d = pendulum();
        SystemCoordinates c(d);
        c.add();
        c.rename(2, "y");
        QVERIFY(c.isHeld(2));
        c.setValue(2, &SystemCoordinates::Values::start, "0.5");
        QCOMPARE(start(d, "y"), std::string("0")); // y's own value is untouched
        QCOMPARE(c.values(2).start, std::string("0.5"));
        // The owner leaves the name: the held coordinate gets its values back under it.
        c.rename(1, "z");
        QVERIFY(!c.isHeld(2));
        QCOMPARE(start(d, "z"), std::string("0"));
        QCOMPARE(start(d, "z_dot"), std::string("1"));
        QCOMPARE(start(d, "y"), std::string("0.5"));
    }

    void removeAndSwapKeepValuesByNameAndMassesByRow()
    {
        SystemDescription d = pendulum();
        SystemCoordinates c(d);
        c.swap(0, 1);
        QCOMPARE(d.coordinates[0].name, std::string("y"));
        QCOMPARE(d.masses, (std::vector<std::string>{"2*m", "m"}));
        QCOMPARE(c.values(0).velocity, std::string("1"));
        QCOMPARE(c.values(1).force, std::string("-x_dot"));
        c.remove(0);
        QCOMPARE(d.masses, (std::vector<std::string>{"m"}));
        QCOMPARE(start(d, "y"), std::string("<none>"));
        QCOMPARE(start(d, "y_dot"), std::string("<none>"));
        QCOMPARE(start(d, "x"), std::string("l"));
    }
};

QTEST_MAIN(SystemCoordinatesTest)
#include "tst_SystemCoordinates.moc"
