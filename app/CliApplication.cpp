#include "CliApplication.h"

#include "cli/CliText.h"
#include "cli/CommandContext.h"
#include "cli/CommandTable.h"
#include "cli/UsageProblem.h"

#include "EngineErrorText.h"
#include "FileError.h"

#include <QTextStream>

#include <new>

#ifndef CLAB_VERSION
#define CLAB_VERSION "unknown"
#endif

namespace clab {

using cli::prefix;

int CliApplication::exitCodeFor(ConstraintLabError::Kind kind)
{
    switch (kind) {
    case ConstraintLabError::Kind::InvalidParameter:
    case ConstraintLabError::Kind::InvalidInitialState:
        return InvalidScene;
    case ConstraintLabError::Kind::InconsistentConstraints:
    case ConstraintLabError::Kind::SingularMass:
    case ConstraintLabError::Kind::NonFinite:
    case ConstraintLabError::Kind::IntegrationFailure:
        return NumericalFailure;
    }
    return NumericalFailure;
}

QString CliApplication::usage()
{
    return cli::CommandTable::usage();
}

QString CliApplication::commandHelp(const QString& command)
{
    const cli::CliCommand* found = cli::CommandTable::find(command);
    return found ? found->help() : QString();
}

int CliApplication::run(const QStringList& arguments, QTextStream& out, QTextStream& err)
{
    const auto usageFailure = [&](const QString& message) {
        err << prefix << message << "\n" << prefix << "try 'constraintlab-cli --help'\n";
        err.flush();
        return static_cast<int>(UsageError);
    };
    if (arguments.isEmpty()) {
        err << prefix << "missing COMMAND\n\n" << usage();
        err.flush();
        return UsageError;
    }
    const QString command = arguments.first();
    const QStringList rest = arguments.mid(1);
    const bool wantsHelp =
        rest.contains(QLatin1String("--help")) || rest.contains(QLatin1String("-h"));
    const cli::CliCommand* found = cli::CommandTable::find(command);
    cli::CommandContext context{out, err, plotWriter_, source_};

    int code = Success;
    try {
        if (command == QLatin1String("--help") || command == QLatin1String("-h")) {
            out << usage();
        } else if (command == QLatin1String("--version")) {
            out << "constraintlab-cli " << CLAB_VERSION << "\n";
        } else if (found && wantsHelp && command != QLatin1String("help")) {
            // `help` takes a command name, so `help run --help` asks about "run
            // --help".
            out << found->help();
        } else if (found) {
            code = found->run(rest, context);
        } else if (command.startsWith(QLatin1Char('-'))) {
            return usageFailure(QStringLiteral("unknown option %1").arg(command));
        } else {
            return usageFailure(QStringLiteral("unknown command \"%1\"").arg(command));
        }
    } catch (const cli::UsageProblem& e) {
        return usageFailure(e.message);
    } catch (const FileError& e) {
        err << prefix << e.what() << "\n";
        code = e.kind() == FileError::Kind::Write ? OutputFailure : InvalidScene;
    } catch (const ConstraintLabError& e) {
        // Which scene, what kind of failure, when and what failed; then the likely
        // cause.
        err << prefix << EngineErrorText::message(e, source_) << "\n";
        if (!e.hint().empty())
            err << prefix << "hint: " << QString::fromStdString(e.hint()) << "\n";
        code = exitCodeFor(e.kind());
    } catch (const std::bad_alloc&) {
        err << prefix << "out of memory; try a larger --dt or a shorter --t-end\n";
        code = NumericalFailure;
    } catch (const std::exception& e) {
        // Anything else escapes from the integrator (e.g. an odeint step-size
        // error).
        err << prefix << "the simulation failed: " << e.what() << "\n";
        code = NumericalFailure;
    }
    out.flush();
    if (out.status() != QTextStream::Ok && code == Success) {
        err << prefix << "cannot write to standard output" << cli::closedPipeReason() << "\n";
        code = OutputFailure;
    }
    err.flush();
    return code;
}

} // namespace clab
