#pragma once

#include <QDialog>
#include <QImage>
#include <QList>
#include <QSize>
#include <QString>

class QComboBox;
class QSpinBox;

namespace clab {

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

    /// The preset sizes in the order shown: 1280×720, 1920×1080, 2560×1440, 3840×2160.
    static QList<QSize> presetSizes();
    static QSize defaultSize() { return {1920, 1080}; }

    QSize selectedSize() const;
    /// Shows `size` (clamped to 64…8192): its preset when it is one, else as custom size.
    void setSelectedSize(const QSize& size);

    QComboBox* presetBox() const { return preset_; }
    QSpinBox* widthBox() const { return width_; }
    QSpinBox* heightBox() const { return height_; }

    /// Writes `image` atomically (QSaveFile), in the format of the file's suffix (PNG when it
    /// has none). False with `error` naming the file and the reason when it fails.
    static bool saveImage(const QImage& image, const QString& path, QString* error);

private:
    void onPresetChanged(int index);

    QComboBox* preset_;
    QSpinBox* width_;
    QSpinBox* height_;
};

} // namespace clab
