#pragma once

#include "cli/OptionCursor.h"

#include "SceneRequest.h"

#include <QString>
#include <QStringList>

#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace clab::cli {

/// The scene and simulation options that `run`, `sweep`, `fit` and `plot` share (SCENE, --set,
/// the simulation settings' options), as given on the command line.
/// The request's texts are the options as given: "--set mu=0.3", "--t-end 5".
struct SceneOptions : SceneRequest {

    /// A command's own options: takes one and returns true, or returns false for an option it
    /// does not know.
    using ExtraOptions = std::function<bool(const OptionCursor&)>;

    /// Parses SCENE and the shared options of `command`; throws UsageProblem.
    static SceneOptions parse(const QStringList& args, const QString& command,
                              const ExtraOptions& extra);

    /// The simulation settings' options for a help text: "  --t-end T", its documentation from
    /// column 23, wrapped at 80 columns (a long option gets a line of its own).
    static QString simulationOptionsHelp();
};

} // namespace clab::cli
