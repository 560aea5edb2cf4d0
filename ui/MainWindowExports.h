#pragma once

#include <QObject>
#include <QSize>
#include <QString>

#include <functional>
#include <string>
#include <vector>

class QMainWindow;

namespace clab {

class ParameterEditor;
class PlaybackClock;
class RunModel;
class SceneSession;
class SceneStore;
class SceneView;

/// \brief File → Export of the main window: the 3D view as an image, the runs on screen as
/// CSV, the animation as a video; each asks in its dialog, then for the file.
///
/// Failures are reported through failed() (the window's banner names the file and the
/// reason), successes in the window's status bar.
class MainWindowExports : public QObject {
    Q_OBJECT
public:
    /// Returns a file name chosen by the user, or an empty string when cancelled.
    using SaveFileProvider =
        std::function<QString(const QString& suggestedPath, const QString& filter)>;

    /// `saveProvider` is the window's save dialog, which tests replace: kept by reference.
    MainWindowExports(QMainWindow* window, SceneSession* session, const SceneStore& store,
                      const RunModel* runs, SceneView* view, PlaybackClock* clock,
                      ParameterEditor* editor, const SaveFileProvider& saveProvider);

    /// Export Image…: the size in its dialog, then the file.
    void exportImageDialog();
    /// Export Trace as CSV…: the columns and runs in its dialog, then the file.
    void exportCsvDialog();
    /// Export Video…: its dialog records the trajectory on screen, playback paused.
    void exportVideoDialog();

    /// The 3D view at the current time as an image of `size` pixels (format from the suffix).
    bool exportViewImage(const QString& path, const QSize& size);
    /// The runs on screen as CSV: the chosen columns (empty: all); several runs in one file
    /// with a "run" column, or one file per run.
    bool exportCsv(const QString& path, const std::vector<std::string>& columns, bool filePerRun,
                   bool commentHeader);

signals:
    /// An export failed: what was attempted ("Could not export the image") and why.
    void failed(const QString& what, const QString& message);
    /// The video dialog closed; the view goes back to `time`.
    void videoDialogClosed(double time);

private:
    /// The save dialog for `kind` (DialogFolders), suggesting the scene's name with `suffix`;
    /// empty when cancelled, else the path with the suffix added when it had none.
    QString chooseFile(const QString& kind, const QString& suffix, const QString& filter);
    void showMessage(const QString& message);

    QMainWindow* window_;
    SceneSession* session_;
    const SceneStore& store_;
    const RunModel* runs_;
    SceneView* view_;
    PlaybackClock* clock_;
    ParameterEditor* editor_;
    const SaveFileProvider& saveProvider_;
};

} // namespace clab
