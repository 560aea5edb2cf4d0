// MP4 (H.264) and animated GIF video export, checked by decoding the files with FFmpeg's
// libraries: codec, size, number of frames, timing and the pictures themselves against the
// frames the exporter rendered; a name's suffix picks the format. (Cancel in every format:
// tst_VideoExporter.)
#include "../support/FolderEntries.h"
#include <export/FfmpegFrameSink.h>
#include <export/GifPalette.h>
#include <export/VideoExportDialog.h>
#include <export/VideoExporter.h>
#include <export/VideoFormat.h>
#include <render/VtkSurfaceFormat.h>
#include <view3d/SceneView.h>

#include <scenes/SceneRegistry.h>

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include "../support/SceneRuns.h"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libswscale/swscale.h>
}

#include <cmath>
#include <memory>

using namespace clab;

namespace {

const bool surfaceFormatSet = [] {
    VtkSurfaceFormat::makeDefault();
    return true;
}();

/// What FFmpeg reads back from a video file.
struct Decoded {
    QString problem; // empty when the file decoded
    AVCodecID codec = AV_CODEC_ID_NONE;
    QSize size;
    AVRational timeBase{0, 1};
    QList<qint64> durations; // of the packets, in timeBase
    QList<QImage> frames;    // RGB888
};

QImage toImage(const AVFrame* frame)
{
    QImage image(frame->width, frame->height, QImage::Format_RGB888);
    SwsContext* sws = sws_getContext(
        frame->width, frame->height, static_cast<AVPixelFormat>(frame->format), frame->width,
        frame->height, AV_PIX_FMT_RGB24, SWS_BICUBIC, nullptr, nullptr, nullptr);
    uint8_t* out[1] = {image.bits()};
    const int stride[1] = {static_cast<int>(image.bytesPerLine())};
    sws_scale(sws, frame->data, frame->linesize, 0, frame->height, out, stride);
    sws_freeContext(sws);
    return image;
}

// Sends `packet` (nullptr: the end) to the decoder and collects the frames it returns.
void drain(AVCodecContext* decoder, const AVPacket* packet, AVFrame* frame, Decoded& d)
{
    if (avcodec_send_packet(decoder, packet) < 0) {
        d.problem = QStringLiteral("the decoder refuses a packet");
        return;
    }
    while (avcodec_receive_frame(decoder, frame) >= 0)
        d.frames << toImage(frame);
}

Decoded decode(const QString& path)
{
    Decoded d;
    AVFormatContext* format = nullptr;
    if (avformat_open_input(&format, QFile::encodeName(path).constData(), nullptr, nullptr) < 0) {
        d.problem = QStringLiteral("libavformat cannot open it");
        return d;
    }
    avformat_find_stream_info(format, nullptr);
    const AVCodec* codec = nullptr;
    const int index = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, &codec, 0);
    if (index < 0 || codec == nullptr) {
        d.problem = QStringLiteral("no video stream");
        avformat_close_input(&format);
        return d;
    }
    const AVStream* stream = format->streams[index];
    d.codec = stream->codecpar->codec_id;
    d.size = QSize(stream->codecpar->width, stream->codecpar->height);
    d.timeBase = stream->time_base;
    AVCodecContext* decoder = avcodec_alloc_context3(codec);
    avcodec_parameters_to_context(decoder, stream->codecpar);
    avcodec_open2(decoder, codec, nullptr);
    AVPacket* packet = av_packet_alloc();
    AVFrame* frame = av_frame_alloc();
    while (av_read_frame(format, packet) >= 0) {
        if (packet->stream_index == index) {
            d.durations << packet->duration;
            drain(decoder, packet, frame, d);
        }
        av_packet_unref(packet);
    }
    drain(decoder, nullptr, frame, d);
    av_frame_free(&frame);
    av_packet_free(&packet);
    avcodec_free_context(&decoder);
    avformat_close_input(&format);
    return d;
}

/// Mean absolute difference of two pictures' channels, 0…255.
double meanDifference(const QImage& a, const QImage& b)
{
    const QImage x = a.convertToFormat(QImage::Format_RGB888);
    const QImage y = b.convertToFormat(QImage::Format_RGB888);
    double sum = 0.0;
    for (int row = 0; row < x.height(); ++row) {
        const uchar* p = x.constScanLine(row);
        const uchar* q = y.constScanLine(row);
        for (int i = 0; i < 3 * x.width(); ++i)
            sum += std::abs(int(p[i]) - int(q[i]));
    }
    return sum / (3.0 * x.width() * x.height());
}

/// Empty when each of `frames` of the decoded video is within `tolerance` (mean difference) of
/// the frame rendered for it, else which frame is not.
QString framesMatch(const Decoded& d, const QList<QImage>& rendered,
                    std::initializer_list<int> frames, double tolerance)
{
    for (const int k : frames) {
        if (k >= d.frames.size() || k >= rendered.size())
            return QStringLiteral("no frame %1").arg(k);
        const double diff = meanDifference(d.frames[k], rendered[k]);
        if (!(diff < tolerance))
            return QStringLiteral("frame %1 differs by %2 on average").arg(k).arg(diff);
    }
    return {};
}

} // namespace

class TestVideoFormats : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        view_ = std::make_unique<SceneView>();
        view_->setScene("ring", SceneRegistry::find("ring")->defaults());
        view_->setTrace(testing::runScene("ring", testing::defaultsWith("ring"), 2.0));
        view_->setTime(0.5);
    }

    void cleanupTestCase() { view_.reset(); }

    void suffixNamesTheFormat()
    {
        QCOMPARE(VideoFormat::fromPath(QStringLiteral("a/b.mp4")), VideoFormat::Mp4);
        QCOMPARE(VideoFormat::fromPath(QStringLiteral("b.GIF")), VideoFormat::Gif);
        QCOMPARE(VideoFormat::fromPath(QStringLiteral("b.ogv")), VideoFormat::Ogg);
        QVERIFY(!VideoFormat::fromPath(QStringLiteral("b.avi")));
        QVERIFY(!VideoFormat::fromPath(QStringLiteral("mp4")));
        for (const auto kind : {VideoFormat::Mp4, VideoFormat::Gif, VideoFormat::Ogg})
            QCOMPARE(VideoFormat::fromFilter(VideoFormat::filter(kind)), kind);
        // The file dialog's filter adds its suffix to a bare name and keeps a video suffix.
        QCOMPARE(VideoExportDialog::withFormatSuffix(QStringLiteral("/v/talk"), VideoFormat::Gif),
                 QStringLiteral("/v/talk.gif"));
        QCOMPARE(
            VideoExportDialog::withFormatSuffix(QStringLiteral("/v/talk.mp4"), VideoFormat::Gif),
            QStringLiteral("/v/talk.mp4"));
        QCOMPARE(
            VideoExportDialog::withFormatSuffix(QStringLiteral("/v/talk.v1"), VideoFormat::Ogg),
            QStringLiteral("/v/talk.v1.ogv"));
    }

    void unknownSuffixIsRefusedBeforeRendering()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("ring.avi"));
        VideoExporter exporter(view_.get());
        VideoExporter::Settings settings;
        settings.t1 = 0.2;
        settings.size = QSize(160, 120);
        QSignalSpy frames(&exporter, &VideoExporter::frameRendered);
        QVERIFY(!exporter.run(settings, path));
        QVERIFY2(exporter.errorString().startsWith(path), qPrintable(exporter.errorString()));
        QVERIFY2(exporter.errorString().contains(QStringLiteral(".mp4, .gif or .ogv")),
                 qPrintable(exporter.errorString()));
        QCOMPARE(frames.count(), 0);
        QVERIFY(testing::folderEntries(dir.path()).isEmpty());
    }

    void gifAbove50FramesPerSecondIsRefused()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("fast.gif"));
        VideoExporter exporter(view_.get());
        VideoExporter::Settings settings;
        settings.t1 = 0.2;
        settings.fps = 60;
        settings.size = QSize(160, 120);
        QVERIFY(!exporter.run(settings, path));
        QVERIFY2(exporter.errorString().contains(QStringLiteral("at most 50 frames per second")),
                 qPrintable(exporter.errorString()));
        QVERIFY(testing::folderEntries(dir.path()).isEmpty());
        settings.fps = 50;
        QVERIFY2(exporter.run(settings, path), qPrintable(exporter.errorString()));
    }

    void mp4IsH264WithTheRenderedFrames()
    {
        QTemporaryDir dir;
        // Any case of the suffix; an odd size is recorded at the even size below it.
        const QString path = dir.filePath(QStringLiteral("ring.MP4"));
        VideoExporter::Settings settings;
        settings.t1 = 1.0;
        settings.fps = 12;
        settings.size = QSize(321, 241);
        QString codec;
        const QList<QImage> rendered = record(settings, path, &codec);
        QCOMPARE(codec, QStringLiteral("H.264 (libx264)"));
        QCOMPARE(testing::folderEntries(dir.path()), QStringList{QStringLiteral("ring.MP4")});

        const Decoded d = decode(path);
        QVERIFY2(d.problem.isEmpty(), qPrintable(d.problem));
        QCOMPARE(d.codec, AV_CODEC_ID_H264);
        QCOMPARE(d.size, QSize(320, 240));
        QCOMPARE(d.frames.size(), 13); // 1 s at 12 frames/s, both ends
        QCOMPARE(rendered.size(), 13);
        // 13 frames of 1/12 s each.
        qint64 total = 0;
        for (const qint64 duration : d.durations)
            total += duration;
        QCOMPARE(double(total) * d.timeBase.num / d.timeBase.den, 13.0 / 12.0);
        const QString mismatch = framesMatch(d, rendered, {0, 6, 12}, 4.0);
        QVERIFY2(mismatch.isEmpty(), qPrintable(mismatch));
        // Successive frames differ (the ring moves): the video is not one picture repeated.
        QVERIFY(meanDifference(d.frames[0], d.frames[12]) > 0.2);
        QVERIFY(
            d.frames[6].save(QStringLiteral(CLAB_BINARY_DIR "/tst_VideoFormats_mp4_frame6.png")));
    }

    void gifHasTheRenderedFramesInItsPalette()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("ring.gif"));
        VideoExporter::Settings settings;
        settings.t0 = 0.5;
        settings.t1 = 1.0;
        settings.fps = 30;
        settings.size = QSize(320, 240);
        QString codec;
        const QList<QImage> rendered = record(settings, path, &codec);
        QCOMPARE(codec, QStringLiteral("GIF"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.read(6), QByteArray("GIF89a"));

        const Decoded d = decode(path);
        QVERIFY2(d.problem.isEmpty(), qPrintable(d.problem));
        QCOMPARE(d.codec, AV_CODEC_ID_GIF);
        QCOMPARE(d.size, QSize(320, 240));
        QCOMPARE(d.frames.size(), 16); // 0.5 s at 30 frames/s, both ends
        // GIF counts hundredths of a second: 3.33 a frame alternate as 3 and 4, so 16 frames
        // last 53 of them, 16/30 s to the nearest hundredth (not 16 × 3 = 48).
        QCOMPARE(d.timeBase.num, 1);
        QCOMPARE(d.timeBase.den, 100);
        QCOMPARE(d.durations.size(), 16);
        qint64 total = 0;
        for (const qint64 duration : d.durations) {
            QVERIFY2(duration == 3 || duration == 4, qPrintable(QString::number(duration)));
            total += duration;
        }
        QCOMPARE(total, qint64(53));
        const QString mismatch = framesMatch(d, rendered, {0, 15}, 3.0);
        QVERIFY2(mismatch.isEmpty(), qPrintable(mismatch));
        QVERIFY(meanDifference(d.frames[0], d.frames[15]) > 0.2);
        QVERIFY(
            d.frames[5].save(QStringLiteral(CLAB_BINARY_DIR "/tst_VideoFormats_gif_frame5.png")));
    }

    void paletteKeepsFewColoursExactAndNearsTheRest()
    {
        // Three colours: each is its own entry, mapped exactly.
        QImage few(30, 10, QImage::Format_RGB32);
        few.fill(QColor(200, 30, 40));
        for (int y = 0; y < 10; ++y) {
            few.setPixel(0, y, qRgb(10, 220, 90));
            few.setPixel(1, y, qRgb(250, 250, 250));
        }
        GifPalette palette(few);
        QCOMPARE(palette.used(), 3);
        for (const QRgb c : {qRgb(200, 30, 40), qRgb(10, 220, 90), qRgb(250, 250, 250)}) {
            const std::uint32_t entry =
                palette.colours()[palette.index(qRed(c), qGreen(c), qBlue(c))];
            QCOMPARE(entry, 0xFF000000u | c);
        }
        // A smooth gradient of 4096 colours: 256 entries keep every pixel within a few levels.
        QImage ramp(64, 64, QImage::Format_RGB32);
        for (int y = 0; y < 64; ++y)
            for (int x = 0; x < 64; ++x)
                ramp.setPixel(x, y, qRgb(4 * x, 4 * y, 255 - 2 * (x + y)));
        GifPalette rampPalette(ramp);
        QCOMPARE(rampPalette.used(), GifPalette::kSize);
        int worst = 0;
        for (int y = 0; y < 64; ++y)
            for (int x = 0; x < 64; ++x) {
                const QRgb c = ramp.pixel(x, y);
                const std::uint32_t e =
                    rampPalette.colours()[rampPalette.index(qRed(c), qGreen(c), qBlue(c))];
                worst = std::max({worst, std::abs(int((e >> 16) & 0xFF) - qRed(c)),
                                  std::abs(int((e >> 8) & 0xFF) - qGreen(c)),
                                  std::abs(int(e & 0xFF) - qBlue(c))});
            }
        QVERIFY2(worst <= 24, qPrintable(QStringLiteral("worst channel error %1").arg(worst)));
    }

    // The encoder's own errors: a folder that is not there, a frame of the wrong size, and a
    // full disk (the system's /dev/full), which must not pass for a written video.
    void ffmpegSinkReportsWhyItCannotWrite_data()
    {
        QTest::addColumn<int>("kind");
        QTest::newRow("mp4") << int(VideoFormat::Mp4);
        QTest::newRow("gif") << int(VideoFormat::Gif);
    }

    void ffmpegSinkReportsWhyItCannotWrite()
    {
        QFETCH(int, kind);
        const QSize size(160, 120);
        QTemporaryDir dir;
        FfmpegFrameSink missing(static_cast<VideoFormat::Kind>(kind));
        QVERIFY(!missing.open(dir.filePath(QStringLiteral("gone/v")), size, 10));
        QVERIFY2(missing.error().contains(QStringLiteral("No such file or directory")),
                 qPrintable(missing.error()));

        QImage frame(size, QImage::Format_RGB32);
        frame.fill(QColor(40, 90, 160));
        FfmpegFrameSink wrongSize(static_cast<VideoFormat::Kind>(kind));
        QVERIFY2(wrongSize.open(dir.filePath(QStringLiteral("v")), size, 10),
                 qPrintable(wrongSize.error()));
        QVERIFY(!wrongSize.write(frame.scaled(80, 60)));
        QVERIFY2(wrongSize.error().contains(QStringLiteral("80 × 60")),
                 qPrintable(wrongSize.error()));

        if (!QFileInfo(QStringLiteral("/dev/full")).isWritable())
            QSKIP("no writable /dev/full");
        FfmpegFrameSink full(static_cast<VideoFormat::Kind>(kind));
        bool ok = full.open(QStringLiteral("/dev/full"), size, 10);
        for (int k = 0; ok && k < 30; ++k) {
            frame.fill(QColor(8 * k, 255 - 8 * k, 100));
            ok = full.write(frame);
        }
        ok = ok && full.finish();
        QVERIFY(!ok);
        QVERIFY2(full.error().contains(QStringLiteral("No space left on device")),
                 qPrintable(full.error()));
    }

private:
    /// Records `settings` into `path`; the frames rendered for it (none on failure, which
    /// fails the test) and the codec.
    QList<QImage> record(const VideoExporter::Settings& settings, const QString& path,
                         QString* codec)
    {
        VideoExporter exporter(view_.get());
        QList<QImage> rendered;
        connect(&exporter, &VideoExporter::frameRendered, this,
                [&](int, const QImage& image) { rendered << image; });
        const bool ok = exporter.run(settings, path);
        [&] {
            QVERIFY2(ok, qPrintable(exporter.errorString()));
        }();
        *codec = exporter.codecName();
        return ok ? rendered : QList<QImage>();
    }

    std::unique_ptr<SceneView> view_;
};

QTEST_MAIN(TestVideoFormats)
#include "tst_VideoFormats.moc"
