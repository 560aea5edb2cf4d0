#include "export/FfmpegFrameSink.h"

#include "export/GifPalette.h"

#include <QCoreApplication>
#include <QFile>
#include <QImage>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/dict.h>
#include <libavutil/error.h>
#include <libavutil/log.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
}

#include <cstring>

namespace clab {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("FfmpegFrameSink", text);
}

QString avError(int code)
{
    char text[AV_ERROR_MAX_STRING_SIZE] = {};
    av_strerror(code, text, sizeof text);
    return QString::fromLocal8Bit(text);
}

} // namespace

FfmpegFrameSink::FfmpegFrameSink(VideoFormat::Kind kind) : kind_(kind)
{
}

FfmpegFrameSink::~FfmpegFrameSink()
{
    close();
}

void FfmpegFrameSink::close()
{
    if (fileOpen_)
        avio_closep(&format_->pb);
    fileOpen_ = false;
    sws_freeContext(scaler_);
    scaler_ = nullptr;
    av_packet_free(&packet_);
    av_frame_free(&frame_);
    avcodec_free_context(&codec_);
    avformat_free_context(format_);
    format_ = nullptr;
    stream_ = nullptr;
}

QString FfmpegFrameSink::codecName() const
{
    return codecName_;
}

bool FfmpegFrameSink::openEncoder(const QSize& size, int fps)
{
    const AVCodec* codec = nullptr;
    if (kind_ == VideoFormat::Gif) {
        codec = avcodec_find_encoder(AV_CODEC_ID_GIF);
        codecName_ = QStringLiteral("GIF");
    } else if ((codec = avcodec_find_encoder_by_name("libx264")) != nullptr) {
        codecName_ = QStringLiteral("H.264 (libx264)");
    } else if ((codec = avcodec_find_encoder(AV_CODEC_ID_MPEG4)) != nullptr) {
        codecName_ = tr("MPEG-4 Part 2 (this FFmpeg has no H.264 encoder)");
    }
    if (codec == nullptr)
        return fail(tr("this FFmpeg has no %1 encoder")
                        .arg(kind_ == VideoFormat::Gif ? QStringLiteral("GIF")
                                                       : QStringLiteral("H.264 or MPEG-4")));
    codec_ = avcodec_alloc_context3(codec);
    if (codec_ == nullptr)
        return fail(tr("out of memory"));
    codec_->width = size.width();
    codec_->height = size.height();
    codec_->time_base = AVRational{1, fps};
    codec_->framerate = AVRational{fps, 1};
    codec_->pix_fmt = kind_ == VideoFormat::Gif ? AV_PIX_FMT_PAL8 : AV_PIX_FMT_YUV420P;
    if (kind_ == VideoFormat::Mp4) {
        codec_->gop_size = fps; // a keyframe a second: a slide's player can seek
        // swscale converts with BT.601 coefficients into the limited range: say so to players.
        codec_->colorspace = AVCOL_SPC_SMPTE170M;
        codec_->color_range = AVCOL_RANGE_MPEG;
        if (codec->id == AV_CODEC_ID_H264) {
            av_opt_set(codec_->priv_data, "preset", "medium", 0);
            av_opt_set(codec_->priv_data, "crf", "20", 0);
        } else {
            codec_->flags |= AV_CODEC_FLAG_QSCALE;
            codec_->global_quality = FF_QP2LAMBDA * 3;
        }
    }
    if (format_->oformat->flags & AVFMT_GLOBALHEADER)
        codec_->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    if (const int err = avcodec_open2(codec_, codec, nullptr); err < 0)
        return fail(tr("the %1 encoder refuses %2 × %3 at %4 frames/s: %5")
                        .arg(codecName_)
                        .arg(size.width())
                        .arg(size.height())
                        .arg(fps)
                        .arg(avError(err)));
    return true;
}

bool FfmpegFrameSink::open(const QString& path, const QSize& size, int fps)
{
    // Errors only: libx264's statistics would fill the terminal after every export.
    av_log_set_level(AV_LOG_ERROR);
    const char* muxer = kind_ == VideoFormat::Gif ? "gif" : "mp4";
    const QByteArray file = QFile::encodeName(path);
    if (avformat_alloc_output_context2(&format_, nullptr, muxer, file.constData()) < 0)
        return fail(tr("this FFmpeg cannot write %1 files").arg(QString::fromLatin1(muxer)));
    if (!openEncoder(size, fps))
        return false;
    stream_ = avformat_new_stream(format_, nullptr);
    frame_ = av_frame_alloc();
    packet_ = av_packet_alloc();
    if (stream_ == nullptr || frame_ == nullptr || packet_ == nullptr)
        return fail(tr("out of memory"));
    stream_->time_base = codec_->time_base;
    if (const int err = avcodec_parameters_from_context(stream_->codecpar, codec_); err < 0)
        return fail(avError(err));
    frame_->format = codec_->pix_fmt;
    frame_->width = size.width();
    frame_->height = size.height();
    if (const int err = av_frame_get_buffer(frame_, 0); err < 0)
        return fail(avError(err));
    if (kind_ == VideoFormat::Mp4) {
        scaler_ = sws_getContext(size.width(), size.height(), AV_PIX_FMT_RGB24, size.width(),
                                 size.height(), AV_PIX_FMT_YUV420P, SWS_BICUBIC, nullptr, nullptr,
                                 nullptr);
        if (scaler_ == nullptr)
            return fail(tr("cannot convert RGB to YUV 4:2:0 at %1 × %2")
                            .arg(size.width())
                            .arg(size.height()));
    }
    if (const int err = avio_open(&format_->pb, file.constData(), AVIO_FLAG_WRITE); err < 0)
        return fail(avError(err));
    fileOpen_ = true;
    AVDictionary* options = nullptr;
    if (kind_ == VideoFormat::Mp4)
        av_dict_set(&options, "movflags", "+faststart", 0); // the index first: plays at once
    const int err = avformat_write_header(format_, &options);
    av_dict_free(&options);
    if (err < 0)
        return fail(avError(err));
    return true;
}

bool FfmpegFrameSink::convert(const QImage& image)
{
    if (const int err = av_frame_make_writable(frame_); err < 0)
        return fail(avError(err));
    if (kind_ == VideoFormat::Gif) {
        // One palette for the whole animation, from its first frame.
        if (!palette_)
            palette_ = std::make_unique<GifPalette>(image);
        palette_->map(image, frame_->data[0], frame_->linesize[0]);
        std::memcpy(frame_->data[1], palette_->colours().data(), 4 * GifPalette::kSize);
        return true;
    }
    const QImage rgb = image.convertToFormat(QImage::Format_RGB888);
    const uint8_t* source[1] = {rgb.constBits()};
    const int stride[1] = {static_cast<int>(rgb.bytesPerLine())};
    sws_scale(scaler_, source, stride, 0, rgb.height(), frame_->data, frame_->linesize);
    return true;
}

bool FfmpegFrameSink::write(const QImage& frame)
{
    if (frame.width() != codec_->width || frame.height() != codec_->height)
        return fail(tr("the frame is %1 × %2 pixels, the video %3 × %4")
                        .arg(frame.width())
                        .arg(frame.height())
                        .arg(codec_->width)
                        .arg(codec_->height));
    if (!convert(frame))
        return false;
    frame_->pts = pts_++;
    return encode(frame_);
}

bool FfmpegFrameSink::encode(AVFrame* frame)
{
    int err = avcodec_send_frame(codec_, frame);
    if (err < 0)
        return fail(tr("the %1 encoder: %2").arg(codecName_, avError(err)));
    while ((err = avcodec_receive_packet(codec_, packet_)) >= 0) {
        // Every frame lasts 1/fps, up to the stream's time base: GIF's hundredths of a second
        // alternate (3, 3, 4, … at 30 frames/s) so that the animation keeps its rate. Without a
        // duration the MP4 muxer's edit list ends before the last frame, and players drop it.
        const int64_t next = av_rescale_q(packet_->pts + 1, codec_->time_base, stream_->time_base);
        av_packet_rescale_ts(packet_, codec_->time_base, stream_->time_base);
        packet_->duration = next - packet_->pts;
        packet_->stream_index = stream_->index;
        err = av_interleaved_write_frame(format_, packet_);
        if (err < 0)
            return fail(avError(err));
    }
    if (err != AVERROR(EAGAIN) && err != AVERROR_EOF)
        return fail(tr("the %1 encoder: %2").arg(codecName_, avError(err)));
    return true;
}

bool FfmpegFrameSink::finish()
{
    if (!encode(nullptr))
        return false;
    if (const int err = av_write_trailer(format_); err < 0)
        return fail(avError(err));
    // Closing flushes the last bytes: a full disk shows here.
    fileOpen_ = false;
    if (const int err = avio_closep(&format_->pb); err < 0)
        return fail(avError(err));
    return true;
}

} // namespace clab
