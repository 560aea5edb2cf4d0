#include "SettingsSummary.h"

#include <integrate/SimulationSetting.h>

#include <QLocale>

namespace clab {

QString SettingsSummary::describeLines(const SimulationOptions& options, const std::string& end)
{
    // The CLI's numbers: the shortest text that reads back ("0.01", "1e-09").
    const SimulationSetting::SummaryStyle style{
        .choiceJoin = " = ", .withDependents = true, .number = [](double v) {
            return QString::number(v, 'g', QLocale::FloatingPointShortest).toStdString();
        }};
    QString text = QStringLiteral("  ") +
                   QString::fromStdString(SimulationSetting::summary(options, style)) +
                   QLatin1Char('\n');
    if (options.start)
        text += QStringLiteral("  start: stored, at t0 = %1 s (the file's \"start\", used instead "
                               "of the parameters' start)\n")
                    .arg(QString::fromStdString(style.number(options.start->t0)));
    if (end.empty())
        return text;
    const SimulationSetting* stop = SimulationSetting::find("stop_at_end");
    const std::string option = stop->option();
    return text + QStringLiteral("  %1 = %2: when on, a run ends early where %3 (%4, --no-%5)\n")
                      .arg(QString::fromStdString(stop->key),
                           stop->get(options) != 0.0 ? QStringLiteral("on") : QStringLiteral("off"),
                           QString::fromStdString(end), QString::fromStdString(option),
                           QString::fromStdString(option.substr(2)));
}

} // namespace clab
