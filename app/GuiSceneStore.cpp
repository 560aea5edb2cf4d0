#include "GuiSceneStore.h"

#include "CsvWriter.h"
#include "FileError.h"
#include "SceneFile.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace clab {

SceneDocument GuiSceneStore::load(const QString& path) const
{
    return SceneFile::load(path);
}

void GuiSceneStore::save(const SceneDocument& document, const QString& path) const
{
    SceneFile::save(document, path);
}

SceneDocument GuiSceneStore::builtIn(const std::string& sceneName) const
{
    return SceneFile::loadBuiltIn(QString::fromStdString(sceneName));
}

namespace {

/// The scene files in a resource folder, with the titles their JSON states.
std::vector<SceneStore::SystemEntry> systemFiles(const QString& folder)
{
    std::vector<SceneStore::SystemEntry> entries;
    const QDir dir(folder);
    for (const QString& name : dir.entryList({QStringLiteral("*.json")}, QDir::Files)) {
        QFile file(dir.filePath(name));
        if (!file.open(QIODevice::ReadOnly))
            continue;
        // Only the title here: deriving every system would slow the start.
        const QString title = QJsonDocument::fromJson(file.readAll())
                                  .object()
                                  .value(QLatin1String("title"))
                                  .toString();
        entries.push_back({dir.filePath(name), title.isEmpty() ? name : title});
    }
    return entries;
}

} // namespace

std::vector<SceneStore::SystemEntry> GuiSceneStore::builtInSystems() const
{
    std::vector<SystemEntry> entries = systemFiles(QStringLiteral(":/systems"));
    std::sort(entries.begin(), entries.end(),
              [](const SystemEntry& a, const SystemEntry& b) { return a.title < b.title; });
    return entries;
}

std::vector<SceneStore::SystemEntry> GuiSceneStore::systemTemplates() const
{
    return systemFiles(QStringLiteral(":/templates"));
}

void GuiSceneStore::writeCsv(const std::vector<LabelledTrace>& runs,
                             const std::vector<std::string>& columns, const QString& path,
                             const std::vector<std::string>& comment) const
{
    CsvWriter writer(columns);
    writer.setComment(comment);
    if (runs.size() == 1) {
        if (!runs.front().trace)
            throw FileError(FileError::Kind::Invalid, path, QStringLiteral("runs"),
                            QStringLiteral("the run has no trace to export"));
        writer.writeFile(*runs.front().trace, path);
        return;
    }
    // Also reports an empty list of runs, naming what is missing.
    writer.writeRunsFile(runs, path);
}

} // namespace clab
