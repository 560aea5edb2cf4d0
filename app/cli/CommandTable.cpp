#include "cli/CommandTable.h"

#include "cli/Commands.h"

namespace clab::cli {

const std::vector<CliCommand>& CommandTable::all()
{
    static const std::vector<CliCommand> commands{listCommand(),   describeCommand(), runCommand(),
                                                  deriveCommand(), sweepCommand(),    fitCommand(),
                                                  plotCommand(),   helpCommand()};
    return commands;
}

const CliCommand* CommandTable::find(const QString& name)
{
    for (const CliCommand& command : all())
        if (command.name == name)
            return &command;
    return nullptr;
}

QString CommandTable::usage()
{
    // A synopsis, then its summary from column 23; a longer synopsis gets a line of its own.
    constexpr int textColumn = 23;
    QString commands;
    for (const CliCommand& command : all()) {
        QString line = QStringLiteral("  ") + command.synopsis;
        if (line.size() > textColumn - 2) {
            commands += line + QLatin1Char('\n');
            line.clear();
        }
        for (const QString& summaryLine : command.summary.split(QLatin1Char('\n'))) {
            commands += line.leftJustified(textColumn) + summaryLine + QLatin1Char('\n');
            line.clear();
        }
    }
    return QStringLiteral(
               "Usage: constraintlab-cli COMMAND [ARGUMENTS]\n"
               "\n"
               "Runs ConstraintLab's scenes (the Udwadia-Kalaba equation M q'' = Q + Qci + Qcni)\n"
               "without a display and writes their traces as CSV.\n"
               "\n"
               "Commands:\n") +
           commands +
           QStringLiteral(
               "\n"
               "Options:\n"
               "  -h, --help           Show this help.\n"
               "  --version            Show the version.\n"
               "\n"
               "Exit codes:\n"
               "  0  success\n"
               "  1  the output file could not be written\n"
               "  2  usage error: unknown command or option, missing or malformed value\n"
               "  3  invalid scene file, scene name or parameter value\n"
               "  4  numerical failure during the simulation (the message says when and why)\n"
               "\n"
               "Examples:\n"
               "  constraintlab-cli run bead-on-wire --set mu=0.3 --t-end 5 --output bead.csv\n"
               "  constraintlab-cli sweep bead-on-wire --param mu --values 0,0.1,0.3 -o "
               "sweep.csv\n"
               "  constraintlab-cli plot ring --set mu=0.2 --preset energy --output energy.svg\n"
               "  constraintlab-cli fit bead-on-wire --data meas.csv --map pos=s --param mu\n");
}

} // namespace clab::cli
