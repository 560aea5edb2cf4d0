// SymbolicModel: what it derives (M from T, the velocity terms of a moving frame, a velocity
// constraint's rows) and a clear error, at the right key, for each kind of mistake in a system.
#include "symbolic/SymbolicDerivation.h"
#include "symbolic/SymbolicModel.h"
#include "symbolic/SystemError.h"

#include <QtTest>

using namespace clab;

class TestSymbolicModel : public QObject {
    Q_OBJECT

private slots:
    void massMatrixIsTheHessianOfTheKineticEnergy();
    void polarCoordinatesGiveTheCentripetalTerm();
    void holonomicConstraintsComeFirstInA();
    void derivationPrintsAsTextLatexAndJson();
    void mistakesNameTheirKey_data();
    void mistakesNameTheirKey();
    void namesThatRepeatATraceColumnAreRefused_data();
    void namesThatRepeatATraceColumnAreRefused();
};

namespace {

using Kind = SystemDescription::Constraint::Kind;
using P = SystemDescription::Parameter;

SystemDescription particle()
{
    SystemDescription d;
    d.coordinates = {{"x"}, {"y"}};
    d.parameters = {P::plain("m", 2.0), P::plain("g", 9.81), P::plain("l", 1.0)};
    d.kineticEnergy = "m*(x_dot^2 + y_dot^2)/2";
    d.potentialEnergy = "m*g*y";
    d.constraints = {{"rod", Kind::Holonomic, "x^2 + y^2 - l^2"}};
    return d;
}

bool same(const GiNaC::ex& a, const GiNaC::ex& b)
{
    return (a - b).expand().normal().is_zero();
}

} // namespace

void TestSymbolicModel::massMatrixIsTheHessianOfTheKineticEnergy()
{
    SystemDescription d = particle();
    d.kineticEnergy = "m*(x_dot^2 + y_dot^2)/2 + x*x_dot*y_dot";
    const auto model = SymbolicModel::create(d);
    const auto& M = model->derivation().M;
    const GiNaC::ex m = model->derivation().p[0], x = model->derivation().q[0];
    QVERIFY(same(M(0, 0), m));
    QVERIFY(same(M(0, 1), x));
    QVERIFY(same(M(1, 0), x));
    QVERIFY(same(M(1, 1), m));
}

void TestSymbolicModel::polarCoordinatesGiveTheCentripetalTerm()
{
    // T = m(ṙ² + r²θ̇²)/2: Lagrange gives m r̈ = m r θ̇² and m r² θ̈ = −2 m r ṙ θ̇.
    SystemDescription d;
    d.coordinates = {{"r"}, {"th", ""}};
    d.parameters = {P::plain("m", 1.0)};
    d.kineticEnergy = "m*(r_dot^2 + r^2*th_dot^2)/2";
    const auto model = SymbolicModel::create(d);
    const GiNaC::ex m = model->derivation().p[0];
    const GiNaC::ex r = model->derivation().q[0];
    const GiNaC::ex rd = model->derivation().qd[0], thd = model->derivation().qd[1];
    QVERIFY(same(model->derivation().Q[0], m * r * thd * thd));
    QVERIFY(same(model->derivation().Q[1], -2 * m * r * rd * thd));
}

void TestSymbolicModel::holonomicConstraintsComeFirstInA()
{
    SystemDescription d = particle();
    d.coordinates.push_back({"th", ""});
    d.kineticEnergy = "m*(x_dot^2 + y_dot^2 + th_dot^2)/2";
    d.constraints = {{"skate", Kind::Velocity, "-x_dot*sin(th) + y_dot*cos(th)"},
                     {"rod", Kind::Holonomic, "x^2 + y^2 - l^2"}};
    const auto model = SymbolicModel::create(d);
    QCOMPARE(model->holonomicCount(), 1);
    QCOMPARE(model->rowNames(), (std::vector<std::string>{"rod", "skate"}));
    // The skate's row: A = ∂ψ/∂q̇, b = −(∂ψ/∂q) q̇ = (ẋ cos θ + ẏ sin θ) θ̇.
    const GiNaC::ex th = model->derivation().q[2];
    const GiNaC::ex xd = model->derivation().qd[0], yd = model->derivation().qd[1],
                    thd = model->derivation().qd[2];
    QVERIFY(same(model->derivation().A[1][0], -GiNaC::sin(th)));
    QVERIFY(same(model->derivation().b[1], (xd * GiNaC::cos(th) + yd * GiNaC::sin(th)) * thd));
}

void TestSymbolicModel::derivationPrintsAsTextLatexAndJson()
{
    const auto model = SymbolicModel::create(particle());
    const QString text = QString::fromStdString(model->derivationText(SymbolicModel::Format::Text));
    QVERIFY2(text.contains("rod (holonomic): phi = "), qPrintable(text));
    // Printed in the same order in every run, added terms first.
    QVERIFY2(text.contains("  b = -2*x_dot^2 - 2*y_dot^2\n"), qPrintable(text));
    QVERIFY2(text.contains("phi = x^2 + y^2 - l^2 = 0"), qPrintable(text));
    // The same text from a second load, whose new symbols reorder GiNaC's sums.
    QCOMPARE(QString::fromStdString(
                 SymbolicModel::create(particle())->derivationText(SymbolicModel::Format::Text)),
             text);
    const QString tex = QString::fromStdString(model->derivationText(SymbolicModel::Format::Latex));
    QVERIFY2(tex.contains("\\dot{x}"), qPrintable(tex));
    QVERIFY2(tex.contains("\\begin{pmatrix}"), qPrintable(tex));
    const QString json = QString::fromStdString(model->derivationText(SymbolicModel::Format::Json));
    QVERIFY2(json.contains("\"A\": [\"2*x\", \"2*y\"]"), qPrintable(json));
}

void TestSymbolicModel::mistakesNameTheirKey_data()
{
    QTest::addColumn<int>("mistake");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("reason");
    QTest::newRow("T not quadratic in the velocities") << 0 << "system.kinetic_energy"
                                                       << "T must be quadratic in the velocities";
    QTest::newRow("a velocity constraint not linear") << 1 << "system.constraints[1].velocity"
                                                      << "must be linear in the velocities";
    QTest::newRow("a mass matrix that is not symmetric") << 2 << "system.mass_matrix"
                                                         << "must be symmetric";
    QTest::newRow("two coordinates with one name") << 3 << "system.coordinates[1]"
                                                   << "used twice";
    QTest::newRow("a coordinate named like a function") << 4 << "system.coordinates[0]"
                                                        << "taken by the notation";
    QTest::newRow("an unknown symbol") << 5 << "system.constraints[0].holonomic"
                                       << "unknown symbol 'L'";
    QTest::newRow("a potential with velocities") << 6 << "system.potential_energy"
                                                 << "not on velocities";
    QTest::newRow("a holonomic constraint with velocities")
        << 7 << "system.constraints[0].holonomic"
        << "cannot depend on velocities";
    QTest::newRow("no mass at all") << 8 << "system"
                                    << "give the kinetic energy";
    QTest::newRow("friction both Coulomb and drag") << 9 << "system.friction[0]"
                                                    << "either \"mu\"";
    QTest::newRow("friction pressed by an unknown constraint")
        << 10 << "system.friction[0].normal[0]"
        << "no constraint named 'rdo'";
    QTest::newRow("a force on an unknown coordinate") << 11 << "system.forces.z"
                                                      << "no coordinate 'z'";
    QTest::newRow("an initial value for an unknown velocity")
        << 12 << "system.initial.z_dot"
        << "no coordinate or velocity 'z_dot'";
    QTest::newRow("an initial value that uses a coordinate") << 13 << "system.initial.x"
                                                             << "unknown symbol 'y'";
    QTest::newRow("a link to an unknown point") << 14 << "view.links[0]"
                                                << "no point named 'bob'";
    QTest::newRow("a constraint on nothing") << 15 << "system.constraints[0].holonomic"
                                             << "does not depend on any coordinate";
}

void TestSymbolicModel::mistakesNameTheirKey()
{
    QFETCH(int, mistake);
    QFETCH(QString, key);
    QFETCH(QString, reason);
    SystemDescription d = particle();
    switch (mistake) {
    case 0:
        d.kineticEnergy = "m*(x_dot^2 + y_dot^2)/2 + x_dot^3";
        break;
    case 1:
        d.constraints.push_back({"bad", Kind::Velocity, "x_dot*y_dot"});
        break;
    case 2:
        d.kineticEnergy.clear();
        d.massMatrix = {{"m", "x"}, {"y", "m"}};
        break;
    case 3:
        d.coordinates[1].name = "x";
        break;
    case 4:
        d.coordinates[0].name = "sin";
        break;
    case 5:
        d.constraints[0].expression = "x^2 + y^2 - L^2";
        break;
    case 6:
        d.potentialEnergy = "m*g*y + y_dot";
        break;
    case 7:
        d.constraints[0].expression = "x*x_dot";
        break;
    case 8:
        d.kineticEnergy.clear();
        break;
    case 9:
        d.friction = {{"f", {"x_dot"}, {}, "0.1", "", "1"}};
        break;
    case 10:
        d.friction = {{"f", {"x_dot"}, {"rdo"}, "0.1", "", ""}};
        break;
    case 11:
        d.forces = {{"z", "1"}};
        break;
    case 12:
        d.initial = {{"z_dot", "1"}};
        break;
    case 13:
        d.initial = {{"x", "y"}};
        break;
    case 14:
        d.links = {{"origin", "bob"}};
        break;
    case 15:
        d.constraints[0].expression = "l - 1";
        break;
    }
    try {
        SymbolicModel::create(d);
        QFAIL("no error");
    } catch (const SystemError& e) {
        QCOMPARE(QString::fromStdString(e.key()), key);
        QVERIFY2(QString::fromStdString(e.reason()).contains(reason), e.what());
    }
}

void TestSymbolicModel::namesThatRepeatATraceColumnAreRefused_data()
{
    // A third coordinate, a column or a friction contact whose name the trace already uses: the
    // CSV would have the header twice and `--columns NAME` would pick one silently.
    QTest::addColumn<QString>("coordinate");
    QTest::addColumn<QString>("column");
    QTest::addColumn<bool>("contact");
    QTest::addColumn<QString>("key");
    for (const char* name : {"T", "E", "V", "Q_x", "Qcni_y", "residual_max", "E_error", "W_ideal",
                             "W_nonideal", "x_ddot"})
        QTest::newRow(qPrintable(QStringLiteral("coordinate %1").arg(name)))
            << name << "" << false << "system.coordinates[2]";
    QTest::newRow("coordinate contact, one contact") << "contact"
                                                     << "" << true << "system.coordinates[2]";
    QTest::newRow("coordinate contact_f, one contact is fine") << "contact_f"
                                                               << "" << true << "";
    QTest::newRow("coordinate contact, no contact is fine") << "contact"
                                                            << "" << false << "";
    QTest::newRow("column t") << ""
                              << "t" << false << "system.columns.t";
    QTest::newRow("column E") << ""
                              << "E" << false << "system.columns.E";
    QTest::newRow("column x_dot") << ""
                                  << "x_dot" << false << "system.columns.x_dot";
    QTest::newRow("column x, a coordinate") << ""
                                            << "x" << false << "system.columns.x";
}

void TestSymbolicModel::namesThatRepeatATraceColumnAreRefused()
{
    QFETCH(QString, coordinate);
    QFETCH(QString, column);
    QFETCH(bool, contact);
    QFETCH(QString, key);
    SystemDescription d = particle();
    if (!coordinate.isEmpty()) {
        const std::string name = coordinate.toStdString();
        d.coordinates.push_back({name});
        d.kineticEnergy += " + m*" + name + "_dot^2/2";
    }
    if (!column.isEmpty())
        d.columns = {{column.toStdString(), "x + y", ""}};
    if (contact)
        d.friction = {{"f", {"x_dot"}, {"rod"}, "0.1", "", ""}};
    try {
        const auto model = SymbolicModel::create(d);
        QVERIFY2(key.isEmpty(), "no error");
    } catch (const SystemError& e) {
        QCOMPARE(QString::fromStdString(e.key()), key);
        QVERIFY2(QString::fromStdString(e.reason()).contains("already a trace column"), e.what());
    }
}

QTEST_APPLESS_MAIN(TestSymbolicModel)
#include "tst_SymbolicModel.moc"
