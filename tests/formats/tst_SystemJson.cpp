#include "../support/SceneFileErrors.h"
#include "FileError.h"
#include "JsonSyntax.h"
#include "SceneFile.h"
#include "SystemJson.h"

#include "symbolic/SymbolicModel.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace clab;

namespace {

// Raw strings with a delimiter of their own: expressions such as "sin(a)" hold )".
const QByteArray doublePendulum = R"json({
    "format": 2,
    "title": "Double pendulum",
    "notes": "Two rods, two bobs: watch the energy stay put.",
    "system": {
        "coordinates": ["x1", "y1", "x2", "y2"],
        "parameters": {
            "m1": {"value": 1, "unit": "kg", "min": 0.1, "max": 10, "description": "upper bob"},
            "m2": {"value": 0.5, "unit": "kg"},
            "l1": {"value": 1, "unit": "m"},
            "l2": 0.75,
            "g": 9.81
        },
        "kinetic_energy": "m1*(x1_dot^2+y1_dot^2)/2 + m2*(x2_dot^2+y2_dot^2)/2",
        "potential_energy": "m1*g*y1 + m2*g*y2",
        "constraints": [
            {"name": "rod1", "holonomic": "x1^2+y1^2-l1^2"},
            {"name": "rod2", "holonomic": "(x2-x1)^2+(y2-y1)^2-l2^2"}
        ],
        "initial": {"x1": "l1*sin(0.5)", "y1": "-l1*cos(0.5)", "x2": "l1*sin(0.5)+l2",
                    "y2": "-l1*cos(0.5)"}
    },
    "view": {
        "points": [{"name": "bob1", "at": ["x1", "y1", 0], "radius": 0.05},
                   {"name": "bob2", "at": ["x2", "y2"]}],
        "links": [["origin", "bob1"], ["bob1", "bob2"]]
    },
    "simulation": {"t_end": 2, "dt": 0.01}
})json";

// A bead on a rough inclined wire, with every other part of the format: friction, columns, an
// end, a curve in the view.
const QByteArray roughWire = R"json({
    "format": 2,
    "title": "Bead on a rough wire",
    "system": {
        "coordinates": ["x", "y"],
        "parameters": {"m": 1, "g": 9.81, "a": {"value": 0.5, "unit": "rad"},
                       "mu": {"value": 0.2, "min": 0, "max": 2}, "mu_s": 0.3},
        "masses": ["m", "m"],
        "potential_energy": "m*g*y",
        "constraints": [{"name": "wire", "holonomic": "x*sin(a) - y*cos(a)"}],
        "friction": [{"name": "bead", "slip": "x_dot*cos(a)+y_dot*sin(a)", "normal": ["wire"],
                      "mu": "mu", "mu_s": "mu_s"}],
        "initial": {"x": "2*cos(a)", "y": "2*sin(a)"},
        "columns": {"s": "x*cos(a)+y*sin(a)", "phi": {"expression": "atan2(y, x)", "unit": "rad"}},
        "end": {"expression": "x*cos(a)+y*sin(a)",
                "description": "the bead reaches the foot of the wire"}
    },
    "view": {
        "points": [{"name": "bead", "at": ["x", "y", 0]}],
        "curves": [{"x": "u*cos(a)", "y": "u*sin(a)", "u": [0, 3]}],
        "up": "z"
    },
    "simulation": {"t_end": 3, "stop_at_end": true}
})json";

// The members of a single pendulum's "system", to which a test adds its own.
const QByteArray pendulum =
    R"("coordinates": ["x", "y"], "parameters": {"l": 1, "m": 1, "g": 9.81},
       "kinetic_energy": "m*(x_dot^2+y_dot^2)/2", "potential_energy": "m*g*y")";

QByteArray fileWithSystem(const QByteArray& members, const QByteArray& rest = {})
{
    return R"({"format": 2, "system": {)" + members + "}" + rest + "}";
}

QStringList parameterNames(const SceneDocument& document)
{
    QStringList names;
    for (const SystemDescription::Parameter& p : document.system->description().parameters)
        names << QString::fromStdString(p.name);
    return names;
}

// SystemJson alone: read the text, write it back inside an object, read that again.
SystemDescription readDescription(const QByteArray& json)
{
    return SystemJson::read(QJsonDocument::fromJson(json).object(), json, QStringLiteral("t.json"));
}

QByteArray writtenFile(const SystemDescription& d, const ParameterValues& values = {})
{
    return "{\n" + SystemJson::write(d, values, 1) + "\n}\n";
}

} // namespace

class SystemJsonTest : public QObject {
    Q_OBJECT

private slots:
    void viewUpMustBeAnAxis();
    void doublePendulumLoadsAndRoundTrips();
    void everyPartOfTheFormatRoundTrips();
    void numbersLoadWhereExpressionsAreExpected();
    void writerLeavesOutEmptyPartsAndUsesTheDocumentsValues();
    void parameterOrderIsKeptOnLoadAndSave();
    void missingSystemIsNamed();
    void unknownKeyInAConstraintListsTheKnownKeys();
    void wrongTypesAreNamedWithTheirPath();
    void constraintNeedsExactlyOneOfHolonomicAndVelocity();
    void expressionErrorsFromTheCoreKeepTheirKeyAndColumn();
    void curveNeedsOneParameterRange();
    void keyParametersNameTheSystemsParametersOnce();
    void oneSidedConstraintLoadsAndRoundTrips();
    void oneSidedConstraintRefusalsNameTheKeyAndTheReason();
};

void SystemJsonTest::viewUpMustBeAnAxis()
{
    const SceneDocument up = SceneFile::fromJson(
        fileWithSystem(pendulum, R"(, "view": {"up": "z"})"), QStringLiteral("lesson.json"));
    QCOMPARE(up.system->description().up, 'z');
    QVERIFY(SceneFile::toJson(up).contains("\"up\": \"z\""));
    const FileError e =
        testing::parseError(fileWithSystem(pendulum, R"(, "view": {"up": "vertical"})"));
    QCOMPARE(e.key(), QStringLiteral("view.up"));
    QVERIFY2(e.reason().contains("must be \"x\", \"y\" or \"z\""), e.what());
}

void SystemJsonTest::doublePendulumLoadsAndRoundTrips()
{
    const SceneDocument document = SceneFile::fromJson(doublePendulum, "pendulum.json");
    QVERIFY(document.system);
    QVERIFY(document.scene.empty());
    QCOMPARE(document.title, std::string("Double pendulum"));
    QCOMPARE(document.definition()->title, std::string("Double pendulum"));
    const SystemDescription& d = document.system->description();
    QCOMPARE(d.coordinates.size(), std::size_t(4));
    QCOMPARE(d.coordinates[2].name, std::string("x2"));
    QCOMPARE(d.coordinates[2].unit, std::string("m"));
    QCOMPARE(parameterNames(document), QStringList({"m1", "m2", "l1", "l2", "g"}));
    QCOMPARE(d.parameters[0].unit, std::string("kg"));
    QCOMPARE(d.parameters[0].min, std::optional<double>(0.1));
    QCOMPARE(d.parameters[0].description, std::string("upper bob"));
    QCOMPARE(document.parameters.at("l2"), std::vector<double>{0.75});
    QCOMPARE(d.constraints.size(), std::size_t(2));
    QCOMPARE(d.constraints[1].name, std::string("rod2"));
    QVERIFY(d.constraints[1].kind == SystemDescription::Constraint::Kind::Holonomic);
    QCOMPARE(d.points.size(), std::size_t(2));
    QCOMPARE(d.points[0].at, (std::vector<std::string>{"x1", "y1", "0"}));
    QCOMPARE(d.points[0].radius, 0.05);
    QCOMPARE(d.links[1], (std::pair<std::string, std::string>{"bob1", "bob2"}));
    QCOMPARE(document.simulation.tEnd, 2.0);

    const QByteArray json = SceneFile::toJson(document);
    QVERIFY2(json.contains("\"format\": 2"), json.constData());
    const SceneDocument again = SceneFile::fromJson(json, "again.json");
    QVERIFY2(again == document, json.constData());
    QCOMPARE(parameterNames(again), parameterNames(document));
    QCOMPARE(JsonSyntax::keyOrder(json, {"system", "parameters"}),
             QStringList({"m1", "m2", "l1", "l2", "g"}));
    QCOMPARE(SceneFile::toJson(again), json); // the written form is a fixed point
}

void SystemJsonTest::everyPartOfTheFormatRoundTrips()
{
    // Through the core: the wire loads, runs to its end and saves as it was.
    const SceneDocument document = SceneFile::fromJson(roughWire, "wire.json");
    const SystemDescription& d = document.system->description();
    QCOMPARE(d.masses, (std::vector<std::string>{"m", "m"}));
    QCOMPARE(d.friction.size(), std::size_t(1));
    QCOMPARE(d.friction[0].slip, std::vector<std::string>{"x_dot*cos(a)+y_dot*sin(a)"});
    QCOMPARE(d.friction[0].normal, std::vector<std::string>{"wire"});
    QCOMPARE(d.friction[0].muStatic, std::string("mu_s"));
    QCOMPARE(d.columns.size(), std::size_t(2));
    QCOMPARE(d.columns[0].name, std::string("s")); // the file's order, not alphabetical
    QCOMPARE(d.columns[0].unit, std::string());
    QCOMPARE(d.columns[1].unit, std::string("rad"));
    QCOMPARE(d.endDescription, std::string("the bead reaches the foot of the wire"));
    QCOMPARE(d.curves.size(), std::size_t(1));
    QCOMPARE(d.curves[0].parameter, std::string("u"));
    QCOMPARE(d.curves[0].z, std::string("0"));
    QCOMPARE(d.curves[0].to, 3.0);
    QVERIFY(document.simulation.stopAtEnd);
    QCOMPARE(SceneFile::fromJson(SceneFile::toJson(document), "again.json"), document);

    // SystemJson alone, with what the wire does not use: a mass matrix, a velocity
    // constraint, a drag, non-ideal forces, units of coordinates, a curve with z.
    const QByteArray json = R"({"system": {
        "coordinates": [{"name": "phi", "unit": "rad"}, "x", {"name": "k", "unit": ""}],
        "parameters": {"m": 2, "c": {"value": 0.1, "description": "drag \"c\""}},
        "mass_matrix": [["m", 0, 0], [0, "m", 0], [0, 0, 1.5]],
        "forces": {"x": "-c*x_dot", "phi": 0},
        "constraints": [{"velocity": "x_dot - phi_dot"}, {"name": "pin", "holonomic": "k"}],
        "friction": [{"slip": ["x_dot", "phi_dot"], "magnitude": "c"}],
        "nonideal": {"x": "-0.1*N_pin"},
        "initial": {"x_dot": 1},
        "end": "x - 2"},
        "view": {"curves": [{"x": "w", "y": "w^2", "z": "1", "w": [-1, 1]}]}})";
    const SystemDescription full = readDescription(json);
    QCOMPARE(full.coordinates[0].unit, std::string("rad"));
    QCOMPARE(full.coordinates[2].unit, std::string());
    QCOMPARE(full.massMatrix[2][2], std::string("1.5"));
    QCOMPARE(full.forces[0].name, std::string("x"));
    QVERIFY(full.constraints[0].kind == SystemDescription::Constraint::Kind::Velocity);
    QCOMPARE(full.friction[0].magnitude, std::string("c"));
    QCOMPARE(full.curves[0].z, std::string("1"));
    const QByteArray written = writtenFile(full);
    QCOMPARE(readDescription(written), full);
    QCOMPARE(writtenFile(readDescription(written)), written);
}

void SystemJsonTest::numbersLoadWhereExpressionsAreExpected()
{
    const QByteArray json = fileWithSystem(
        R"("coordinates": ["x", "y"], "parameters": {"m": 1},
           "masses": ["m", 2.5], "potential_energy": 0, "forces": {"x": -0.5},
           "constraints": [{"holonomic": "y - 0.5*x"}],
           "initial": {"x": 1, "y": 0.5, "x_dot": 1e-3}, "columns": {"half": 0.5})",
        R"(, "view": {"points": [{"name": "p", "at": ["x", "y", -0.25]}]})");
    const SceneDocument document = SceneFile::fromJson(json, "numbers.json");
    const SystemDescription& d = document.system->description();
    QCOMPARE(d.masses, (std::vector<std::string>{"m", "2.5"}));
    QCOMPARE(d.potentialEnergy, std::string("0"));
    QCOMPARE(d.forces[0].expression, std::string("-0.5"));
    QCOMPARE(d.initial[2].expression, std::string("0.001"));
    QCOMPARE(d.columns[0].expression, std::string("0.5"));
    QCOMPARE(d.points[0].at[2], std::string("-0.25"));
    // Written back as numbers where the text is one.
    const QByteArray written = SceneFile::toJson(document);
    QVERIFY2(written.contains(R"("masses": ["m", 2.5])"), written.constData());
    QVERIFY2(written.contains(R"("x_dot": 0.001)"), written.constData());
    QVERIFY2(written.contains(R"("holonomic": "y - 0.5*x")"), written.constData());
    QCOMPARE(SceneFile::fromJson(written, "again.json"), document);
}

void SystemJsonTest::writerLeavesOutEmptyPartsAndUsesTheDocumentsValues()
{
    SceneDocument document = SceneFile::fromJson(
        fileWithSystem(pendulum + R"(, "constraints": [{"name": "rod", "holonomic":
                                      "x^2+y^2-l^2"}], "initial": {"x": 1})"),
        "pendulum.json");
    document.parameters["g"] = {1.62}; // on the Moon, edited in the GUI
    const QByteArray json = SceneFile::toJson(document);
    for (const char* absent :
         {"\"forces\"", "\"friction\"", "\"nonideal\"", "\"columns\"", "\"end\"", "\"view\"",
          "\"mass_matrix\"", "\"masses\"", "\"notes\"", "\"scene\"", "\"value\""})
        QVERIFY2(!json.contains(absent), absent);
    QVERIFY2(json.contains("\"g\": 1.62"), json.constData());
    const SceneDocument moon = SceneFile::fromJson(json, "moon.json");
    QCOMPARE(moon.parameters, document.parameters);
    QCOMPARE(moon.system->description().parameters[2].value, 1.62);
    // Human-readable: one member per line, indented like format 1.
    QVERIFY2(json.startsWith("{\n    \"format\": 2,\n    \"title\": \"\",\n    \"system\": {\n"
                             "        \"coordinates\": [\"x\", \"y\"],\n"
                             "        \"parameters\": {\n            \"l\": 1,\n"),
             json.constData());
}

void SystemJsonTest::parameterOrderIsKeptOnLoadAndSave()
{
    const QByteArray json = fileWithSystem(
        R"("coordinates": ["x"], "parameters": {"zeta": 3, "alpha": {"value": 1, "unit": "kg"},
           "mid": 2}, "kinetic_energy": "alpha*x_dot^2/2", "potential_energy": "zeta*mid*x^2")");
    const SceneDocument document = SceneFile::fromJson(json, "order.json");
    QCOMPARE(parameterNames(document), QStringList({"zeta", "alpha", "mid"}));
    QCOMPARE(document.definition()->parameters[0].name, std::string("zeta"));
    const QByteArray saved = SceneFile::toJson(document);
    QCOMPARE(JsonSyntax::keyOrder(saved, {"system", "parameters"}),
             QStringList({"zeta", "alpha", "mid"}));
    QCOMPARE(parameterNames(SceneFile::fromJson(saved, "saved.json")),
             QStringList({"zeta", "alpha", "mid"}));
    // The same for the other ordered maps.
    const SystemDescription d = readDescription(
        R"({"system": {"coordinates": ["b", "a"], "forces": {"b": 1, "a": 2},
            "initial": {"b_dot": 0, "a": 1, "b": 2}, "columns": {"zz": "a", "aa": "b"}}})");
    QCOMPARE(d.forces[0].name, std::string("b"));
    QCOMPARE(d.initial[0].name, std::string("b_dot"));
    QCOMPARE(d.initial[2].name, std::string("b"));
    QCOMPARE(d.columns[0].name, std::string("zz"));
}

void SystemJsonTest::missingSystemIsNamed()
{
    FileError e = testing::parseError(R"({"format": 2, "title": "Nothing here"})");
    QCOMPARE(e.kind(), FileError::Kind::Invalid);
    QCOMPARE(e.key(), QStringLiteral("system"));
    QVERIFY2(e.reason().startsWith("missing required key"), e.what());
    e = testing::parseError(fileWithSystem(R"("parameters": {"m": 1}, "masses": ["m"])"));
    QCOMPARE(e.key(), QStringLiteral("system.coordinates"));
    QVERIFY2(e.reason().startsWith("missing required key"), e.what());
}

void SystemJsonTest::unknownKeyInAConstraintListsTheKnownKeys()
{
    const FileError e = testing::parseError(
        fileWithSystem(pendulum + R"(, "constraints": [{"name": "rod", "holonomic": "x^2+y^2-l^2"},
                                         {"name": "floor", "holonmic": "y + 1"}])"));
    QCOMPARE(e.key(), QStringLiteral("system.constraints[1].holonmic"));
    QVERIFY2(e.reason().contains("unknown key") && e.reason().contains("name, holonomic, velocity"),
             e.what());
    QVERIFY2(QString(e.what()).startsWith("lesson.json: system.constraints[1].holonmic: "),
             e.what());
    // Inside "system" and "view" as well.
    QCOMPARE(testing::parseError(fileWithSystem(pendulum + R"(, "potential": "y")")).key(),
             QStringLiteral("system.potential"));
    QCOMPARE(testing::parseError(fileWithSystem(pendulum, R"(, "view": {"point": []})")).key(),
             QStringLiteral("view.point"));
}

void SystemJsonTest::wrongTypesAreNamedWithTheirPath()
{
    FileError e = testing::parseError(
        fileWithSystem(R"("coordinates": ["x"], "kinetic_energy": {"expression": "x_dot^2"})"));
    QCOMPARE(e.key(), QStringLiteral("system.kinetic_energy"));
    QCOMPARE(e.reason(), QStringLiteral("must be a string or a number, not an object"));
    e = testing::parseError(fileWithSystem(R"("coordinates": ["x", 3], "masses": [1, 1])"));
    QCOMPARE(e.key(), QStringLiteral("system.coordinates[1]"));
    QVERIFY2(e.reason().contains("not a number"), e.what());
    e = testing::parseError(fileWithSystem(R"("coordinates": ["x"], "parameters": {"mu": "0.2"},
                                    "masses": [1])"));
    QCOMPARE(e.key(), QStringLiteral("system.parameters.mu"));
    QVERIFY2(e.reason().contains("not a string"), e.what());
    QCOMPARE(testing::parseError(fileWithSystem(pendulum, R"(, "view": {"points": [{"name": "p",
                                      "at": ["x", "y", true]}]})"))
                 .key(),
             QStringLiteral("view.points[0].at[2]"));
    QCOMPARE(
        testing::parseError(fileWithSystem(pendulum, R"(, "view": {"links": [["origin"]]})")).key(),
        QStringLiteral("view.links[0]"));
    QCOMPARE(testing::parseError(fileWithSystem(pendulum + R"(, "constraints": "x")")).key(),
             QStringLiteral("system.constraints"));
    QCOMPARE(testing::parseError(R"({"format": 2, "system": []})").key(), QStringLiteral("system"));
    e = testing::parseError(fileWithSystem(pendulum + R"(, "initial": {"x": ""})"));
    QCOMPARE(e.key(), QStringLiteral("system.initial.x"));
    QVERIFY2(e.reason().contains("empty"), e.what());
}

void SystemJsonTest::constraintNeedsExactlyOneOfHolonomicAndVelocity()
{
    FileError e = testing::parseError(
        fileWithSystem(pendulum + R"(, "constraints": [{"name": "rod", "holonomic": "x^2+y^2-l^2",
                                          "velocity": "x*x_dot+y*y_dot"}])"));
    QCOMPARE(e.key(), QStringLiteral("system.constraints[0]"));
    QVERIFY2(e.reason().contains("not both"), e.what());
    e = testing::parseError(fileWithSystem(pendulum + R"(, "constraints": [{"name": "rod"}])"));
    QCOMPARE(e.key(), QStringLiteral("system.constraints[0]"));
    QVERIFY2(e.reason().contains("holonomic") && e.reason().contains("velocity"), e.what());
}

void SystemJsonTest::expressionErrorsFromTheCoreKeepTheirKeyAndColumn()
{
    FileError e = testing::parseError(
        fileWithSystem(pendulum + R"(, "constraints": [{"name": "rod", "holonomic": "x^2+y^2-l^2"},
                                         {"name": "floor", "holonomic": "y + q*x"}])"));
    QCOMPARE(e.kind(), FileError::Kind::Invalid);
    QCOMPARE(e.key(), QStringLiteral("system.constraints[1].holonomic"));
    QVERIFY2(e.reason().startsWith("column 5: unknown symbol 'q'"), e.what());
    QVERIFY2(QString(e.what()).startsWith(
                 "lesson.json: system.constraints[1].holonomic: column 5: unknown symbol"),
             e.what());
    // Checks without a place in an expression come through without a column.
    e = testing::parseError(fileWithSystem(R"("coordinates": ["x"])"));
    QCOMPARE(e.key(), QStringLiteral("system"));
    QVERIFY2(e.reason().contains("kinetic_energy"), e.what());
    e = testing::parseError(fileWithSystem(pendulum, R"(, "view": {"points": [{"name": "p",
                                           "at": ["x", "y", "z"]}]})"));
    QCOMPARE(e.key(), QStringLiteral("view.points[0].at[2]"));
    QVERIFY2(e.reason().startsWith("column 1: "), e.what());
}

void SystemJsonTest::curveNeedsOneParameterRange()
{
    FileError e = testing::parseError(fileWithSystem(pendulum, R"(, "view": {"curves": [{"x": "s",
                                           "y": "0"}]})"));
    QCOMPARE(e.key(), QStringLiteral("view.curves[0]"));
    QVERIFY2(e.reason().contains("\"s\": [-2, 2]"), e.what());
    e = testing::parseError(fileWithSystem(pendulum, R"(, "view": {"curves": [{"x": "s", "y": "0",
                                           "s": [0, 1], "t": [0, 1]}]})"));
    QCOMPARE(e.key(), QStringLiteral("view.curves[0].t"));
    e = testing::parseError(fileWithSystem(pendulum, R"(, "view": {"curves": [{"x": "s", "y": "0",
                                           "s": [0]}]})"));
    QCOMPARE(e.key(), QStringLiteral("view.curves[0].s"));
    QVERIFY2(e.reason().contains("[from, to]"), e.what());
}

void SystemJsonTest::keyParametersNameTheSystemsParametersOnce()
{
    const SceneDocument document = SceneFile::fromJson(
        fileWithSystem(pendulum + R"(, "key_parameters": ["l", "g"])"), QStringLiteral("k.json"));
    QCOMPARE(document.system->description().keyParameters, (std::vector<std::string>{"l", "g"}));
    QCOMPARE(document.definition()->keyParameters, (std::vector<std::string>{"l", "g"}));
    // Written back in the same order, and read back equal.
    const QByteArray written = SceneFile::toJson(document);
    QVERIFY2(written.contains(R"("key_parameters": ["l", "g"])"), written.constData());
    QCOMPARE(SceneFile::fromJson(written, QStringLiteral("k.json")), document);

    FileError e = testing::parseError(fileWithSystem(pendulum + R"(, "key_parameters": ["mu"])"));
    QCOMPARE(e.key(), QStringLiteral("system.key_parameters[0]"));
    QVERIFY2(e.reason().contains("\"mu\" is not one of system.parameters"), e.what());
    e = testing::parseError(fileWithSystem(pendulum + R"(, "key_parameters": ["g", "g"])"));
    QCOMPARE(e.key(), QStringLiteral("system.key_parameters[1]"));
    QVERIFY2(e.reason().contains("named twice"), e.what());
    e = testing::parseError(fileWithSystem(pendulum + R"(, "key_parameters": [1])"));
    QCOMPARE(e.key(), QStringLiteral("system.key_parameters[0]"));
    e = testing::parseError(fileWithSystem(pendulum + R"(, "key_parameters": "g")"));
    QCOMPARE(e.key(), QStringLiteral("system.key_parameters"));
    e = testing::parseError(
        fileWithSystem(pendulum + R"(, "key_parameters": ["l", "m", "g", "l", "m"])"));
    QCOMPARE(e.key(), QStringLiteral("system.key_parameters"));
    QVERIFY2(e.reason().contains("at most 4"), e.what());
}

void SystemJsonTest::oneSidedConstraintLoadsAndRoundTrips()
{
    const QByteArray ball = R"("coordinates": ["y"], "parameters": {"m": 1, "g": 9.81, "e": 0.5},
        "masses": ["m"], "potential_energy": "m*g*y", "initial": {"y": 1},
        "constraints": [{"name": "floor", "unilateral": "y", "restitution": "e"},
                        {"name": "lid", "unilateral": "2 - y"}])";
    const SceneDocument document = SceneFile::fromJson(fileWithSystem(ball), "ball.json");
    const SystemDescription& d = document.system->description();
    QVERIFY(d.constraints[0].unilateral && d.constraints[1].unilateral);
    QCOMPARE(d.constraints[0].restitution, std::string("e"));
    QCOMPARE(d.constraints[1].restitution, std::string());
    QCOMPARE(readDescription(writtenFile(d)), d);
    QVERIFY(writtenFile(d).contains(R"("unilateral": "y", "restitution": "e")"));
    // derive says which constraints are one-sided.
    const std::string text = document.system->derivationText(SymbolicModel::Format::Text);
    QVERIFY2(QString::fromStdString(text).contains("floor (one-sided: phi >= 0, pushes only): "
                                                   "phi = y >= 0"),
             text.c_str());
    QVERIFY(document.system->derivationText(SymbolicModel::Format::Json)
                .find(R"("kind": "unilateral")") != std::string::npos);
}

void SystemJsonTest::oneSidedConstraintRefusalsNameTheKeyAndTheReason()
{
    const QByteArray head = R"("coordinates": ["y"], "parameters": {"m": 1}, "masses": ["m"],
        "initial": {"y": 1}, "constraints": )";
    const struct {
        const char* constraints;
        const char* key;
        const char* reason;
    } cases[] = {
        {R"([{"unilateral": "y", "restitution": 1.5}])", "system.constraints[0].restitution",
         "must lie in [0, 1]"},
        {R"([{"unilateral": "y", "restitution": -0.1}])", "system.constraints[0].restitution",
         "must lie in [0, 1]"},
        {R"([{"velocity": "y_dot", "restitution": 0.5}])", "system.constraints[0].restitution",
         "a velocity constraint cannot be one-sided"},
        {R"([{"velocity": "y_dot", "unilateral": "y"}])", "system.constraints[0]",
         "a velocity constraint cannot be one-sided"},
        {R"([{"holonomic": "y", "unilateral": "y"}])", "system.constraints[0]", "not both"},
        {R"([{"unilateral": "y + y_dot"}])", "system.constraints[0].unilateral",
         "a velocity constraint cannot be one-sided"},
    };
    for (const auto& c : cases) {
        const FileError e = testing::parseError(fileWithSystem(head + c.constraints));
        QVERIFY2(e.key() == QLatin1String(c.key) && e.reason().contains(c.reason), e.what());
    }
}

QTEST_APPLESS_MAIN(SystemJsonTest)
#include "tst_SystemJson.moc"
