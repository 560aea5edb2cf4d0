#include "ImageExportDialog.h"

#include "SizeChooser.h"

#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QImageWriter>
#include <QSaveFile>
#include <QVBoxLayout>

#include <algorithm>

namespace clab {

ImageExportDialog::ImageExportDialog(QWidget* parent)
    : QDialog(parent), size_(new SizeChooser(kMinSide, kMaxSide, 1, this))
{
    setWindowTitle(tr("Export 3D View Image"));
    auto* form = new QFormLayout;
    form->addRow(tr("&Resolution:"), size_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(buttons);
    setSelectedSize(defaultSize());
}

QSize ImageExportDialog::selectedSize() const
{
    return size_->size();
}

void ImageExportDialog::setSelectedSize(const QSize& size)
{
    size_->setSize(size);
}

QComboBox* ImageExportDialog::presetBox() const
{
    return size_->presetBox();
}

QSpinBox* ImageExportDialog::widthBox() const
{
    return size_->widthBox();
}

QSpinBox* ImageExportDialog::heightBox() const
{
    return size_->heightBox();
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
