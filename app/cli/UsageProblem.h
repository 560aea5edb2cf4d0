#pragma once

#include <QString>

namespace clab::cli {

/// A usage error (exit code 2): thrown by the commands, carried up to CliApplication::run(),
/// which prints the message with a hint to `--help`.
struct UsageProblem {
    QString message;
};

} // namespace clab::cli
