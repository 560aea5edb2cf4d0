#include "GuiSceneStore.h"

#include "SceneFile.h"

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

} // namespace clab
