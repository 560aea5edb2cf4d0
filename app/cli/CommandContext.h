#pragma once

#include "CliApplication.h"

#include <QString>

class QTextStream;

namespace clab::cli {

/// What a command works with: its output streams, the plot writer (for `plot`) and where it
/// names the scene it runs, for CliApplication's message when the engine fails.
struct CommandContext {
    QTextStream& out; ///< the results (CSV to "-", tables)
    QTextStream& err; ///< messages, each starting with "constraintlab-cli: "
    const CliApplication::PlotWriter& plotWriter;
    QString& source; ///< "scene NAME" or the file, set once the scene is prepared
};

} // namespace clab::cli
