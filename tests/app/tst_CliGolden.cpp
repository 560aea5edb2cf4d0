// The golden check of `constraintlab-cli`: every case of tests/app/golden/cases.txt runs the
// built program, and its exit code, standard output, standard error and every file it writes
// must equal tests/app/golden/expected/CASE/ byte for byte (exit_code, stdout, stderr,
// files/...). It pins the CLI's behaviour across restructurings; a deliberate change of an
// output is recorded by regenerating the expected files and reviewing their diff:
//
//   CLAB_UPDATE_GOLDEN=1 build/dev/tests/tst_CliGolden
//
// Each case runs in an empty temporary directory holding two symbolic links, `scenes` (the
// repository's scenes/) and `inputs` (tests/app/golden/inputs/), so that the arguments are
// relative paths; the temporary, source and build directories are replaced by <tmp>, <src> and
// <build> wherever an output names them.
#include "../support/ProcessRunner.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {

const QString cli = QStringLiteral(CLAB_BINARY_DIR "/app/constraintlab-cli");
const QString goldenDir = QStringLiteral(CLAB_SOURCE_DIR "/tests/app/golden");

struct GoldenCase {
    QString name;
    QStringList args;
};

std::vector<GoldenCase> readCases()
{
    QFile file(goldenDir + QStringLiteral("/cases.txt"));
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
        qFatal("cannot read %s", qPrintable(file.fileName()));
    std::vector<GoldenCase> cases;
    while (!file.atEnd()) {
        const QString line = QString::fromUtf8(file.readLine()).trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        const int colon = line.indexOf(QLatin1Char(':'));
        if (colon <= 0)
            qFatal("cases.txt: expected \"NAME: ARGUMENTS\": %s", qPrintable(line));
        cases.push_back({line.left(colon), QProcess::splitCommand(line.mid(colon + 1))});
    }
    return cases;
}

/// What one case produced: named parts ("exit_code", "stdout", "stderr", "files/NAME").
using Outputs = std::map<QString, QByteArray>;

QByteArray normalized(QByteArray bytes, const QString& workDir)
{
    const std::pair<QString, const char*> places[] = {
        {QDir(workDir).canonicalPath(), "<tmp>"},
        {workDir, "<tmp>"},
        {QDir(QStringLiteral(CLAB_BINARY_DIR)).canonicalPath(), "<build>"},
        {QStringLiteral(CLAB_BINARY_DIR), "<build>"},
        {QDir(QStringLiteral(CLAB_SOURCE_DIR)).canonicalPath(), "<src>"},
        {QStringLiteral(CLAB_SOURCE_DIR), "<src>"}};
    for (const auto& [path, placeholder] : places)
        if (!path.isEmpty())
            bytes.replace(path.toUtf8(), placeholder);
    return bytes;
}

QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

Outputs runCase(const GoldenCase& c)
{
    QTemporaryDir dir;
    if (!dir.isValid())
        qFatal("no temporary directory");
    QFile::link(QStringLiteral(CLAB_SOURCE_DIR "/scenes"), dir.filePath(QStringLiteral("scenes")));
    QFile::link(goldenDir + QStringLiteral("/inputs"), dir.filePath(QStringLiteral("inputs")));

    // No display: `plot` only reaches its usage errors here, the same with and without one.
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
        environment.remove(QString::fromLatin1(name));
    QProcess process;
    process.setProcessEnvironment(environment);
    process.setWorkingDirectory(dir.path());
    process.start(cli, c.args);
    if (!process.waitForFinished(60000)) {
        process.kill();
        process.waitForFinished();
    }
    Outputs outputs;
    outputs[QStringLiteral("exit_code")] = process.exitStatus() == QProcess::NormalExit
                                               ? QByteArray::number(process.exitCode()) + '\n'
                                               : QByteArrayLiteral("crashed or timed out\n");
    outputs[QStringLiteral("stdout")] = normalized(process.readAllStandardOutput(), dir.path());
    outputs[QStringLiteral("stderr")] = normalized(process.readAllStandardError(), dir.path());
    QDirIterator files(dir.path(), QDir::Files | QDir::NoSymLinks | QDir::Hidden,
                       QDirIterator::Subdirectories);
    while (files.hasNext()) {
        const QString path = files.next();
        if (QFileInfo(path).isSymLink())
            continue;
        outputs[QStringLiteral("files/") + QDir(dir.path()).relativeFilePath(path)] =
            normalized(readAll(path), dir.path());
    }
    return outputs;
}

Outputs readExpected(const QString& caseDir)
{
    Outputs outputs;
    QDirIterator files(caseDir, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (files.hasNext()) {
        const QString path = files.next();
        outputs[QDir(caseDir).relativeFilePath(path)] = readAll(path);
    }
    return outputs;
}

void writeExpected(const QString& caseDir, const Outputs& outputs)
{
    QDir(caseDir).removeRecursively();
    for (const auto& [name, bytes] : outputs) {
        const QString path = caseDir + QLatin1Char('/') + name;
        QDir().mkpath(QFileInfo(path).path());
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
            qFatal("cannot write %s", qPrintable(path));
    }
}

/// "" when equal, else the first differing line of both (1-based line number).
QString firstDifference(const QByteArray& expected, const QByteArray& actual)
{
    if (expected == actual)
        return {};
    const QList<QByteArray> e = expected.split('\n');
    const QList<QByteArray> a = actual.split('\n');
    for (qsizetype i = 0; i < std::max(e.size(), a.size()); ++i) {
        const QByteArray el = i < e.size() ? e[i] : QByteArrayLiteral("<end>");
        const QByteArray al = i < a.size() ? a[i] : QByteArrayLiteral("<end>");
        if (el != al)
            return QStringLiteral("line %1\n  expected: %2\n  actual:   %3")
                .arg(i + 1)
                .arg(QString::fromUtf8(el.toPercentEncoding(" ,;:=()[]{}/\"'<>*+|#")),
                     QString::fromUtf8(al.toPercentEncoding(" ,;:=()[]{}/\"'<>*+|#")));
    }
    return QStringLiteral("same lines, different bytes");
}

} // namespace

class CliGoldenTest : public QObject {
    Q_OBJECT

private slots:
    void casesHaveUniqueNames();
    void outputsEqualTheGoldenSet_data();
    void outputsEqualTheGoldenSet();
    void noExpectedOutputsWithoutACase();
};

void CliGoldenTest::casesHaveUniqueNames()
{
    QSet<QString> names;
    for (const GoldenCase& c : readCases()) {
        QVERIFY2(!names.contains(c.name), qPrintable(c.name));
        names.insert(c.name);
    }
    QVERIFY(names.size() > 100);
}

void CliGoldenTest::outputsEqualTheGoldenSet_data()
{
    QTest::addColumn<QStringList>("args");
    for (const GoldenCase& c : readCases())
        QTest::newRow(qPrintable(c.name)) << c.args;
}

void CliGoldenTest::outputsEqualTheGoldenSet()
{
    QFETCH(QStringList, args);
    const QString caseDir =
        goldenDir + QStringLiteral("/expected/") + QString::fromUtf8(QTest::currentDataTag());
    const Outputs actual = runCase({QString::fromUtf8(QTest::currentDataTag()), args});
    if (qEnvironmentVariableIsSet("CLAB_UPDATE_GOLDEN")) {
        writeExpected(caseDir, actual);
        return;
    }
    const Outputs expected = readExpected(caseDir);
    QVERIFY2(!expected.empty(),
             qPrintable(QStringLiteral("no %1; run with CLAB_UPDATE_GOLDEN=1").arg(caseDir)));
    for (const auto& [name, bytes] : expected) {
        const auto it = actual.find(name);
        QVERIFY2(it != actual.end(), qPrintable(QStringLiteral("%1 was not written").arg(name)));
        const QString difference = firstDifference(bytes, it->second);
        QVERIFY2(difference.isEmpty(), qPrintable(name + QStringLiteral(": ") + difference));
    }
    for (const auto& entry : actual)
        QVERIFY2(expected.count(entry.first),
                 qPrintable(QStringLiteral("unexpected output %1").arg(entry.first)));
}

void CliGoldenTest::noExpectedOutputsWithoutACase()
{
    QSet<QString> names;
    for (const GoldenCase& c : readCases())
        names.insert(c.name);
    const QStringList dirs =
        QDir(goldenDir + QStringLiteral("/expected")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString& dir : dirs)
        QVERIFY2(names.contains(dir),
                 qPrintable(QStringLiteral("expected/%1 has no case").arg(dir)));
}

QTEST_MAIN(CliGoldenTest)

#include "tst_CliGolden.moc"
