#pragma once

#include <QByteArray>
#include <QIODevice>
#include <QString>

namespace clab {

/// \brief Whole-file writes that never leave half a file: QSaveFile writes a temporary and
/// renames it over the target only when every byte arrived.
class AtomicFile {
public:
    /// Writes all of `data`, retrying short writes; false on a device error.
    static bool writeFully(QIODevice& device, const char* data, qint64 size);
    /// Replaces `path` with `data`. Throws FileError(Write) "cannot write <what>: <reason>" and
    /// leaves the old file untouched on any failure (no permission, disk full, ...).
    static void write(const QString& path, const QByteArray& data, const QString& what);
};

} // namespace clab
