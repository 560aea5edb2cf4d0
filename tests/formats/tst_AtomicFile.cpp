#include "AtomicFile.h"
#include "FileError.h"

#include "../support/DeviceNodes.h"

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <unistd.h>

#include <future>

using namespace clab;
using clab::testing::isCharacterDevice;
using clab::testing::isFifo;
using clab::testing::makeDevice;

namespace {

QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class AtomicFileTest : public QObject {
    Q_OBJECT

private slots:
    void regularFileIsReplacedWhole();
    void failedWriteLeavesTheOldFile();
    void deviceIsWrittenInPlaceNotReplaced();
    void fullDeviceReportsNoSpace();
    void fifoReceivesTheStreamAndStaysAFifo();
    void linkToADeviceIsWrittenThrough();
    void missingFolderIsReported();
};

void AtomicFileTest::regularFileIsReplacedWhole()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("a.txt");
    QVERIFY(!AtomicFile::writesInPlace(path)); // a new file goes through a temporary
    AtomicFile::write(path, "first", "the text");
    QVERIFY(!AtomicFile::writesInPlace(path));
    AtomicFile::write(path, "second", "the text");
    QCOMPARE(readAll(path), QByteArray("second"));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{"a.txt"});
}

void AtomicFileTest::failedWriteLeavesTheOldFile()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("a.csv");
    AtomicFile::write(path, "old", "the CSV");
    {
        AtomicFile file(path, "the CSV");
        file.append("half a ");
        // destroyed without commit(): a run that failed half-way
    }
    QCOMPARE(readAll(path), QByteArray("old"));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{"a.csv"});
}

void AtomicFileTest::deviceIsWrittenInPlaceNotReplaced()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("null");
    if (!makeDevice(path, 3))
        QSKIP("mknod needs root");
    QVERIFY(AtomicFile::writesInPlace(path));
    AtomicFile::write(path, QByteArray(100000, 'x'), "the CSV");
    QVERIFY2(isCharacterDevice(path), "the device node was replaced by a file");
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden | QDir::System),
             QStringList{"null"});
}

void AtomicFileTest::fullDeviceReportsNoSpace()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("full");
    if (!makeDevice(path, 7))
        QSKIP("mknod needs root");
    try {
        AtomicFile::write(path, QByteArray(100000, 'x'), "the CSV");
        QFAIL("writing to a full device succeeded");
    } catch (const FileError& e) {
        QCOMPARE(e.kind(), FileError::Kind::Write);
        QVERIFY2(e.reason().contains("No space left on device"), e.what());
        QVERIFY2(QString(e.what()).startsWith(path), e.what());
    }
    QVERIFY(isCharacterDevice(path));
}

void AtomicFileTest::fifoReceivesTheStreamAndStaysAFifo()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("pipe");
    QVERIFY(::mkfifo(QFile::encodeName(path).constData(), 0600) == 0);
    QVERIFY(AtomicFile::writesInPlace(path));
    // The reader gets every byte, in order, while the writer streams in pieces.
    auto reader = std::async(std::launch::async, [&] { return readAll(path); });
    QByteArray expected;
    {
        AtomicFile file(path, "the CSV");
        for (int i = 0; i < 1000; ++i) {
            const QByteArray row = QByteArray::number(i) + ",x\r\n";
            file.append(row);
            expected += row;
        }
        file.commit();
    }
    QCOMPARE(reader.get(), expected);
    QVERIFY(isFifo(path));
}

void AtomicFileTest::linkToADeviceIsWrittenThrough()
{
    QTemporaryDir dir;
    const QString device = dir.filePath("null");
    const QString link = dir.filePath("out.csv");
    if (!makeDevice(device, 3))
        QSKIP("mknod needs root");
    QVERIFY(QFile::link(device, link));
    AtomicFile::write(link, "rows", "the CSV");
    QVERIFY(QFileInfo(link).isSymLink());
    QVERIFY(isCharacterDevice(device));
}

void AtomicFileTest::missingFolderIsReported()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("missing/a.csv");
    try {
        AtomicFile::write(path, "x", "the CSV");
        QFAIL("writing into a missing folder succeeded");
    } catch (const FileError& e) {
        QVERIFY2(QString(e.what()).startsWith(path + ": cannot write the CSV: "), e.what());
    }
    QVERIFY(!QFile::exists(path));
}

QTEST_APPLESS_MAIN(AtomicFileTest)
#include "tst_AtomicFile.moc"
