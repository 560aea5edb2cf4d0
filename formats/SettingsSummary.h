#pragma once

#include <integrate/SimulationOptions.h>

#include <QString>

#include <string>

namespace clab {

/// \brief The simulation settings of a document as the CLI's `describe` lists them, written
/// from the table of SimulationSetting (SimulationSetting::summary), so that a new setting
/// appears there without an edit here.
class SettingsSummary {
public:
    /// The lines under describe's "Simulation (...)" heading, each indented by two spaces and
    /// ending in a newline: the numbers and choices on one line (a setting that depends on
    /// another, while it has an effect, in parentheses after it), then, for a scene whose
    /// track has an end (`end`, SceneDefinition::end, not empty), the stop_at_end line.
    static QString describeLines(const SimulationOptions& options, const std::string& end);
};

} // namespace clab
