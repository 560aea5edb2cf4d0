#pragma once

#include "trace/Trace.h"

#include <functional>
#include <string>
#include <vector>

namespace clab {

class CsvWriter;

/// \brief Formats a trace's CSV row by row, as the samples arrive.
///
/// The header goes out on construction, then each add() appends one row; the text is handed
/// to the sink in chunks of about 64 kB that always end with a complete row, so memory stays
/// flat however many rows are written, and whatever has reached the sink is a valid CSV prefix.
/// Same format as CsvWriter (it is what CsvWriter uses).
class CsvStream {
public:
    using Sink = std::function<void(const std::string& chunk)>;

    /// `trace` supplies the columns and must outlive the stream. Throws FileError(Invalid) for
    /// an unknown or repeated column of `writer`, before anything reaches the sink.
    CsvStream(const CsvWriter& writer, const Trace& trace, Sink sink);

    /// Appends the row of one sample (of `trace`'s shape).
    void add(const TraceSample& sample);
    /// Hands the rest to the sink.
    void finish();
    /// Rows added so far.
    std::size_t rows() const { return rows_; }

private:
    const Trace& trace_;
    Sink sink_;
    std::vector<int> indices_;
    std::vector<double> row_;
    std::string buffer_;
    std::size_t rows_ = 0;
};

} // namespace clab
