#pragma once

#include <QByteArray>
#include <QIODevice>
#include <QString>

#include <memory>

class QFileDevice;

namespace clab {

/// \brief Writes that never leave half a file and never replace what is not a file.
///
/// A regular file (or a new one) is written through QSaveFile: a temporary beside the target
/// that is renamed over it only when every byte arrived. A target that is not a regular file
/// — a character or block device such as /dev/null, a FIFO, a socket — is written in place and
/// streamed: renaming onto it would replace the device node or the pipe with a file. Failures
/// (no permission, disk full, /dev/full) throw FileError(Write) with the system's reason.
class AtomicFile {
public:
    /// Opens `path` for writing; `what` names the content in messages ("the CSV"). Throws
    /// FileError(Write) "cannot write <what>: <reason>".
    AtomicFile(const QString& path, const QString& what);
    /// Discards an uncommitted write: a regular target keeps its old content.
    ~AtomicFile();
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    /// Appends bytes; throws FileError(Write) on a device error (the write is then discarded).
    void append(const char* data, qint64 size);
    void append(const QByteArray& data) { append(data.constData(), data.size()); }
    /// Finishes the write: syncs and renames a regular file into place, flushes a device.
    /// Throws FileError(Write); afterwards nothing more may be appended.
    void commit();
    /// The open device, for writers that need a QIODevice (e.g. QImageWriter); errors found on
    /// it are reported by commit().
    QIODevice& device();

    /// True when `path` exists and is not a regular file (a device, FIFO or socket, also
    /// through a symbolic link): such targets are written in place.
    static bool writesInPlace(const QString& path);
    /// Writes all of `data`, retrying short writes; false on a device error.
    static bool writeFully(QIODevice& device, const char* data, qint64 size);
    /// Replaces `path` with `data` (in place for devices and pipes). Throws FileError(Write)
    /// and leaves an old regular file untouched on any failure.
    static void write(const QString& path, const QByteArray& data, const QString& what);

private:
    [[noreturn]] void fail(const QString& reason);

    QString path_;
    QString what_;
    bool inPlace_ = false;
    bool done_ = false;
    std::unique_ptr<QFileDevice> file_;
};

} // namespace clab
