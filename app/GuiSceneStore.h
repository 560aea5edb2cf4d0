#pragma once

#include <SceneStore.h>

namespace clab {

/// \brief The main window's scene store: scene files through SceneFile (JSON, validated,
/// saved atomically) and the built-in scene files embedded in the application.
///
/// Errors are FileError exceptions whose what() reads "PATH: KEY: REASON".
class GuiSceneStore : public SceneStore {
public:
    SceneDocument load(const QString& path) const override;
    void save(const SceneDocument& document, const QString& path) const override;
    SceneDocument builtIn(const std::string& sceneName) const override;
};

} // namespace clab
