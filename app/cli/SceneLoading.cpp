#include "cli/SceneLoading.h"

#include "cli/CliText.h"

#include "FileError.h"
#include "SceneFile.h"
#include "scenes/SceneRegistry.h"

#include <QFileInfo>
#include <QStringList>

namespace clab::cli {

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
                        .arg(qs(SceneRegistry::nameList())));
}

QString sceneLabel(const SceneDocument& document)
{
    if (!document.system)
        return qs(document.scene);
    return QStringLiteral("system \"%1\"").arg(qs(document.definition()->title));
}

} // namespace clab::cli
