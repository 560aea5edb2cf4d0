#include "LessonFile.h"

#include "AtomicFile.h"
#include "JsonFields.h"
#include "JsonSyntax.h"
#include "SceneFile.h"

#include "scenes/SceneRegistry.h"
#include "trace/PlotCatalog.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cmath>

namespace clab {

namespace {

constexpr qint64 maxFileSize = 16 * 1024 * 1024;

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

QString indexed(const QString& key, qsizetype i)
{
    return QStringLiteral("%1[%2]").arg(key).arg(i);
}

bool namesAFile(const QString& scene)
{
    return scene.contains(QLatin1Char('/')) ||
           scene.endsWith(QLatin1String(".json"), Qt::CaseInsensitive);
}

class StepReader {
public:
    StepReader(const QString& source, const QString& folder) : source_(source), folder_(folder) {}

    LessonStep read(const QJsonValue& value, const QString& key) const
    {
        const QJsonObject o = JsonFields::requireObject(value, source_, key);
        JsonFields::rejectUnknownKeys(
            o, {"scene", "parameters", "compare", "camera", "plot", "caption"}, source_,
            key + QLatin1Char('.'));
        if (!o.contains(QLatin1String("scene")))
            JsonFields::invalid(source_, key + QStringLiteral(".scene"),
                                QStringLiteral("missing required key (a built-in scene's name or "
                                               "a scene file)"));
        LessonStep step;
        step.document =
            scene(o.value(QLatin1String("scene")), key + QStringLiteral(".scene"), step.scene);
        const SceneDefinition& definition = *step.document.definition();
        if (o.contains(QLatin1String("parameters")))
            step.parameters =
                SceneFile::readParameters(o.value(QLatin1String("parameters")), definition, source_,
                                          key + QStringLiteral(".parameters"));
        step.document =
            withValues(step.document, step.parameters, key + QStringLiteral(".parameters"));
        if (o.contains(QLatin1String("compare")))
            compare(step, o.value(QLatin1String("compare")), key + QStringLiteral(".compare"));
        if (o.contains(QLatin1String("camera")))
            step.camera = camera(o.value(QLatin1String("camera")), key + QStringLiteral(".camera"));
        if (o.contains(QLatin1String("plot")))
            step.plot = plot(o.value(QLatin1String("plot")), key + QStringLiteral(".plot"));
        if (o.contains(QLatin1String("caption"))) {
            const QString caption = JsonFields::requireString(o.value(QLatin1String("caption")),
                                                              source_, key + ".caption");
            if (caption.size() > LessonFile::maxCaption)
                JsonFields::invalid(source_, key + QStringLiteral(".caption"),
                                    QStringLiteral("%1 characters, more than the %2 a caption on "
                                                   "a projector can show")
                                        .arg(caption.size())
                                        .arg(LessonFile::maxCaption));
            step.caption = caption.toStdString();
        }
        return step;
    }

private:
    // The step's scene: a built-in one by name, or a file relative to the lesson's folder.
    SceneDocument scene(const QJsonValue& value, const QString& key, std::string& reference) const
    {
        const QString name = JsonFields::requireString(value, source_, key);
        if (!namesAFile(name)) {
            if (!SceneRegistry::find(name.toStdString()))
                JsonFields::invalid(source_, key,
                                    QStringLiteral("%1 is not a built-in scene and not a scene "
                                                   "file (a name ending in .json)")
                                        .arg(FileError::quoted(name)));
            reference = name.toStdString();
            return SceneFile::loadBuiltIn(name);
        }
        const QString path = QDir::cleanPath(QDir(folder_).absoluteFilePath(name));
        reference = path.toStdString();
        try {
            return SceneFile::load(path);
        } catch (const FileError& e) {
            JsonFields::invalid(
                source_, key,
                QStringLiteral("cannot use the scene file: %1").arg(QString::fromUtf8(e.what())));
        }
    }

    // `values` over the document's; a follower tied to its leader (mu_s to mu) moves with it.
    // `key` names where the values stand ("steps[0].parameters", "steps[0].compare[1]").
    SceneDocument withValues(SceneDocument document, const ParameterValues& values,
                             const QString& key) const
    {
        const SceneDefinition& definition = *document.definition();
        const ParameterValues before = document.parameters;
        for (const auto& [name, value] : values)
            document.parameters[name] = value;
        for (const ParameterSpec& p : definition.parameters)
            if (!p.defaultsTo.empty() && !values.count(p.name) && values.count(p.defaultsTo) &&
                definition.tiedToLeader(before, p.name))
                document.parameters[p.name] = values.at(p.defaultsTo);
        try {
            SceneFile::validate(document, source_);
        } catch (const FileError& e) {
            // The scene file's key ("parameters.mu") becomes the lesson's.
            const QString name = e.key().section(QLatin1Char('.'), -1);
            JsonFields::invalid(source_,
                                e.key().contains(QLatin1String("parameters."))
                                    ? key + QLatin1Char('.') + name
                                    : key,
                                e.reason());
        }
        return document;
    }

    void compare(LessonStep& step, const QJsonValue& value, const QString& key) const
    {
        const QJsonArray runs = JsonFields::requireArray(value, source_, key);
        for (qsizetype i = 0; i < runs.size(); ++i) {
            const QString at = indexed(key, i);
            const ParameterValues values =
                SceneFile::readParameters(runs[i], *step.document.definition(), source_, at);
            if (values.empty())
                JsonFields::invalid(source_, at,
                                    QStringLiteral("names no parameter: a compared run needs at "
                                                   "least one value that differs"));
            withValues(step.document, values, at);
            step.compare.push_back(values);
        }
    }

    std::array<double, 3> point(const QJsonObject& o, const char* name, const QString& key) const
    {
        const QString at = key + QLatin1Char('.') + QLatin1String(name);
        if (!o.contains(QLatin1String(name)))
            JsonFields::invalid(source_, at, QStringLiteral("missing required key"));
        const QJsonArray a = JsonFields::requireArray(o.value(QLatin1String(name)), source_, at);
        if (a.size() != 3)
            JsonFields::invalid(
                source_, at, QStringLiteral("must be 3 numbers [x, y, z], got %1").arg(a.size()));
        std::array<double, 3> p{};
        for (int i = 0; i < 3; ++i)
            p[i] = JsonFields::requireNumber(a[i], source_, indexed(at, i));
        return p;
    }

    LessonStep::Camera camera(const QJsonValue& value, const QString& key) const
    {
        const QJsonObject o = JsonFields::requireObject(value, source_, key);
        JsonFields::rejectUnknownKeys(o, {"position", "focal_point", "view_up"}, source_,
                                      key + QLatin1Char('.'));
        LessonStep::Camera c;
        c.position = point(o, "position", key);
        c.focalPoint = point(o, "focal_point", key);
        c.viewUp = point(o, "view_up", key);
        if (c.position == c.focalPoint)
            JsonFields::invalid(source_, key + QStringLiteral(".focal_point"),
                                QStringLiteral("is the camera's position: it would look nowhere"));
        if (c.viewUp == std::array<double, 3>{})
            JsonFields::invalid(source_, key + QStringLiteral(".view_up"),
                                QStringLiteral("must not be zero"));
        return c;
    }

    std::string plot(const QJsonValue& value, const QString& key) const
    {
        const std::string id = JsonFields::requireString(value, source_, key).toStdString();
        const std::vector<std::string> ids = PlotCatalog::ids();
        if (std::find(ids.begin(), ids.end(), id) == ids.end()) {
            QStringList names;
            for (const std::string& known : ids)
                names << qs(known);
            JsonFields::invalid(
                source_, key,
                QStringLiteral("unknown plot %1 (ready-made plots: %2)")
                    .arg(FileError::quoted(qs(id)), names.join(QStringLiteral(", "))));
        }
        return id;
    }

    const QString& source_;
    const QString& folder_;
};

QByteArray values(const ParameterValues& v)
{
    QStringList items;
    for (const auto& [name, value] : v) {
        QByteArray text;
        if (value.size() == 1) {
            text = JsonFields::number(value.front());
        } else {
            QByteArrayList parts;
            for (double x : value)
                parts << JsonFields::number(x);
            text = "[" + parts.join(", ") + "]";
        }
        items << QStringLiteral("\"%1\": %2").arg(qs(name), QString::fromUtf8(text));
    }
    return "{" + items.join(QStringLiteral(", ")).toUtf8() + "}";
}

QByteArray triple(const std::array<double, 3>& p)
{
    return "[" + JsonFields::number(p[0]) + ", " + JsonFields::number(p[1]) + ", " +
           JsonFields::number(p[2]) + "]";
}

QByteArray stepJson(const LessonStep& step, const QString& folder)
{
    const QString scene = qs(step.scene);
    const QString reference = namesAFile(scene) ? QDir(folder).relativeFilePath(scene) : scene;
    QByteArrayList members;
    members << "\"scene\": " + JsonFields::scalar(reference);
    if (!step.parameters.empty())
        members << "\"parameters\": " + values(step.parameters);
    if (!step.compare.empty()) {
        QByteArrayList runs;
        for (const ParameterValues& run : step.compare)
            runs << values(run);
        members << "\"compare\": [" + runs.join(", ") + "]";
    }
    if (step.camera)
        members << "\"camera\": {\"position\": " + triple(step.camera->position) +
                       ", \"focal_point\": " + triple(step.camera->focalPoint) +
                       ", \"view_up\": " + triple(step.camera->viewUp) + "}";
    if (!step.plot.empty())
        members << "\"plot\": " + JsonFields::scalar(qs(step.plot));
    if (!step.caption.empty())
        members << "\"caption\": " + JsonFields::scalar(qs(step.caption));
    return "        {\n            " + members.join(",\n            ") + "\n        }";
}

} // namespace

bool LessonFile::looksLikeLesson(const QByteArray& json)
{
    const QJsonDocument doc = QJsonDocument::fromJson(json);
    return doc.isObject() && doc.object().contains(QLatin1String("lesson"));
}

Lesson LessonFile::load(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw FileError(FileError::Kind::Read, path, QString(),
                        QStringLiteral("cannot open the lesson file: %1").arg(file.errorString()));
    const QByteArray json = file.read(maxFileSize + 1);
    if (json.size() > maxFileSize)
        JsonFields::invalid(path, QString(), QStringLiteral("too large for a lesson file"));
    return fromJson(json, path, QFileInfo(path).absolutePath());
}

Lesson LessonFile::fromJson(const QByteArray& json, const QString& source, const QString& folder)
{
    JsonSyntax::check(json, source);
    QJsonParseError error;
    const QJsonDocument doc =
        QJsonDocument::fromJson(json.startsWith("\xEF\xBB\xBF") ? json.mid(3) : json, &error);
    if (error.error != QJsonParseError::NoError)
        JsonFields::invalid(source, QString(),
                            QStringLiteral("not valid JSON: %1").arg(error.errorString()));
    if (!doc.isObject())
        JsonFields::invalid(source, QString(), QStringLiteral("the top level must be an object"));
    const QJsonObject root = doc.object();
    if (!root.contains(QLatin1String("lesson")))
        JsonFields::invalid(
            source, QStringLiteral("lesson"),
            QStringLiteral("missing required key (\"lesson\": %1)").arg(formatVersion));
    const double format =
        JsonFields::requireNumber(root.value(QLatin1String("lesson")), source, "lesson");
    if (format != formatVersion)
        JsonFields::invalid(source, QStringLiteral("lesson"),
                            QStringLiteral("this version reads lesson format %1, not %2")
                                .arg(formatVersion)
                                .arg(format));
    JsonFields::rejectUnknownKeys(root, {"lesson", "title", "steps"}, source, QString());
    Lesson lesson;
    if (root.contains(QLatin1String("title")))
        lesson.title =
            JsonFields::requireString(root.value(QLatin1String("title")), source, "title")
                .toStdString();
    if (!root.contains(QLatin1String("steps")))
        JsonFields::invalid(source, QStringLiteral("steps"),
                            QStringLiteral("missing required key"));
    const QJsonArray steps =
        JsonFields::requireArray(root.value(QLatin1String("steps")), source, "steps");
    if (steps.isEmpty())
        JsonFields::invalid(source, QStringLiteral("steps"),
                            QStringLiteral("a lesson needs at least one step"));
    const StepReader reader(source, folder);
    for (qsizetype i = 0; i < steps.size(); ++i)
        lesson.steps.push_back(reader.read(steps[i], indexed(QStringLiteral("steps"), i)));
    return lesson;
}

QByteArray LessonFile::toJson(const Lesson& lesson, const QString& folder)
{
    QByteArrayList steps;
    for (const LessonStep& step : lesson.steps)
        steps << stepJson(step, folder);
    QByteArray out = "{\n    \"lesson\": " + QByteArray::number(formatVersion) + ",\n";
    if (!lesson.title.empty())
        out += "    \"title\": " + JsonFields::scalar(qs(lesson.title)) + ",\n";
    out += "    \"steps\": [\n" + steps.join(",\n") + "\n    ]\n}\n";
    return out;
}

void LessonFile::save(const Lesson& lesson, const QString& path)
{
    AtomicFile::write(path, toJson(lesson, QFileInfo(path).absolutePath()),
                      QStringLiteral("the lesson"));
}

} // namespace clab
