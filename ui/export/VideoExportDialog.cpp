#include "export/VideoExportDialog.h"

#include "widgets/SizeChooser.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressDialog>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace clab {

VideoExportDialog::VideoExportDialog(SceneView* view, double tStart, double tEnd, QWidget* parent)
    : QDialog(parent), view_(view), path_(new QLineEdit(this)), fps_(new QSpinBox(this)),
      // 4:2:0 colour (H.264, Theora) needs even sides.
      size_(new SizeChooser(VideoExporter::kMinSide, VideoExporter::kMaxSide, 2, this)),
      from_(new QDoubleSpinBox(this)), to_(new QDoubleSpinBox(this)),
      speed_(new QDoubleSpinBox(this)), summary_(new QLabel(this)), status_(new QLabel(this)),
      export_(new QPushButton(tr("&Export"), this))
{
    setWindowTitle(tr("Export Video"));
    if (tEnd < tStart)
        std::swap(tStart, tEnd);

    auto* browse = new QToolButton(this);
    browse->setText(tr("…"));
    browse->setToolTip(tr("Choose the video file"));
    path_->setPlaceholderText(tr("video.mp4, .gif or .ogv"));
    auto* pathRow = new QHBoxLayout;
    pathRow->addWidget(path_);
    pathRow->addWidget(browse);

    fps_->setRange(VideoExporter::kMinFps, VideoExporter::kMaxFps);
    fps_->setValue(30);
    fps_->setSuffix(tr(" frames/s"));
    for (QDoubleSpinBox* box : {from_, to_}) {
        box->setDecimals(3);
        box->setRange(tStart, tEnd);
        box->setSingleStep(0.1);
        box->setSuffix(tr(" s"));
    }
    from_->setValue(tStart);
    to_->setValue(tEnd);
    speed_->setDecimals(2);
    speed_->setRange(0.01, 100.0);
    speed_->setSingleStep(0.1);
    speed_->setValue(1.0);
    speed_->setPrefix(tr("×"));
    speed_->setToolTip(tr("Simulated seconds per second of video, as in the Time dock: "
                          "0.5 is slow motion"));
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* form = new QFormLayout;
    // Rows holding layouts get labels with buddies: without one, "&File:" shows its "&".
    auto* fileLabel = new QLabel(tr("&File:"), this);
    fileLabel->setBuddy(path_);
    form->addRow(fileLabel, pathRow);
    form->addRow(tr("Frame &rate:"), fps_);
    form->addRow(tr("&Size:"), size_);
    auto* rangeRow = new QHBoxLayout;
    rangeRow->addWidget(from_);
    rangeRow->addWidget(new QLabel(tr("to"), this));
    rangeRow->addWidget(to_);
    auto* rangeLabel = new QLabel(tr("&Time range:"), this);
    rangeLabel->setBuddy(from_);
    form->addRow(rangeLabel, rangeRow);
    form->addRow(tr("S&peed:"), speed_);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(export_, QDialogButtonBox::ActionRole);
    export_->setDefault(true);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(summary_);
    layout->addWidget(status_);
    layout->addWidget(buttons);

    connect(browse, &QToolButton::clicked, this, &VideoExportDialog::browse);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(export_, &QPushButton::clicked, this, &VideoExportDialog::startExport);
    connect(fps_, &QSpinBox::valueChanged, this, &VideoExportDialog::updateSummary);
    connect(size_, &SizeChooser::sizeChanged, this, &VideoExportDialog::updateSummary);
    for (QDoubleSpinBox* box : {from_, to_, speed_})
        connect(box, &QDoubleSpinBox::valueChanged, this, &VideoExportDialog::updateSummary);

    size_->setSize(SizeChooser::presetSizes().front()); // 1280 × 720
    updateSummary();
}

VideoExporter::Settings VideoExportDialog::settings() const
{
    VideoExporter::Settings s;
    s.t0 = from_->value();
    s.t1 = to_->value();
    s.fps = fps_->value();
    s.size = VideoExporter::evenSize(size_->size());
    s.speed = speed_->value();
    return s;
}

void VideoExportDialog::setSettings(const VideoExporter::Settings& settings)
{
    from_->setValue(settings.t0);
    to_->setValue(settings.t1);
    fps_->setValue(settings.fps);
    speed_->setValue(settings.speed);
    size_->setSize(VideoExporter::evenSize(settings.size));
}

QString VideoExportDialog::outputPath() const
{
    return path_->text().trimmed();
}

void VideoExportDialog::setOutputPath(const QString& path)
{
    path_->setText(path);
}

QString VideoExportDialog::statusText() const
{
    return status_->text();
}

void VideoExportDialog::browse()
{
    // The filter starts at the format the current name has (MP4 for none).
    const std::optional<VideoFormat::Kind> current = VideoFormat::fromPath(outputPath());
    QString filter = VideoFormat::filter(current.value_or(VideoFormat::Mp4));
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export Video"), outputPath(),
                                     VideoFormat::filters().join(QStringLiteral(";;")), &filter);
    if (path.isEmpty())
        return;
    setOutputPath(withFormatSuffix(path, VideoFormat::fromFilter(filter)));
}

QString VideoExportDialog::withFormatSuffix(const QString& path, VideoFormat::Kind chosen)
{
    // A name with another format's suffix keeps it (the file says what it is); one without
    // gets the chosen filter's suffix, visibly in the File field.
    return VideoFormat::fromPath(path) ? path : path + VideoFormat::suffix(chosen);
}

QComboBox* VideoExportDialog::sizeBox() const
{
    return size_->presetBox();
}

void VideoExportDialog::updateSummary()
{
    const VideoExporter::Settings s = settings();
    const QString problem = VideoExporter::validate(s);
    if (!problem.isEmpty()) {
        summary_->setText(problem);
        export_->setEnabled(false);
        return;
    }
    const int frames = VideoExporter::frameCount(s);
    summary_->setText(tr("%1 frames, %2 s of video at %3 × %4")
                          .arg(frames)
                          .arg(static_cast<double>(frames) / s.fps, 0, 'f', 1)
                          .arg(s.size.width())
                          .arg(s.size.height()));
    export_->setEnabled(true);
}

void VideoExportDialog::showStatus(const QString& text, bool error)
{
    status_->setText(text);
    status_->setStyleSheet(error ? QStringLiteral("color: #c0392b;") : QString());
}

bool VideoExportDialog::startExport()
{
    const QString path = outputPath();
    if (path.isEmpty()) {
        showStatus(tr("Choose a file for the video."), true);
        emit exportFailed(statusText());
        return false;
    }
    const VideoExporter::Settings s = settings();
    const int total = VideoExporter::frameCount(s);

    // An earlier run's message would sit beside the new progress.
    showStatus(QString(), false);
    VideoExporter exporter(view_);
    QProgressDialog progress(tr("Rendering %1 frames…").arg(total), tr("Cancel"), 0, total, this);
    progress.setWindowTitle(tr("Export Video"));
    // Window-modal: setValue() then processes the events of the dialog itself, Cancel included,
    // while the exporter lets through everything but user input.
    progress.setWindowModality(Qt::WindowModal);
    progress.setMinimumDuration(0);
    progress.setAutoClose(false);
    progress.setAutoReset(false);
    connect(&exporter, &VideoExporter::progress, &progress,
            [&progress](int done, int) { progress.setValue(done); });
    connect(&progress, &QProgressDialog::canceled, &exporter, &VideoExporter::cancel);

    export_->setEnabled(false);
    const bool ok = exporter.run(s, path);
    progress.close();
    export_->setEnabled(true);

    if (ok) {
        showStatus(tr("Wrote %1.").arg(QDir::toNativeSeparators(path)), false);
        emit exported(path);
        accept();
        return true;
    }
    if (exporter.wasCancelled()) {
        showStatus(tr("Cancelled: no file was written."), false);
        return false;
    }
    showStatus(exporter.errorString(), true);
    emit exportFailed(exporter.errorString());
    return false;
}

} // namespace clab
