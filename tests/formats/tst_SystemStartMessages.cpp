// Issue 34 item 7: a format-2 file whose expressions break where the motion starts is refused
// when it loads, under the key that breaks, with the reason and what the author wrote. Before,
// log(x) at x = 0 was blamed on system.parameters (even in files without any), a negative mass
// or an indefinite T was called a singular mass matrix at run time, and a negative μ or drag
// passed the loader to stop the run as a non-finite force.
#include <FileError.h>
#include <SceneFile.h>

#include <QtTest>

using namespace clab;

class TestSystemStartMessages : public QObject {
    Q_OBJECT

private slots:
    void eachMistakeIsBlamedOnItsKey_data();
    void eachMistakeIsBlamedOnItsKey();
    void aFileThatStartsWellStillLoads();
};

namespace {

QByteArray file(const QByteArray& system)
{
    return R"js({"format": 2, "system": {"coordinates": ["x", "y"], )js" + system + "}}";
}

} // namespace

void TestSystemStartMessages::eachMistakeIsBlamedOnItsKey_data()
{
    QTest::addColumn<QByteArray>("system");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("reason");
    const QByteArray masses = R"js("masses": ["1", "1"], )js";
    QTest::newRow("log(x) at x = 0")
        << masses + R"js("potential_energy": "log(x)")js"
        << "system.potential_energy"
        << "log(x) is -inf at the start (t = 0, x = 0, y = 0); every expression must be finite";
    QTest::newRow("1/x at x = 0") << masses + R"js("potential_energy": "1/x")js"
                                  << "system.potential_energy"
                                  << "1/x is inf at the start (t = 0, x = 0, y = 0)";
    QTest::newRow("sin(x)/x at x = 0") << masses + R"js("potential_energy": "sin(x)/x")js"
                                       << "system.potential_energy"
                                       << "sin(x)/x is not a number (0/0 or the like) at the start";
    QTest::newRow("a force") << masses + R"js("forces": {"y": "-1/y"})js"
                             << "system.forces.y"
                             << "-1/y is -inf at the start";
    QTest::newRow("a negative mass")
        << QByteArray(R"js("masses": ["-1", "1"])js") << "system.masses[0]"
        << "a mass cannot be negative: -1 (t = 0, x = 0, y = 0)";
    QTest::newRow("a negative mass from a parameter")
        << QByteArray(R"js("parameters": {"m": {"value": 2}}, "masses": ["1", "1 - m"])js")
        << "system.masses[1]"
        << "a mass cannot be negative: 1 - m is -1 at the start";
    QTest::newRow("an indefinite T")
        << QByteArray(R"js("kinetic_energy": "(x_dot^2 - y_dot^2)/2")js") << "system.kinetic_energy"
        << "T = (x_dot^2 - y_dot^2)/2 is negative for some velocities at the start";
    QTest::newRow("an indefinite mass matrix")
        << QByteArray(R"js("mass_matrix": [["1", "2"], ["2", "1"]])js") << "system.mass_matrix"
        << "is not positive semidefinite at the start (t = 0, x = 0, y = 0): it has the "
           "eigenvalue -1";
    const QByteArray floor =
        masses +
        R"js("constraints": [{"name": "floor", "holonomic": "y"}], "initial": {"x_dot": "1"}, )js";
    QTest::newRow("a negative mu")
        << floor + R"js("friction": [{"slip": ["x_dot"], "mu": "-0.2"}])js"
        << "system.friction[0].mu"
        << "a friction coefficient cannot be negative: -0.2";
    QTest::newRow("a negative drag")
        << floor + R"js("friction": [{"slip": ["x_dot"], "magnitude": "-0.5"}])js"
        << "system.friction[0].magnitude"
        << "the size of a drag cannot be negative: -0.5";
    QTest::newRow("sqrt(-1) in V is V's") << masses + R"js("potential_energy": "sqrt(-1)*x")js"
                                          << "system.potential_energy"
                                          << "column 1: sqrt(-1) is not a real number";
    QTest::newRow("log(0), not GiNaC's log_eval()")
        << masses + R"js("potential_energy": "x + log(0)")js"
        << "system.potential_energy"
        << "column 5: log(0) is undefined (log has a pole or is not defined there)";
    // The fuzzer's 0^100^100**x in T ended the program: GiNaC threw its pole_error from diff().
    QTest::newRow("0^x, whose derivative has log(0)")
        << QByteArray(R"js("kinetic_energy": "0^(1 + x^2)*x_dot^2/2 + y_dot^2/2")js")
        << "system.kinetic_energy"
        << "column 1: zero to a power that is not a number (0^x has no derivative; write 0)";
}

void TestSystemStartMessages::eachMistakeIsBlamedOnItsKey()
{
    QFETCH(QByteArray, system);
    QFETCH(QString, key);
    QFETCH(QString, reason);
    try {
        SceneFile::fromJson(file(system), QStringLiteral("s.json"));
        QFAIL("the file loaded");
    } catch (const FileError& e) {
        QCOMPARE(e.key(), key);
        QVERIFY2(e.reason().contains(reason), e.what());
        QVERIFY2(!e.reason().contains(QLatin1String("_eval")), e.what());
    }
}

// The checks read the start: log(x) is fine where x starts at 1, a mass of 0 with a constraint
// is left to the run, μ = 0 is no friction.
void TestSystemStartMessages::aFileThatStartsWellStillLoads()
{
    const QByteArray system =
        R"js("masses": ["0", "1"], "potential_energy": "log(x) + 9.81*y", "initial": {"x": "1"},)js"
        R"js("constraints": [{"name": "floor", "holonomic": "x - 1"}],)js"
        R"js("friction": [{"slip": ["y_dot"], "mu": "0"}])js";
    QVERIFY(SceneFile::fromJson(file(system), QStringLiteral("s.json")).system);
}

QTEST_APPLESS_MAIN(TestSystemStartMessages)
#include "tst_SystemStartMessages.moc"
