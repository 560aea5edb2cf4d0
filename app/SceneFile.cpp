#include "SceneFile.h"

#include "SceneNotes.h"

#include "AtomicFile.h"
#include "JsonSyntax.h"

#include "ConstraintLabError.h"
#include "SceneRegistry.h"
#include "SimulationSetting.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QSaveFile>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <memory>

namespace clab {

namespace {

// Anything larger is not a scene file; refusing it keeps a stray multi-GB file from
// exhausting memory.
constexpr qint64 maxFileSize = 16 * 1024 * 1024;

const QStringList& rootKeys()
{
    static const QStringList keys{"format", "scene", "title", "notes", "parameters", "simulation"};
    return keys;
}
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

QString typeName(const QJsonValue& v)
{
    switch (v.type()) {
    case QJsonValue::Null:
        return QStringLiteral("null");
    case QJsonValue::Bool:
        return QStringLiteral("a boolean");
    case QJsonValue::Double:
        return QStringLiteral("a number");
    case QJsonValue::String:
        return QStringLiteral("a string");
    case QJsonValue::Array:
        return QStringLiteral("an array");
    case QJsonValue::Object:
        return QStringLiteral("an object");
    case QJsonValue::Undefined:
        break;
    }
    return QStringLiteral("undefined");
}

[[noreturn]] void invalid(const QString& source, const QString& key, const QString& reason)
{
    throw FileError(FileError::Kind::Invalid, source, key, reason);
}

QString sceneNames()
{
    QStringList names;
    for (const SceneDefinition& d : SceneRegistry::builtIn())
        names << qs(d.name);
    return names.join(QStringLiteral(", "));
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

double requireNumber(const QJsonValue& v, const QString& source, const QString& key)
{
    if (!v.isDouble())
        invalid(source, key, QStringLiteral("must be a number, not %1").arg(typeName(v)));
    return v.toDouble();
}

bool requireBool(const QJsonValue& v, const QString& source, const QString& key)
{
    if (!v.isBool())
        invalid(source, key, QStringLiteral("must be true or false, not %1").arg(typeName(v)));
    return v.toBool();
}

QString requireString(const QJsonValue& v, const QString& source, const QString& key)
{
    if (!v.isString())
        invalid(source, key, QStringLiteral("must be a string, not %1").arg(typeName(v)));
    return v.toString();
}

QJsonObject requireObject(const QJsonValue& v, const QString& source, const QString& key)
{
    if (!v.isObject())
        invalid(source, key, QStringLiteral("must be an object, not %1").arg(typeName(v)));
    return v.toObject();
}

void rejectUnknownKeys(const QJsonObject& object, const QStringList& allowed, const QString& source,
                       const QString& prefix)
{
    for (auto it = object.begin(); it != object.end(); ++it) {
        if (!allowed.contains(it.key()))
            invalid(source, prefix + it.key(),
                    QStringLiteral("unknown key (allowed here: %1)")
                        .arg(allowed.join(QStringLiteral(", "))));
    }
}

std::vector<double> readParameter(const ParameterSpec& spec, const QJsonValue& v,
                                  const QString& source, const QString& key)
{
    if (spec.size() == 1) {
        if (v.isArray())
            invalid(source, key,
                    QStringLiteral("must be a single number, not an array (%1 is a scalar)")
                        .arg(qs(spec.name)));
        return {requireNumber(v, source, key)};
    }
    if (!v.isArray())
        invalid(source, key,
                QStringLiteral("must be an array of %1 numbers, not %2")
                    .arg(spec.size())
                    .arg(typeName(v)));
    const QJsonArray array = v.toArray();
    if (array.size() != spec.size())
        invalid(
            source, key,
            QStringLiteral("must have %1 components, not %2").arg(spec.size()).arg(array.size()));
    std::vector<double> values;
    values.reserve(array.size());
    for (int i = 0; i < array.size(); ++i)
        values.push_back(requireNumber(array[i], source, key + QStringLiteral("[%1]").arg(i)));
    return values;
}

// Per-component range check with a reason that states the allowed range and the value.
void checkParameter(const ParameterSpec& spec, const std::vector<double>& values,
                    const QString& source)
{
    const QString key = QStringLiteral("parameters.") + qs(spec.name);
    if (static_cast<int>(values.size()) != spec.size())
        invalid(source, key,
                QStringLiteral("must have %1 component%2, not %3")
                    .arg(spec.size())
                    .arg(spec.size() == 1 ? "" : "s")
                    .arg(values.size()));
    const QString unit = spec.unit.empty() ? QString() : QStringLiteral(" ") + qs(spec.unit);
    for (std::size_t i = 0; i < values.size(); ++i) {
        const double v = values[i];
        const QString where =
            spec.size() == 1 ? key : key + QStringLiteral("[%1]").arg(static_cast<int>(i));
        if (!std::isfinite(v))
            invalid(source, where,
                    QStringLiteral("must be a finite number (got %1)").arg(number(v)));
        if (!spec.admits(v))
            invalid(source, where,
                    (spec.lowestIncluded() ? QStringLiteral("must be between %1 and %2%3 (got %4)")
                                           : QStringLiteral("must be greater than %1 and at most "
                                                            "%2%3 (got %4)"))
                        .arg(number(spec.lowest()), number(spec.highest()), unit, number(v)));
    }
    if (spec.nonZero && std::all_of(values.begin(), values.end(), [](double v) { return v == 0; }))
        invalid(source, key, QStringLiteral("must not be all zero"));
}

// Compact JSON text of one scalar value, escaped the way QJsonDocument escapes it.
QByteArray jsonScalar(const QJsonValue& v)
{
    const QByteArray text = QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact);
    return text.mid(1, text.size() - 2);
}

// Writes everything or fails with the device's reason. QFileDevice reports a short write (a
// full disk, a file-size limit) as success with fewer bytes, and only the next call fails
// with the system's error; Qt 6.4's QSaveFile::commit() also misses a failed final flush.
QByteArray jsonNumber(double v)
{
    return QByteArray::number(v, 'g', QLocale::FloatingPointShortest);
}

} // namespace

QString SceneFile::builtInPath(const QString& sceneName)
{
    return QStringLiteral(":/scenes/%1.json").arg(sceneName);
}

SceneDocument SceneFile::loadBuiltIn(const QString& sceneName, Check check)
{
    const SceneDefinition* definition = SceneRegistry::find(sceneName.toStdString());
    if (!definition)
        invalid(sceneName, QStringLiteral("scene"),
                QStringLiteral("unknown scene %1 (built-in scenes: %2)")
                    .arg(FileError::quoted(sceneName), sceneNames()));
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
        invalid(path, QString(),
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
        invalid(source, QString(), reason);
    }
    if (!doc.isObject())
        invalid(source, QString(), QStringLiteral("the top level must be a JSON object"));
    const QJsonObject root = doc.object();

    // The format first: a newer file may legitimately hold keys this version does not know.
    if (!root.contains(QLatin1String("format")))
        invalid(source, QStringLiteral("format"),
                QStringLiteral("missing required key (this version writes \"format\": %1)")
                    .arg(formatVersion));
    const double format = requireNumber(root.value(QLatin1String("format")), source, "format");
    if (!(format >= 1) || format != std::floor(format) || format > 1e9)
        invalid(source, QStringLiteral("format"),
                QStringLiteral("must be a positive whole number (got %1)").arg(number(format)));
    if (format > formatVersion)
        invalid(source, QStringLiteral("format"),
                QStringLiteral("the file is format %1, written by a newer ConstraintLab; this "
                               "version reads format %2 and older. Update ConstraintLab to open "
                               "it.")
                    .arg(number(format))
                    .arg(formatVersion));

    rejectUnknownKeys(root, rootKeys(), source, QString());

    if (!root.contains(QLatin1String("scene")))
        invalid(source, QStringLiteral("scene"),
                QStringLiteral("missing required key (one of: %1)").arg(sceneNames()));
    const QString sceneName = requireString(root.value(QLatin1String("scene")), source, "scene");
    const SceneDefinition* definition = SceneRegistry::find(sceneName.toStdString());
    if (!definition)
        invalid(source, QStringLiteral("scene"),
                QStringLiteral("unknown scene %1 (built-in scenes: %2)")
                    .arg(FileError::quoted(sceneName), sceneNames()));

    SceneDocument document = SceneDocument::fromDefinition(*definition);
    if (root.contains(QLatin1String("title")))
        document.title =
            requireString(root.value(QLatin1String("title")), source, "title").toStdString();
    if (root.contains(QLatin1String("notes")))
        document.notes =
            requireString(root.value(QLatin1String("notes")), source, "notes").toStdString();

    ParameterValues given;
    if (root.contains(QLatin1String("parameters"))) {
        const QJsonObject parameters =
            requireObject(root.value(QLatin1String("parameters")), source, "parameters");
        for (auto it = parameters.begin(); it != parameters.end(); ++it) {
            const QString key = QStringLiteral("parameters.") + it.key();
            const ParameterSpec* spec = definition->parameter(it.key().toStdString());
            if (!spec)
                invalid(source, key,
                        QStringLiteral("unknown parameter of scene %1 (its parameters: %2)")
                            .arg(sceneName, parameterNames(*definition)));
            given[spec->name] = readParameter(*spec, it.value(), source, key);
        }
    }
    // Parameters left out take their defaults, or follow the parameter they default to.
    document.parameters = check == Check::Full ? definition->complete(given) : given;

    if (root.contains(QLatin1String("simulation"))) {
        const QJsonObject simulation =
            requireObject(root.value(QLatin1String("simulation")), source, "simulation");
        rejectUnknownKeys(simulation, simulationKeys(), source, QStringLiteral("simulation."));
        for (const SimulationSetting& setting : SimulationSetting::all()) {
            const QString key = QString::fromStdString(setting.key);
            if (!simulation.contains(key))
                continue;
            const QString where = QStringLiteral("simulation.") + key;
            switch (setting.kind) {
            case SimulationSetting::Kind::Number:
                setting.set(document.simulation,
                            requireNumber(simulation.value(key), source, where));
                break;
            case SimulationSetting::Kind::Flag:
                setting.set(document.simulation,
                            requireBool(simulation.value(key), source, where) ? 1.0 : 0.0);
                break;
            case SimulationSetting::Kind::Choice: {
                const QString name = requireString(simulation.value(key), source, where);
                const std::optional<double> value = setting.valueNamed(name.toStdString());
                if (!value)
                    invalid(source, where,
                            QStringLiteral("unknown %1 %2 (use %3)")
                                .arg(key, FileError::quoted(name), qs(setting.nameList())));
                setting.set(document.simulation, *value);
                break;
            }
            }
        }
    }

    if (check == Check::Full)
        validate(document, source);
    return document;
}

void SceneFile::validate(const SceneDocument& document, const QString& source)
{
    const SceneDefinition* definition = SceneRegistry::find(document.scene);
    if (!definition)
        invalid(source, QStringLiteral("scene"),
                QStringLiteral("unknown scene %1 (built-in scenes: %2)")
                    .arg(FileError::quoted(qs(document.scene)), sceneNames()));
    for (const auto& [name, values] : document.parameters) {
        if (!definition->parameter(name))
            invalid(source, QStringLiteral("parameters.") + qs(name),
                    QStringLiteral("unknown parameter of scene %1 (its parameters: %2)")
                        .arg(qs(document.scene), parameterNames(*definition)));
    }
    for (const ParameterSpec& spec : definition->parameters) {
        const auto it = document.parameters.find(spec.name);
        if (it == document.parameters.end())
            invalid(source, QStringLiteral("parameters.") + qs(spec.name),
                    QStringLiteral("missing parameter"));
        checkParameter(spec, it->second, source);
    }
    for (const ParameterSpec& spec : definition->parameters) {
        const auto floor = document.parameters.find(spec.notBelow);
        if (spec.notBelow.empty() || floor == document.parameters.end())
            continue;
        const std::vector<double>& values = document.parameters.at(spec.name);
        for (std::size_t i = 0; i < values.size() && i < floor->second.size(); ++i)
            if (values[i] < floor->second[i])
                invalid(source, QStringLiteral("parameters.") + qs(spec.name),
                        QStringLiteral("must be at least %1 = %2 (got %3)")
                            .arg(qs(spec.notBelow), number(floor->second[i]), number(values[i])));
    }

    if (document.simulation.stopAtEnd && definition->end.empty())
        invalid(source, QStringLiteral("simulation.stop_at_end"),
                QStringLiteral("scene %1 has no end where a run could stop (scenes that "
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
        invalid(source, QStringLiteral("parameters"),
                e.kind() == ConstraintLabError::Kind::InvalidInitialState
                    ? QStringLiteral("the initial conditions violate the constraints: ") + what
                    : what);
    } catch (const std::exception& e) {
        invalid(source, QStringLiteral("parameters"),
                QStringLiteral("the scene cannot be built: ") + QString::fromUtf8(e.what()));
    }

    const double t0 = system ? system->initialTime() : 0.0;
    if (const auto problem = SimulationSetting::check(document.simulation, t0))
        invalid(source, QStringLiteral("simulation.") + qs(problem->key), qs(problem->reason));
}

QByteArray SceneFile::toJson(const SceneDocument& document)
{
    const QByteArray indent1 = "    ";
    const QByteArray indent2 = "        ";
    QByteArray out;
    out += "{\n";
    out += indent1 + "\"format\": " + QByteArray::number(formatVersion) + ",\n";
    out += indent1 + "\"scene\": " + jsonScalar(qs(document.scene)) + ",\n";
    out += indent1 + "\"title\": " + jsonScalar(qs(document.title)) + ",\n";
    // The built-in scene's own notes are not copied into a file: opened again, it shows the
    // built-in ones (see SceneNotes), and their numbers follow the file's parameters.
    if (!SceneNotes::areBuiltIn(document))
        out += indent1 + "\"notes\": " + jsonScalar(qs(document.notes)) + ",\n";

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
        out += indent2 + jsonScalar(qs(order[i])) + ": ";
        if (scalar && values.size() == 1) {
            out += jsonNumber(values[0]);
        } else {
            out += '[';
            for (std::size_t j = 0; j < values.size(); ++j)
                out += (j ? ", " : "") + jsonNumber(values[j]);
            out += ']';
        }
    }
    out += order.empty() ? "},\n" : "\n" + indent1 + "},\n";

    const SimulationOptions& s = document.simulation;
    out += indent1 + "\"simulation\": {\n";
    // Numbers, then flags that are on (an off flag is not written, so that files from before
    // it keep their bytes), then choices.
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
                        "\": " + jsonNumber(setting->get(s)));
    for (const SimulationSetting* setting : written(SimulationSetting::Kind::Flag))
        lines.push_back('"' + QByteArray::fromStdString(setting->key) + "\": true");
    for (const SimulationSetting* setting : written(SimulationSetting::Kind::Choice))
        lines.push_back('"' + QByteArray::fromStdString(setting->key) +
                        "\": " + jsonScalar(qs(setting->nameIn(s))));
    for (std::size_t i = 0; i < lines.size(); ++i)
        out += indent2 + lines[i] + (i + 1 < lines.size() ? ",\n" : "\n");
    out += indent1 + "}\n";
    out += "}\n";
    return out;
}

void SceneFile::save(const SceneDocument& document, const QString& path)
{
    validate(document, path);
    AtomicFile::write(path, toJson(document), QStringLiteral("the scene file"));
}

} // namespace clab
