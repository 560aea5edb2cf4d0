#pragma once

#include <trace/LabelledTrace.h>
#include <scenes/SceneDocument.h>

#include <QString>

#include <string>
#include <vector>

namespace clab {

/// \brief Where the main window loads and saves scene files and writes trace CSV.
///
/// ui/ depends on core/ only, so the file format lives behind this interface (implemented over
/// the application's SceneFile). Every failure throws an exception derived from
/// std::exception whose what() names the file and the reason; the window shows it as is.
class SceneStore {
public:
    virtual ~SceneStore() = default;

    /// Reads and validates a scene file.
    virtual SceneDocument load(const QString& path) const = 0;
    /// Writes a scene file atomically (an interrupted save leaves the old file intact).
    virtual void save(const SceneDocument& document, const QString& path) const = 0;
    /// The document of a built-in scene (its shipped file, with title and notes).
    virtual SceneDocument builtIn(const std::string& sceneName) const = 0;
    /// A shipped system written as equations (format 2).
    struct SystemEntry {
        QString path;  ///< to load with load()
        QString title; ///< for menus
    };
    /// The shipped systems in title order; none by default.
    virtual std::vector<SystemEntry> builtInSystems() const { return {}; }
    /// Starting points for a system of one's own (File → New → From Template), in the order
    /// of their file names; none by default.
    virtual std::vector<SystemEntry> systemTemplates() const { return {}; }
    /// Writes runs as CSV atomically, in the CLI's format (CsvWriter): one run without a "run"
    /// column, several with one. `columns` empty means all; `comment` lines go first as
    /// "# ..." (none: plain RFC 4180).
    virtual void writeCsv(const std::vector<LabelledTrace>& runs,
                          const std::vector<std::string>& columns, const QString& path,
                          const std::vector<std::string>& comment = {}) const = 0;
};

} // namespace clab
