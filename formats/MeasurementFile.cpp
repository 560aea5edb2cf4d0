#include "MeasurementFile.h"

#include "FileError.h"

#include <QFile>
#include <QList>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>

namespace clab {

namespace {

// How a file separates its fields: commas (CSV), semicolons (European spreadsheets, whose
// numbers have decimal commas), tabs (Tracker, spreadsheets' "text" export) or runs of blanks.
struct Dialect {
    char separator = 0; ///< ',', ';' or '\t'; 0: runs of blanks
    /// A comma in a number is its decimal point: "1,25" is 1.25 (never with ',' separators).
    bool decimalComma = false;
};

// The separator of the first data lines: a semicolon, else a tab when every line below the
// first has one (a tab among blanks is a blank), else a comma, else blanks.
Dialect dialectOf(const std::vector<QByteArray>& head)
{
    const auto any = [&](char c) {
        return std::any_of(head.begin(), head.end(),
                           [c](const QByteArray& line) { return line.contains(c); });
    };
    const bool tabs =
        !head.empty() && std::all_of(head.begin() + (head.size() > 1 ? 1 : 0), head.end(),
                                     [](const QByteArray& line) { return line.contains('\t'); });
    if (any(';'))
        return {';', true};
    if (tabs)
        return {'\t', true};
    if (any(','))
        return {',', false};
    return {0, true};
}

// Fields of one line, trimmed, a field's enclosing double quotes removed ("t" → t).
QList<QByteArray> fieldsOf(const QByteArray& line, const Dialect& dialect)
{
    QList<QByteArray> fields;
    const auto unquoted = [](QByteArray field) {
        field = field.trimmed();
        if (field.size() >= 2 && field.startsWith('"') && field.endsWith('"'))
            field = field.mid(1, field.size() - 2).trimmed();
        return field;
    };
    if (dialect.separator != 0) {
        for (const QByteArray& field : line.split(dialect.separator))
            fields << unquoted(field);
        return fields;
    }
    for (const QByteArray& field : line.simplified().split(' '))
        if (!field.isEmpty())
            fields << unquoted(field);
    return fields;
}

std::optional<double> numberIn(const QByteArray& field, bool decimalComma)
{
    QByteArray text = field.trimmed();
    if (decimalComma && text.count(',') == 1 && !text.contains('.'))
        text.replace(',', '.');
    if (text.startsWith('+'))
        text = text.mid(1);
    double value = 0.0;
    const char* end = text.constData() + text.size();
    const auto result = std::from_chars(text.constData(), end, value);
    if (text.isEmpty() || result.ec == std::errc::invalid_argument || result.ptr != end)
        return std::nullopt;
    if (result.ec == std::errc::result_out_of_range)
        return std::numeric_limits<double>::infinity();
    return value;
}

QString number(double v)
{
    return QString::number(v, 'g', 17);
}

// Whether no field of a line is a number (a header or a title).
bool allWords(const QList<QByteArray>& fields, const Dialect& dialect)
{
    for (const QByteArray& field : fields)
        if (numberIn(field, dialect.decimalComma))
            return false;
    return true;
}

// The head of a table: its dialect, a title line to skip (Tracker's first line names the
// tracked object, "mass A", above the header "t x y"), whether a header names the columns,
// and their names (1, 2, ... without a header).
struct Layout {
    Dialect dialect;
    std::size_t firstLine = 0; ///< index among the data lines of the header or first row
    bool header = false;
    QStringList columns;
};

Layout layoutOf(const std::vector<QByteArray>& lines)
{
    Layout layout;
    const std::vector<QByteArray> head(
        lines.begin(), lines.begin() + std::min<std::ptrdiff_t>(3, std::ssize(lines)));
    layout.dialect = dialectOf(head);
    if (lines.size() >= 2) {
        const QList<QByteArray> first = fieldsOf(lines[0], layout.dialect);
        const QList<QByteArray> second = fieldsOf(lines[1], layout.dialect);
        if (first.size() < second.size() && allWords(first, layout.dialect) &&
            allWords(second, layout.dialect))
            layout.firstLine = 1;
    }
    if (layout.firstLine >= lines.size())
        return layout;
    const QList<QByteArray> first = fieldsOf(lines[layout.firstLine], layout.dialect);
    for (const QByteArray& field : first)
        layout.header = layout.header || !numberIn(field, layout.dialect.decimalComma);
    for (qsizetype i = 0; i < first.size(); ++i)
        layout.columns << (layout.header ? QString::fromUtf8(first[i]) : QString::number(i + 1));
    return layout;
}

// The lines that carry data (neither blank nor comments), with their line numbers.
std::vector<std::pair<int, QByteArray>> dataLines(const QByteArray& text)
{
    std::vector<std::pair<int, QByteArray>> lines;
    int lineNumber = 0;
    for (const QByteArray& raw : text.split('\n')) {
        ++lineNumber;
        const QByteArray line = raw.trimmed();
        if (!line.isEmpty() && !line.startsWith('#'))
            lines.emplace_back(lineNumber, line);
    }
    return lines;
}

Layout layoutOf(const std::vector<std::pair<int, QByteArray>>& lines)
{
    std::vector<QByteArray> texts;
    for (std::size_t i = 0; i < lines.size() && i < 3; ++i)
        texts.push_back(lines[i].second);
    return layoutOf(texts);
}

// The column named t or time (the last such), else the first.
int defaultTimeIndex(const QStringList& columns)
{
    int timeIndex = 0;
    for (const QString& candidate : {QStringLiteral("t"), QStringLiteral("time")})
        if (columns.contains(candidate, Qt::CaseInsensitive)) {
            for (qsizetype i = 0; i < columns.size(); ++i)
                if (columns[i].compare(candidate, Qt::CaseInsensitive) == 0)
                    timeIndex = static_cast<int>(i);
            break;
        }
    return timeIndex;
}

} // namespace

Measurements MeasurementFile::load(const QString& path, const std::vector<Mapping>& mappings,
                                   const Time& time)
{
    return parse(read(path), path, mappings, time);
}

QByteArray MeasurementFile::read(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw FileError(FileError::Kind::Read, path, QString(),
                        QStringLiteral("cannot read the measurements: ") + file.errorString());
    const QByteArray text = file.readAll();
    if (file.error() != QFileDevice::NoError)
        throw FileError(FileError::Kind::Read, path, QString(),
                        QStringLiteral("cannot read the measurements: ") + file.errorString());
    return text;
}

QStringList MeasurementFile::measuredColumns(const QByteArray& text)
{
    QStringList all = columns(text);
    if (!all.isEmpty())
        all.removeAt(defaultTimeIndex(all));
    return all;
}

QStringList MeasurementFile::columns(const QByteArray& text)
{
    return layoutOf(dataLines(text)).columns;
}

QString MeasurementFile::defaultTimeColumn(const QStringList& columns)
{
    return columns.isEmpty() ? QString() : columns[defaultTimeIndex(columns)];
}

namespace {

[[noreturn]] void invalid(const QString& name, const QString& where, const QString& reason)
{
    throw FileError(FileError::Kind::Invalid, name, where, reason);
}

// Where each mapped quantity and the time are in a file's columns.
struct ColumnMap {
    int time = 0;
    std::vector<int> measured; ///< one index per mapping
};

ColumnMap mapColumns(const QStringList& columns,
                     const std::vector<MeasurementFile::Mapping>& mappings,
                     const MeasurementFile::Time& time, const QString& name)
{
    const auto columnNamed = [&](const QString& column, const QString& what) {
        const qsizetype index = columns.indexOf(column);
        if (index < 0)
            invalid(name, QString(),
                    QStringLiteral("no column %1 for %2 (its columns: %3)")
                        .arg(FileError::quoted(column), what, columns.join(QStringLiteral(", "))));
        return static_cast<int>(index);
    };
    ColumnMap map;
    map.time = time.column.isEmpty() ? defaultTimeIndex(columns)
                                     : columnNamed(time.column, QStringLiteral("the time"));
    for (const MeasurementFile::Mapping& mapping : mappings) {
        const int index = columnNamed(
            mapping.column,
            QStringLiteral("the quantity %1").arg(QString::fromStdString(mapping.quantity)));
        if (index == map.time)
            invalid(name, QString(),
                    QStringLiteral("column %1 is the time column; it cannot be a measured "
                                   "quantity too")
                        .arg(FileError::quoted(mapping.column)));
        if (!std::isfinite(mapping.scale) || mapping.scale == 0.0)
            invalid(name, QString(),
                    QStringLiteral("the scale of column %1 must be a finite number other "
                                   "than 0, got %2")
                        .arg(FileError::quoted(mapping.column), number(mapping.scale)));
        map.measured.push_back(index);
    }
    return map;
}

// The finite number in field `index` of a row, or an error naming its line and column.
double valueAt(const QList<QByteArray>& fields, int index, const QStringList& columns,
               const QString& where, const QString& name, const Dialect& dialect)
{
    const QString field =
        QStringLiteral("%1, column %2 (%3)").arg(where).arg(index + 1).arg(columns[index]);
    const QString text = FileError::quoted(QString::fromUtf8(fields[index]));
    if (fields[index].isEmpty())
        invalid(name, field, QStringLiteral("the field is empty (no value was measured there?)"));
    const std::optional<double> value = numberIn(fields[index], dialect.decimalComma);
    if (!value)
        invalid(name, field,
                QStringLiteral("%1 is not a number%2")
                    .arg(text, dialect.separator == ','
                                   ? QStringLiteral(" (a comma-separated file needs decimal "
                                                    "points)")
                                   : QString()));
    if (!std::isfinite(*value))
        invalid(name, field, QStringLiteral("%1 is not a finite number").arg(text));
    return *value;
}

// How messages name the separator.
QString separatorName(const Dialect& dialect)
{
    switch (dialect.separator) {
    case ',':
        return QStringLiteral("commas");
    case ';':
        return QStringLiteral("semicolons");
    case '\t':
        return QStringLiteral("tabs");
    default:
        return QStringLiteral("blanks");
    }
}

} // namespace

Measurements MeasurementFile::parse(const QByteArray& text, const QString& name,
                                    const std::vector<Mapping>& mappings, const Time& time)
{
    if (mappings.empty())
        invalid(name, QString(),
                QStringLiteral("no measured column is mapped to a trace quantity"));
    const std::vector<std::pair<int, QByteArray>> lines = dataLines(text);
    if (lines.empty())
        invalid(name, QString(), QStringLiteral("no data (only blank or comment lines)"));

    // A header (perhaps under a title), or numbered columns.
    const Layout layout = layoutOf(lines);
    const QStringList& columns = layout.columns;
    const ColumnMap map = mapColumns(columns, mappings, time, name);
    Measurements measurements;
    for (const Mapping& mapping : mappings)
        measurements.columns.push_back(
            {mapping.quantity, {}, mapping.sigma, mapping.column.toStdString()});

    int previousLine = 0;
    for (std::size_t row = layout.firstLine + (layout.header ? 1 : 0); row < lines.size(); ++row) {
        const auto& [number_, line] = lines[row];
        const QString where = QStringLiteral("line %1").arg(number_);
        const QList<QByteArray> fields = fieldsOf(line, layout.dialect);
        if (fields.size() != columns.size())
            invalid(name, where,
                    QStringLiteral("%1 fields, but the %2 has %3 (fields separated by %4)")
                        .arg(fields.size())
                        .arg(layout.header ? QStringLiteral("header") : QStringLiteral("first row"))
                        .arg(columns.size())
                        .arg(separatorName(layout.dialect)));
        const double t =
            valueAt(fields, map.time, columns, where, name, layout.dialect) * time.scale +
            time.offset;
        if (!measurements.times.empty() && !(t > measurements.times.back()))
            invalid(name, where,
                    QStringLiteral("the time %1 s is not after the time of line %2 (%3 s); "
                                   "times must increase")
                        .arg(number(t), QString::number(previousLine),
                             number(measurements.times.back())));
        measurements.times.push_back(t);
        previousLine = number_;
        for (std::size_t c = 0; c < map.measured.size(); ++c)
            measurements.columns[c].values.push_back(
                valueAt(fields, map.measured[c], columns, where, name, layout.dialect) *
                mappings[c].scale);
    }
    if (measurements.times.empty())
        invalid(name, QString(), QStringLiteral("a header but no rows of data"));
    return measurements;
}

QString MeasurementFile::readableTimeColumn(const QByteArray& text, const QString& name)
{
    const QStringList all = columns(text);
    QStringList candidates{defaultTimeColumn(all)};
    for (const QString& column : all)
        if (!candidates.contains(column))
            candidates << column;
    std::optional<FileError> firstError;
    for (const QString& candidate : candidates) {
        std::vector<Mapping> each;
        for (const QString& column : all)
            if (column != candidate)
                each.push_back({column, column.toStdString()});
        try {
            parse(text, name, each, {candidate, 1.0, 0.0});
            return candidate;
        } catch (const FileError& e) {
            if (!firstError)
                firstError = e;
        }
    }
    if (firstError)
        throw *firstError;
    invalid(name, QString(), QStringLiteral("no data (only blank or comment lines)"));
}

std::vector<MeasurementFile::Mapping>
MeasurementFile::mappingsByName(const QStringList& columns, const QString& timeColumn,
                                const std::vector<std::string>& quantities)
{
    const QString time = timeColumn.isEmpty() ? defaultTimeColumn(columns) : timeColumn;
    std::vector<Mapping> mappings;
    for (const QString& column : columns) {
        if (column == time)
            continue;
        // The exact name first (x → x), else the name in another case (Phi → phi).
        const auto exact = std::find(quantities.begin(), quantities.end(), column.toStdString());
        auto match = exact;
        if (match == quantities.end())
            match = std::find_if(quantities.begin(), quantities.end(), [&](const std::string& q) {
                return QString::fromStdString(q).compare(column, Qt::CaseInsensitive) == 0;
            });
        if (match != quantities.end())
            mappings.push_back({column, *match, 1.0, 0.0});
    }
    return mappings;
}

} // namespace clab
