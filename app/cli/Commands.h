#pragma once

#include "cli/CliCommand.h"

// The commands of constraintlab-cli, one file each (cli/NameCommand.cpp); CommandTable lists
// them in the order of the general help.
namespace clab::cli {

CliCommand listCommand();
CliCommand describeCommand();
CliCommand runCommand();
CliCommand deriveCommand();
CliCommand sweepCommand();
CliCommand fitCommand();
CliCommand plotCommand();
CliCommand helpCommand();

} // namespace clab::cli
