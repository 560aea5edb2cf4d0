#include "AtomicFile.h"

#include "FileError.h"

#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

namespace clab {

AtomicFile::AtomicFile(const QString& path, const QString& what)
    : path_(path), what_(what), inPlace_(writesInPlace(path))
{
    if (inPlace_) {
        // Opened as it is (O_TRUNC means nothing to a device or a pipe), never replaced.
        auto file = std::make_unique<QFile>(path);
        if (!file->open(QIODevice::WriteOnly | QIODevice::Unbuffered))
            fail(file->errorString());
        file_ = std::move(file);
    } else {
        auto file = std::make_unique<QSaveFile>(path);
        if (!file->open(QIODevice::WriteOnly | QIODevice::Unbuffered))
            fail(file->errorString());
        file_ = std::move(file);
    }
}

AtomicFile::~AtomicFile()
{
    if (!done_ && !inPlace_)
        static_cast<QSaveFile*>(file_.get())->cancelWriting();
}

void AtomicFile::fail(const QString& reason)
{
    if (file_ && !inPlace_)
        static_cast<QSaveFile*>(file_.get())->cancelWriting();
    done_ = true;
    throw FileError(FileError::Kind::Write, path_, QString(),
                    QStringLiteral("cannot write %1: %2").arg(what_, reason));
}

void AtomicFile::append(const char* data, qint64 size)
{
    if (done_)
        fail(QStringLiteral("the file is already closed"));
    if (!writeFully(*file_, data, size))
        fail(file_->errorString());
}

QIODevice& AtomicFile::device()
{
    return *file_;
}

void AtomicFile::commit()
{
    if (done_)
        fail(QStringLiteral("the file is already closed"));
    // QFileDevice reports a short write (a full disk) only on the next call, and Qt 6.4's
    // QSaveFile::commit() misses a failed final flush: flush first and check.
    if (!file_->flush() || file_->error() != QFileDevice::NoError)
        fail(file_->errorString());
    if (inPlace_) {
        file_->close();
        done_ = true;
        if (file_->error() != QFileDevice::NoError)
            fail(file_->errorString());
        return;
    }
    // commit() syncs and renames over the old file only if everything succeeded.
    auto* save = static_cast<QSaveFile*>(file_.get());
    done_ = true;
    if (!save->commit())
        throw FileError(FileError::Kind::Write, path_, QString(),
                        QStringLiteral("cannot write %1: %2").arg(what_, save->errorString()));
}

bool AtomicFile::writesInPlace(const QString& path)
{
    // QFileInfo follows symbolic links: a link to /dev/null is written in place too.
    const QFileInfo info(path);
    return info.exists() && !info.isFile() && !info.isDir();
}

bool AtomicFile::writeFully(QIODevice& device, const char* data, qint64 size)
{
    while (size > 0) {
        const qint64 n = device.write(data, size);
        if (n <= 0)
            return false;
        data += n;
        size -= n;
    }
    return true;
}

void AtomicFile::write(const QString& path, const QByteArray& data, const QString& what)
{
    AtomicFile file(path, what);
    file.append(data);
    file.commit();
}

} // namespace clab
