#pragma once

#include "export/VideoExporter.h"

#include <QDialog>
#include <QString>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace clab {

class SceneView;
class SizeChooser;

/// \brief Asks for the settings of a video of the 3D view (file, frame rate, size, time range,
/// speed) and records it with VideoExporter behind a progress dialog with Cancel. The file's
/// suffix picks the format (MP4, GIF, Ogg Theora); the file dialog's filter adds a missing one.
///
/// Defaults: 30 frames per second, 1280 × 720, the whole trajectory [tStart, tEnd], speed 1.
/// Export keeps the dialog open on failure or cancel (the reason is shown in it and
/// exportFailed() is emitted) and accepts it after exported() on success.
class VideoExportDialog : public QDialog {
    Q_OBJECT
public:
    VideoExportDialog(SceneView* view, double tStart, double tEnd, QWidget* parent = nullptr);

    VideoExporter::Settings settings() const;
    void setSettings(const VideoExporter::Settings& settings);
    QString outputPath() const;
    void setOutputPath(const QString& path);

    /// Validates the settings and records the video (blocks, keeping the GUI responsive).
    /// True when the file was written.
    bool startExport();
    /// What the last export did ("" before any): the error, "cancelled", or the file written.
    QString statusText() const;

    QComboBox* sizeBox() const;
    QSpinBox* fpsBox() const { return fps_; }
    QDoubleSpinBox* speedBox() const { return speed_; }
    QPushButton* exportButton() const { return export_; }

    /// `path` as the file dialog's answer with the filter `chosen`: a name without a video
    /// suffix gets the filter's (.mp4, .gif, .ogv), one with a video suffix keeps it.
    static QString withFormatSuffix(const QString& path, VideoFormat::Kind chosen);

signals:
    void exported(const QString& path);
    void exportFailed(const QString& message);

private:
    void browse();
    void updateSummary();
    void showStatus(const QString& text, bool error);

    SceneView* view_;
    QLineEdit* path_;
    QSpinBox* fps_;
    SizeChooser* size_;
    QDoubleSpinBox* from_;
    QDoubleSpinBox* to_;
    QDoubleSpinBox* speed_;
    QLabel* summary_;
    QLabel* status_;
    QPushButton* export_;
};

} // namespace clab
