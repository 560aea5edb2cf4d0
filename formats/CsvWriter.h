#pragma once

#include "FileError.h"
#include "trace/LabelledTrace.h"
#include "scenes/SceneDocument.h"
#include "trace/Trace.h"

#include <QByteArray>
#include <QString>

#include <string>
#include <vector>

class QIODevice;
class QTextStream;

namespace clab {

/// \brief Writes a Trace as CSV (RFC 4180).
///
/// One header row with the column names (Trace::columnNames(), or the chosen subset in the
/// order given), then one row per sample. Numbers have 17 significant digits, so that parsing
/// them back gives the same double bit for bit, and always use '.' as decimal point whatever
/// the locale. Records end with CRLF, as RFC 4180 prescribes (spreadsheets, pandas and R read
/// it; `tr -d '\r'` removes it). Fields are quoted only when they contain a comma, a quote or a
/// line break.
class CsvWriter {
public:
    /// Columns to write: empty means all, in trace order.
    explicit CsvWriter(std::vector<std::string> columns = {});

    /// Lines written before the header, each as "# line" (off by default: a plain RFC 4180
    /// file). pandas reads such a file with comment='#', R with comment.char = "#".
    void setComment(std::vector<std::string> lines);
    /// The comment lines as they are written ("" when there are none).
    std::string commentBlock() const;
    /// The comment a trace of `document` gets: scene, parameters and simulation settings with
    /// units, and the unit of every column written.
    std::vector<std::string> describe(const SceneDocument& document, const Trace& trace) const;

    /// The column indices that will be written for `trace`. Throws FileError(Invalid, key
    /// "columns") naming an unknown or repeated column and listing the available ones.
    std::vector<int> columnIndices(const Trace& trace) const;

    /// Whole CSV text in memory (for small traces and tests).
    QByteArray toCsv(const Trace& trace) const;
    /// Streams the CSV to an open device. Throws FileError(Write) naming `name` on failure.
    void write(const Trace& trace, QIODevice& device, const QString& name) const;
    /// Streams the CSV to a text stream (e.g. standard output bound by the CLI).
    void write(const Trace& trace, QTextStream& stream, const QString& name) const;
    /// Writes a file atomically (QSaveFile: a failed write never replaces a good file), or to
    /// standard output when `path` is "-".
    void writeFile(const Trace& trace, const QString& path) const;

    /// Several runs of one scene in one CSV: a first column "run" holding each run's label, then
    /// the chosen columns (all of the first run's when none were chosen), rows run after run.
    /// Throws FileError(Invalid, key "columns") when a run lacks a column or the runs' columns
    /// differ, FileError(Invalid, key "runs") when `runs` is empty or holds a null trace.
    QByteArray runsCsv(const std::vector<LabelledTrace>& runs) const;
    /// runsCsv written atomically to `path`, or to standard output when `path` is "-".
    void writeRunsFile(const std::vector<LabelledTrace>& runs, const QString& path) const;

    /// The trace's contact events as CSV: header "t,scene,contact,contact_name,event", then one
    /// row per event (event: stick, slip or reversal), same number format and line ends.
    static QByteArray eventsCsv(const Trace& trace, const std::string& scene);
    /// eventsCsv written atomically to `path` (QSaveFile). Throws FileError(Write).
    static void writeEventsFile(const Trace& trace, const std::string& scene, const QString& path);

    /// One field formatted the way rows are: 17 significant digits, '.' decimal point.
    static std::string formatNumber(double value);
    /// One field quoted according to RFC 4180 when needed.
    static std::string quote(const std::string& field);

private:
    template <typename Sink> void writeRows(const Trace& trace, Sink&& sink) const;

    std::vector<std::string> columns_;
    std::vector<std::string> comment_;
};

} // namespace clab
