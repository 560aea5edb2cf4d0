// describe SCENE: a scene's parameters (units, defaults, ranges) and simulation settings.
#include "cli/CliText.h"
#include "cli/CommandContext.h"
#include "cli/Commands.h"
#include "cli/UsageProblem.h"

#include "FileError.h"
#include "SceneFile.h"
#include "SceneLoading.h"
#include "SceneNotes.h"
#include "SettingsSummary.h"
#include "scenes/SceneRegistry.h"

#include <QFileInfo>
#include <QTextStream>

#include <algorithm>

namespace clab::cli {

namespace {

QString help()
{
    return QStringLiteral(
        "Usage: constraintlab-cli describe SCENE\n"
        "\n"
        "Shows a built-in scene: title, description, every parameter with its unit,\n"
        "default, valid range and meaning, and the simulation settings of its scene file.\n");
}

QString interval(const ParameterSpec& spec)
{
    return QStringLiteral("%1%2, %3]")
        .arg(spec.lowestIncluded() ? "[" : "(")
        .arg(number(spec.lowest()), number(spec.highest()));
}

// A follower's default is the parameter it follows ("= mu").
QString defaultText(const ParameterSpec& spec)
{
    if (!spec.defaultsTo.empty())
        return QStringLiteral("= ") + qs(spec.defaultsTo);
    QStringList parts;
    for (double v : spec.defaultValue)
        parts << number(v);
    return parts.join(QLatin1Char(','));
}

// A table: name, unit, default, range, then the description.
void writeParameters(const SceneDefinition& definition, QTextStream& out)
{
    int nameWidth = 4, unitWidth = 4, defaultWidth = 7, rangeWidth = 5;
    for (const ParameterSpec& p : definition.parameters) {
        nameWidth = std::max(nameWidth, static_cast<int>(p.name.size()));
        unitWidth = std::max(unitWidth, static_cast<int>(qs(p.unit).size()));
        defaultWidth = std::max(defaultWidth, static_cast<int>(defaultText(p).size()));
        rangeWidth = std::max(rangeWidth, static_cast<int>(interval(p).size()));
    }
    out << "Parameters (set with --set NAME=VALUE; vectors as comma lists):\n";
    out << "  " << QStringLiteral("name").leftJustified(nameWidth + 2)
        << QStringLiteral("unit").leftJustified(unitWidth + 2)
        << QStringLiteral("default").leftJustified(defaultWidth + 2)
        << QStringLiteral("range").leftJustified(rangeWidth + 2) << "description\n";
    for (const ParameterSpec& p : definition.parameters) {
        const QString unit = p.unit.empty() ? QStringLiteral("-") : qs(p.unit);
        const QString size =
            p.size() > 1 ? QStringLiteral(" (%1 components)").arg(p.size()) : QString();
        out << "  " << qs(p.name).leftJustified(nameWidth + 2) << unit.leftJustified(unitWidth + 2)
            << defaultText(p).leftJustified(defaultWidth + 2)
            << interval(p).leftJustified(rangeWidth + 2) << qs(p.description) << size << "\n";
    }
}

void writeSimulation(const SceneDocument& document, bool file, QTextStream& out)
{
    const SceneDefinition* definition = document.definition();
    out << (file ? "\nSimulation (from the scene file; override with --t-end, --dt, ...):\n"
                 : "\nSimulation (from the built-in scene file; override with --t-end, --dt, "
                   "...):\n")
        << SettingsSummary::describeLines(document.simulation, definition->end);
}

int run(const QStringList& args, CommandContext& context)
{
    if (args.size() != 1)
        throw UsageProblem{
            args.isEmpty()
                ? QStringLiteral("describe: missing SCENE")
                : QStringLiteral("describe: expected one SCENE, got %1").arg(args.size())};
    const QString name = args.first();
    const bool file = !isBuiltInName(name) && (looksLikePath(name) || QFileInfo::exists(name));
    if (!file && !SceneRegistry::find(name.toStdString()))
        throw FileError(FileError::Kind::Invalid, name, QString(),
                        QStringLiteral("unknown scene (built-in scenes: %1)")
                            .arg(QString::fromStdString(SceneRegistry::nameList())));
    const SceneDocument document = file ? SceneFile::load(name) : SceneFile::loadBuiltIn(name);
    const SceneDefinition* definition = document.definition();

    QTextStream& out = context.out;
    out << (document.system ? QStringLiteral("system") : qs(definition->name)) << " - "
        << qs(definition->title) << "\n\n";
    out << wrap(qs(definition->description), 0) << "\n";
    if (!document.notes.empty())
        out << "Notes (" << qs(document.title) << "):\n"
            << wrap(SceneNotes::shown(document), 2) << "\n";
    writeParameters(*definition, out);
    writeSimulation(document, file, out);
    return CliApplication::Success;
}

} // namespace

CliCommand describeCommand()
{
    return {QStringLiteral("describe"), QStringLiteral("describe SCENE"),
            QStringLiteral("Show a scene's parameters (units, defaults, ranges) and its\n"
                           "simulation settings."),
            help, run};
}

} // namespace clab::cli
