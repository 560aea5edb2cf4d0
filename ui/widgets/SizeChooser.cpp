#include "widgets/SizeChooser.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>

#include <algorithm>

namespace clab {

SizeChooser::SizeChooser(int minSide, int maxSide, int step, QWidget* parent)
    : QWidget(parent), minSide_(minSide), maxSide_(maxSide), preset_(new QComboBox(this)),
      width_(new QSpinBox(this)), height_(new QSpinBox(this))
{
    for (const QSize& size : presetSizes())
        preset_->addItem(tr("%1 × %2").arg(size.width()).arg(size.height()), size);
    preset_->addItem(tr("Custom"));
    preset_->setAccessibleName(tr("Size"));
    for (QSpinBox* box : {width_, height_}) {
        box->setRange(minSide, maxSide);
        box->setSingleStep(step);
        box->setSuffix(tr(" px"));
        box->setAccelerated(true);
        connect(box, &QSpinBox::valueChanged, this, [this] { emit sizeChanged(size()); });
    }
    width_->setAccessibleName(tr("Width"));
    height_->setAccessibleName(tr("Height"));

    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(preset_);
    layout->addWidget(width_);
    layout->addWidget(new QLabel(tr("×"), this));
    layout->addWidget(height_);
    connect(preset_, &QComboBox::currentIndexChanged, this, &SizeChooser::onPresetChanged);
}

QList<QSize> SizeChooser::presetSizes()
{
    return {QSize(1280, 720), QSize(1920, 1080), QSize(2560, 1440), QSize(3840, 2160)};
}

QSize SizeChooser::size() const
{
    return {width_->value(), height_->value()};
}

void SizeChooser::setSize(const QSize& size)
{
    const QSize clamped(std::clamp(size.width(), minSide_, maxSide_),
                        std::clamp(size.height(), minSide_, maxSide_));
    const int index = static_cast<int>(presetSizes().indexOf(clamped));
    {
        const QSignalBlocker blocker(preset_);
        preset_->setCurrentIndex(index >= 0 ? index : preset_->count() - 1);
    }
    width_->setValue(clamped.width());
    height_->setValue(clamped.height());
    onPresetChanged(preset_->currentIndex());
}

void SizeChooser::onPresetChanged(int index)
{
    const QVariant data = preset_->itemData(index);
    const bool custom = !data.isValid();
    // A preset fills in its size; "Custom" keeps the last one as a starting point.
    if (!custom) {
        width_->setValue(data.toSize().width());
        height_->setValue(data.toSize().height());
    }
    width_->setEnabled(custom);
    height_->setEnabled(custom);
}

} // namespace clab
