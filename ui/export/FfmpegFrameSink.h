#pragma once

#include "export/FrameSink.h"

#include <memory>

struct AVCodecContext;
struct AVFormatContext;
struct AVFrame;
struct AVPacket;
struct AVStream;
struct SwsContext;

namespace clab {

class GifPalette;

/// \brief MP4 (H.264) and animated GIF through FFmpeg's libraries (libavformat, libavcodec,
/// libswscale).
///
/// MP4: H.264 by libx264 (constant quality, CRF 20, 4:2:0 so even sides, a keyframe every
/// second, the index at the front so a browser starts playing at once); where this libavcodec
/// has no H.264 encoder, MPEG-4 Part 2 instead, and codecName() says so. GIF: 256 colours from
/// the first frame (GifPalette), looping for ever; GIF counts time in hundredths of a second, so
/// a frame lasts 100/fps of them rounded.
class FfmpegFrameSink : public FrameSink {
public:
    explicit FfmpegFrameSink(VideoFormat::Kind kind);
    ~FfmpegFrameSink() override;

    bool open(const QString& path, const QSize& size, int fps) override;
    bool write(const QImage& frame) override;
    bool finish() override;
    QString codecName() const override;

private:
    /// Finds and opens the encoder for frames of `size` at `fps`.
    bool openEncoder(const QSize& size, int fps);
    /// Hands `frame` (nullptr: the end) to the encoder and writes every packet it returns.
    bool encode(AVFrame* frame);
    /// Fills frame_ from `image`.
    bool convert(const QImage& image);
    void close();

    VideoFormat::Kind kind_;
    QString codecName_;
    AVFormatContext* format_ = nullptr;
    AVCodecContext* codec_ = nullptr;
    AVStream* stream_ = nullptr;
    AVFrame* frame_ = nullptr;
    AVPacket* packet_ = nullptr;
    SwsContext* scaler_ = nullptr;
    std::unique_ptr<GifPalette> palette_;
    long long pts_ = 0;
    bool fileOpen_ = false;
};

} // namespace clab
