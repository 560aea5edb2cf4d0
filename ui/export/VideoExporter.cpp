#include "export/VideoExporter.h"

#include "export/FrameSink.h"

#include "view3d/SceneView.h"

#include "AtomicFile.h"
#include "FileError.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryFile>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <system_error>

#ifdef Q_OS_UNIX
#include <fcntl.h>
#include <unistd.h>
#endif

namespace clab {

namespace {

// Calls a function when the scope ends (every return path of run()).
template <typename F> class ScopeExit {
public:
    explicit ScopeExit(F f) : f_(std::move(f)) {}
    ~ScopeExit() { f_(); }
    ScopeExit(const ScopeExit&) = delete;
    ScopeExit& operator=(const ScopeExit&) = delete;

private:
    F f_;
};

// Flushes the encoder's file to the disk before it replaces the target (what QSaveFile does).
void syncToDisk(const QString& path)
{
#ifdef Q_OS_UNIX
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY);
    if (fd >= 0) {
        ::fsync(fd);
        ::close(fd);
    }
#else
    Q_UNUSED(path);
#endif
}

} // namespace

VideoExporter::VideoExporter(SceneView* view, QObject* parent) : QObject(parent), view_(view)
{
}

bool VideoExporter::copyInto(const QString& source, const QString& path)
{
    QFile in(source);
    if (!in.open(QIODevice::ReadOnly))
        return fail(tr("%1: cannot write the video: %2").arg(path, in.errorString()));
    try {
        AtomicFile out(path, tr("the video"));
        QByteArray chunk;
        while (!(chunk = in.read(1 << 20)).isEmpty())
            out.append(chunk);
        out.commit();
    } catch (const FileError& e) {
        return fail(QString::fromUtf8(e.what()));
    }
    return true;
}

QSize VideoExporter::evenSize(const QSize& size)
{
    return {size.width() & ~1, size.height() & ~1};
}

int VideoExporter::frameCount(const Settings& settings)
{
    if (!(settings.speed > 0.0) || settings.fps <= 0 || !(settings.t1 >= settings.t0))
        return 0;
    // The small slack keeps t1 itself when (t1 − t0)·fps/speed is an integer up to rounding.
    const double steps = (settings.t1 - settings.t0) * settings.fps / settings.speed;
    if (!std::isfinite(steps) || steps >= kMaxFrames)
        return kMaxFrames + 1;
    return static_cast<int>(std::floor(steps + 1e-9)) + 1;
}

QString VideoExporter::validate(const Settings& settings)
{
    if (settings.fps < kMinFps || settings.fps > kMaxFps)
        return tr("frame rate: %1 frames per second is outside %2…%3")
            .arg(settings.fps)
            .arg(kMinFps)
            .arg(kMaxFps);
    const QSize size = evenSize(settings.size);
    if (size.width() < kMinSide || size.width() > kMaxSide || size.height() < kMinSide ||
        size.height() > kMaxSide)
        return tr("size: %1 × %2 pixels is outside %3…%4 per side")
            .arg(settings.size.width())
            .arg(settings.size.height())
            .arg(kMinSide)
            .arg(kMaxSide);
    if (!std::isfinite(settings.speed) || !(settings.speed > 0.0))
        return tr("speed: %1 is not a positive number").arg(settings.speed);
    if (!std::isfinite(settings.t0) || !std::isfinite(settings.t1) || !(settings.t1 >= settings.t0))
        return tr("time range: [%1, %2] is empty or not finite").arg(settings.t0).arg(settings.t1);
    if (frameCount(settings) > kMaxFrames)
        return tr("the settings give more than %1 frames; raise the speed or shorten the range")
            .arg(kMaxFrames);
    return {};
}

void VideoExporter::cancel()
{
    if (running_)
        cancelled_ = true;
}

bool VideoExporter::fail(const QString& message)
{
    error_ = message;
    return false;
}

bool VideoExporter::run(const Settings& settings, const QString& path)
{
    if (running_)
        return fail(tr("%1: a video export is already running").arg(path));
    error_.clear();
    codecName_.clear();
    cancelled_ = false;
    if (view_ == nullptr)
        return fail(tr("%1: no 3D view to record").arg(path));
    if (const QString problem = validate(settings); !problem.isEmpty())
        return fail(tr("%1: %2").arg(path, problem));
    const QFileInfo target(path);
    if (!checkTarget(target, path))
        return false;
    const std::optional<VideoFormat::Kind> format = VideoFormat::fromPath(path);
    if (!format)
        return fail(tr("%1: cannot write the video: the file name needs %2 (MP4, animated GIF or "
                       "Ogg Theora)")
                        .arg(path, VideoFormat::choices()));
    if (*format == VideoFormat::Gif && settings.fps > kMaxGifFps)
        return fail(tr("%1: frame rate: an animated GIF plays at most %2 frames per second (its "
                       "delays count hundredths of a second); %3 asked")
                        .arg(path)
                        .arg(kMaxGifFps)
                        .arg(settings.fps));
    // A device or a pipe (/dev/null, a FIFO) is never renamed over: the video is encoded in the
    // temporary folder and then streamed into it.
    const bool inPlace = AtomicFile::writesInPlace(path);
    const QString tempPath = createTemporary(target, path, inPlace);
    if (tempPath.isEmpty())
        return false;

    running_ = true;
    const double previousTime = view_->time();
    bool keepTemp = false;
    const ScopeExit cleanup([&] {
        if (!keepTemp)
            QFile::remove(tempPath);
        view_->setTime(previousTime);
        running_ = false;
    });
    if (!encode(settings, *format, path, tempPath))
        return false;

    if (inPlace)
        return copyInto(tempPath, path);
    syncToDisk(tempPath);
    keepTemp = replaceTarget(tempPath, target, path);
    return keepTemp;
}

bool VideoExporter::checkTarget(const QFileInfo& target, const QString& path)
{
    const QDir dir = target.absoluteDir();
    if (target.fileName().isEmpty())
        return fail(tr("%1: cannot write the video: no file name").arg(path));
    if (!dir.exists())
        return fail(tr("%1: cannot write the video: the folder %2 does not exist")
                        .arg(path, QDir::toNativeSeparators(dir.absolutePath())));
    if (target.isDir())
        return fail(tr("%1: cannot write the video: it is a folder").arg(path));
    return true;
}

QString VideoExporter::createTemporary(const QFileInfo& target, const QString& path, bool inPlace)
{
    // The temporary file is created here, so an unwritable folder is reported before any
    // frame is rendered, and its name is unique among concurrent exports.
    const QDir tempDir = inPlace ? QDir(QDir::tempPath()) : target.absoluteDir();
    QTemporaryFile temp(tempDir.filePath(QStringLiteral(".%1.XXXXXX.part").arg(target.fileName())));
    temp.setAutoRemove(false);
    if (!temp.open()) {
        fail(tr("%1: cannot write the video: %2").arg(path, temp.errorString()));
        return {};
    }
    const QString tempPath = temp.fileName();
    temp.close();
    return tempPath;
}

bool VideoExporter::encode(const Settings& settings, VideoFormat::Kind format, const QString& path,
                           const QString& tempPath)
{
    const QSize size = evenSize(settings.size);
    const int total = frameCount(settings);
    // The sink is destroyed before run() removes the temporary file: its file is closed then.
    const std::unique_ptr<FrameSink> sink = FrameSink::create(format);
    if (!sink->open(tempPath, size, settings.fps))
        return fail(tr("%1: cannot start the video encoder: %2").arg(path, sink->error()));
    codecName_ = sink->codecName();

    emit progress(0, total);
    for (int k = 0; k < total; ++k) {
        QCoreApplication::processEvents(QEventLoop::ExcludeUserInputEvents);
        if (cancelled_)
            return false;
        const double t =
            std::min(settings.t1, settings.t0 + static_cast<double>(k) * settings.speed /
                                                    static_cast<double>(settings.fps));
        view_->setTime(t);
        const QImage image = view_->renderImage(size);
        if (image.isNull() || image.size() != size)
            return fail(tr("%1: cannot render frame %2 of %3 (t = %4 s): no OpenGL context")
                            .arg(path)
                            .arg(k + 1)
                            .arg(total)
                            .arg(t));
        emit frameRendered(k, image);
        if (!sink->write(image))
            return fail(tr("%1: cannot encode frame %2 of %3: %4")
                            .arg(path)
                            .arg(k + 1)
                            .arg(total)
                            .arg(sink->error()));
        emit progress(k + 1, total);
    }
    QCoreApplication::processEvents(QEventLoop::ExcludeUserInputEvents);
    if (cancelled_)
        return false;
    if (!sink->finish())
        return fail(tr("%1: cannot write the video: %2").arg(path, sink->error()));
    return true;
}

bool VideoExporter::replaceTarget(const QString& tempPath, const QFileInfo& target,
                                  const QString& path)
{
    // Like QSaveFile: a replaced file keeps its permissions, a new one gets the usual ones.
    const QFileDevice::Permissions permissions =
        target.exists()
            ? target.permissions()
            : QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadUser |
                  QFileDevice::WriteUser | QFileDevice::ReadGroup | QFileDevice::ReadOther;
    QFile::setPermissions(tempPath, permissions);

    // std::filesystem::rename replaces an existing target atomically (QFile::rename refuses to).
    std::error_code ec;
    std::filesystem::rename(std::filesystem::path(tempPath.toStdU16String()),
                            std::filesystem::path(target.absoluteFilePath().toStdU16String()), ec);
    if (ec)
        return fail(tr("%1: cannot replace the file: %2")
                        .arg(path, QString::fromLocal8Bit(ec.message().c_str())));
    return true;
}

} // namespace clab
