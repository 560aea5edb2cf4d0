#include "cli/OptionCursor.h"

#include "cli/UsageProblem.h"

#include <QStringList>

#include <charconv>
#include <cmath>
#include <cstdlib>

namespace clab::cli {

std::optional<double> parseNumber(QString text)
{
    text = text.trimmed();
    if (text.startsWith(QLatin1Char('+')))
        text.remove(0, 1);
    const std::string s = text.toStdString();
    if (s.empty())
        return std::nullopt;
    double value = 0.0;
    const auto result = std::from_chars(s.data(), s.data() + s.size(), value);
    if (result.ptr != s.data() + s.size())
        return std::nullopt;
    if (result.ec == std::errc::result_out_of_range) {
        // from_chars leaves value untouched on overflow/underflow; strtod tells which.
        return std::strtod(s.c_str(), nullptr);
    }
    if (result.ec != std::errc())
        return std::nullopt;
    return value;
}

double numberOf(const QString& option, const QString& text)
{
    const auto v = parseNumber(text);
    if (!v || !std::isfinite(*v))
        throw UsageProblem{QStringLiteral("%1: \"%2\" is not a finite number").arg(option, text)};
    return *v;
}

std::vector<std::string> nameList(const OptionCursor& option)
{
    const QString list = option.value();
    std::vector<std::string> names;
    for (const QString& name : list.split(QLatin1Char(','))) {
        if (name.trimmed().isEmpty())
            throw UsageProblem{QStringLiteral("%1 %2: empty name").arg(option.option, list)};
        names.push_back(name.trimmed().toStdString());
    }
    return names;
}

std::vector<double> valueList(const OptionCursor& option)
{
    const QString list = option.value();
    std::vector<double> values;
    for (const QString& part : list.split(QLatin1Char(','))) {
        if (part.trimmed().isEmpty())
            throw UsageProblem{
                QStringLiteral("%1 \"%2\": empty value (give a comma list, e.g. 0,0.1,0.3)")
                    .arg(option.option, list)};
        const auto v = parseNumber(part);
        if (!v)
            throw UsageProblem{QStringLiteral("%1 %2: \"%3\" is not a number")
                                   .arg(option.option, list, part.trimmed())};
        values.push_back(*v);
    }
    return values;
}

QString outputOption(const OptionCursor& option)
{
    const QString output = option.value();
    if (output.isEmpty())
        throw UsageProblem{QStringLiteral("option %1 needs a file name or -").arg(option.option)};
    return output;
}

bool isOutputOption(const QString& option)
{
    return option == QLatin1String("--output") || option == QLatin1String("-o");
}

std::pair<QString, QString> assignment(const QString& option, const QString& text,
                                       const QString& example)
{
    const int eq = text.indexOf(QLatin1Char('='));
    if (eq <= 0 || eq == text.size() - 1)
        throw UsageProblem{QStringLiteral("%1 %2: expected %3")
                               .arg(option, text.isEmpty() ? "\"\"" : text, example)};
    return {text.left(eq).trimmed(), text.mid(eq + 1).trimmed()};
}

} // namespace clab::cli
