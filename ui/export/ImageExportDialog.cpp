#include "export/ImageExportDialog.h"

#include "AtomicFile.h"
#include "FileError.h"

#include "widgets/SizeChooser.h"

#include <QBuffer>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QImageWriter>
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
    // Encoded first, then written in one go: atomically for a file, in place for a device.
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QImageWriter writer(&buffer, format);
    if (!writer.write(image))
        return failed(writer.errorString());
    try {
        AtomicFile::write(path, buffer.data(), tr("the image"));
    } catch (const FileError& e) {
        if (error != nullptr)
            *error = QString::fromUtf8(e.what());
        return false;
    }
    return true;
}

} // namespace clab
