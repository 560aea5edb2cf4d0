// The 3D view's video export: an Ogg Theora stream whose headers (read here byte by byte, per
// the Theora specification) carry the requested size, frame rate and number of frames; frames
// at the right simulated times; cancel and failures that leave no trace on disk.
#include "../support/FolderEntries.h"
#include <export/VideoExportDialog.h>
#include <export/VideoExporter.h>
#include <render/VtkSurfaceFormat.h>
#include <view3d/SceneView.h>

#include <integrate/Simulator.h>
#include <scenes/SceneRegistry.h>

#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include "../support/DeviceNodes.h"

#include <future>

#include <cmath>
#include <memory>
#include <stdexcept>

#include "../support/SceneRuns.h"

using namespace clab;

namespace {

const bool surfaceFormatSet = [] {
    VtkSurfaceFormat::makeDefault();
    return true;
}();

Trace simulate(const std::string& scene, double seconds)
{
    return testing::runScene(scene, testing::defaultsWith(scene), seconds);
}

/// What the Ogg pages of a Theora file say, parsed independently of the exporter.
struct TheoraInfo {
    bool valid = false;
    QString problem;
    int frameWidthMb = 0, frameHeightMb = 0; // FMBW, FMBH: size in 16×16 macroblocks
    int pictureWidth = 0, pictureHeight = 0; // PICW, PICH
    quint32 fpsNumerator = 0, fpsDenominator = 0;
    int versionRevision = 0;
    int keyframeShift = 0;
    int pixelFormat = -1;    // 0 = 4:2:0, 2 = 4:2:2, 3 = 4:4:4
    qint64 lastGranule = -1; // granule position of the last page
    bool endOfStream = false;
    int frames() const
    {
        // Theora 3.2.1 granule positions count frames from 1: keyframe number + frames since.
        const qint64 mask = (qint64(1) << keyframeShift) - 1;
        return static_cast<int>((lastGranule >> keyframeShift) + (lastGranule & mask));
    }
};

quint32 bigEndian(const QByteArray& b, int offset, int bytes)
{
    quint32 v = 0;
    for (int i = 0; i < bytes; ++i)
        v = (v << 8) | static_cast<unsigned char>(b[offset + i]);
    return v;
}

TheoraInfo readTheora(const QString& path)
{
    TheoraInfo info;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        info.problem = file.errorString();
        return info;
    }
    const QByteArray bytes = file.readAll();
    qsizetype pos = 0;
    bool first = true;
    while (pos < bytes.size()) {
        if (bytes.mid(pos, 4) != "OggS" || bytes.size() - pos < 27) {
            info.problem = QStringLiteral("no Ogg page at byte %1").arg(pos);
            return info;
        }
        const auto type = static_cast<unsigned char>(bytes[pos + 5]);
        qint64 granule = 0;
        for (int i = 7; i >= 0; --i)
            granule = (granule << 8) | static_cast<unsigned char>(bytes[pos + 6 + i]);
        const int segments = static_cast<unsigned char>(bytes[pos + 26]);
        int body = 0;
        for (int i = 0; i < segments; ++i)
            body += static_cast<unsigned char>(bytes[pos + 27 + i]);
        const QByteArray packet = bytes.mid(pos + 27 + segments, body);
        if (first) {
            // Identification header: 0x80 "theora" VMAJ VMIN VREV FMBW FMBH PICW PICH PICX PICY
            // FRN FRD PARN PARD CS NOMBR, then QUAL(6) KFGSHIFT(5) PF(2) reserved(3) bits.
            if (packet.size() < 42 || static_cast<unsigned char>(packet[0]) != 0x80 ||
                packet.mid(1, 6) != "theora") {
                info.problem = QStringLiteral("first packet is not a Theora identification header");
                return info;
            }
            info.versionRevision = static_cast<unsigned char>(packet[9]);
            info.frameWidthMb = static_cast<int>(bigEndian(packet, 10, 2));
            info.frameHeightMb = static_cast<int>(bigEndian(packet, 12, 2));
            info.pictureWidth = static_cast<int>(bigEndian(packet, 14, 3));
            info.pictureHeight = static_cast<int>(bigEndian(packet, 17, 3));
            info.fpsNumerator = bigEndian(packet, 22, 4);
            info.fpsDenominator = bigEndian(packet, 26, 4);
            const quint32 bits = bigEndian(packet, 40, 2);
            info.keyframeShift = static_cast<int>((bits >> 5) & 0x1F);
            info.pixelFormat = static_cast<int>((bits >> 3) & 0x3);
            first = false;
        }
        if (granule != -1)
            info.lastGranule = granule;
        info.endOfStream = (type & 0x04) != 0;
        pos += 27 + segments + body;
    }
    info.valid = !first && pos == bytes.size();
    return info;
}

} // namespace

class TestVideoExporter : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        view_ = std::make_unique<SceneView>();
        view_->setScene("ring", SceneRegistry::find("ring")->defaults());
        view_->setTrace(simulate("ring", 2.0));
        view_->setTime(0.5);
    }

    void cleanupTestCase() { view_.reset(); }

    void headerCarriesRequestedSizeRateAndFrameCount()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("ring.ogv"));
        VideoExporter exporter(view_.get());
        VideoExporter::Settings settings;
        settings.t0 = 0.0;
        settings.t1 = 1.0;
        settings.fps = 12;
        settings.size = QSize(320, 240);
        QSignalSpy progress(&exporter, &VideoExporter::progress);
        QVERIFY2(exporter.run(settings, path), qPrintable(exporter.errorString()));

        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.read(4), QByteArray("OggS"));
        const TheoraInfo info = readTheora(path);
        QVERIFY2(info.valid, qPrintable(info.problem));
        QCOMPARE(info.pictureWidth, 320);
        QCOMPARE(info.pictureHeight, 240);
        QCOMPARE(info.frameWidthMb, 20); // 320 / 16
        QCOMPARE(info.frameHeightMb, 15);
        QCOMPARE(info.fpsNumerator / info.fpsDenominator, 12u);
        QCOMPARE(info.pixelFormat, 0); // 4:2:0
        QVERIFY(info.versionRevision >= 1);
        QVERIFY(info.endOfStream);
        // 1 s at 12 frames per second, both ends included: 13 frames.
        QCOMPARE(info.frames(), 13);
        QCOMPARE(VideoExporter::frameCount(settings), 13);
        QVERIFY(!progress.isEmpty());
        QCOMPARE(progress.last().at(0).toInt(), 13);
        QCOMPARE(progress.last().at(1).toInt(), 13);
        // Only the video is left in the folder: the temporary file was renamed.
        QCOMPARE(testing::folderEntries(dir.path()), QStringList{QStringLiteral("ring.ogv")});
    }

    void oddSizeIsRoundedDownToEven()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("odd.ogv"));
        VideoExporter exporter(view_.get());
        VideoExporter::Settings settings;
        settings.t1 = 0.2;
        settings.fps = 10;
        settings.size = QSize(201, 131);
        QVERIFY2(exporter.run(settings, path), qPrintable(exporter.errorString()));
        const TheoraInfo info = readTheora(path);
        QVERIFY2(info.valid, qPrintable(info.problem));
        QCOMPARE(info.pictureWidth, 200);
        QCOMPARE(info.pictureHeight, 130);
        QCOMPARE(info.frameWidthMb, 13); // ceil(200 / 16)
        QCOMPARE(info.frameHeightMb, 9); // ceil(130 / 16)
        QCOMPARE(info.frames(), 3);
    }

    void framesShowSimulatedTimesAtPlaybackSpeed()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("slow.ogv"));
        VideoExporter exporter(view_.get());
        VideoExporter::Settings settings;
        settings.t0 = 0.3;
        settings.t1 = 0.8;
        settings.fps = 10;
        settings.speed = 0.5; // slow motion: 0.05 simulated seconds per frame
        settings.size = QSize(128, 96);
        QList<double> times;
        QList<QSize> sizes;
        connect(&exporter, &VideoExporter::frameRendered, this, [&](int, const QImage& image) {
            times << view_->time();
            sizes << image.size();
        });
        const double before = view_->time();
        QVERIFY2(exporter.run(settings, path), qPrintable(exporter.errorString()));
        QCOMPARE(times.size(), 11);
        for (int k = 0; k < times.size(); ++k) {
            QVERIFY2(std::abs(times[k] - (0.3 + 0.05 * k)) < 1e-12,
                     qPrintable(QStringLiteral("frame %1 at t = %2").arg(k).arg(times[k])));
            QCOMPARE(sizes[k], QSize(128, 96));
        }
        QCOMPARE(view_->time(), before); // the view is back where the user left it
        QCOMPARE(readTheora(path).frames(), 11);
    }

    void framesAreRenderedScenes()
    {
        // A frame fed to the encoder is a real picture of the scene (not blank). The frame and
        // the video are kept in the build folder for a look.
        VideoExporter exporter(view_.get());
        VideoExporter::Settings settings;
        settings.t1 = 0.5;
        settings.fps = 4;
        settings.size = QSize(640, 360);
        QImage frame;
        connect(&exporter, &VideoExporter::frameRendered, this,
                [&](int index, const QImage& image) {
                    if (index == 2)
                        frame = image;
                });
        QVERIFY2(
            exporter.run(settings, QStringLiteral(CLAB_BINARY_DIR "/tst_VideoExporter_look.ogv")),
            qPrintable(exporter.errorString()));
        QCOMPARE(frame.size(), QSize(640, 360));
        QSet<QRgb> colours;
        for (int y = 0; y < frame.height(); y += 4)
            for (int x = 0; x < frame.width(); x += 4)
                colours.insert(frame.pixel(x, y));
        QVERIFY2(colours.size() > 20, "the frame is (nearly) uniform");
        const QString out = QStringLiteral(CLAB_BINARY_DIR "/tst_VideoExporter_frame2.png");
        QVERIFY(frame.save(out));
    }

    // In every format: the encoders (VTK's for Ogg, FFmpeg's for MP4 and GIF) close their
    // half-written temporary file before it is removed.
    void cancelLeavesNoFileAndKeepsExistingTarget_data() { formats(); }

    void cancelLeavesNoFileAndKeepsExistingTarget()
    {
        QFETCH(QString, suffix);
        QTemporaryDir dir;
        const QString name = QStringLiteral("keep") + suffix;
        const QString path = dir.filePath(name);
        {
            QFile old(path);
            QVERIFY(old.open(QIODevice::WriteOnly));
            old.write("the previous video");
        }
        VideoExporter exporter(view_.get());
        VideoExporter::Settings settings;
        settings.t1 = 2.0;
        settings.fps = 30;
        settings.size = QSize(160, 120);
        int lastDone = 0;
        connect(&exporter, &VideoExporter::progress, this, [&](int done, int) {
            lastDone = done;
            if (done == 3)
                exporter.cancel();
        });
        QVERIFY(!exporter.run(settings, path));
        QVERIFY(exporter.wasCancelled());
        QVERIFY(exporter.errorString().isEmpty());
        QCOMPARE(lastDone, 3); // no frame after the cancel
        QCOMPARE(testing::folderEntries(dir.path()), QStringList{name});
        QFile old(path);
        QVERIFY(old.open(QIODevice::ReadOnly));
        QCOMPARE(old.readAll(), QByteArray("the previous video"));
        QVERIFY(!exporter.isRunning());
    }

    void cancelBeforeFirstFrameLeavesNothing_data() { formats(); }

    void cancelBeforeFirstFrameLeavesNothing()
    {
        QFETCH(QString, suffix);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("none") + suffix);
        VideoExporter exporter(view_.get());
        VideoExporter::Settings settings;
        settings.t1 = 1.0;
        settings.size = QSize(160, 120);
        connect(&exporter, &VideoExporter::progress, this, [&](int done, int) {
            if (done == 0)
                exporter.cancel();
        });
        QVERIFY(!exporter.run(settings, path));
        QVERIFY(exporter.wasCancelled());
        QVERIFY(testing::folderEntries(dir.path()).isEmpty());
    }

    // A FIFO (and so a device) is streamed into, never renamed over: the reader gets the whole
    // video and the pipe stays a pipe; a full device fails with the system's reason.
    void pipeOrDeviceReceivesTheVideoInPlace()
    {
        QTemporaryDir dir;
        const QString pipe = dir.filePath(QStringLiteral("video.ogv"));
        QVERIFY(::mkfifo(QFile::encodeName(pipe).constData(), 0600) == 0);
        VideoExporter::Settings settings;
        settings.t1 = 0.2;
        settings.fps = 10;
        settings.size = QSize(160, 120);
        auto reader = std::async(std::launch::async, [&] {
            QFile file(pipe);
            return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
        });
        VideoExporter exporter(view_.get());
        QVERIFY2(exporter.run(settings, pipe), qPrintable(exporter.errorString()));
        const QByteArray video = reader.get();
        QVERIFY(video.startsWith("OggS"));
        QVERIFY(clab::testing::isFifo(pipe));
        // Nothing left beside the pipe (the encoder's temporary was in the temporary folder).
        QCOMPARE(
            QDir(dir.path())
                .entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot),
            QStringList{QStringLiteral("video.ogv")});

        const QString full = dir.filePath(QStringLiteral("full.ogv"));
        if (!clab::testing::makeDevice(full, 7))
            QSKIP("mknod needs root");
        QVERIFY(!exporter.run(settings, full));
        QVERIFY2(exporter.errorString().contains(QStringLiteral("No space left on device")),
                 qPrintable(exporter.errorString()));
        QVERIFY(clab::testing::isCharacterDevice(full));
    }

    void missingFolderIsReportedWithThePath()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("no/such/folder/v.ogv"));
        VideoExporter exporter(view_.get());
        VideoExporter::Settings settings;
        settings.t1 = 0.1;
        settings.size = QSize(160, 120);
        QSignalSpy frames(&exporter, &VideoExporter::frameRendered);
        QVERIFY(!exporter.run(settings, path));
        QVERIFY(!exporter.wasCancelled());
        QVERIFY2(exporter.errorString().contains(path), qPrintable(exporter.errorString()));
        QVERIFY2(exporter.errorString().contains(QStringLiteral("does not exist")),
                 qPrintable(exporter.errorString()));
        QCOMPARE(frames.count(), 0); // reported before rendering anything
    }

    void unwritableFolderIsReportedWithThePath()
    {
        // A regular file where the folder should be: not writable even for root.
        QTemporaryDir dir;
        const QString blocker = dir.filePath(QStringLiteral("file"));
        {
            QFile f(blocker);
            QVERIFY(f.open(QIODevice::WriteOnly));
        }
        const QString path = blocker + QStringLiteral("/v.ogv");
        VideoExporter exporter(view_.get());
        VideoExporter::Settings settings;
        settings.t1 = 0.1;
        settings.size = QSize(160, 120);
        QVERIFY(!exporter.run(settings, path));
        QVERIFY2(exporter.errorString().startsWith(path), qPrintable(exporter.errorString()));
        QCOMPARE(testing::folderEntries(dir.path()), QStringList{QStringLiteral("file")});
    }

    void invalidSettingsAreNamed()
    {
        VideoExporter::Settings s;
        s.t1 = 1.0;
        QVERIFY(VideoExporter::validate(s).isEmpty());
        s.fps = 0;
        QVERIFY(VideoExporter::validate(s).contains(QStringLiteral("frame rate")));
        s.fps = 121;
        QVERIFY(VideoExporter::validate(s).contains(QStringLiteral("frame rate")));
        s.fps = 30;
        s.size = QSize(63, 720);
        QVERIFY(VideoExporter::validate(s).contains(QStringLiteral("size")));
        s.size = QSize(1280, 8194);
        QVERIFY(VideoExporter::validate(s).contains(QStringLiteral("size")));
        s.size = QSize(8193, 65); // rounds to 8192 × 64: allowed
        QVERIFY(VideoExporter::validate(s).isEmpty());
        s.size = QSize(1280, 720);
        s.speed = 0.0;
        QVERIFY(VideoExporter::validate(s).contains(QStringLiteral("speed")));
        s.speed = 1.0;
        s.t0 = 2.0;
        QVERIFY(VideoExporter::validate(s).contains(QStringLiteral("time range")));
        s.t0 = 0.0;
        s.t1 = 1e6;
        QVERIFY(VideoExporter::validate(s).contains(QStringLiteral("frames")));

        VideoExporter exporter(view_.get());
        s.t1 = 1.0;
        s.fps = 500;
        QVERIFY(!exporter.run(s, QStringLiteral("/tmp/x.ogv")));
        QVERIFY(exporter.errorString().contains(QStringLiteral("/tmp/x.ogv")));
    }

    void dialogDefaultsAndExport()
    {
        VideoExportDialog dialog(view_.get(), 0.0, 2.0);
        const VideoExporter::Settings defaults = dialog.settings();
        QCOMPARE(defaults.fps, 30);
        QCOMPARE(defaults.size, QSize(1280, 720));
        QCOMPARE(defaults.t0, 0.0);
        QCOMPARE(defaults.t1, 2.0);
        QCOMPARE(defaults.speed, 1.0);

        // A custom odd size is recorded at the even size below it.
        VideoExporter::Settings s;
        s.t0 = 0.5;
        s.t1 = 1.0;
        s.fps = 10;
        s.size = QSize(250, 150);
        dialog.setSettings(s);
        QCOMPARE(dialog.sizeBox()->currentText(), QStringLiteral("Custom"));
        QCOMPARE(dialog.settings().size, QSize(250, 150));
        QCOMPARE(dialog.settings().t0, 0.5);

        QSignalSpy failed(&dialog, &VideoExportDialog::exportFailed);
        QVERIFY(!dialog.startExport()); // no file chosen
        QCOMPARE(failed.count(), 1);

        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("gone/v.ogv"));
        dialog.setOutputPath(bad);
        QVERIFY(!dialog.startExport());
        QVERIFY2(dialog.statusText().contains(bad), qPrintable(dialog.statusText()));

        const QString path = dir.filePath(QStringLiteral("dialog.ogv"));
        dialog.setOutputPath(path);
        QSignalSpy exported(&dialog, &VideoExportDialog::exported);
        // While the next export runs (its progress dialog processes events), the old error is
        // gone from the form.
        QString statusWhileRecording = QStringLiteral("(not seen)");
        QTimer::singleShot(0, &dialog, [&] { statusWhileRecording = dialog.statusText(); });
        QVERIFY2(dialog.startExport(), qPrintable(dialog.statusText()));
        QCOMPARE(statusWhileRecording, QString());
        QCOMPARE(exported.count(), 1);
        QCOMPARE(exported.first().first().toString(), path);
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        const TheoraInfo info = readTheora(path);
        QVERIFY2(info.valid, qPrintable(info.problem));
        QCOMPARE(info.pictureWidth, 250);
        QCOMPARE(info.pictureHeight, 150);
        QCOMPARE(info.frames(), 6); // 0.5 s at 10 frames per second, both ends
    }

private:
    static void formats()
    {
        QTest::addColumn<QString>("suffix");
        for (const char* suffix : {".ogv", ".mp4", ".gif"})
            QTest::newRow(suffix) << QString::fromLatin1(suffix);
    }

    std::unique_ptr<SceneView> view_;
};

QTEST_MAIN(TestVideoExporter)
#include "tst_VideoExporter.moc"
