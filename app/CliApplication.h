#pragma once

#include "ConstraintLabError.h"

#include <QStringList>

class QTextStream;

namespace clab {

/// \brief `constraintlab-cli`: lists, describes and runs the built-in scenes headless.
///
/// Kept free of process globals so it can be tested in-process: arguments come without the
/// program name, results go to `out` (the CSV when writing to "-") and messages to `err`, each
/// starting with "constraintlab-cli: ".
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

    /// Runs one command; returns the exit code.
    int run(const QStringList& arguments, QTextStream& out, QTextStream& err);

    /// Exit code for an engine error: InvalidParameter and InvalidInitialState are invalid
    /// input (3), the others are numerical failures (4).
    static int exitCodeFor(ConstraintLabError::Kind kind);

    static QString usage();
    /// Help of one command, or an empty string for an unknown command.
    static QString commandHelp(const QString& command);

private:
    int list(const QStringList& args, QTextStream& out, QTextStream& err);
    int describe(const QStringList& args, QTextStream& out, QTextStream& err);
    int runScene(const QStringList& args, QTextStream& out, QTextStream& err);
};

} // namespace clab
