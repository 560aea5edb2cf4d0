#include "MainWindowExports.h"

#include "export/CsvExportDialog.h"
#include "export/ImageExportDialog.h"
#include "export/VideoExportDialog.h"
#include "panels/ParameterEditor.h"
#include "session/PlaybackClock.h"
#include "session/RunModel.h"
#include "session/SceneSession.h"
#include "view3d/SceneView.h"
#include "widgets/DialogFolders.h"

#include <CsvWriter.h>

#include <QDir>
#include <QFileInfo>
#include <QMainWindow>
#include <QSettings>
#include <QStatusBar>

namespace clab {

MainWindowExports::MainWindowExports(QMainWindow* window, SceneSession* session,
                                     const SceneStore& store, const RunModel* runs, SceneView* view,
                                     PlaybackClock* clock, ParameterEditor* editor,
                                     const SaveFileProvider& saveProvider)
    : QObject(window), window_(window), session_(session), store_(store), runs_(runs), view_(view),
      clock_(clock), editor_(editor), saveProvider_(saveProvider)
{
}

void MainWindowExports::showMessage(const QString& message)
{
    window_->statusBar()->showMessage(message, 5000);
}

QString MainWindowExports::chooseFile(const QString& kind, const QString& suffix,
                                      const QString& filter)
{
    const QString suggested = DialogFolders::suggestedPath(
        kind, QString::fromStdString(session_->document().shortName()) + suffix);
    QString path = saveProvider_ ? saveProvider_(suggested, filter) : QString();
    if (path.isEmpty())
        return path;
    DialogFolders::remember(kind, path);
    if (QFileInfo(path).suffix().isEmpty())
        path += suffix;
    return path;
}

void MainWindowExports::exportImageDialog()
{
    ImageExportDialog dialog(window_);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const QString path =
        chooseFile(QStringLiteral("image"), QStringLiteral(".png"), tr("PNG images (*.png)"));
    if (!path.isEmpty())
        exportViewImage(path, dialog.selectedSize());
}

bool MainWindowExports::exportViewImage(const QString& path, const QSize& size)
{
    const QImage image = view_->renderImage(size);
    QString error;
    if (image.isNull()) {
        error = tr("%1: the 3D view could not be rendered (no OpenGL context)").arg(path);
    } else if (ImageExportDialog::saveImage(image, path, &error)) {
        showMessage(tr("Exported %1 (%2×%3)")
                        .arg(QDir::toNativeSeparators(path))
                        .arg(image.width())
                        .arg(image.height()));
        return true;
    }
    emit failed(tr("Could not export the image"), error);
    return false;
}

void MainWindowExports::exportCsvDialog()
{
    const std::vector<LabelledTrace> all = runs_->runs();
    if (all.empty())
        return;
    CsvExportDialog dialog(all.back().trace->columnNames(), static_cast<int>(all.size()), window_);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const QString path =
        chooseFile(QStringLiteral("csv"), QStringLiteral(".csv"), tr("CSV files (*.csv)"));
    if (path.isEmpty())
        return;
    exportCsv(path, dialog.selectedColumns(),
              dialog.runMode() == CsvExportDialog::RunMode::FilePerRun, dialog.commentHeader());
}

bool MainWindowExports::exportCsv(const QString& path, const std::vector<std::string>& columns,
                                  bool filePerRun, bool commentHeader)
{
    const std::vector<LabelledTrace> all = runs_->runs();
    if (all.empty()) {
        emit failed(tr("Could not export the trace"), tr("there is no trajectory yet"));
        return false;
    }
    try {
        // The scene and settings of the run on screen; several runs differ in their run column.
        std::vector<std::string> comment;
        if (commentHeader) {
            CsvWriter writer(columns);
            comment = writer.describe(runs_->shownDocument(), *all.back().trace);
            if (all.size() > 1)
                comment.push_back("runs: " + std::to_string(all.size()) +
                                  ", labelled in the run column");
        }
        const QStringList written = CsvExportDialog::write(
            store_, all, columns,
            filePerRun ? CsvExportDialog::RunMode::FilePerRun : CsvExportDialog::RunMode::OneFile,
            path, comment);
        showMessage(written.size() == 1
                        ? tr("Exported %1").arg(QDir::toNativeSeparators(written.first()))
                        : tr("Exported %1 files next to %2")
                              .arg(written.size())
                              .arg(QDir::toNativeSeparators(path)));
        return true;
    } catch (const std::exception& error) {
        emit failed(tr("Could not export the trace"), QString::fromUtf8(error.what()));
        return false;
    }
}

void MainWindowExports::exportVideoDialog()
{
    const auto& trace = runs_->trace();
    if (!trace)
        return;
    // The video shows the trajectory on screen: no playback and no new run while it records.
    clock_->pause();
    const double time = clock_->time();
    VideoExportDialog dialog(view_, trace->samples.front().t, trace->samples.back().t, window_);
    // The last video's name when there was one, else one named after the scene.
    const QString last = QSettings().value(QStringLiteral("export/videoPath")).toString();
    dialog.setOutputPath(!last.isEmpty() && QFileInfo(QFileInfo(last).absolutePath()).isDir()
                             ? last
                             : DialogFolders::suggestedPath(
                                   QStringLiteral("video"),
                                   QString::fromStdString(session_->document().shortName()) +
                                       QStringLiteral(".ogv")));
    connect(&dialog, &VideoExportDialog::exported, this, [this](const QString& path) {
        QSettings().setValue(QStringLiteral("export/videoPath"), path);
        DialogFolders::remember(QStringLiteral("video"), path);
        showMessage(tr("Exported %1").arg(QDir::toNativeSeparators(path)));
    });
    const bool wasEnabled = editor_->isEnabled();
    editor_->setEnabled(false);
    dialog.exec();
    editor_->setEnabled(wasEnabled);
    emit videoDialogClosed(time);
}

} // namespace clab
