#pragma once

#include <QDialog>
#include <QImage>
#include <QList>
#include <QSize>
#include <QString>

class QComboBox;
class QSpinBox;

namespace clab {

class SizeChooser;

/// \brief Asks for the resolution of a 3D-view screenshot: a preset (720p, 1080p, 1440p, 4K) or
/// a custom width and height of 64…8192 pixels; 1920 × 1080 by default.
///
/// The caller renders at selectedSize() (SceneView::renderImage) and writes the picture with
/// saveImage(), which replaces a file only once the new one is complete.
class ImageExportDialog : public QDialog {
    Q_OBJECT
public:
    static constexpr int kMinSide = 64;
    static constexpr int kMaxSide = 8192;

    explicit ImageExportDialog(QWidget* parent = nullptr);

    static QSize defaultSize() { return {1920, 1080}; }

    QSize selectedSize() const;
    /// Shows `size` (clamped to 64…8192): its preset when it is one, else as custom size.
    void setSelectedSize(const QSize& size);

    QComboBox* presetBox() const;
    QSpinBox* widthBox() const;
    QSpinBox* heightBox() const;

    /// Writes `image` atomically (QSaveFile), in the format of the file's suffix (PNG when it
    /// has none). False with `error` naming the file and the reason when it fails.
    static bool saveImage(const QImage& image, const QString& path, QString* error);

private:
    SizeChooser* size_;
};

} // namespace clab
