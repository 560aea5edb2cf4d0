// Issue 34: a sweep held every run's trace and the whole CSV until the end, about 2 kB per grid
// point (407 MB at 2e5 points). It now runs and writes its grid a chunk at a time, so its
// memory does not grow with the grid: 20 000 points take no more than 200 do, within a margin
// far below the 40 MB the old sweep added.
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/resource.h>

class TestSweepMemory : public QObject {
    Q_OBJECT

private slots:
    void memoryIsFlatInTheGridSize();
};

namespace {

const QString cli = QStringLiteral(CLAB_BINARY_DIR "/app/constraintlab-cli");

QString values(int count, double step)
{
    QStringList out;
    for (int i = 1; i <= count; ++i)
        out << QString::number(step * i);
    return out.join(',');
}

/// The largest resident set of any child waited for so far, in kB.
long childrenPeakKb()
{
    rusage usage{};
    getrusage(RUSAGE_CHILDREN, &usage);
    return usage.ru_maxrss;
}

/// Sweeps the ring over v0 (`speeds` values) × phi0_deg (100 values) into `csv`.
bool sweep(int speeds, const QString& csv)
{
    QProcess process;
    process.start(cli, {"sweep", "ring", "--param", "v0", "--values", values(speeds, 0.001),
                        "--param", "phi0_deg", "--values", values(100, 0.05), "--t-end", "0.01",
                        "--dt", "0.01", "--output", csv});
    return process.waitForFinished(180000) && process.exitStatus() == QProcess::NormalExit &&
           process.exitCode() == 0;
}

int lines(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? static_cast<int>(file.readAll().count('\n')) : -1;
}

} // namespace

void TestSweepMemory::memoryIsFlatInTheGridSize()
{
    QTemporaryDir dir;
    QVERIFY(sweep(2, dir.filePath("small.csv")));
    const long small = childrenPeakKb();
    QVERIFY(sweep(200, dir.filePath("large.csv")));
    const long large = childrenPeakKb();
    // Two samples per run, one header: every row arrived, across the chunks.
    QCOMPARE(lines(dir.filePath("small.csv")), 1 + 2 * 200);
    QCOMPARE(lines(dir.filePath("large.csv")), 1 + 2 * 20000);
#if defined(__SANITIZE_ADDRESS__)
    // AddressSanitizer keeps freed memory in quarantine (256 MB by default), so its peak grows
    // with the work done, not with what is held; the dev build measures this.
    QSKIP("peak memory is not comparable under AddressSanitizer (its quarantine)");
#endif
    QVERIFY2(large < small + 15000,
             qPrintable(
                 QStringLiteral("200 points: %1 kB, 20 000 points: %2 kB").arg(small).arg(large)));
}

QTEST_GUILESS_MAIN(TestSweepMemory)
#include "tst_SweepMemory.moc"
