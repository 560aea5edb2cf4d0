#include "AtomicFile.h"

#include "FileError.h"

#include <QSaveFile>

namespace clab {

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
    const auto failure = [&](const QString& reason) {
        return FileError(FileError::Kind::Write, path, QString(),
                         QStringLiteral("cannot write %1: %2").arg(what, reason));
    };
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Unbuffered))
        throw failure(file.errorString());
    if (!writeFully(file, data.constData(), data.size()) || !file.flush()) {
        const QString reason = file.errorString();
        file.cancelWriting();
        throw failure(reason);
    }
    // commit() syncs and renames over the old file only if everything succeeded.
    if (!file.commit())
        throw failure(file.errorString());
}

} // namespace clab
