#pragma once

#include "model/ConstraintLabError.h"
#include "trace/LabelledTrace.h"
#include "trace/PlotSpec.h"

#include <QSize>
#include <QStringList>

#include <functional>
#include <vector>

class QTextStream;

namespace clab {

/// \brief `constraintlab-cli`: lists, describes and runs the built-in scenes
/// headless.
///
/// The dispatcher: each command is a row of cli/CommandTable, in a file of its
/// own in cli/; this class picks the command and turns what it throws into
/// messages and exit codes. Kept free of process globals so it can be tested
/// in-process: arguments come without the program name, results go to `out`
/// (the CSV when writing to "-") and messages to `err`, each starting with
/// "constraintlab-cli: ".
class CliApplication {
public:
    /// Process exit codes; also documented in `--help`.
    enum ExitCode {
        Success = 0,
        OutputFailure = 1,   ///< the CSV could not be written (no permission, disk full)
        UsageError = 2,      ///< unknown command or option, missing or malformed value
        InvalidScene = 3,    ///< invalid scene file, scene name or parameter value
        NumericalFailure = 4 ///< the integration failed (the message says when and why)
    };

    /// What `plot` asks the plot writer to draw.
    struct PlotRequest {
        PlotSpec spec;
        std::vector<LabelledTrace> runs; ///< one run for `plot`
        QString path;                    ///< .png, .svg or .pdf
        QSize size{1200, 800};
        double scale = 1.0;
    };
    /// Draws a plot into a file; returns false with `*error` naming the file and
    /// the reason. The executable installs the VTK one (PlotExporter); without a
    /// writer `plot` fails with exit code 1 saying that plotting is not available
    /// in this build.
    using PlotWriter = std::function<bool(const PlotRequest& request, QString* error)>;
    void setPlotWriter(PlotWriter writer) { plotWriter_ = std::move(writer); }

    /// Runs one command; returns the exit code.
    int run(const QStringList& arguments, QTextStream& out, QTextStream& err);

    /// Exit code for an engine error: InvalidParameter and InvalidInitialState
    /// are invalid input (3), the others are numerical failures (4).
    static int exitCodeFor(ConstraintLabError::Kind kind);

    static QString usage();
    /// Help of one command, or an empty string for an unknown command.
    static QString commandHelp(const QString& command);

private:
    PlotWriter plotWriter_;
    QString source_; ///< the scene being run ("scene NAME" or its file), for
                     ///< error messages
};

} // namespace clab
