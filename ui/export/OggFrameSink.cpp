#include "export/OggFrameSink.h"

#include <QCoreApplication>
#include <QFile>
#include <QImage>

#include <vtkImageData.h>
#include <vtkOggTheoraWriter.h>

#include <cstring>

namespace clab {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("OggFrameSink", text);
}

// The writer copies rows bottom-up (VTK's origin is the lower left corner), so the picture is
// stored flipped here to come out upright.
void copyFlipped(const QImage& image, vtkImageData* data)
{
    const QImage rgb = image.convertToFormat(QImage::Format_RGB888);
    auto* out = static_cast<unsigned char*>(data->GetScalarPointer());
    const int w = rgb.width();
    const int h = rgb.height();
    const std::size_t rowBytes = static_cast<std::size_t>(w) * 3;
    for (int y = 0; y < h; ++y)
        std::memcpy(out + static_cast<std::size_t>(h - 1 - y) * rowBytes, rgb.constScanLine(y),
                    rowBytes);
}

// A complete stream is a chain of whole Ogg pages whose last one carries the end-of-stream
// flag; anything else means a write failed.
bool isCompleteOgg(const QString& path, QString* why)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *why = file.errorString();
        return false;
    }
    const QByteArray bytes = file.readAll();
    qsizetype pos = 0;
    bool endOfStream = false;
    const QString cut = tr("the stream is cut short (the disk may be full)");
    while (pos < bytes.size()) {
        if (bytes.size() - pos < 27 || bytes.mid(pos, 4) != "OggS") {
            *why = cut;
            return false;
        }
        const auto headerType = static_cast<unsigned char>(bytes[pos + 5]);
        const int segments = static_cast<unsigned char>(bytes[pos + 26]);
        if (bytes.size() - pos < 27 + segments) {
            *why = cut;
            return false;
        }
        qsizetype body = 0;
        for (int i = 0; i < segments; ++i)
            body += static_cast<unsigned char>(bytes[pos + 27 + i]);
        pos += 27 + segments + body;
        endOfStream = (headerType & 0x04) != 0;
    }
    if (pos != bytes.size() || !endOfStream) {
        *why = cut;
        return false;
    }
    return true;
}

} // namespace

OggFrameSink::OggFrameSink() = default;

OggFrameSink::~OggFrameSink()
{
    // The writer must close its file before the caller removes it. Before its first Write() it
    // has no stream yet, and End() would clear an uninitialized one (VTK 9.1).
    if (written_ && !ended_)
        writer_->End();
}

QString OggFrameSink::codecName() const
{
    return QStringLiteral("Theora");
}

bool OggFrameSink::open(const QString& path, const QSize& size, int fps)
{
    path_ = path;
    data_ = vtkSmartPointer<vtkImageData>::New();
    data_->SetDimensions(size.width(), size.height(), 1);
    data_->AllocateScalars(VTK_UNSIGNED_CHAR, 3);
    writer_ = vtkSmartPointer<vtkOggTheoraWriter>::New();
    writer_->SetInputData(data_);
    writer_->SetFileName(QFile::encodeName(path).constData());
    writer_->SetRate(fps);
    writer_->SetQuality(2);
    // 4:2:0, the chroma format every Theora player decodes (4:4:4 is optional in decoders).
    writer_->SetSubsampling(1);
    writer_->Start();
    if (writer_->GetError())
        return fail(tr("the Theora encoder does not start"));
    return true;
}

bool OggFrameSink::write(const QImage& frame)
{
    copyFlipped(frame, data_);
    data_->Modified();
    writer_->Write();
    written_ = true;
    if (writer_->GetError())
        return fail(QString::fromLatin1(
            vtkGenericMovieWriter::GetStringFromErrorCode(writer_->GetErrorCode())));
    return true;
}

bool OggFrameSink::finish()
{
    writer_->End();
    ended_ = true;
    QString why;
    if (!isCompleteOgg(path_, &why))
        return fail(why);
    return true;
}

} // namespace clab
