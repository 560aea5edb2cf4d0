#pragma once

#include "export/VideoFormat.h"

#include <QImage>
#include <QObject>
#include <QSize>
#include <QString>

class QFileInfo;

namespace clab {

class SceneView;

/// \brief Writes the animation of a SceneView as a video: MP4 (H.264), animated GIF or Ogg
/// Theora, as the file's suffix says (.mp4, .gif, .ogv; VideoFormat, FrameSink).
///
/// Frame k shows simulated time t0 + k · speed / fps, for every such time up to t1, so the video
/// lasts (t1 − t0) / speed seconds; speed has the Time dock's meaning (simulated seconds per
/// second of playback: 0.5 is slow motion). Frames are rendered off screen at the chosen size
/// with the view's camera (SceneView::renderImage).
///
/// run() works synchronously but keeps the GUI alive: between frames it processes events
/// except user input (repaints, timers; a modal QProgressDialog handles its own Cancel button).
/// cancel() — from a progress slot or a dialog — stops it before the next frame. The video is
/// written to a temporary file next to the target and renamed over the target only when
/// complete; on cancel or failure the temporary file is deleted and an existing target is left
/// untouched. The view's time is restored afterwards.
class VideoExporter : public QObject {
    Q_OBJECT
public:
    struct Settings {
        double t0 = 0.0;
        double t1 = 0.0;
        int fps = 30;             ///< frames per second of the video, 1…120
        QSize size = {1280, 720}; ///< rounded down to even numbers (4:2:0 colour needs them)
        double speed = 1.0;       ///< simulated seconds per second of video, > 0
    };

    static constexpr int kMinFps = 1;
    static constexpr int kMaxFps = 120;
    static constexpr int kMinSide = 64;
    static constexpr int kMaxSide = 8192;
    /// An upper bound on frames, so a typo (speed 0.0001) cannot start hours of rendering.
    static constexpr int kMaxFrames = 100000;
    /// GIF's delays count hundredths of a second, and viewers slow faster frames down.
    static constexpr int kMaxGifFps = 50;

    explicit VideoExporter(SceneView* view, QObject* parent = nullptr);

    /// `size` rounded down to even width and height.
    static QSize evenSize(const QSize& size);
    /// Number of frames the settings give: times t0, t0 + speed/fps, … up to t1 inclusive.
    static int frameCount(const Settings& settings);
    /// Empty when the settings are usable, else what is wrong with which setting.
    static QString validate(const Settings& settings);

    /// Renders and writes the video to `path`, in the format its suffix names (another suffix is
    /// refused before any frame is rendered). True on success; false on cancel (wasCancelled())
    /// or failure (errorString() names the file and the reason).
    bool run(const Settings& settings, const QString& path);

    /// Stops a running export before its next frame; no effect otherwise.
    void cancel();
    bool isRunning() const { return running_; }
    bool wasCancelled() const { return cancelled_; }
    QString errorString() const { return error_; }
    /// The codec of the last export once its encoder started, e.g. "H.264 (libx264)".
    QString codecName() const { return codecName_; }

signals:
    /// A frame was rendered, just before it is encoded (index from 0).
    void frameRendered(int index, const QImage& image);
    /// `done` frames of `total` are encoded.
    void progress(int done, int total);

private:
    bool fail(const QString& message);
    /// False (with the reason) when `target` cannot be a video file: no name, no folder, a folder.
    bool checkTarget(const QFileInfo& target, const QString& path);
    /// A new empty temporary file for the video (beside `target`, or in the temporary folder
    /// when the video is streamed into a device); empty (with the reason) when none can be made.
    QString createTemporary(const QFileInfo& target, const QString& path, bool inPlace);
    /// Renders every frame of `settings` and encodes them into `tempPath`; false when cancelled
    /// or (with the reason) when a frame cannot be rendered or encoded.
    bool encode(const Settings& settings, VideoFormat::Kind format, const QString& path,
                const QString& tempPath);
    /// Renames the finished video `tempPath` over `target`, keeping a replaced file's permissions.
    bool replaceTarget(const QString& tempPath, const QFileInfo& target, const QString& path);
    /// Streams the finished video `source` into the device or pipe `path` (never renamed over).
    bool copyInto(const QString& source, const QString& path);

    SceneView* view_;
    bool running_ = false;
    bool cancelled_ = false;
    QString error_;
    QString codecName_;
};

} // namespace clab
