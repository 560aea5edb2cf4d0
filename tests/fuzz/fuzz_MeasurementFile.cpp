// libFuzzer harness for measurement files (the input of a fit): any text must either be read
// or refused with a FileError, and what is read must keep the promises a fit relies on — times
// strictly increasing, every value finite, one value per time in each column.
#include <FileError.h>
#include <MeasurementFile.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size > 256 * 1024)
        return 0;
    const QByteArray text(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    // The second column, by number (no header) or by the shipped example's header name.
    for (const QString& column : {QStringLiteral("2"), QStringLiteral("pos_cm")}) {
        clab::Measurements measured;
        try {
            measured = clab::MeasurementFile::parse(text, QStringLiteral("fuzz.csv"),
                                                    {{column, "s", 0.01, 0.002}},
                                                    clab::MeasurementFile::Time{});
        } catch (const clab::FileError&) {
            continue;
        }
        for (std::size_t i = 0; i < measured.times.size(); ++i)
            if (!std::isfinite(measured.times[i]) ||
                (i > 0 && !(measured.times[i] > measured.times[i - 1])))
                std::abort();
        for (const clab::Measurements::Column& c : measured.columns) {
            if (c.values.size() != measured.times.size())
                std::abort();
            for (double v : c.values)
                if (!std::isfinite(v))
                    std::abort();
        }
    }
    return 0;
}
