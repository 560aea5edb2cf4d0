#pragma once

#include <QString>
#include <QStringList>

namespace clab::cli {

struct CommandContext;

/// One command of constraintlab-cli: a row of the command table (CommandTable), from which
/// `--help`, `help COMMAND`, `COMMAND --help` and the man page are made.
struct CliCommand {
    QString name;     ///< "run"
    QString synopsis; ///< "run SCENE [OPTIONS]", the command's line in the general help
    /// What it does, for the general help: lines of at most 62 columns, '\n' between them.
    QString summary;
    QString (*help)(); ///< the whole help of the command, starting with "Usage: ..."
    /// Runs the command with its arguments; returns the exit code or throws (UsageProblem,
    /// FileError, ConstraintLabError), which CliApplication::run turns into messages.
    int (*run)(const QStringList& args, CommandContext& context);
};

} // namespace clab::cli
