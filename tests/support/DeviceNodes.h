#pragma once

#include <QFile>
#include <QString>

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>

namespace clab::testing {

/// A private character device with the numbers of /dev/null (minor 3) or /dev/full (minor 7):
/// what a rename would replace, without touching the system's own nodes. mknod needs root
/// (CAP_MKNOD): callers skip when it returns false.
inline bool makeDevice(const QString& path, unsigned minor)
{
    return ::mknod(QFile::encodeName(path).constData(), S_IFCHR | 0666, makedev(1, minor)) == 0;
}

/// The file type of `path` itself (a link is not followed).
inline bool isCharacterDevice(const QString& path)
{
    struct stat info {};
    return ::lstat(QFile::encodeName(path).constData(), &info) == 0 && S_ISCHR(info.st_mode);
}

inline bool isFifo(const QString& path)
{
    struct stat info {};
    return ::lstat(QFile::encodeName(path).constData(), &info) == 0 && S_ISFIFO(info.st_mode);
}

} // namespace clab::testing
