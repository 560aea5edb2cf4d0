#pragma once
// The files in a folder, hidden ones included, by name: what an export left behind.
#include <QDir>
#include <QStringList>

namespace clab::testing {

inline QStringList folderEntries(const QString& dir)
{
    return QDir(dir).entryList(QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot, QDir::Name);
}

} // namespace clab::testing
