#pragma once

#include <QList>
#include <QSize>
#include <QWidget>

class QComboBox;
class QSpinBox;

namespace clab {

/// \brief Picks a picture size: a preset (720p, 1080p, 1440p, 4K) or "Custom" with width and
/// height spin boxes, which only a custom size enables.
///
/// Shared by the image and the video export dialogs so that both offer the same sizes.
class SizeChooser : public QWidget {
    Q_OBJECT
public:
    /// `minSide`…`maxSide` pixels per side; `step` 2 keeps sides even (video).
    SizeChooser(int minSide, int maxSide, int step = 1, QWidget* parent = nullptr);

    /// The preset sizes in the order shown: 1280×720, 1920×1080, 2560×1440, 3840×2160.
    static QList<QSize> presetSizes();

    QSize size() const;
    /// Shows `size` (clamped to the range): its preset when it is one, else as custom size.
    void setSize(const QSize& size);

    QComboBox* presetBox() const { return preset_; }
    QSpinBox* widthBox() const { return width_; }
    QSpinBox* heightBox() const { return height_; }

signals:
    void sizeChanged(const QSize& size);

private:
    void onPresetChanged(int index);

    int minSide_;
    int maxSide_;
    QComboBox* preset_;
    QSpinBox* width_;
    QSpinBox* height_;
};

} // namespace clab
