#pragma once

#include "scenes/SceneDocument.h"

#include <QString>

namespace clab {
class CsvWriter;
class MechanicalSystem;
} // namespace clab

namespace clab::cli {

struct SceneOptions;

/// A scene document with the command line's --set and simulation options applied, completed
/// and validated; errors name the command-line option that caused them.
struct PreparedScene {
    SceneDocument document;
    const SceneDefinition* definition = nullptr;
    QString source; ///< "scene NAME" or the file, for messages

    static PreparedScene prepare(const SceneOptions& request);
};

/// Checks --columns against the system's columns (UsageProblem), before a possibly long run.
void checkColumns(const CsvWriter& writer, const MechanicalSystem& system);

} // namespace clab::cli
