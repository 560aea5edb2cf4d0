#include "SceneLoading.h"

#include "FileError.h"
#include "SceneFile.h"
#include "scenes/SceneRegistry.h"
#include "symbolic/SymbolicModel.h"

#include <QFileInfo>
#include <QStringList>

namespace clab {

bool looksLikePath(const QString& scene)
{
    return scene.contains(QLatin1Char('/')) || scene.endsWith(QLatin1String(".json"));
}

bool isBuiltInName(const QString& scene)
{
    return !looksLikePath(scene) && SceneRegistry::find(scene.toStdString());
}

SceneDocument loadScene(const QString& scene)
{
    if (isBuiltInName(scene))
        return SceneFile::loadBuiltIn(scene, SceneFile::Check::Structure);
    if (looksLikePath(scene) || QFileInfo::exists(scene))
        return SceneFile::load(scene, SceneFile::Check::Structure);
    throw FileError(FileError::Kind::Invalid, scene, QString(),
                    QStringLiteral("neither a built-in scene (%1) nor a scene file")
                        .arg(QString::fromStdString(SceneRegistry::nameList())));
}

const SymbolicModel& derivableSystem(const SceneDocument& document, const QString& scene)
{
    if (!document.system)
        throw FileError(FileError::Kind::Invalid, scene, QString(),
                        QStringLiteral("is a built-in scene written in C++ (its equations are in "
                                       "docs/MATH.md); derive reads a scene file of format 2, "
                                       "e.g. scenes/systems/%1.json")
                            .arg(QString::fromStdString(document.scene)));
    return *document.system.model;
}

QString sceneLabel(const SceneDocument& document)
{
    if (!document.system)
        return QString::fromStdString(document.scene);
    return QStringLiteral("system \"%1\"")
        .arg(QString::fromStdString(document.definition()->title));
}

} // namespace clab
