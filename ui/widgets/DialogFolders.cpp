#include "widgets/DialogFolders.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>

namespace clab {

namespace {

QString settingsKey(const QString& kind)
{
    return QStringLiteral("folders/") + kind;
}

bool isFolder(const QString& path)
{
    return !path.isEmpty() && QFileInfo(path).isDir();
}

} // namespace

QString DialogFolders::folder(const QString& kind)
{
    const QString last = QSettings().value(settingsKey(kind)).toString();
    if (isFolder(last))
        return last;
    // A fresh account may have no Documents folder yet: a dialog given a missing folder shows
    // its name as the file name.
    const QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    if (isFolder(documents))
        return documents;
    return QDir::homePath();
}

QString DialogFolders::suggestedPath(const QString& kind, const QString& fileName)
{
    return QDir(folder(kind)).filePath(fileName);
}

void DialogFolders::remember(const QString& kind, const QString& chosenPath)
{
    if (chosenPath.isEmpty())
        return;
    const QString dir = QFileInfo(chosenPath).absolutePath();
    if (isFolder(dir))
        QSettings().setValue(settingsKey(kind), dir);
}

} // namespace clab
