// constraintlab-cli: the scene runner on QtCore alone. `plot` is constraintlab-plot's job (VTK,
// OpenGL, Qt GUI): this program hands it over whole, so that list, describe, run and sweep
// start without loading those libraries and work on a machine without X or OpenGL.
#include "CliApplication.h"

#include <QCoreApplication>
#include <QTextStream>

#include <unistd.h>

#include <cerrno>
#include <climits>
#include <csignal>
#include <cstring>
#include <string>

namespace {

/// The directory of this executable (from /proc/self/exe), "" when it cannot be read.
std::string executableDirectory()
{
    char path[PATH_MAX];
    const ssize_t length = readlink("/proc/self/exe", path, sizeof path - 1);
    if (length <= 0)
        return {};
    const std::string file(path, static_cast<std::size_t>(length));
    return file.substr(0, file.rfind('/'));
}

} // namespace

int main(int argc, char* argv[])
{
    // A reader that stops early (`| head`) makes writes fail with EPIPE, which the commands
    // report with exit 1, instead of killing the program without a word.
    std::signal(SIGPIPE, SIG_IGN);
    std::string plotProblem;
    if (argc >= 2 && std::strcmp(argv[1], "plot") == 0) {
        // constraintlab-plot is built beside this program and installed in libexec; it takes
        // the same arguments and answers as constraintlab-cli. execv returns only when it
        // could not run.
        const std::string directory = executableDirectory();
        std::string program = directory + "/constraintlab-plot";
        if (access(program.c_str(), X_OK) != 0)
            program = directory + "/" CLAB_PLOT_FROM_BIN "/constraintlab-plot";
        execv(program.c_str(), argv);
        plotProblem = program + ": " + std::strerror(errno);
    }
    QCoreApplication application(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("constraintlab-cli"));
    QTextStream out(stdout);
    QTextStream err(stderr);
    clab::CliApplication cli;
    if (!plotProblem.empty()) {
        // The arguments are still checked (usage errors first); drawing then says why it cannot.
        const QString reason = QString::fromStdString(plotProblem);
        cli.setPlotWriter([reason](const clab::CliApplication::PlotRequest&, QString* error) {
            *error =
                QStringLiteral(
                    "plotting needs the program constraintlab-plot, which could not be started "
                    "(%1)")
                    .arg(reason);
            return false;
        });
    }
    return cli.run(QCoreApplication::arguments().mid(1), out, err);
}
