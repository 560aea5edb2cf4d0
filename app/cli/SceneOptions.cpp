#include "cli/SceneOptions.h"

#include "cli/UsageProblem.h"

#include "integrate/SimulationSetting.h"

#include <optional>

namespace clab::cli {

namespace {

// The simulation setting an option sets ("--t-end", "--stop-at-end", "--no-stop-at-end"), or
// nullptr.
const SimulationSetting* simulationSettingFor(const QString& option)
{
    for (const SimulationSetting& setting : SimulationSetting::all()) {
        const QString name = QString::fromStdString(setting.option());
        if (option == name || (setting.kind == SimulationSetting::Kind::Flag &&
                               option == QLatin1String("--no-") + name.mid(2)))
            return &setting;
    }
    return nullptr;
}

// --set NAME=VALUE[,VALUE...]
void addSet(SceneOptions& request, const QString& assignment)
{
    const int eq = assignment.indexOf(QLatin1Char('='));
    const QString name = eq < 0 ? QString() : assignment.left(eq).trimmed();
    if (eq < 0 || name.isEmpty())
        throw UsageProblem{QStringLiteral("--set %1: expected NAME=VALUE, e.g. --set mu=0.3 "
                                          "or --set J=1,2,3")
                               .arg(assignment)};
    const QString text = assignment.mid(eq + 1);
    std::vector<double> values;
    for (const QString& part : text.split(QLatin1Char(','))) {
        const auto v = parseNumber(part);
        if (!v && part.trimmed().isEmpty())
            throw UsageProblem{QStringLiteral("--set %1: missing value (vectors are comma lists, "
                                              "e.g. J=1,2,3)")
                                   .arg(assignment)};
        if (!v)
            throw UsageProblem{
                QStringLiteral("--set %1: \"%2\" is not a number").arg(assignment, part.trimmed())};
        values.push_back(*v);
    }
    request.sets.emplace_back(name, values);
    request.setText[name] = QStringLiteral("--set ") + assignment;
}

// A simulation setting's option: "--t-end 5", "--integrator rk4", "--stop-at-end".
void addSetting(SceneOptions& request, const SimulationSetting& setting, const OptionCursor& option,
                bool inlineValue)
{
    double setValue = 0.0;
    QString text;
    switch (setting.kind) {
    case SimulationSetting::Kind::Number: {
        text = option.value();
        const std::optional<double> number = parseNumber(text);
        if (!number)
            throw UsageProblem{
                QStringLiteral("option %1: \"%2\" is not a number").arg(option.option, text)};
        setValue = *number;
        break;
    }
    case SimulationSetting::Kind::Choice: {
        text = option.value();
        const std::optional<double> named = setting.valueNamed(text.toStdString());
        if (!named)
            throw UsageProblem{QStringLiteral("%1 %2: unknown %3 (use %4)")
                                   .arg(option.option, text, QString::fromStdString(setting.key),
                                        QString::fromStdString(setting.nameList()))};
        setValue = *named;
        break;
    }
    case SimulationSetting::Kind::Flag:
        if (inlineValue)
            throw UsageProblem{QStringLiteral("option %1 takes no value").arg(option.option)};
        setValue = option.option.startsWith(QLatin1String("--no-")) ? 0.0 : 1.0;
        break;
    }
    request.simulation[setting.key] = {
        setValue, text.isNull() ? option.option : option.option + QLatin1Char(' ') + text};
}

} // namespace

SceneOptions SceneOptions::parse(const QStringList& args, const QString& command,
                                 const ExtraOptions& extra)
{
    SceneOptions request;
    bool haveScene = false;
    for (int i = 0; i < args.size(); ++i) {
        QString option = args[i];
        std::optional<QString> inlineValue;
        if (option.startsWith(QLatin1String("--")) && option.contains(QLatin1Char('='))) {
            const int eq = option.indexOf(QLatin1Char('='));
            inlineValue = option.mid(eq + 1);
            option = option.left(eq);
        }
        bool tookValue = false;
        const auto value = [&]() -> QString {
            tookValue = true;
            if (inlineValue)
                return *inlineValue;
            if (i + 1 >= args.size())
                throw UsageProblem{QStringLiteral("option %1 needs a value").arg(option)};
            return args[++i];
        };

        if (option == QLatin1String("--set")) {
            addSet(request, value());
        } else if (const SimulationSetting* setting = simulationSettingFor(option)) {
            addSetting(request, *setting, OptionCursor{option, value}, inlineValue.has_value());
        } else if (option.startsWith(QLatin1Char('-')) && option != QLatin1String("-")) {
            if (!extra || !extra(OptionCursor{option, value}))
                throw UsageProblem{QStringLiteral("%1: unknown option %2").arg(command, option)};
            if (inlineValue && !tookValue)
                throw UsageProblem{QStringLiteral("option %1 takes no value").arg(option)};
        } else if (!haveScene) {
            request.scene = option;
            haveScene = true;
        } else {
            throw UsageProblem{QStringLiteral("%1: unexpected argument \"%2\" (only one scene)")
                                   .arg(command, option)};
        }
    }
    if (!haveScene)
        throw UsageProblem{
            QStringLiteral("%1: missing SCENE (a built-in name or a scene file)").arg(command)};
    return request;
}

QString SceneOptions::simulationOptionsHelp()
{
    constexpr int textColumn = 23;
    constexpr int width = 80;
    QString out;
    for (const SimulationSetting& setting : SimulationSetting::all()) {
        const QString option = QString::fromStdString(setting.option());
        QString line = QStringLiteral("  ") + option +
                       (setting.kind == SimulationSetting::Kind::Flag
                            ? QStringLiteral(", --no-") + option.mid(2)
                            : QLatin1Char(' ') + QString::fromStdString(setting.placeholder));
        if (line.size() >= textColumn - 1) {
            out += line + QLatin1Char('\n');
            line.clear();
        }
        for (const QString& word : QString::fromStdString(setting.documentation).split(' ')) {
            const bool first = line.size() <= textColumn;
            if (!first && line.size() + 1 + word.size() > width) {
                out += line + QLatin1Char('\n');
                line.clear();
            }
            if (line.size() < textColumn)
                line = line.leftJustified(textColumn) + word;
            else
                line += QLatin1Char(' ') + word;
        }
        out += line + QLatin1Char('\n');
    }
    return out;
}

} // namespace clab::cli
