#include "CsvWriter.h"

#include "AtomicFile.h"
#include "CsvStream.h"
#include "SceneFile.h"
#include "integrate/SimulationSetting.h"
#include "trace/TraceSeries.h"

#include <QFile>
#include <QStringList>
#include <QTextStream>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <system_error>

namespace clab {

CsvWriter::CsvWriter(std::vector<std::string> columns) : columns_(std::move(columns))
{
}

std::string CsvWriter::formatNumber(double value)
{
    // std::to_chars ignores the locale; 17 significant digits round-trip every double.
    char buffer[64];
    const auto result =
        std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::general, 17);
    return std::string(buffer, result.ec == std::errc() ? result.ptr : buffer);
}

std::string CsvWriter::quote(const std::string& field)
{
    if (field.find_first_of(",\"\r\n") == std::string::npos)
        return field;
    std::string quoted = "\"";
    for (char c : field) {
        if (c == '"')
            quoted += '"';
        quoted += c;
    }
    quoted += '"';
    return quoted;
}

std::vector<int> CsvWriter::columnIndices(const Trace& trace) const
{
    const std::vector<std::string> names = trace.columnNames();
    std::vector<int> indices;
    if (columns_.empty()) {
        for (int i = 0; i < static_cast<int>(names.size()); ++i)
            indices.push_back(i);
        return indices;
    }
    for (const std::string& name : columns_) {
        const auto it = std::find(names.begin(), names.end(), name);
        if (it == names.end()) {
            QStringList available;
            for (const std::string& n : names)
                available << QString::fromStdString(n);
            throw FileError(
                FileError::Kind::Invalid, QStringLiteral("CSV export"), QStringLiteral("columns"),
                QStringLiteral("unknown column \"%1\" (this trace has: %2)")
                    .arg(QString::fromStdString(name), available.join(QStringLiteral(", "))));
        }
        const int index = static_cast<int>(it - names.begin());
        if (std::find(indices.begin(), indices.end(), index) != indices.end())
            throw FileError(
                FileError::Kind::Invalid, QStringLiteral("CSV export"), QStringLiteral("columns"),
                QStringLiteral("column \"%1\" is listed twice").arg(QString::fromStdString(name)));
        indices.push_back(index);
    }
    return indices;
}

template <typename Sink> void CsvWriter::writeRows(const Trace& trace, Sink&& sink) const
{
    CsvStream stream(*this, trace, std::forward<Sink>(sink));
    for (const TraceSample& sample : trace.samples)
        stream.add(sample);
    stream.finish();
}

QByteArray CsvWriter::toCsv(const Trace& trace) const
{
    QByteArray out;
    writeRows(trace, [&](const std::string& chunk) {
        out.append(chunk.data(), static_cast<qsizetype>(chunk.size()));
    });
    return out;
}

void CsvWriter::write(const Trace& trace, QIODevice& device, const QString& name) const
{
    writeRows(trace, [&](const std::string& chunk) {
        if (!AtomicFile::writeFully(device, chunk.data(), static_cast<qint64>(chunk.size())))
            throw FileError(FileError::Kind::Write, name, QString(),
                            QStringLiteral("cannot write the CSV: %1").arg(device.errorString()));
    });
}

void CsvWriter::write(const Trace& trace, QTextStream& stream, const QString& name) const
{
    writeRows(trace, [&](const std::string& chunk) {
        stream << QLatin1String(chunk.data(), static_cast<qsizetype>(chunk.size()));
        if (stream.status() != QTextStream::Ok)
            throw FileError(FileError::Kind::Write, name, QString(),
                            QStringLiteral("cannot write the CSV"));
    });
    stream.flush();
    if (stream.status() != QTextStream::Ok)
        throw FileError(FileError::Kind::Write, name, QString(),
                        QStringLiteral("cannot write the CSV"));
}

void CsvWriter::setComment(std::vector<std::string> lines)
{
    comment_ = std::move(lines);
}

std::string CsvWriter::commentBlock() const
{
    std::string block;
    for (const std::string& line : comment_) {
        // One physical line each: a line break inside would start a row.
        std::string flat = line;
        std::replace(flat.begin(), flat.end(), '\n', ' ');
        std::replace(flat.begin(), flat.end(), '\r', ' ');
        block += "# " + flat + "\r\n";
    }
    return block;
}

std::vector<std::string> CsvWriter::describe(const SceneDocument& document,
                                             const Trace& trace) const
{
    const auto number = [](double v) {
        return QString::number(v, 'g', 10).toStdString();
    };
    std::vector<std::string> lines;
    const SceneDefinition* definition = document.definition();
    // A system has no scene name: its definition's name ("system") stands for it.
    lines.push_back("ConstraintLab trace of scene " +
                    (definition ? definition->name : document.scene) +
                    (document.title.empty() ? std::string() : " (" + document.title + ")"));
    std::string parameters = "parameters:";
    bool first = true;
    // In the scene's order (the map's is alphabetical), then any the scene does not know.
    std::vector<std::string> order;
    if (definition)
        for (const ParameterSpec& spec : definition->parameters)
            if (document.parameters.count(spec.name))
                order.push_back(spec.name);
    for (const auto& entry : document.parameters)
        if (std::find(order.begin(), order.end(), entry.first) == order.end())
            order.push_back(entry.first);
    for (const std::string& name : order) {
        const std::vector<double>& values = document.parameters.at(name);
        // Appended piece by piece: GCC 12 warns (-Wrestrict, a known false alarm) on
        // "text" + std::string temporaries at -O2.
        std::string value = values.size() > 1 ? "(" : "";
        for (std::size_t i = 0; i < values.size(); ++i) {
            if (i)
                value += ' ';
            value += number(values[i]);
        }
        if (values.size() > 1)
            value += ')';
        const ParameterSpec* spec = definition ? definition->parameter(name) : nullptr;
        const std::string unit = spec && !spec->unit.empty() ? " " + spec->unit : "";
        parameters += (first ? " " : ", ") + name + " = " + value + unit;
        first = false;
    }
    lines.push_back(parameters);
    const SimulationOptions& o = document.simulation;
    const SimulationSetting::SummaryStyle style{
        .choiceJoin = " ", .withDependents = false, .number = number};
    lines.push_back("simulation: " + SimulationSetting::summary(o, style) +
                    (o.stopAtEnd && definition && !definition->end.empty()
                         ? ", stops where " + definition->end
                         : std::string()));
    if (o.start) // the parameters above do not say where such a run starts
        lines.push_back("start: stored, at t0 = " + number(o.start->t0) +
                        " s (the scene file's \"start\", used instead of the parameters' start)");
    std::string units = "units:";
    const std::vector<std::string> names = trace.columnNames();
    first = true;
    for (int index : columnIndices(trace)) {
        const std::string& name = names[static_cast<std::size_t>(index)];
        const std::string unit = TraceSeries::unit(trace, name);
        units += (first ? " " : ", ") + name + " [" + (unit.empty() ? "1" : unit) + "]";
        first = false;
    }
    lines.push_back(units);
    return lines;
}

QByteArray CsvWriter::runsCsv(const std::vector<LabelledTrace>& runs) const
{
    const auto invalidRuns = [](const QString& reason) {
        return FileError(FileError::Kind::Invalid, QStringLiteral("CSV export"),
                         QStringLiteral("runs"), reason);
    };
    if (runs.empty())
        throw invalidRuns(QStringLiteral("there are no runs to write"));
    for (std::size_t r = 0; r < runs.size(); ++r)
        if (!runs[r].trace)
            throw invalidRuns(QStringLiteral("run %1 (\"%2\") has no trace")
                                  .arg(r + 1)
                                  .arg(QString::fromStdString(runs[r].label)));

    // The columns: the chosen ones, or the first run's, which every run must then share.
    const std::vector<std::string> first = runs.front().trace->columnNames();
    const std::vector<std::string> columns = columns_.empty() ? first : columns_;
    std::vector<std::vector<int>> indices;
    indices.reserve(runs.size());
    for (const LabelledTrace& run : runs) {
        const QString label = QString::fromStdString(run.label);
        if (columns_.empty() && run.trace->columnNames() != first)
            throw FileError(FileError::Kind::Invalid, QStringLiteral("CSV export"),
                            QStringLiteral("columns"),
                            QStringLiteral("run \"%1\" has other columns than run \"%2\"; "
                                           "choose columns all runs have")
                                .arg(label, QString::fromStdString(runs.front().label)));
        try {
            indices.push_back(columnIndices(*run.trace));
        } catch (const FileError& e) {
            throw FileError(e.kind(), e.path(), e.key(),
                            QStringLiteral("run \"%1\": %2").arg(label, e.reason()));
        }
    }

    std::string text = commentBlock() + "run";
    for (const std::string& name : columns)
        text += ',' + quote(name);
    text += "\r\n";
    std::vector<double> row;
    for (std::size_t r = 0; r < runs.size(); ++r) {
        const Trace& trace = *runs[r].trace;
        const std::string label = quote(runs[r].label);
        for (std::size_t k = 0; k < trace.samples.size(); ++k) {
            trace.row(k, row);
            text += label;
            for (int index : indices[r])
                text += ',' + formatNumber(row[static_cast<std::size_t>(index)]);
            text += "\r\n";
        }
    }
    return QByteArray::fromStdString(text);
}

void CsvWriter::writeRunsFile(const std::vector<LabelledTrace>& runs, const QString& path) const
{
    // Formatted in full first: a bad column or run never leaves a file behind.
    const QByteArray csv = runsCsv(runs);
    if (path == QLatin1String("-")) {
        QFile out;
        if (!out.open(stdout, QIODevice::WriteOnly) ||
            !AtomicFile::writeFully(out, csv.constData(), csv.size()) || !out.flush())
            throw FileError(FileError::Kind::Write, QStringLiteral("standard output"), QString(),
                            QStringLiteral("cannot write the CSV: %1").arg(out.errorString()));
        return;
    }
    AtomicFile::write(path, csv, QStringLiteral("the CSV"));
}

QByteArray CsvWriter::eventsCsv(const Trace& trace, const std::string& scene)
{
    std::string text = "t,scene,contact,contact_name,event\r\n";
    for (const ContactEvent& e : trace.events) {
        const auto index = static_cast<std::size_t>(e.contact);
        const std::vector<std::string>& names =
            ContactEvent::oneSided(e.kind) ? trace.unilateralNames() : trace.contactNames();
        const std::string name = index < names.size() ? names[index] : std::to_string(e.contact);
        text += formatNumber(e.t) + ',' + quote(scene) + ',' + std::to_string(e.contact) + ',' +
                quote(name) + ',' + ContactEvent::kindName(e.kind) + "\r\n";
    }
    return QByteArray::fromStdString(text);
}

void CsvWriter::writeEventsFile(const Trace& trace, const std::string& scene, const QString& path)
{
    AtomicFile::write(path, eventsCsv(trace, scene), QStringLiteral("the events"));
}

void CsvWriter::writeFile(const Trace& trace, const QString& path) const
{
    columnIndices(trace); // an unknown column must not leave an empty file behind
    if (path == QLatin1String("-")) {
        QFile out;
        if (!out.open(stdout, QIODevice::WriteOnly))
            throw FileError(FileError::Kind::Write, QStringLiteral("standard output"), QString(),
                            QStringLiteral("cannot open: %1").arg(out.errorString()));
        write(trace, out, QStringLiteral("standard output"));
        if (!out.flush())
            throw FileError(FileError::Kind::Write, QStringLiteral("standard output"), QString(),
                            QStringLiteral("cannot write the CSV: %1").arg(out.errorString()));
        return;
    }
    AtomicFile file(path, QStringLiteral("the CSV"));
    writeRows(trace, [&](const std::string& chunk) {
        file.append(chunk.data(), static_cast<qint64>(chunk.size()));
    });
    file.commit();
}

} // namespace clab
