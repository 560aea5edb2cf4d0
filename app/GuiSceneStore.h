#pragma once

#include <session/SceneStore.h>

namespace clab {

/// \brief The main window's scene store: scene files through SceneFile (JSON, validated,
/// saved atomically), the built-in scene files embedded in the application, and trace CSV
/// through CsvWriter (the CLI's format).
///
/// Errors are FileError exceptions whose what() reads "PATH: KEY: REASON".
class GuiSceneStore : public SceneStore {
public:
    SceneDocument load(const QString& path) const override;
    void save(const SceneDocument& document, const QString& path) const override;
    SceneDocument builtIn(const std::string& sceneName) const override;
    /// The system files embedded as :/systems/NAME.json, titles read from their JSON.
    std::vector<SystemEntry> builtInSystems() const override;
    /// The templates embedded as :/templates/NAME.json.
    std::vector<SystemEntry> systemTemplates() const override;
    /// One run through CsvWriter::writeFile (no "run" column), several through
    /// CsvWriter::writeRunsFile (a first "run" column with the labels).
    void writeCsv(const std::vector<LabelledTrace>& runs, const std::vector<std::string>& columns,
                  const QString& path, const std::vector<std::string>& comment = {}) const override;
};

} // namespace clab
