// libFuzzer harness for scene files: formats 1 and 2, and through format 2 the expression
// parser and the symbolic derivation. Every input must either load or be refused with a
// FileError (anything else escaping is a finding), and what loads must save and load back
// to the same text.
#include <FileError.h>
#include <SceneFile.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size > 64 * 1024)
        return 0; // scene files are small; longer inputs only slow the search down
    const QByteArray json(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    clab::SceneDocument document;
    try {
        document = clab::SceneFile::fromJson(json, QStringLiteral("fuzz.json"));
    } catch (const clab::FileError&) {
        return 0;
    }
    const QByteArray saved = clab::SceneFile::toJson(document);
    const clab::SceneDocument again =
        clab::SceneFile::fromJson(saved, QStringLiteral("saved.json"));
    if (clab::SceneFile::toJson(again) != saved)
        std::abort(); // a saved file must read back as it was written
    return 0;
}
