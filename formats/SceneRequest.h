#pragma once

#include "scenes/SceneDocument.h"

#include <QString>

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace clab {

/// \brief A scene argument with parameter values and simulation settings to apply, as a front
/// end was given them (constraintlab-cli's SCENE, --set and --t-end; Python's load() and run()).
///
/// prepare() turns it into a completed, validated document; its errors (FileError) name the
/// value as the front end wrote it (`setText`, the settings' texts), so the CLI and the Python
/// module give the same reasons for the same mistakes.
struct SceneRequest {
    QString scene;
    std::vector<std::pair<QString, std::vector<double>>> sets; // in the order given
    std::map<QString, QString> setText; // name -> how messages name it ("--set mu=0.3")
    // Simulation settings: key -> the value and how messages name it ("--t-end 5").
    std::map<std::string, std::pair<double, QString>> simulation;
    /// How messages name the sets together, after the scene ("SCENE with --set").
    QString setsName = QStringLiteral("--set");

    /// The document with the sets and settings applied, completed and validated.
    struct Prepared {
        SceneDocument document;
        const SceneDefinition* definition = nullptr;
        QString source; ///< "scene NAME" or the file, for messages
    };

    /// Loads `scene` (SceneLoading) and applies the rest; throws FileError naming what is wrong.
    Prepared prepare() const;
    /// The same over an already loaded document (only what its file states, as loadScene
    /// gives it), so that a front end can load once and prepare many runs.
    Prepared prepare(SceneDocument document) const;
};

} // namespace clab
