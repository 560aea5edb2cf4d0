#pragma once
// The error a scene file's JSON text must raise, for tests of SceneFile's messages.

#include <FileError.h>
#include <SceneFile.h>

namespace clab::testing {

/// The FileError that loading `json` raises; one that says "the text was accepted" when it
/// loads, so that a test comparing key or reason fails.
inline FileError parseError(const QByteArray& json)
{
    try {
        SceneFile::fromJson(json, QStringLiteral("lesson.json"));
    } catch (const FileError& e) {
        return e;
    }
    return FileError(FileError::Kind::Read, QString(), QStringLiteral("<no error>"),
                     QStringLiteral("the text was accepted"));
}

} // namespace clab::testing
