#pragma once

#include "export/FrameSink.h"

#include <vtkSmartPointer.h>

class vtkImageData;
class vtkOggTheoraWriter;

namespace clab {

/// \brief Ogg Theora through VTK's vtkOggTheoraWriter (4:2:0 colour, so even sides).
///
/// finish() checks that the file is a whole chain of Ogg pages ending the stream: the writer
/// does not check its own writes, and a full disk would otherwise pass for a written video.
class OggFrameSink : public FrameSink {
public:
    OggFrameSink();
    ~OggFrameSink() override;

    bool open(const QString& path, const QSize& size, int fps) override;
    bool write(const QImage& frame) override;
    bool finish() override;
    QString codecName() const override;

private:
    QString path_;
    vtkSmartPointer<vtkImageData> data_;
    vtkSmartPointer<vtkOggTheoraWriter> writer_;
    bool written_ = false;
    bool ended_ = false;
};

} // namespace clab
