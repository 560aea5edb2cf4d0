#include "cli/MeasurementOptions.h"

#include "cli/OptionCursor.h"
#include "cli/SceneOptions.h"
#include "cli/UsageProblem.h"

#include "integrate/Simulator.h"

#include <QStringList>

#include <algorithm>

namespace clab::cli {

bool MeasurementOptions::parse(const OptionCursor& o)
{
    const QString& name = o.option;
    if (name == QLatin1String("--data")) {
        data = o.value();
        if (data.isEmpty())
            throw UsageProblem{QStringLiteral("option --data needs a file name")};
    } else if (name == QLatin1String("--map")) {
        parseMap(name, o.value());
    } else if (name == QLatin1String("--sigma")) {
        parseSigma(name, o.value());
    } else if (name == QLatin1String("--time-column")) {
        time.column = o.value().trimmed();
    } else if (name == QLatin1String("--time-scale")) {
        time.scale = numberOf(name, o.value());
        if (time.scale <= 0.0)
            throw UsageProblem{QStringLiteral("--time-scale must be greater than 0")};
    } else if (name == QLatin1String("--time-offset")) {
        time.offset = numberOf(name, o.value());
    } else {
        return false;
    }
    return true;
}

void MeasurementOptions::parseMap(const QString& option, const QString& list)
{
    for (const QString& item : list.split(QLatin1Char(','))) {
        const auto [column, target] =
            assignment(option, item, QStringLiteral("COLUMN=QUANTITY[*SCALE], e.g. pos=s"));
        const QString quantity = target.section(QLatin1Char('*'), 0, 0).trimmed();
        const double scale =
            target.contains(QLatin1Char('*'))
                ? numberOf(option + QLatin1Char(' ') + item, target.section('*', 1))
                : 1.0;
        // A column mapped twice would count its measurements twice (and its standard error
        // would shrink by √2).
        for (const MeasurementFile::Mapping& m : mappings)
            if (m.column == column)
                throw UsageProblem{
                    QStringLiteral("%1 %2: column \"%3\" is already mapped (to "
                                   "%4); map each column once")
                        .arg(option, item, column, QString::fromStdString(m.quantity))};
        mappings.push_back({column, quantity.toStdString(), scale, 0.0});
    }
}

// A standard deviation weighs a residual by 1/σ: zero or less has no meaning.
double MeasurementOptions::positiveSigma(const QString& where, const QString& text)
{
    const double sigma = numberOf(where, text);
    if (!(sigma > 0.0))
        throw UsageProblem{QStringLiteral("%1: a standard deviation must be greater than 0, "
                                          "got %2")
                               .arg(where, text.trimmed())};
    return sigma;
}

void MeasurementOptions::parseSigma(const QString& option, const QString& text)
{
    if (!text.contains(QLatin1Char('='))) {
        sigmaAll = positiveSigma(option + QLatin1Char(' ') + text, text);
        return;
    }
    for (const QString& item : text.split(QLatin1Char(','))) {
        const auto [column, value] =
            assignment(option, item, QStringLiteral("S or COLUMN=S, e.g. pos=0.002"));
        sigmas[column] = positiveSigma(option + QLatin1Char(' ') + item, value);
    }
}

void MeasurementOptions::check(const QString& command, const SceneOptions& options)
{
    for (const char* key : {"t_end", "dt"})
        if (const auto it = options.simulation.find(key); it != options.simulation.end())
            throw UsageProblem{QStringLiteral("%1: %2: the measured times set the end and "
                                              "the output times of the runs")
                                   .arg(command, it->second.second)};
    if (data.isEmpty())
        throw UsageProblem{
            QStringLiteral("%1: missing --data FILE (the measurements)").arg(command)};
}

std::vector<MeasurementFile::Mapping>
MeasurementOptions::withSigmas(std::vector<MeasurementFile::Mapping> mapped) const
{
    for (const auto& entry : sigmas) {
        const QString& column =
            entry.first; // not a structured binding: clang 14 cannot capture one
        const auto found = std::find_if(mapped.begin(), mapped.end(),
                                        [&](const auto& m) { return m.column == column; });
        if (found == mapped.end())
            throw UsageProblem{
                QStringLiteral("--sigma %1=...: column \"%1\" is not mapped").arg(column)};
        found->sigma = entry.second;
    }
    for (MeasurementFile::Mapping& m : mapped) {
        if (sigmaAll && !sigmas.count(m.column))
            m.sigma = *sigmaAll;
    }
    return mapped;
}

Measurements MeasurementOptions::load(const SceneDocument& document) const
{
    if (!mappings.empty())
        return MeasurementFile::load(data, withSigmas(mappings), time);
    const QByteArray text = MeasurementFile::read(data);
    const QStringList columns = MeasurementFile::columns(text);
    const SceneDefinition* definition = document.definition();
    const std::vector<std::string> quantities =
        Simulator::emptyTrace(*definition->create(definition->complete(document.parameters)))
            .columnNames();
    const std::vector<MeasurementFile::Mapping> byName =
        MeasurementFile::mappingsByName(columns, time.column, quantities);
    if (byName.empty()) {
        QStringList names;
        for (const std::string& q : quantities)
            names << QString::fromStdString(q);
        throw UsageProblem{
            QStringLiteral("--data %1: no --map COLUMN=QUANTITY, and no column "
                           "is named like a trace quantity (its columns: %2; "
                           "the quantities: %3)")
                .arg(data, columns.join(QStringLiteral(", ")), names.join(QStringLiteral(", ")))};
    }
    return MeasurementFile::parse(text, data, withSigmas(byName), time);
}

} // namespace clab::cli
