// list: the built-in scenes, name and title.
#include "cli/CliText.h"
#include "cli/CommandContext.h"
#include "cli/Commands.h"
#include "cli/UsageProblem.h"

#include "scenes/SceneRegistry.h"

#include <QTextStream>

#include <algorithm>

namespace clab::cli {

namespace {

QString help()
{
    return QStringLiteral("Usage: constraintlab-cli list\n"
                          "\n"
                          "Lists the built-in scenes: name and title, one per line.\n");
}

int run(const QStringList& args, CommandContext& context)
{
    if (!args.isEmpty())
        throw UsageProblem{QStringLiteral("list: unexpected argument \"%1\"").arg(args.first())};
    int width = 0;
    for (const SceneDefinition& d : SceneRegistry::builtIn())
        width = std::max(width, static_cast<int>(d.name.size()));
    for (const SceneDefinition& d : SceneRegistry::builtIn())
        context.out << qs(d.name).leftJustified(width + 2) << qs(d.title) << "\n";
    return CliApplication::Success;
}

} // namespace

CliCommand listCommand()
{
    return {QStringLiteral("list"), QStringLiteral("list"),
            QStringLiteral("List the built-in scenes."), help, run};
}

} // namespace clab::cli
