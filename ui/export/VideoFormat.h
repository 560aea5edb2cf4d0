#pragma once

#include <QString>
#include <QStringList>

#include <optional>

namespace clab {

/// \brief The video files the 3D view can be recorded into, told apart by the file's suffix.
///
/// MP4 holds H.264 (what slides, browsers and phones play), GIF an animated picture for slides
/// that take no video, Ogg Theora the free format the program has always written.
class VideoFormat {
public:
    enum Kind { Mp4, Gif, Ogg };

    /// The format a file name's suffix names (.mp4, .gif, .ogv, in any case); none for others.
    static std::optional<Kind> fromPath(const QString& path);
    /// The suffix with its dot, e.g. ".mp4".
    static QString suffix(Kind kind);
    /// A file dialog's filter for the format, e.g. "MP4 video, H.264 (*.mp4)".
    static QString filter(Kind kind);
    /// The filters of all formats, MP4 first (the default).
    static QStringList filters();
    /// The format whose filter() is `filter`; MP4 for an unknown one.
    static Kind fromFilter(const QString& filter);
    /// "the suffix .mp4, .gif or .ogv": how an error names the choices.
    static QString choices();
};

} // namespace clab
