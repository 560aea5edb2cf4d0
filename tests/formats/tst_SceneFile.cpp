#include "../support/SceneFileErrors.h"
#include "SceneFile.h"
#include "SceneNotes.h"

#include "scenes/SceneRegistry.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <csignal>
#include <cstring>
#include <random>
#include <sys/resource.h>
#include <unistd.h>

using namespace clab;

namespace {

QByteArray readAll(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll();
}

bool writeAll(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

// A minimal valid bead file with one extra line in "parameters" and one in the root.
QByteArray beadWith(const QByteArray& parameterLine, const QByteArray& rootLine = {})
{
    QByteArray json = "{\n  \"format\": 1,\n  \"scene\": \"bead-on-wire\",\n";
    if (!rootLine.isEmpty())
        json += "  " + rootLine + ",\n";
    json += "  \"parameters\": {" + parameterLine + "}\n}\n";
    return json;
}

// Restores the file-size limit when a test leaves its scope, even on failure.
struct FileSizeLimit {
    explicit FileSizeLimit(rlim_t bytes)
    {
        getrlimit(RLIMIT_FSIZE, &saved);
        previousHandler = std::signal(SIGXFSZ, SIG_IGN); // write() then fails with EFBIG
        rlimit limit = saved;
        limit.rlim_cur = bytes;
        active = setrlimit(RLIMIT_FSIZE, &limit) == 0;
    }
    ~FileSizeLimit()
    {
        setrlimit(RLIMIT_FSIZE, &saved);
        std::signal(SIGXFSZ, previousHandler);
    }
    rlimit saved{};
    void (*previousHandler)(int) = SIG_DFL;
    bool active = false;
};

} // namespace

class SceneFileTest : public QObject {
    Q_OBJECT

private slots:
    void roundTripKeepsEveryValueBitForBit();
    void builtInFilesLoadWithTheRegistryDefaults();
    void notesNumbersFollowTheParametersAndAreSavedOnlyWhenEdited();
    void builtInFilesAreEmbeddedUnchanged();
    void missingParametersAndSettingsTakeDefaults();
    void notJsonNamesTheLine();
    void unknownKeysAreNamedWithTheirPath();
    void wrongTypesAreNamed();
    void missingRequiredFieldsAreNamed();
    void unknownSceneListsTheBuiltInOnes();
    void outOfRangeValuesAreNamed();
    void staticFrictionFollowsKineticUnlessGiven();
    void nonFiniteValuesAreRejected();
    void vectorsOfTheWrongLengthAreRejected();
    void constraintViolatingInitialConditionsAreRejected();
    void newerFormatAsksForANewerVersion();
    void missingFileIsAReadError();
    void randomCorruptionOnlyEverRaisesFileError();
    void saveIntoReadOnlyDirectoryKeepsTheOldFile();
    void saveThatRunsOutOfSpaceKeepsTheOldFile();
    void invalidDocumentIsNeverWritten();
    void stabilizationIsReadWrittenAndChecked();
    void stopAtEndIsReadWrittenAndChecked();
    void builtInScenesAreStillWrittenAsFormatOne();
    void formatTwoRefusesTheKeysOfFormatOne();
    void systemInitialValuesThatViolateTheConstraintsAreNamedOnce();
    void systemParametersAreCheckedUnderTheirKey();
};

void SceneFileTest::roundTripKeepsEveryValueBitForBit()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    std::mt19937_64 rng(20240611);
    for (const SceneDefinition& definition : SceneRegistry::builtIn()) {
        SceneDocument document = SceneDocument::fromDefinition(definition);
        document.title = "Rück\"sicht\" \\ über \t" + definition.name;
        document.notes = "line one\nline two, with ünïcødé: q̈ = a + M⁻¹ Qᶜ";
        // Values with no short decimal form, inside each parameter's range.
        for (const ParameterSpec& spec : definition.parameters) {
            std::vector<double>& values = document.parameters[spec.name];
            for (double& v : values) {
                const double lo = std::isfinite(spec.min) ? spec.min : -3.0;
                // Counts stay small: any whole number round-trips, and a chain of thousands of
                // links makes loading (its initial state is checked with the dense M) take
                // minutes on a loaded machine.
                const double hi = spec.wholeNumber          ? std::min(spec.max, lo + 40.0)
                                  : std::isfinite(spec.max) ? spec.max
                                                            : lo + 7.0;
                std::uniform_real_distribution<double> pick(lo, hi);
                do
                    v = spec.wholeNumber ? std::round(pick(rng)) : pick(rng);
                while (spec.minExclusive && !(v > spec.min));
            }
        }
        // Static friction at least kinetic: mu_s between mu and its maximum.
        for (const ParameterSpec& spec : definition.parameters)
            if (!spec.notBelow.empty()) {
                const double floor = document.parameters.at(spec.notBelow)[0];
                double& v = document.parameters.at(spec.name)[0];
                v = floor + (spec.max - floor) * (v - spec.min) / (spec.max - spec.min);
            }
        document.simulation.tEnd = 1.0 / 3.0 + 2.0;
        document.simulation.dt = 0.1 / 7.0;
        document.simulation.integrator = IntegratorKind::Rk4;
        document.simulation.rtol = 3.0e-7 / 9.0;
        document.simulation.atol = 1e-13 * M_PI;

        const QString path = dir.filePath(QString::fromStdString(definition.name) + ".json");
        SceneFile::save(document, path);
        const SceneDocument loaded = SceneFile::load(path);
        QVERIFY2(loaded == document, definition.name.c_str());
        for (const auto& [name, values] : document.parameters)
            for (std::size_t i = 0; i < values.size(); ++i)
                QVERIFY(std::memcmp(&values[i], &loaded.parameters.at(name)[i], sizeof(double)) ==
                        0);
    }
}

void SceneFileTest::notesNumbersFollowTheParametersAndAreSavedOnlyWhenEdited()
{
    // The built-in notes name parameters in braces; shown, they read the current values.
    SceneDocument document = SceneFile::loadBuiltIn(QStringLiteral("bead-on-wire"));
    QVERIFY(QString::fromStdString(document.notes).contains(QStringLiteral("{mu}")));
    QVERIFY(SceneNotes::shown(document).contains(QStringLiteral("\u03BC = 0.2 ")));
    document.parameters["mu"] = {0.35};
    document.parameters["mu_s"] = {0.35};
    const QString shown = SceneNotes::shown(document);
    QVERIFY2(shown.contains(QStringLiteral("\u03BC = 0.35 ")), qPrintable(shown));
    QVERIFY(!shown.contains(QLatin1Char('{')));
    QCOMPARE(SceneNotes::fill(QStringLiteral("J = {J}, {unknown}"), {{"J", {1.0, 2.0, 3.0}}}),
             QStringLiteral("J = (1, 2, 3), {unknown}"));

    // Saved unedited, the notes stay out of the file; opened again, the built-in ones show.
    QVERIFY(SceneNotes::areBuiltIn(document));
    const QByteArray json = SceneFile::toJson(document);
    QVERIFY(!json.contains("\"notes\""));
    const SceneDocument reopened = SceneFile::fromJson(json, QStringLiteral("mine.json"));
    QVERIFY(reopened.notes.empty());
    QCOMPARE(SceneNotes::shown(reopened), shown);
    // Notes of the user's own are saved.
    document.notes = "Try mu = {mu} against the video.";
    QVERIFY(!SceneNotes::areBuiltIn(document));
    const SceneDocument own =
        SceneFile::fromJson(SceneFile::toJson(document), QStringLiteral("own.json"));
    QCOMPARE(own.notes, document.notes);
    QCOMPARE(SceneNotes::shown(own), QStringLiteral("Try mu = 0.35 against the video."));
}

void SceneFileTest::builtInFilesLoadWithTheRegistryDefaults()
{
    for (const SceneDefinition& definition : SceneRegistry::builtIn()) {
        const QString name = QString::fromStdString(definition.name);
        const QString path = SceneFile::builtInPath(name);
        QVERIFY2(QFile::exists(path), qPrintable(path + " is not embedded"));
        const SceneDocument document = SceneFile::load(path);
        QCOMPARE(document.scene, definition.name);
        // The files state every parameter; they must agree with the engine's defaults so that
        // "reset to defaults" and "open the built-in scene" give the same thing.
        QVERIFY2(document.parameters == definition.defaults(), qPrintable(name));
        QVERIFY(!document.title.empty());
        QVERIFY(document.notes.size() > 100);
        const QJsonObject parameters =
            QJsonDocument::fromJson(readAll(path)).object().value("parameters").toObject();
        // Every parameter is stated, except those that follow another (mu_s follows mu), so that
        // changing mu in the file or with --set moves them too.
        qsizetype stated = 0;
        for (const ParameterSpec& spec : definition.parameters) {
            QCOMPARE(parameters.contains(QString::fromStdString(spec.name)),
                     spec.defaultsTo.empty());
            stated += spec.defaultsTo.empty() ? 1 : 0;
        }
        QCOMPARE(parameters.size(), stated);
    }
}

void SceneFileTest::builtInFilesAreEmbeddedUnchanged()
{
    const QDir scenes(QStringLiteral(CLAB_SOURCE_DIR "/scenes"));
    const QStringList files = scenes.entryList({QStringLiteral("*.json")}, QDir::Files);
    QCOMPARE(files.size(), static_cast<qsizetype>(SceneRegistry::builtIn().size()));
    for (const QString& file : files) {
        const QString name = file.chopped(5);
        QVERIFY2(SceneRegistry::find(name.toStdString()), qPrintable(file + " names no scene"));
        QCOMPARE(readAll(SceneFile::builtInPath(name)), readAll(scenes.filePath(file)));
    }
}

void SceneFileTest::missingParametersAndSettingsTakeDefaults()
{
    const SceneDocument document =
        SceneFile::fromJson(R"({"format": 1, "scene": "rigid-body", "parameters": {"J": [2, 3, 4]},
                               "simulation": {"dt": 0.5}})",
                            QStringLiteral("partial.json"));
    const SceneDefinition* definition = SceneRegistry::find("rigid-body");
    ParameterValues expected = definition->defaults();
    expected["J"] = {2.0, 3.0, 4.0};
    QVERIFY(document.parameters == expected);
    const SimulationOptions defaults;
    QCOMPARE(document.simulation.dt, 0.5);
    QCOMPARE(document.simulation.tEnd, defaults.tEnd);
    QCOMPARE(document.simulation.rtol, defaults.rtol);
    QCOMPARE(document.simulation.atol, defaults.atol);
    QCOMPARE(document.simulation.integrator, defaults.integrator);
    QVERIFY(document.title.empty() && document.notes.empty());
}

void SceneFileTest::notJsonNamesTheLine()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("broken.json");
    QVERIFY(writeAll(path, "{\n  \"format\": 1,\n  \"scene\": \"ring\"\n  \"title\": \"x\"\n}\n"));
    try {
        SceneFile::load(path);
        QFAIL("a file with a missing comma loaded");
    } catch (const FileError& e) {
        QCOMPARE(e.kind(), FileError::Kind::Invalid);
        QCOMPARE(e.path(), path);
        const QString message = QString::fromUtf8(e.what());
        QVERIFY2(message.startsWith(path), e.what());
        QVERIFY2(message.contains("not valid JSON"), e.what());
        QVERIFY2(message.contains("line 4"), e.what());
    }
    QCOMPARE(testing::parseError("").key(), QString());
    QVERIFY(QString(testing::parseError("").what()).contains("not valid JSON"));
    QVERIFY(QString(testing::parseError("[1, 2]").what()).contains("object"));
}

void SceneFileTest::unknownKeysAreNamedWithTheirPath()
{
    QCOMPARE(testing::parseError(beadWith("", "\"colour\": \"red\"")).key(),
             QStringLiteral("colour"));
    QCOMPARE(testing::parseError(beadWith("\"muu\": 0.3")).key(), QStringLiteral("parameters.muu"));
    const FileError e = testing::parseError(
        R"({"format": 1, "scene": "ring", "simulation": {"t_end": 1, "tend": 2}})");
    QCOMPARE(e.key(), QStringLiteral("simulation.tend"));
    QVERIFY(e.reason().contains("t_end"));
}

void SceneFileTest::wrongTypesAreNamed()
{
    FileError e = testing::parseError(beadWith("\"mu\": \"0.3\""));
    QCOMPARE(e.key(), QStringLiteral("parameters.mu"));
    QVERIFY2(e.reason().contains("string"), e.what());
    QCOMPARE(testing::parseError(R"({"format": 1, "scene": 5})").key(), QStringLiteral("scene"));
    QCOMPARE(testing::parseError(R"({"format": "1", "scene": "ring"})").key(),
             QStringLiteral("format"));
    QCOMPARE(testing::parseError(beadWith("", "\"title\": [1]")).key(), QStringLiteral("title"));
    QCOMPARE(testing::parseError(R"({"format": 1, "scene": "ring", "parameters": [1]})").key(),
             QStringLiteral("parameters"));
    QCOMPARE(
        testing::parseError(R"({"format": 1, "scene": "ring", "simulation": {"integrator": 4}})")
            .key(),
        QStringLiteral("simulation.integrator"));
    QCOMPARE(testing::parseError(
                 R"({"format": 1, "scene": "ring", "simulation": {"integrator": "euler"}})")
                 .key(),
             QStringLiteral("simulation.integrator"));
    QCOMPARE(
        testing::parseError(R"({"format": 1, "scene": "ring", "simulation": {"dt": null}})").key(),
        QStringLiteral("simulation.dt"));
    e = testing::parseError(
        R"({"format": 1, "scene": "rigid-body", "parameters": {"J": [1, "2", 3]}})");
    QCOMPARE(e.key(), QStringLiteral("parameters.J[1]"));
    QCOMPARE(testing::parseError(R"({"format": 1, "scene": "rigid-body", "parameters": {"J": 2}})")
                 .key(),
             QStringLiteral("parameters.J"));
}

void SceneFileTest::missingRequiredFieldsAreNamed()
{
    FileError e = testing::parseError(R"({"format": 1, "parameters": {}})");
    QCOMPARE(e.key(), QStringLiteral("scene"));
    QVERIFY(e.reason().contains("missing"));
    e = testing::parseError(R"({"scene": "ring"})");
    QCOMPARE(e.key(), QStringLiteral("format"));
    QVERIFY(e.reason().contains("missing"));
}

void SceneFileTest::unknownSceneListsTheBuiltInOnes()
{
    const FileError e = testing::parseError(R"({"format": 1, "scene": "double-pendulum"})");
    QCOMPARE(e.key(), QStringLiteral("scene"));
    QVERIFY(e.reason().contains("double-pendulum"));
    for (const SceneDefinition& d : SceneRegistry::builtIn())
        QVERIFY(e.reason().contains(QString::fromStdString(d.name)));
}

void SceneFileTest::outOfRangeValuesAreNamed()
{
    // Ranges from the engine's specs: 0 <= mu <= 2, mass > 0, J > 0, dt > 0, t_end > t0.
    FileError e = testing::parseError(beadWith("\"mu\": 2.5"));
    QCOMPARE(e.key(), QStringLiteral("parameters.mu"));
    QVERIFY2(e.reason().contains("2.5") && e.reason().contains("between 0 and 2"), e.what());
    // Checking the structure only lets a caller correct values before validating; the
    // document then holds only what the file states.
    SceneDocument loose = SceneFile::fromJson(beadWith("\"mu\": 2.5"), QStringLiteral("loose.json"),
                                              SceneFile::Check::Structure);
    QVERIFY(loose.parameters == (ParameterValues{{"mu", {2.5}}}));
    loose.parameters["mu"] = {0.5};
    loose.parameters = SceneRegistry::find("bead-on-wire")->complete(loose.parameters);
    SceneFile::validate(loose, QStringLiteral("loose.json"));
    QCOMPARE(loose.parameters.at("mu_s"), std::vector<double>{0.5});
    loose.parameters["mu"] = {2.5};
    QVERIFY_THROWS_EXCEPTION(FileError, SceneFile::validate(loose, QStringLiteral("loose.json")));
    e = testing::parseError(beadWith("\"mass\": 0"));
    QCOMPARE(e.key(), QStringLiteral("parameters.mass"));
    QVERIFY2(e.reason().contains("between 1e-12 and 1e+12 kg"), e.what());
    QCOMPARE(testing::parseError(beadWith("\"angle_deg\": -1")).key(),
             QStringLiteral("parameters.angle_deg"));
    QCOMPARE(testing::parseError(
                 R"({"format": 1, "scene": "rigid-body", "parameters": {"J": [1, -2, 3]}})")
                 .key(),
             QStringLiteral("parameters.J[1]"));
    QCOMPARE(
        testing::parseError(R"({"format": 1, "scene": "ring", "simulation": {"dt": -0.01}})").key(),
        QStringLiteral("simulation.dt"));
    QCOMPARE(
        testing::parseError(R"({"format": 1, "scene": "ring", "simulation": {"t_end": 0}})").key(),
        QStringLiteral("simulation.t_end"));
    QCOMPARE(
        testing::parseError(R"({"format": 1, "scene": "ring", "simulation": {"rtol": 0}})").key(),
        QStringLiteral("simulation.rtol"));
    // A run of 1e12 samples would exhaust memory long before it finished.
    QCOMPARE(testing::parseError(R"({"format": 1, "scene": "ring", "simulation": {"t_end": 1e6,
                           "dt": 1e-6}})")
                 .key(),
             QStringLiteral("simulation.dt"));
}

void SceneFileTest::staticFrictionFollowsKineticUnlessGiven()
{
    // mu_s left out follows the file's mu, not the scene's default mu.
    SceneDocument document = SceneFile::fromJson(beadWith("\"mu\": 0.45"), "bead.json");
    QCOMPARE(document.parameters.at("mu_s"), std::vector<double>{0.45});
    document = SceneFile::fromJson(beadWith("\"mu\": 0.45, \"mu_s\": 0.6"), "bead.json");
    QCOMPARE(document.parameters.at("mu_s"), std::vector<double>{0.6});
    // Static friction below kinetic friction is not physical.
    const FileError e = testing::parseError(beadWith("\"mu\": 0.45, \"mu_s\": 0.3"));
    QCOMPARE(e.key(), QStringLiteral("parameters.mu_s"));
    QVERIFY2(e.reason().contains("at least mu = 0.45"), e.what());
    // Saved files state mu_s only when it differs from mu, so it keeps following a hand edit.
    QVERIFY(!SceneFile::toJson(SceneFile::fromJson(beadWith("\"mu\": 0.45"), "a.json"))
                 .contains("mu_s"));
    QVERIFY(SceneFile::toJson(document).contains("\"mu_s\": 0.6"));
    QVERIFY(SceneFile::fromJson(SceneFile::toJson(document), "b.json") == document);
}

void SceneFileTest::nonFiniteValuesAreRejected()
{
    // JSON has no NaN or infinity: an overflowing literal is a syntax error at its line.
    FileError e = testing::parseError(beadWith("\n    \"mu\": 1e999\n  "));
    QCOMPARE(e.kind(), FileError::Kind::Invalid);
    QVERIFY2(QString(e.what()).contains("line 5") && QString(e.what()).contains("1e999"), e.what());
    QVERIFY2(e.reason().contains("finite"), e.what());
    e = testing::parseError(beadWith("\"mu\": \"NaN\""));
    QCOMPARE(e.key(), QStringLiteral("parameters.mu"));
    e = testing::parseError(beadWith("\"g\": \"Infinity\""));
    QCOMPARE(e.key(), QStringLiteral("parameters.g"));
    // Documents built in memory (GUI, command line) can hold them: validation names them.
    SceneDocument document = SceneDocument::fromDefinition(*SceneRegistry::find("bead-on-wire"));
    document.parameters["s0"] = {std::numeric_limits<double>::quiet_NaN()};
    try {
        SceneFile::validate(document, QStringLiteral("memory"));
        QFAIL("NaN accepted");
    } catch (const FileError& error) {
        QCOMPARE(error.key(), QStringLiteral("parameters.s0"));
        QVERIFY(error.reason().contains("finite"));
    }
    document = SceneDocument::fromDefinition(*SceneRegistry::find("bead-on-wire"));
    document.simulation.tEnd = std::numeric_limits<double>::infinity();
    try {
        SceneFile::validate(document, QStringLiteral("memory"));
        QFAIL("infinite t_end accepted");
    } catch (const FileError& error) {
        QCOMPARE(error.key(), QStringLiteral("simulation.t_end"));
    }
}

void SceneFileTest::vectorsOfTheWrongLengthAreRejected()
{
    FileError e =
        testing::parseError(R"({"format": 1, "scene": "rigid-body", "parameters": {"J": [1, 2]}})");
    QCOMPARE(e.key(), QStringLiteral("parameters.J"));
    QVERIFY2(e.reason().contains("3 components"), e.what());
    e = testing::parseError(
        R"({"format": 1, "scene": "rigid-body", "parameters": {"quat0": [1, 0, 0, 0, 0]}})");
    QCOMPARE(e.key(), QStringLiteral("parameters.quat0"));
    QVERIFY2(e.reason().contains("4 components"), e.what());
    QCOMPARE(testing::parseError(beadWith("\"mu\": [0.1, 0.2]")).key(),
             QStringLiteral("parameters.mu"));
}

void SceneFileTest::constraintViolatingInitialConditionsAreRejected()
{
    // A zero quaternion has no orientation: it cannot be normalized onto uᵀu = 1.
    FileError e = testing::parseError(
        R"({"format": 1, "scene": "rigid-body", "parameters": {"quat0": [0, 0, 0, 0]}})");
    QCOMPARE(e.key(), QStringLiteral("parameters.quat0"));
    QVERIFY2(e.reason().contains("zero"), e.what());
    // On a ring of radius 1e200, x² + y² − R² would overflow: such a radius is refused as out
    // of range before any state is built (the initial-state check itself is tested on a toy
    // scene in tst_SceneDefinition).
    e = testing::parseError(R"({"format": 1, "scene": "ring", "parameters": {"radius": 1e200}})");
    QCOMPARE(e.key(), QStringLiteral("parameters.radius"));
    QVERIFY2(e.reason().contains("between 1e-12 and 1e+12 m"), e.what());
}

void SceneFileTest::newerFormatAsksForANewerVersion()
{
    // A newer file may hold keys this version does not know: the format is reported, not them.
    FileError e =
        testing::parseError(R"({"format": 3, "scene": "ring", "friction": {"mu_s": 0.3}})");
    QCOMPARE(e.key(), QStringLiteral("format"));
    QVERIFY2(e.reason().contains("newer ConstraintLab"), e.what());
    QVERIFY2(e.reason().contains("reads format 2 and older"), e.what());
    QCOMPARE(testing::parseError(R"({"format": 1.5, "scene": "ring"})").key(),
             QStringLiteral("format"));
    QCOMPARE(testing::parseError(R"({"format": 0, "scene": "ring"})").key(),
             QStringLiteral("format"));
}

void SceneFileTest::missingFileIsAReadError()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("absent.json");
    try {
        SceneFile::load(path);
        QFAIL("a missing file loaded");
    } catch (const FileError& e) {
        QCOMPARE(e.kind(), FileError::Kind::Read);
        QVERIFY(QString(e.what()).startsWith(path));
    }
}

void SceneFileTest::randomCorruptionOnlyEverRaisesFileError()
{
    const QByteArray good = readAll(SceneFile::builtInPath("rigid-body"));
    QVERIFY(!good.isEmpty());
    std::mt19937 rng(7);
    const char alphabet[] = "{}[]\",:0123456789.eE+-truefalsnl \n\\";
    int accepted = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        QByteArray text = good;
        const int edits = 1 + static_cast<int>(rng() % 4);
        for (int k = 0; k < edits; ++k) {
            const int at = static_cast<int>(rng() % text.size());
            switch (rng() % 3) {
            case 0:
                text[at] = alphabet[rng() % (sizeof alphabet - 1)];
                break;
            case 1:
                text.remove(at, 1 + static_cast<int>(rng() % 8));
                break;
            default:
                text.insert(at, alphabet[rng() % (sizeof alphabet - 1)]);
                break;
            }
        }
        try {
            const SceneDocument d = SceneFile::fromJson(text, QStringLiteral("fuzz.json"));
            SceneFile::validate(d, QStringLiteral("fuzz.json")); // what loads is valid
            ++accepted;
        } catch (const FileError& e) {
            QVERIFY(QString(e.what()).startsWith("fuzz.json: "));
        }
    }
    // Most edits must be caught; some (inside notes, a digit changed) are legitimately valid.
    QVERIFY2(accepted < 2000, qPrintable(QString::number(accepted)));
}

void SceneFileTest::saveIntoReadOnlyDirectoryKeepsTheOldFile()
{
    if (geteuid() == 0)
        QSKIP("running as root, which ignores directory permissions; "
              "saveThatRunsOutOfSpaceKeepsTheOldFile covers the failed write");
    QTemporaryDir dir;
    const QString path = dir.filePath("lesson.json");
    SceneDocument document = SceneDocument::fromDefinition(*SceneRegistry::find("ring"));
    SceneFile::save(document, path);
    const QByteArray before = readAll(path);
    QVERIFY(QFile::setPermissions(dir.path(), QFile::ReadOwner | QFile::ExeOwner));
    document.parameters["v0"] = {0.5};
    try {
        SceneFile::save(document, path);
        QFile::setPermissions(dir.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        QFAIL("saved into a read-only directory");
    } catch (const FileError& e) {
        QFile::setPermissions(dir.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        QCOMPARE(e.kind(), FileError::Kind::Write);
        QVERIFY2(QString(e.what()).startsWith(path), e.what());
        QVERIFY2(e.reason().contains("ermission"), e.what());
    }
    QCOMPARE(readAll(path), before);
}

void SceneFileTest::saveThatRunsOutOfSpaceKeepsTheOldFile()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("lesson.json");
    SceneDocument document = SceneDocument::fromDefinition(*SceneRegistry::find("ring"));
    document.notes = std::string(4000, 'n');
    SceneFile::save(document, path);
    const QByteArray before = readAll(path);
    QVERIFY(before.size() > 4000);

    document.parameters["v0"] = {0.5};
    bool threw = false;
    {
        // A file-size limit makes write() fail with EFBIG part way, like a full disk.
        FileSizeLimit limit(1024);
        QVERIFY(limit.active);
        try {
            SceneFile::save(document, path);
        } catch (const FileError& e) {
            threw = true;
            QCOMPARE(e.kind(), FileError::Kind::Write);
            QVERIFY2(QString(e.what()).startsWith(path), e.what());
            QVERIFY2(e.reason().contains("large", Qt::CaseInsensitive), e.what());
        }
    }
    QVERIFY(threw);
    QCOMPARE(readAll(path), before);
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 1); // no leftovers
}

void SceneFileTest::invalidDocumentIsNeverWritten()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("bad.json");
    SceneDocument document = SceneDocument::fromDefinition(*SceneRegistry::find("bead-on-wire"));
    document.parameters["mu"] = {-1.0};
    QVERIFY_THROWS_EXCEPTION(FileError, SceneFile::save(document, path));
    QVERIFY(!QFile::exists(path));
    try {
        SceneFile::save(document, dir.filePath("missing-dir/x.json"));
    } catch (const FileError& e) {
        QCOMPARE(e.key(), QStringLiteral("parameters.mu"));
    }
    document.parameters["mu"] = {0.1};
    try {
        SceneFile::save(document, dir.filePath("missing-dir/x.json"));
        QFAIL("saved into a missing directory");
    } catch (const FileError& e) {
        QCOMPARE(e.kind(), FileError::Kind::Write);
        QVERIFY(QString(e.what()).contains("missing-dir/x.json"));
    }
}

void SceneFileTest::stabilizationIsReadWrittenAndChecked()
{
    // Left out: projection, the default.
    SceneDocument document = SceneFile::fromJson(beadWith(""), "bead.json");
    QCOMPARE(document.simulation.stabilization, Stabilization::Projection);

    const QByteArray baumgarte = "{\"format\": 1, \"scene\": \"ring\", \"simulation\": "
                                 "{\"stabilization\": \"baumgarte\", \"baumgarte_alpha\": 7.5, "
                                 "\"baumgarte_beta\": 3}}";
    document = SceneFile::fromJson(baumgarte, "ring.json");
    QCOMPARE(document.simulation.stabilization, Stabilization::Baumgarte);
    QCOMPARE(document.simulation.baumgarteAlpha, 7.5);
    QCOMPARE(document.simulation.baumgarteBeta, 3.0);
    // Written out and read back, nothing changes; and the setting is part of equality.
    const QByteArray json = SceneFile::toJson(document);
    QVERIFY(json.contains("\"stabilization\": \"baumgarte\""));
    QCOMPARE(SceneFile::fromJson(json, "again.json"), document);
    SceneDocument other = document;
    other.simulation.stabilization = Stabilization::None;
    QVERIFY(!(other == document));
    QVERIFY(SceneFile::toJson(other).contains("\"stabilization\": \"none\""));
    QCOMPARE(SceneFile::fromJson(SceneFile::toJson(other), "none.json"), other);

    FileError e = testing::parseError(
        R"({"format": 1, "scene": "ring", "simulation": {"stabilization": "stiff"}})");
    QCOMPARE(e.key(), QStringLiteral("simulation.stabilization"));
    QVERIFY2(e.reason().contains("stiff") && e.reason().contains("projection"), e.what());
    e = testing::parseError(
        R"({"format": 1, "scene": "ring", "simulation": {"stabilization": 1}})");
    QCOMPARE(e.key(), QStringLiteral("simulation.stabilization"));
    e = testing::parseError(
        R"({"format": 1, "scene": "ring", "simulation": {"baumgarte_beta": -2}})");
    QCOMPARE(e.key(), QStringLiteral("simulation.baumgarte_beta"));
    QVERIFY2(e.reason().contains("-2"), e.what());
}

void SceneFileTest::stopAtEndIsReadWrittenAndChecked()
{
    // The built-in bead runs until the bead reaches the foot of its wire, or 10 s.
    const SceneDocument bead = SceneFile::load(SceneFile::builtInPath("bead-on-wire"));
    QVERIFY(bead.simulation.stopAtEnd);
    QCOMPARE(bead.simulation.tEnd, 10.0);
    // Left out: off. Written only when on, so that other files keep their bytes.
    SceneDocument document = SceneFile::fromJson(beadWith(""), "bead.json");
    QVERIFY(!document.simulation.stopAtEnd);
    QVERIFY(!SceneFile::toJson(document).contains("stop_at_end"));
    document.simulation.stopAtEnd = true;
    const QByteArray json = SceneFile::toJson(document);
    QVERIFY(json.contains("\"stop_at_end\": true"));
    QCOMPARE(SceneFile::fromJson(json, "again.json"), document);

    FileError e = testing::parseError(
        R"({"format": 1, "scene": "bead-on-wire", "simulation": {"stop_at_end": 1}})");
    QCOMPARE(e.key(), QStringLiteral("simulation.stop_at_end"));
    QVERIFY2(e.reason().contains("true or false"), e.what());
    // A scene without an end says so, and names those that have one.
    e = testing::parseError(
        R"({"format": 1, "scene": "ring", "simulation": {"stop_at_end": true}})");
    QCOMPARE(e.key(), QStringLiteral("simulation.stop_at_end"));
    QVERIFY2(e.reason().contains("ring") && e.reason().contains("bead-on-wire"), e.what());
    // false is accepted anywhere.
    QVERIFY(
        !SceneFile::fromJson(
             R"({"format": 1, "scene": "ring", "simulation": {"stop_at_end": false}})", "ring.json")
             .simulation.stopAtEnd);
}

void SceneFileTest::builtInScenesAreStillWrittenAsFormatOne()
{
    // Older versions read files of built-in scenes; only a system needs format 2.
    for (const SceneDefinition& definition : SceneRegistry::builtIn()) {
        const SceneDocument document =
            SceneFile::loadBuiltIn(QString::fromStdString(definition.name));
        const QByteArray json = SceneFile::toJson(document);
        QVERIFY2(json.startsWith("{\n    \"format\": 1,\n    \"scene\": "), json.constData());
    }
}

void SceneFileTest::formatTwoRefusesTheKeysOfFormatOne()
{
    const QByteArray system =
        R"("system": {"coordinates": ["x"], "parameters": {"m": 1}, "masses": ["m"]})";
    FileError e = testing::parseError(R"({"format": 2, "scene": "ring", )" + system + "}");
    QCOMPARE(e.key(), QStringLiteral("scene"));
    QVERIFY2(e.reason().contains("\"system\"") && e.reason().contains("format 1"), e.what());
    e = testing::parseError(R"({"format": 2, "parameters": {"m": 2}, )" + system + "}");
    QCOMPARE(e.key(), QStringLiteral("parameters"));
    QVERIFY2(e.reason().contains("system.parameters"), e.what());
    e = testing::parseError(R"({"format": 2, "colour": "red", )" + system + "}");
    QCOMPARE(e.key(), QStringLiteral("colour"));
    QVERIFY2(e.reason().contains("system, view"), e.what());
    // And format 1 says where a system belongs.
    e = testing::parseError(R"({"format": 1, "scene": "ring", )" + system + "}");
    QCOMPARE(e.key(), QStringLiteral("system"));
    QVERIFY2(e.reason().contains("\"format\": 2"), e.what());
    QVERIFY(SceneFile::fromJson(R"({"format": 2, )" + system + "}", "free.json").system);
}

void SceneFileTest::systemInitialValuesThatViolateTheConstraintsAreNamedOnce()
{
    // Both coordinates given, off the rod: nothing is left to make up for it.
    const QByteArray json = R"({"format": 2, "system": {"coordinates": ["x", "y"],
        "parameters": {"l": 1}, "masses": [1, 1],
        "constraints": [{"name": "rod", "holonomic": "x^2+y^2-l^2"}],
        "initial": {"x": 2, "y": 0}}})";
    const FileError e = testing::parseError(json);
    QCOMPARE(e.key(), QStringLiteral("system.initial"));
    QVERIFY2(e.reason().contains("'rod'"), e.what());
    QCOMPARE(QString(e.what()).count("system.initial"), 1);
    // Checking the structure only does not build the system.
    const SceneDocument loose =
        SceneFile::fromJson(json, QStringLiteral("loose.json"), SceneFile::Check::Structure);
    QVERIFY(loose.parameters == (ParameterValues{{"l", {1.0}}}));
    QVERIFY_THROWS_EXCEPTION(FileError, SceneFile::validate(loose, QStringLiteral("loose.json")));
}

void SceneFileTest::systemParametersAreCheckedUnderTheirKey()
{
    const QByteArray json = R"({"format": 2, "system": {"coordinates": ["x"],
        "parameters": {"m": {"value": 1, "unit": "kg", "min": 0.5, "max": 2}, "k": 4},
        "masses": ["m"], "potential_energy": "k*x^2/2", "initial": {"x": 0.1}}})";
    SceneDocument document = SceneFile::fromJson(json, "spring.json");
    // Every parameter is stated in a format-2 file: the structure check gives them all.
    QCOMPARE(SceneFile::fromJson(json, "spring.json", SceneFile::Check::Structure).parameters,
             document.parameters);
    document.parameters["m"] = {3.0};
    try {
        SceneFile::validate(document, QStringLiteral("memory"));
        QFAIL("a mass above its range was accepted");
    } catch (const FileError& e) {
        QCOMPARE(e.key(), QStringLiteral("system.parameters.m"));
        QVERIFY2(e.reason().contains("between 0.5 and 2 kg (got 3)"), e.what());
    }
    document.parameters["m"] = {1.0};
    document.parameters["c"] = {1.0};
    try {
        SceneFile::validate(document, QStringLiteral("memory"));
        QFAIL("an unknown parameter was accepted");
    } catch (const FileError& e) {
        QCOMPARE(e.key(), QStringLiteral("system.parameters.c"));
        QVERIFY2(e.reason().contains("the system (its parameters: m, k)"), e.what());
    }
    document.parameters.erase("c");
    SceneFile::validate(document, QStringLiteral("memory"));
    // A system without an end cannot stop at it.
    document.simulation.stopAtEnd = true;
    try {
        SceneFile::validate(document, QStringLiteral("memory"));
        QFAIL("stop_at_end accepted without an end");
    } catch (const FileError& e) {
        QCOMPARE(e.key(), QStringLiteral("simulation.stop_at_end"));
        QVERIFY2(e.reason().contains("system.end"), e.what());
    }
}

QTEST_APPLESS_MAIN(SceneFileTest)
#include "tst_SceneFile.moc"
