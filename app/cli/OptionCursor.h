#pragma once

#include <QString>

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace clab::cli {

/// One command-line option while parsing: its name (without an inline "=value") and a way to
/// take its value (the inline one or the next argument).
struct OptionCursor {
    QString option;
    std::function<QString()> value;
};

// Readers of option values; each throws UsageProblem naming the option when the value is bad.

/// A number in C syntax whatever the locale; nullopt when it is not one. Values beyond the
/// range of double come back as ±infinity so that validation names the parameter.
std::optional<double> parseNumber(QString text);
/// A finite number, for `option` (as messages name it).
double numberOf(const QString& option, const QString& text);
/// A comma list of names, e.g. --columns or --y.
std::vector<std::string> nameList(const OptionCursor& option);
/// --values V1,V2,...: a non-empty list of numbers.
std::vector<double> valueList(const OptionCursor& option);
/// --output FILE|-, shared by run, sweep, fit and plot.
QString outputOption(const OptionCursor& option);
bool isOutputOption(const QString& option);
/// "NAME=VALUE" of --map, --sigma and --bounds: the name and the text after '='.
std::pair<QString, QString> assignment(const QString& option, const QString& text,
                                       const QString& example);

} // namespace clab::cli
