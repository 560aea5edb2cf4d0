#pragma once

#include "SceneRequest.h"

namespace clab {
class CsvWriter;
class MechanicalSystem;
} // namespace clab

namespace clab::cli {

/// A scene document with the command line's --set and simulation options applied, completed
/// and validated (SceneOptions::prepare); errors name the command-line option that caused them.
using PreparedScene = SceneRequest::Prepared;

/// Checks --columns against the system's columns (UsageProblem), before a possibly long run.
void checkColumns(const CsvWriter& writer, const MechanicalSystem& system);

} // namespace clab::cli
