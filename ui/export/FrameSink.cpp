#include "export/FrameSink.h"

#include "export/FfmpegFrameSink.h"
#include "export/OggFrameSink.h"

namespace clab {

std::unique_ptr<FrameSink> FrameSink::create(VideoFormat::Kind kind)
{
    if (kind == VideoFormat::Ogg)
        return std::make_unique<OggFrameSink>();
    return std::make_unique<FfmpegFrameSink>(kind);
}

} // namespace clab
