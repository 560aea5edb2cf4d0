#pragma once

#include "cli/CliCommand.h"

#include <vector>

namespace clab::cli {

/// The commands of constraintlab-cli in the order of the general help. The general help
/// (`--help`) is made from their synopses and summaries, and each command's help from its row;
/// the man page is made from both (resources/packaging/ManPage.cmake).
class CommandTable {
public:
    static const std::vector<CliCommand>& all();
    /// The command called `name`, or nullptr.
    static const CliCommand* find(const QString& name);
    /// The general help: usage, the commands, the program's options, exit codes, examples.
    static QString usage();
};

} // namespace clab::cli
