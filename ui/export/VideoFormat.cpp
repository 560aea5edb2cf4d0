#include "export/VideoFormat.h"

#include <QCoreApplication>
#include <QFileInfo>

namespace clab {

namespace {

constexpr VideoFormat::Kind kAll[] = {VideoFormat::Mp4, VideoFormat::Gif, VideoFormat::Ogg};

} // namespace

std::optional<VideoFormat::Kind> VideoFormat::fromPath(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix();
    for (const Kind kind : kAll)
        if (suffix.compare(VideoFormat::suffix(kind).mid(1), Qt::CaseInsensitive) == 0)
            return kind;
    return std::nullopt;
}

QString VideoFormat::suffix(Kind kind)
{
    switch (kind) {
    case Mp4:
        return QStringLiteral(".mp4");
    case Gif:
        return QStringLiteral(".gif");
    case Ogg:
        break;
    }
    return QStringLiteral(".ogv");
}

QString VideoFormat::filter(Kind kind)
{
    switch (kind) {
    case Mp4:
        return QCoreApplication::translate("VideoFormat", "MP4 video, H.264 (*.mp4)");
    case Gif:
        return QCoreApplication::translate("VideoFormat", "Animated GIF (*.gif)");
    case Ogg:
        break;
    }
    return QCoreApplication::translate("VideoFormat", "Ogg Theora video (*.ogv)");
}

QStringList VideoFormat::filters()
{
    QStringList all;
    for (const Kind kind : kAll)
        all << filter(kind);
    return all;
}

VideoFormat::Kind VideoFormat::fromFilter(const QString& filter)
{
    for (const Kind kind : kAll)
        if (VideoFormat::filter(kind) == filter)
            return kind;
    return Mp4;
}

QString VideoFormat::choices()
{
    return QCoreApplication::translate("VideoFormat", "the suffix .mp4, .gif or .ogv");
}

} // namespace clab
