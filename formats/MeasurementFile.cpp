#include "MeasurementFile.h"

#include "FileError.h"

#include <QFile>
#include <QList>

#include <charconv>
#include <cmath>
#include <optional>

namespace clab {

namespace {

// Fields of one line: split at commas when the file is CSV, else at runs of blanks.
QList<QByteArray> fieldsOf(const QByteArray& line, bool comma)
{
    QList<QByteArray> fields;
    if (comma) {
        for (const QByteArray& field : line.split(','))
            fields << field.trimmed();
        return fields;
    }
    for (const QByteArray& field : line.simplified().split(' '))
        if (!field.isEmpty())
            fields << field;
    return fields;
}

std::optional<double> numberIn(const QByteArray& field)
{
    QByteArray text = field.trimmed();
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

// The columns' names from the first line of data: its fields when any is not a number (a
// header), else 1, 2, ...
QStringList columnsOf(const QByteArray& firstLine, bool comma, bool& header)
{
    const QList<QByteArray> first = fieldsOf(firstLine, comma);
    header = false;
    for (const QByteArray& field : first)
        header = header || !numberIn(field);
    QStringList columns;
    for (qsizetype i = 0; i < first.size(); ++i)
        columns << (header ? QString::fromUtf8(first[i]) : QString::number(i + 1));
    return columns;
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
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw FileError(FileError::Kind::Read, path, QString(),
                        QStringLiteral("cannot read the measurements: ") + file.errorString());
    const QByteArray text = file.readAll();
    if (file.error() != QFileDevice::NoError)
        throw FileError(FileError::Kind::Read, path, QString(),
                        QStringLiteral("cannot read the measurements: ") + file.errorString());
    return parse(text, path, mappings, time);
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
    for (const QByteArray& raw : text.split('\n')) {
        const QByteArray line = raw.trimmed();
        if (line.isEmpty() || line.startsWith('#'))
            continue;
        bool header = false;
        return columnsOf(line, line.contains(','), header);
    }
    return {};
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
               const QString& where, const QString& name)
{
    const QString field =
        QStringLiteral("%1, column %2 (%3)").arg(where).arg(index + 1).arg(columns[index]);
    const std::optional<double> value = numberIn(fields[index]);
    if (!value)
        invalid(name, field,
                QStringLiteral("%1 is not a number")
                    .arg(FileError::quoted(QString::fromUtf8(fields[index]))));
    if (!std::isfinite(*value))
        invalid(name, field,
                QStringLiteral("%1 is not a finite number")
                    .arg(FileError::quoted(QString::fromUtf8(fields[index]))));
    return *value;
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
    const bool comma = lines.front().second.contains(',');

    // A header, or numbered columns.
    bool header = false;
    const QStringList columns = columnsOf(lines.front().second, comma, header);
    const ColumnMap map = mapColumns(columns, mappings, time, name);
    Measurements measurements;
    for (const Mapping& mapping : mappings)
        measurements.columns.push_back(
            {mapping.quantity, {}, mapping.sigma, mapping.column.toStdString()});

    int previousLine = 0;
    for (std::size_t row = header ? 1 : 0; row < lines.size(); ++row) {
        const auto& [number_, line] = lines[row];
        const QString where = QStringLiteral("line %1").arg(number_);
        const QList<QByteArray> fields = fieldsOf(line, comma);
        if (fields.size() != columns.size())
            invalid(name, where,
                    QStringLiteral("%1 fields, but the %2 has %3")
                        .arg(fields.size())
                        .arg(header ? QStringLiteral("header") : QStringLiteral("first row"))
                        .arg(columns.size()));
        const double t = valueAt(fields, map.time, columns, where, name) * time.scale + time.offset;
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
                valueAt(fields, map.measured[c], columns, where, name) * mappings[c].scale);
    }
    if (measurements.times.empty())
        invalid(name, QString(), QStringLiteral("a header but no rows of data"));
    return measurements;
}

} // namespace clab
