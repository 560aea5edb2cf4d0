#include "CsvStream.h"

#include "CsvWriter.h"

#include <charconv>

namespace clab {

namespace {

// Rows are buffered and handed to the sink in chunks of about this size.
constexpr std::size_t chunkSize = 1 << 16;

} // namespace

CsvStream::CsvStream(const CsvWriter& writer, const Trace& trace, Sink sink)
    : trace_(trace), sink_(std::move(sink)), indices_(writer.columnIndices(trace))
{
    buffer_.reserve(chunkSize + 4096);
    buffer_ = writer.commentBlock();
    const std::vector<std::string> names = trace.columnNames();
    for (std::size_t i = 0; i < indices_.size(); ++i) {
        if (i)
            buffer_ += ',';
        buffer_ += CsvWriter::quote(names[static_cast<std::size_t>(indices_[i])]);
    }
    buffer_ += "\r\n";
}

void CsvStream::add(const TraceSample& sample)
{
    trace_.row(sample, row_);
    char number[64];
    for (std::size_t i = 0; i < indices_.size(); ++i) {
        if (i)
            buffer_ += ',';
        // std::to_chars ignores the locale; 17 significant digits round-trip every double.
        const auto result = std::to_chars(number, number + sizeof number,
                                          row_[static_cast<std::size_t>(indices_[i])],
                                          std::chars_format::general, 17);
        buffer_.append(number, result.ptr);
    }
    buffer_ += "\r\n";
    ++rows_;
    if (buffer_.size() >= chunkSize) {
        sink_(buffer_);
        buffer_.clear();
    }
}

void CsvStream::finish()
{
    if (!buffer_.empty())
        sink_(buffer_);
    buffer_.clear();
}

} // namespace clab
