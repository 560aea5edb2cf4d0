#include "SceneNotes.h"

#include "SceneFile.h"

#include <QRegularExpression>
#include <QStringList>

#include <map>

namespace clab {

namespace {

/// The notes of the built-in scene `name` ("" when there is none).
std::string builtInNotes(const std::string& name)
{
    // Read once per scene (the GUI asks on every edit); called from the GUI thread only.
    static std::map<std::string, std::string> cache;
    const auto cached = cache.find(name);
    if (cached != cache.end())
        return cached->second;
    std::string notes;
    try {
        notes =
            SceneFile::loadBuiltIn(QString::fromStdString(name), SceneFile::Check::Structure).notes;
    } catch (const std::exception&) {
        notes.clear();
    }
    cache.emplace(name, notes);
    return notes;
}

} // namespace

QString SceneNotes::fill(const QString& notes, const ParameterValues& values)
{
    static const QRegularExpression placeholder(QStringLiteral("\\{([A-Za-z_][A-Za-z0-9_]*)\\}"));
    QString out;
    qsizetype done = 0;
    for (auto it = placeholder.globalMatch(notes); it.hasNext();) {
        const QRegularExpressionMatch match = it.next();
        const auto value = values.find(match.captured(1).toStdString());
        if (value == values.end() || value->second.empty())
            continue;
        QStringList parts;
        for (double v : value->second)
            parts << QString::number(v, 'g', 4);
        out += notes.mid(done, match.capturedStart() - done);
        out += parts.size() == 1 ? parts.front()
                                 : QStringLiteral("(%1)").arg(parts.join(QStringLiteral(", ")));
        done = match.capturedEnd();
    }
    out += notes.mid(done);
    return out;
}

QString SceneNotes::shown(const SceneDocument& document)
{
    const std::string notes =
        document.notes.empty() ? builtInNotes(document.scene) : document.notes;
    return fill(QString::fromStdString(notes), document.parameters);
}

bool SceneNotes::areBuiltIn(const SceneDocument& document)
{
    return document.notes.empty() || document.notes == builtInNotes(document.scene);
}

} // namespace clab
