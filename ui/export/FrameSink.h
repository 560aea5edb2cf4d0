#pragma once

#include "export/VideoFormat.h"

#include <QSize>
#include <QString>

#include <memory>

class QImage;

namespace clab {

/// \brief Encodes a video frame by frame into a file: the encoder behind VideoExporter.
///
/// open(), then write() for every frame, then finish(); each returns false with the reason in
/// error() (what failed and why; the caller adds the file). Destroying a sink that was not
/// finished closes its file unfinished: the caller deletes it (VideoExporter writes into a
/// temporary file, so a cancelled or failed export never leaves a half video).
class FrameSink {
public:
    virtual ~FrameSink() = default;

    /// The encoder for `kind`: OggFrameSink for Ogg, FfmpegFrameSink for MP4 and GIF.
    static std::unique_ptr<FrameSink> create(VideoFormat::Kind kind);

    /// Starts a video of frames of `size` (even sides) at `fps` frames per second in `path`.
    virtual bool open(const QString& path, const QSize& size, int fps) = 0;
    /// Encodes one frame of the size given to open().
    virtual bool write(const QImage& frame) = 0;
    /// Flushes the encoder and completes the file.
    virtual bool finish() = 0;
    /// The codec that encodes the frames, e.g. "H.264 (libx264)".
    virtual QString codecName() const = 0;

    QString error() const { return error_; }

protected:
    bool fail(const QString& reason)
    {
        error_ = reason;
        return false;
    }

private:
    QString error_;
};

} // namespace clab
