#include "SceneFile.h"

#include "SceneNotes.h"
#include "StartJson.h"

#include "AtomicFile.h"
#include "JsonFields.h"
#include "JsonSyntax.h"
#include "SystemJson.h"

#include "integrate/SimulationSetting.h"
#include "model/ConstraintLabError.h"
#include "model/ParameterRule.h"
#include "scenes/SceneRegistry.h"
#include "symbolic/DerivationProgress.h"
#include "symbolic/SymbolicModel.h"
#include "symbolic/SystemError.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QRegularExpression>
#include <QSaveFile>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <memory>
#include <optional>
#include <utility>

namespace clab {

namespace {

// Anything larger is not a scene file; refusing it keeps a stray multi-GB file from
// exhausting memory.
constexpr qint64 maxFileSize = 16 * 1024 * 1024;

const QStringList& rootKeys()
{
    static const QStringList keys{"format",     "scene",      "title", "notes",
                                  "parameters", "simulation", "start"};
    return keys;
}

// The top-level keys of format 2, where "system" and "view" replace "scene" and "parameters".
const QStringList& systemRootKeys()
{
    static const QStringList keys{"format", "title",      "notes", "system",
                                  "view",   "simulation", "start"};
    return keys;
}

// Files of built-in scenes stay format 1, which older versions read.
constexpr int builtInSceneFormat = 1;

// Names of the built-in scenes with an end of track, for messages.
QString scenesWithAnEnd()
{
    QStringList names;
    for (const SceneDefinition& d : SceneRegistry::builtIn())
        if (!d.end.empty())
            names << QString::fromStdString(d.name);
    return names.join(QStringLiteral(", "));
}

// The "simulation" keys: numbers, then choices, then flags (the order messages list them in).
QStringList simulationKeys()
{
    QStringList keys;
    for (const auto kind : {SimulationSetting::Kind::Number, SimulationSetting::Kind::Choice,
                            SimulationSetting::Kind::Flag})
        for (const SimulationSetting& s : SimulationSetting::all())
            if (s.kind == kind)
                keys << QString::fromStdString(s.key);
    return keys;
}

QString number(double v)
{
    return QString::number(v, 'g', QLocale::FloatingPointShortest);
}

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

[[noreturn]] void unknownScene(const QString& source, const QString& sceneName)
{
    JsonFields::invalid(source, QStringLiteral("scene"),
                        QStringLiteral("unknown scene %1 (built-in scenes: %2)")
                            .arg(FileError::quoted(sceneName), qs(SceneRegistry::nameList())));
}

QString parameterNames(const SceneDefinition& d)
{
    QStringList names;
    for (const ParameterSpec& p : d.parameters)
        names << qs(p.name);
    return names.join(QStringLiteral(", "));
}

// Line, column and text of the line around a byte offset, for parse errors.
QString locate(const QByteArray& json, int offset)
{
    offset = std::clamp(offset, 0, static_cast<int>(json.size()));
    int line = 1;
    int lineStart = 0;
    for (int i = 0; i < offset; ++i) {
        if (json[i] == '\n') {
            ++line;
            lineStart = i + 1;
        }
    }
    int lineEnd = json.indexOf('\n', lineStart);
    if (lineEnd < 0)
        lineEnd = json.size();
    const QString text =
        QString::fromUtf8(json.mid(lineStart, std::min(lineEnd - lineStart, 120))).trimmed();
    return QStringLiteral("line %1, column %2 (%3)")
        .arg(line)
        .arg(offset - lineStart + 1)
        .arg(text.isEmpty() ? QStringLiteral("end of line") : QStringLiteral("`%1`").arg(text));
}

std::vector<double> readParameter(const ParameterSpec& spec, const QJsonValue& v,
                                  const QString& source, const QString& key)
{
    if (spec.size() == 1) {
        if (v.isArray())
            JsonFields::invalid(
                source, key,
                QStringLiteral("must be a single number, not an array (%1 is a scalar)")
                    .arg(qs(spec.name)));
        return {JsonFields::requireNumber(v, source, key)};
    }
    if (!v.isArray())
        JsonFields::invalid(source, key,
                            QStringLiteral("must be an array of %1 numbers, not %2")
                                .arg(spec.size())
                                .arg(JsonFields::typeName(v)));
    const QJsonArray array = v.toArray();
    if (array.size() != spec.size())
        JsonFields::invalid(
            source, key,
            QStringLiteral("must have %1 components, not %2").arg(spec.size()).arg(array.size()));
    std::vector<double> values;
    values.reserve(array.size());
    for (int i = 0; i < array.size(); ++i)
        values.push_back(
            JsonFields::requireNumber(array[i], source, key + QStringLiteral("[%1]").arg(i)));
    return values;
}

// A parameter rule's violation in a file's words: the key (a vector's component as key[i]) and
// a reason that states the allowed range and the value.
[[noreturn]] void invalidParameter(const ParameterSpec& spec, const ParameterRule::Violation& v,
                                   const QString& source, const QString& prefix)
{
    const QString key = prefix + qs(spec.name);
    const QString where =
        spec.size() == 1 || v.component < 0 ? key : key + QStringLiteral("[%1]").arg(v.component);
    const QString unit = spec.unit.empty() ? QString() : QStringLiteral(" ") + qs(spec.unit);
    switch (v.kind) {
    case ParameterRule::Kind::ComponentCount:
        JsonFields::invalid(source, key,
                            QStringLiteral("must have %1 component%2, not %3")
                                .arg(spec.size())
                                .arg(spec.size() == 1 ? "" : "s")
                                .arg(static_cast<int>(v.value)));
    case ParameterRule::Kind::NotFinite:
        JsonFields::invalid(
            source, where, QStringLiteral("must be a finite number (got %1)").arg(number(v.value)));
    case ParameterRule::Kind::AllZero:
        JsonFields::invalid(source, key, QStringLiteral("must not be all zero"));
    case ParameterRule::Kind::Below:
        JsonFields::invalid(source, key,
                            QStringLiteral("must be at least %1 = %2 (got %3)")
                                .arg(qs(spec.notBelow), number(v.floor), number(v.value)));
    case ParameterRule::Kind::NotWhole:
        JsonFields::invalid(source, where,
                            QStringLiteral("must be a whole number (got %1)").arg(number(v.value)));
    case ParameterRule::Kind::OutOfRange:
        break;
    }
    JsonFields::invalid(
        source, where,
        (spec.lowestIncluded()
             ? QStringLiteral("must be between %1 and %2%3 (got %4)")
             : QStringLiteral("must be greater than %1 and at most %2%3 (got %4)"))
            .arg(number(spec.lowest()), number(spec.highest()), unit, number(v.value)));
}

// "title" or "notes": a string when given, empty otherwise.
std::string optionalText(const QJsonObject& root, const QString& key, const QString& source)
{
    return root.contains(key)
               ? JsonFields::requireString(root.value(key), source, key).toStdString()
               : std::string();
}

void readSimulation(const QJsonObject& root, SimulationOptions& options, const QString& source)
{
    if (!root.contains(QLatin1String("simulation")))
        return;
    const QJsonObject simulation =
        JsonFields::requireObject(root.value(QLatin1String("simulation")), source, "simulation");
    JsonFields::rejectUnknownKeys(simulation, simulationKeys(), source,
                                  QStringLiteral("simulation."));
    for (const SimulationSetting& setting : SimulationSetting::all()) {
        const QString key = QString::fromStdString(setting.key);
        if (!simulation.contains(key))
            continue;
        const QString where = QStringLiteral("simulation.") + key;
        switch (setting.kind) {
        case SimulationSetting::Kind::Number:
            setting.set(options, JsonFields::requireNumber(simulation.value(key), source, where));
            break;
        case SimulationSetting::Kind::Flag:
            setting.set(options,
                        JsonFields::requireBool(simulation.value(key), source, where) ? 1.0 : 0.0);
            break;
        case SimulationSetting::Kind::Choice: {
            const QString name = JsonFields::requireString(simulation.value(key), source, where);
            const std::optional<double> value = setting.valueNamed(name.toStdString());
            if (!value)
                JsonFields::invalid(source, where,
                                    QStringLiteral("unknown %1 %2 (use %3)")
                                        .arg(key, FileError::quoted(name), qs(setting.nameList())));
            setting.set(options, *value);
            break;
        }
        }
    }
}

// Format 1: a built-in scene and values for its parameters.
SceneDocument builtInSceneDocument(const QJsonObject& root, const QString& source,
                                   SceneFile::Check check)
{
    for (const char* key : {"system", "view"})
        if (root.contains(QLatin1String(key)))
            JsonFields::invalid(source, QString::fromLatin1(key),
                                QStringLiteral("unknown key in a format-1 file; a system written "
                                               "as equations needs \"format\": 2"));
    JsonFields::rejectUnknownKeys(root, rootKeys(), source, QString());

    if (!root.contains(QLatin1String("scene")))
        JsonFields::invalid(
            source, QStringLiteral("scene"),
            QStringLiteral("missing required key (one of: %1)").arg(qs(SceneRegistry::nameList())));
    const QString sceneName =
        JsonFields::requireString(root.value(QLatin1String("scene")), source, "scene");
    const SceneDefinition* definition = SceneRegistry::find(sceneName.toStdString());
    if (!definition)
        unknownScene(source, sceneName);

    SceneDocument document = SceneDocument::fromDefinition(*definition);
    document.title = optionalText(root, QStringLiteral("title"), source);
    document.notes = optionalText(root, QStringLiteral("notes"), source);

    const ParameterValues given =
        root.contains(QLatin1String("parameters"))
            ? SceneFile::readParameters(root.value(QLatin1String("parameters")), *definition,
                                        source, QStringLiteral("parameters"))
            : ParameterValues();
    // Parameters left out take their defaults, or follow the parameter they default to.
    document.parameters = check == SceneFile::Check::Full ? definition->complete(given) : given;
    return document;
}

// Format 2: a system written as equations, with its parameters' values (all stated in the file).
SceneDocument systemDocument(const QJsonObject& root, const QByteArray& json, const QString& source)
{
    // Keys of format 1 that format 2 holds elsewhere: say where, rather than "unknown key".
    if (root.contains(QLatin1String("scene")))
        JsonFields::invalid(source, QStringLiteral("scene"),
                            QStringLiteral("a format-2 file describes its system under \"system\" "
                                           "and names no built-in scene (a file for a built-in "
                                           "scene is format 1)"));
    if (root.contains(QLatin1String("parameters")))
        JsonFields::invalid(source, QStringLiteral("parameters"),
                            QStringLiteral("in a format-2 file the parameters belong to the "
                                           "system: write them under system.parameters"));
    JsonFields::rejectUnknownKeys(root, systemRootKeys(), source, QString());

    const std::string title = optionalText(root, QStringLiteral("title"), source);
    const std::string notes = optionalText(root, QStringLiteral("notes"), source);
    const SystemDescription description = SystemJson::read(root, json, source);
    std::shared_ptr<const SymbolicModel> model;
    try {
        model = SymbolicModel::create(description, title, notes);
    } catch (const SystemError& e) {
        // located() without the key: FileError puts the key in front itself.
        throw FileError(FileError::Kind::Invalid, source, qs(e.key()), qs(e.located()));
    } catch (const DerivationProgress::Cancelled&) {
        throw; // the loader's Cancel, not a fault of the file
    } catch (const std::exception& e) {
        JsonFields::invalid(source, QStringLiteral("system"),
                            QStringLiteral("the system cannot be built: ") +
                                QString::fromUtf8(e.what()));
    }
    SceneDocument document = SceneDocument::fromSystem(std::move(model));
    document.title = title;
    document.notes = notes;
    return document;
}

// "KEY: reason" of a system's ConstraintLabError (it names the key itself) split into the
// two, so that FileError does not print the key twice; `fallback` when it names none.
std::pair<QString, QString> splitKey(const QString& message, const QString& fallback)
{
    static const QRegularExpression keyed(QStringLiteral("^(system\\.[A-Za-z0-9_.\\[\\]]*): "));
    const QRegularExpressionMatch match = keyed.match(message);
    if (!match.hasMatch())
        return {fallback, message};
    return {match.captured(1), message.mid(match.capturedLength())};
}

// The "simulation" member: numbers, then flags that are on (an off flag is not written, so
// that files from before it keep their bytes), then choices.
QByteArray simulationJson(const SimulationOptions& s, const QByteArray& indent)
{
    const auto written = [&](SimulationSetting::Kind kind) {
        std::vector<const SimulationSetting*> list;
        for (const SimulationSetting& setting : SimulationSetting::all())
            if (setting.kind == kind &&
                (kind != SimulationSetting::Kind::Flag || setting.get(s) != 0.0))
                list.push_back(&setting);
        return list;
    };
    std::vector<QByteArray> lines;
    for (const SimulationSetting* setting : written(SimulationSetting::Kind::Number))
        lines.push_back('"' + QByteArray::fromStdString(setting->key) +
                        "\": " + JsonFields::number(setting->get(s)));
    for (const SimulationSetting* setting : written(SimulationSetting::Kind::Flag))
        lines.push_back('"' + QByteArray::fromStdString(setting->key) + "\": true");
    for (const SimulationSetting* setting : written(SimulationSetting::Kind::Choice))
        lines.push_back('"' + QByteArray::fromStdString(setting->key) +
                        "\": " + JsonFields::scalar(qs(setting->nameIn(s))));
    QByteArray out = indent + "\"simulation\": {\n";
    for (std::size_t i = 0; i < lines.size(); ++i)
        out += indent + indent + lines[i] + (i + 1 < lines.size() ? ",\n" : "\n");
    return out + indent + "}\n";
}

// A stored start (when there is one) and then the "simulation" member.
QByteArray startAndSimulationJson(const SimulationOptions& s, const QByteArray& indent)
{
    const QByteArray start = s.start ? StartJson::write(*s.start, indent) + ",\n" : QByteArray();
    return start + simulationJson(s, indent);
}

} // namespace

QString SceneFile::builtInPath(const QString& sceneName)
{
    return QStringLiteral(":/scenes/%1.json").arg(sceneName);
}

ParameterValues SceneFile::readParameters(const QJsonValue& value,
                                          const SceneDefinition& definition, const QString& source,
                                          const QString& key)
{
    const QJsonObject parameters = JsonFields::requireObject(value, source, key);
    const QString whose = definition.name == "system"
                              ? QStringLiteral("the system")
                              : QStringLiteral("scene ") + qs(definition.name);
    ParameterValues given;
    for (auto it = parameters.begin(); it != parameters.end(); ++it) {
        const QString at = key + QLatin1Char('.') + it.key();
        const ParameterSpec* spec = definition.parameter(it.key().toStdString());
        if (!spec)
            JsonFields::invalid(source, at,
                                QStringLiteral("unknown parameter of %1 (its parameters: %2)")
                                    .arg(whose, parameterNames(definition)));
        given[spec->name] = readParameter(*spec, it.value(), source, at);
    }
    return given;
}

SceneDocument SceneFile::loadBuiltIn(const QString& sceneName, Check check)
{
    const SceneDefinition* definition = SceneRegistry::find(sceneName.toStdString());
    if (!definition)
        unknownScene(sceneName, sceneName);
    const QString path = builtInPath(sceneName);
    if (QFile::exists(path))
        return load(path, check);
    SceneDocument document = SceneDocument::fromDefinition(*definition);
    if (check == Check::Full)
        validate(document, sceneName);
    else
        document.parameters.clear(); // states nothing: everything takes its default
    return document;
}

SceneDocument SceneFile::load(const QString& path, Check check)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw FileError(FileError::Kind::Read, path, QString(),
                        QStringLiteral("cannot open the scene file: %1").arg(file.errorString()));
    if (file.size() > maxFileSize)
        JsonFields::invalid(path, QString(),
                            QStringLiteral("is %1 bytes, too large for a scene file (at most %2)")
                                .arg(file.size())
                                .arg(maxFileSize));
    const QByteArray json = file.read(maxFileSize + 1);
    if (file.error() != QFileDevice::NoError)
        throw FileError(FileError::Kind::Read, path, QString(),
                        QStringLiteral("cannot read the scene file: %1").arg(file.errorString()));
    return fromJson(json, path, check);
}

SceneDocument SceneFile::fromJson(const QByteArray& text, const QString& source, Check check)
{
    // RFC 8259 first (duplicate keys, `.3`, raw control characters), then Qt builds the values.
    JsonSyntax::check(text, source);
    const QByteArray json = text.startsWith("\xEF\xBB\xBF") ? text.mid(3) : text;
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        QString reason = QStringLiteral("not valid JSON: %1 at %2")
                             .arg(parseError.errorString(), locate(json, parseError.offset));
        if (parseError.error == QJsonParseError::IllegalNumber)
            reason += QStringLiteral(
                "; numbers must be finite and written in JSON notation (no NaN, no infinity, "
                "no exponent beyond ±308)");
        JsonFields::invalid(source, QString(), reason);
    }
    if (!doc.isObject())
        JsonFields::invalid(source, QString(),
                            QStringLiteral("the top level must be a JSON object"));
    const QJsonObject root = doc.object();

    // The format first: a newer file may legitimately hold keys this version does not know.
    if (!root.contains(QLatin1String("format")))
        JsonFields::invalid(source, QStringLiteral("format"),
                            QStringLiteral("missing required key (\"format\": %1 for a built-in "
                                           "scene, %2 for a system written as equations)")
                                .arg(builtInSceneFormat)
                                .arg(formatVersion));
    const double format =
        JsonFields::requireNumber(root.value(QLatin1String("format")), source, "format");
    if (!(format >= 1) || format != std::floor(format) || format > 1e9)
        JsonFields::invalid(
            source, QStringLiteral("format"),
            QStringLiteral("must be a positive whole number (got %1)").arg(number(format)));
    if (format > formatVersion)
        JsonFields::invalid(source, QStringLiteral("format"),
                            QStringLiteral("the file is format %1, written by a newer "
                                           "ConstraintLab; this version reads format %2 and "
                                           "older. Update ConstraintLab to open it.")
                                .arg(number(format))
                                .arg(formatVersion));

    SceneDocument document = format == builtInSceneFormat
                                 ? builtInSceneDocument(root, source, check)
                                 : systemDocument(root, json, source);
    readSimulation(root, document.simulation, source);
    document.simulation.start = StartJson::read(root, source);
    if (check == Check::Full)
        validate(document, source);
    return document;
}

void SceneFile::validate(const SceneDocument& document, const QString& source)
{
    const SceneDefinition* definition = document.definition();
    if (!definition)
        unknownScene(source, qs(document.scene));
    // A system's parameters are written under "system" (format 2).
    const QString parametersKey =
        document.system ? QStringLiteral("system.parameters") : QStringLiteral("parameters");
    const QString prefix = parametersKey + QLatin1Char('.');
    const QString whose = document.system ? QStringLiteral("the system")
                                          : QStringLiteral("scene ") + qs(document.scene);
    for (const auto& [name, values] : document.parameters) {
        if (!definition->parameter(name))
            JsonFields::invalid(source, prefix + qs(name),
                                QStringLiteral("unknown parameter of %1 (its parameters: %2)")
                                    .arg(whose, parameterNames(*definition)));
    }
    for (const ParameterSpec& spec : definition->parameters) {
        const auto it = document.parameters.find(spec.name);
        if (it == document.parameters.end())
            JsonFields::invalid(source, prefix + qs(spec.name),
                                QStringLiteral("missing parameter"));
        // A count's fractional part is left to the scene's own validation below.
        for (const ParameterRule::Violation& v : ParameterRule::check(spec, it->second))
            if (v.kind != ParameterRule::Kind::NotWhole)
                invalidParameter(spec, v, source, prefix);
    }
    for (const ParameterSpec& spec : definition->parameters)
        if (const auto below = ParameterRule::checkFloor(spec, document.parameters.at(spec.name),
                                                         document.parameters))
            invalidParameter(spec, *below, source, prefix);

    if (document.simulation.stopAtEnd && definition->end.empty())
        JsonFields::invalid(
            source, QStringLiteral("simulation.stop_at_end"),
            document.system
                ? QStringLiteral("the system has no end where a run could stop (give one under "
                                 "system.end)")
                : QStringLiteral("scene %1 has no end where a run could stop (scenes that "
                                 "have one: %2)")
                      .arg(qs(document.scene), scenesWithAnEnd()));

    // The scene's own rules (cross-parameter checks) and its initial conditions: the factory
    // throws InvalidInitialState when they cannot satisfy the constraints.
    std::unique_ptr<MechanicalSystem> system;
    try {
        definition->validate(document.parameters);
        system = definition->create(document.parameters);
    } catch (const ConstraintLabError& e) {
        const QString what = QString::fromUtf8(e.what());
        const bool initial = e.kind() == ConstraintLabError::Kind::InvalidInitialState;
        if (document.system) {
            // The system's messages are complete and mostly start with their key already.
            const auto [key, reason] =
                splitKey(what, initial ? QStringLiteral("system.initial") : parametersKey);
            JsonFields::invalid(source, key, reason);
        }
        JsonFields::invalid(
            source, parametersKey,
            initial ? QStringLiteral("the initial conditions violate the constraints: ") + what
                    : what);
    } catch (const std::exception& e) {
        JsonFields::invalid(source, parametersKey,
                            (document.system ? QStringLiteral("the system cannot be built: ")
                                             : QStringLiteral("the scene cannot be built: ")) +
                                QString::fromUtf8(e.what()));
    }

    if (system && document.simulation.start)
        if (const auto problem = document.simulation.start->problem(*system))
            JsonFields::invalid(source, qs(problem->key), qs(problem->reason));
    const double t0 = document.simulation.startTime(system ? system->initialTime() : 0.0);
    if (const auto problem = SimulationSetting::check(document.simulation, t0))
        JsonFields::invalid(source, QStringLiteral("simulation.") + qs(problem->key),
                            qs(problem->reason));
}

QByteArray SceneFile::toJson(const SceneDocument& document)
{
    const QByteArray indent1 = "    ";
    const QByteArray indent2 = "        ";
    QByteArray out;
    out += "{\n";
    if (document.system) {
        out += indent1 + "\"format\": " + QByteArray::number(formatVersion) + ",\n";
        out += indent1 + "\"title\": " + JsonFields::scalar(qs(document.title)) + ",\n";
        if (!document.notes.empty())
            out += indent1 + "\"notes\": " + JsonFields::scalar(qs(document.notes)) + ",\n";
        out += SystemJson::write(document.system->description(), document.parameters, 1) + ",\n";
        return out + startAndSimulationJson(document.simulation, indent1) + "}\n";
    }
    out += indent1 + "\"format\": " + QByteArray::number(builtInSceneFormat) + ",\n";
    out += indent1 + "\"scene\": " + JsonFields::scalar(qs(document.scene)) + ",\n";
    out += indent1 + "\"title\": " + JsonFields::scalar(qs(document.title)) + ",\n";
    // The built-in scene's own notes are not copied into a file: opened again, it shows the
    // built-in ones (see SceneNotes), and their numbers follow the file's parameters.
    if (!SceneNotes::areBuiltIn(document))
        out += indent1 + "\"notes\": " + JsonFields::scalar(qs(document.notes)) + ",\n";

    // Parameters in the scene's order when the scene is known, then any others by name.
    const SceneDefinition* definition = SceneRegistry::find(document.scene);
    std::vector<std::string> order;
    if (definition) {
        for (const ParameterSpec& spec : definition->parameters)
            if (document.parameters.count(spec.name))
                order.push_back(spec.name);
    }
    for (const auto& [name, values] : document.parameters)
        if (std::find(order.begin(), order.end(), name) == order.end())
            order.push_back(name);
    // A follower equal to what it follows is left out, so that it keeps following it.
    std::erase_if(order, [&](const std::string& name) {
        return definition && definition->tiedToLeader(document.parameters, name);
    });
    out += indent1 + "\"parameters\": {";
    for (std::size_t i = 0; i < order.size(); ++i) {
        const std::vector<double>& values = document.parameters.at(order[i]);
        const ParameterSpec* spec = definition ? definition->parameter(order[i]) : nullptr;
        const bool scalar = spec ? spec->size() == 1 : values.size() == 1;
        out += i == 0 ? "\n" : ",\n";
        out += indent2 + JsonFields::scalar(qs(order[i])) + ": ";
        if (scalar && values.size() == 1) {
            out += JsonFields::number(values[0]);
        } else {
            out += '[';
            for (std::size_t j = 0; j < values.size(); ++j)
                out += (j ? ", " : "") + JsonFields::number(values[j]);
            out += ']';
        }
    }
    out += order.empty() ? "},\n" : "\n" + indent1 + "},\n";
    return out + startAndSimulationJson(document.simulation, indent1) + "}\n";
}

void SceneFile::save(const SceneDocument& document, const QString& path)
{
    validate(document, path);
    AtomicFile::write(path, toJson(document), QStringLiteral("the scene file"));
}

} // namespace clab
