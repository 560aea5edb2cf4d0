#include "ImageExportDialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QImageWriter>
#include <QSaveFile>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace clab {

ImageExportDialog::ImageExportDialog(QWidget* parent)
    : QDialog(parent), preset_(new QComboBox(this)), width_(new QSpinBox(this)),
      height_(new QSpinBox(this))
{
    setWindowTitle(tr("Export 3D View Image"));
    for (const QSize& size : presetSizes())
        preset_->addItem(tr("%1 × %2").arg(size.width()).arg(size.height()), size);
    preset_->addItem(tr("Custom"));
    for (QSpinBox* box : {width_, height_}) {
        box->setRange(kMinSide, kMaxSide);
        box->setSuffix(tr(" px"));
        box->setAccelerated(true);
    }
    width_->setAccessibleName(tr("Width"));
    height_->setAccessibleName(tr("Height"));

    auto* form = new QFormLayout;
    form->addRow(tr("&Resolution:"), preset_);
    form->addRow(tr("&Width:"), width_);
    form->addRow(tr("&Height:"), height_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(buttons);

    connect(preset_, &QComboBox::currentIndexChanged, this, &ImageExportDialog::onPresetChanged);
    setSelectedSize(defaultSize());
}

QList<QSize> ImageExportDialog::presetSizes()
{
    return {QSize(1280, 720), QSize(1920, 1080), QSize(2560, 1440), QSize(3840, 2160)};
}

QSize ImageExportDialog::selectedSize() const
{
    return {width_->value(), height_->value()};
}

void ImageExportDialog::setSelectedSize(const QSize& size)
{
    const QSize clamped(std::clamp(size.width(), kMinSide, kMaxSide),
                        std::clamp(size.height(), kMinSide, kMaxSide));
    const int index = static_cast<int>(presetSizes().indexOf(clamped));
    {
        const QSignalBlocker blocker(preset_);
        preset_->setCurrentIndex(index >= 0 ? index : preset_->count() - 1);
    }
    width_->setValue(clamped.width());
    height_->setValue(clamped.height());
    onPresetChanged(preset_->currentIndex());
}

void ImageExportDialog::onPresetChanged(int index)
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

bool ImageExportDialog::saveImage(const QImage& image, const QString& path, QString* error)
{
    const auto failed = [&](const QString& reason) {
        if (error != nullptr)
            *error = tr("%1: cannot write the image: %2").arg(path, reason);
        return false;
    };
    if (image.isNull())
        return failed(tr("the view could not be rendered"));
    QByteArray format = QFileInfo(path).suffix().toLower().toLatin1();
    if (format.isEmpty())
        format = "png";
    if (!QImageWriter::supportedImageFormats().contains(format))
        return failed(tr("unknown image format \"%1\"").arg(QString::fromLatin1(format)));
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return failed(file.errorString());
    QImageWriter writer(&file, format);
    if (!writer.write(image)) {
        const QString reason = writer.errorString();
        file.cancelWriting();
        return failed(reason);
    }
    // commit() flushes, syncs and only then replaces an existing file.
    if (!file.commit())
        return failed(file.errorString());
    return true;
}

} // namespace clab
