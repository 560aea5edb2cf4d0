// help [COMMAND]: the general help or one command's.
#include "cli/CommandContext.h"
#include "cli/CommandTable.h"
#include "cli/Commands.h"
#include "cli/UsageProblem.h"

#include <QTextStream>

namespace clab::cli {

namespace {

QString help()
{
    return QStringLiteral("Usage: constraintlab-cli help [COMMAND]\n"
                          "\n"
                          "Shows the general help, or the help of COMMAND (list, describe, "
                          "run, sweep, fit, plot).\n");
}

int run(const QStringList& args, CommandContext& context)
{
    if (args.isEmpty()) {
        context.out << CommandTable::usage();
    } else if (const CliCommand* command = CommandTable::find(args.first());
               args.size() == 1 && command) {
        context.out << command->help();
    } else {
        throw UsageProblem{QStringLiteral("help: unknown command \"%1\"").arg(args.join(' '))};
    }
    return CliApplication::Success;
}

} // namespace

CliCommand helpCommand()
{
    return {QStringLiteral("help"), QStringLiteral("help [COMMAND]"),
            QStringLiteral("Show this help, or the help of COMMAND."), help, run};
}

} // namespace clab::cli
