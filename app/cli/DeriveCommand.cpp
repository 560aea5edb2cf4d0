// derive FILE: what ConstraintLab derives from a system written as equations.
#include "cli/CliText.h"
#include "cli/CommandContext.h"
#include "cli/Commands.h"
#include "cli/UsageProblem.h"

#include "FileError.h"
#include "SceneLoading.h"
#include "symbolic/SymbolicModel.h"

#include <QTextStream>

namespace clab::cli {

namespace {

QString help()
{
    return QStringLiteral(
        "Usage: constraintlab-cli derive FILE [--format text|latex|json]\n"
        "\n"
        "Prints what ConstraintLab derives from a system written as equations (a scene\n"
        "file with \"format\": 2): the mass matrix M = d2T/dqdot2, the given force Q (from\n"
        "the potential, the forces and the velocity terms of T), each constraint with its\n"
        "row of A and its b (A qddot = b), and the slip velocity of each friction contact.\n"
        "text is for reading, latex for a document, json for programs.\n");
}

SymbolicModel::Format formatNamed(const QString& value)
{
    if (value == QLatin1String("text"))
        return SymbolicModel::Format::Text;
    if (value == QLatin1String("latex"))
        return SymbolicModel::Format::Latex;
    if (value == QLatin1String("json"))
        return SymbolicModel::Format::Json;
    throw UsageProblem{
        QStringLiteral("--format %1: unknown format (use text, latex or json)").arg(value)};
}

int run(const QStringList& args, CommandContext& context)
{
    QString scene;
    SymbolicModel::Format format = SymbolicModel::Format::Text;
    for (int i = 0; i < args.size(); ++i) {
        const QString& a = args[i];
        if (a == QLatin1String("--format") || a.startsWith("--format=")) {
            if (a.contains(QLatin1Char('=')))
                format = formatNamed(a.section(QLatin1Char('='), 1));
            else if (i + 1 < args.size())
                format = formatNamed(args[++i]);
            else
                throw UsageProblem{QStringLiteral("option --format needs text, latex or json")};
        } else if (a.startsWith(QLatin1Char('-')) && a != QLatin1String("-")) {
            throw UsageProblem{QStringLiteral("derive: unknown option %1").arg(a)};
        } else if (scene.isEmpty()) {
            scene = a;
        } else {
            throw UsageProblem{QStringLiteral("derive: unexpected argument \"%1\"").arg(a)};
        }
    }
    if (scene.isEmpty())
        throw UsageProblem{QStringLiteral("derive: missing FILE (a format-2 scene file)")};
    const SceneDocument document = loadScene(scene);
    context.out << qs(derivableSystem(document, scene).derivationText(format));
    return CliApplication::Success;
}

} // namespace

CliCommand deriveCommand()
{
    return {QStringLiteral("derive"), QStringLiteral("derive FILE [--format text|latex|json]"),
            QStringLiteral("Print M, Q, A, b and the friction terms derived from a\n"
                           "system written as equations (a format-2 scene file)."),
            help, run};
}

} // namespace clab::cli
