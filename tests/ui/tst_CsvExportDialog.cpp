// CSV export from the GUI: the column choice (trace order, filter, All/None), the names of the
// per-run files, and files written through the real scene store that parse back equal to the
// traces, bit for bit (17 significant digits).
#include <export/CsvExportDialog.h>

#include <GuiSceneStore.h>

#include <scenes/SceneRegistry.h>
#include <integrate/Simulator.h>

#include <QFile>
#include <QListWidget>
#include <QPushButton>
#include <QTemporaryDir>
#include <QtTest>

#include <cstring>
#include <memory>
#include <stdexcept>

#include "../support/SceneRuns.h"

using namespace clab;

namespace {

std::shared_ptr<const Trace> simulate(const std::string& scene, double seconds,
                                      const ParameterValues& overrides = {})
{
    return std::make_shared<const Trace>(
        testing::runScene(scene, testing::defaultsWith(scene, overrides), seconds));
}

/// A CSV file as header + rows of fields (the writer quotes nothing in these files).
struct Csv {
    QList<QByteArray> header;
    QList<QList<QByteArray>> rows;
};

Csv readCsv(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw std::runtime_error("cannot read " + path.toStdString());
    QList<QByteArray> lines = file.readAll().split('\n');
    Csv csv;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        QByteArray line = lines[i];
        if (line.isEmpty() && i == lines.size() - 1)
            break; // after the last CRLF
        if (!line.endsWith('\r'))
            throw std::runtime_error("line without CRLF in " + path.toStdString());
        line.chop(1);
        (i == 0 ? csv.header : csv.rows.emplaceBack()) = line.split(',');
    }
    return csv;
}

bool sameBits(double a, double b)
{
    return std::memcmp(&a, &b, sizeof a) == 0;
}

QList<QByteArray> names(const std::vector<std::string>& columns)
{
    QList<QByteArray> out;
    for (const std::string& c : columns)
        out << QByteArray::fromStdString(c);
    return out;
}

/// Checks that `rows[first .. first + samples)`, columns from `offset`, hold `trace`'s values.
void compareValues(const Csv& csv, qsizetype first, int offset, const Trace& trace,
                   const std::vector<std::string>& columns)
{
    for (std::size_t s = 0; s < trace.samples.size(); ++s) {
        const QList<QByteArray>& row = csv.rows[first + static_cast<qsizetype>(s)];
        QCOMPARE(row.size(), static_cast<qsizetype>(columns.size()) + offset);
        std::vector<double> values;
        trace.row(s, values);
        for (std::size_t c = 0; c < columns.size(); ++c) {
            bool ok = false;
            const double parsed = row[offset + static_cast<qsizetype>(c)].toDouble(&ok);
            QVERIFY(ok);
            const double expected = values[static_cast<std::size_t>(trace.columnIndex(columns[c]))];
            QVERIFY2(sameBits(parsed, expected),
                     qPrintable(QStringLiteral("sample %1 column %2: %3 != %4")
                                    .arg(s)
                                    .arg(QString::fromStdString(columns[c]))
                                    .arg(parsed, 0, 'g', 17)
                                    .arg(expected, 0, 'g', 17)));
        }
    }
}

} // namespace

class TestCsvExportDialog : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        ring_ = simulate("ring", 0.3);
        QVERIFY(ring_->columnNames().size() > 10);
    }

    void allColumnsAreCheckedAtFirst()
    {
        CsvExportDialog dialog(ring_->columnNames(), 1);
        QCOMPARE(dialog.selectedColumns(), ring_->columnNames());
        QVERIFY(!dialog.offersRunModes());
        QCOMPARE(dialog.runMode(), CsvExportDialog::RunMode::OneFile);
    }

    void selectionComesBackInTraceOrder()
    {
        const std::vector<std::string> all = ring_->columnNames();
        CsvExportDialog dialog(all, 1);
        dialog.checkShown(false);
        QVERIFY(dialog.selectedColumns().empty());
        QVERIFY(!dialog.okButton()->isEnabled()); // nothing to export
        // Checked in reverse order: the result is still in the trace's order.
        const std::string last = all.back();
        const std::string middle = all[all.size() / 2];
        dialog.setColumnChecked(last, true);
        dialog.setColumnChecked(middle, true);
        dialog.setColumnChecked("t", true);
        QVERIFY(dialog.okButton()->isEnabled());
        QCOMPARE(dialog.selectedColumns(), (std::vector<std::string>{"t", middle, last}));
    }

    void filterShowsMatchingColumnsAndAllNoneActOnThem()
    {
        const std::vector<std::string> all = ring_->columnNames();
        CsvExportDialog dialog(all, 1);
        dialog.setFilter(QStringLiteral("qci_"));
        std::vector<std::string> expected;
        for (const std::string& c : all)
            if (QString::fromStdString(c).contains(QStringLiteral("qci_"), Qt::CaseInsensitive))
                expected.push_back(c);
        QVERIFY(!expected.empty());
        QCOMPARE(dialog.shownColumns(), expected);
        int visible = 0;
        for (int i = 0; i < dialog.columnList()->count(); ++i)
            visible += dialog.columnList()->item(i)->isHidden() ? 0 : 1;
        QCOMPARE(visible, static_cast<int>(expected.size()));

        // "None" unchecks only the shown Qᶜᵢ columns; the hidden ones stay checked.
        dialog.checkShown(false);
        std::vector<std::string> rest;
        for (const std::string& c : all)
            if (std::find(expected.begin(), expected.end(), c) == expected.end())
                rest.push_back(c);
        QCOMPARE(dialog.selectedColumns(), rest);
        // "None" over everything, then "All" over the filtered ones: exactly those.
        dialog.setFilter(QString());
        QCOMPARE(dialog.shownColumns(), all);
        dialog.checkShown(false);
        dialog.setFilter(QStringLiteral("QCI_"));
        dialog.checkShown(true);
        QCOMPARE(dialog.selectedColumns(), expected);
    }

    void runModeIsOfferedForSeveralRuns()
    {
        CsvExportDialog dialog(ring_->columnNames(), 3);
        QVERIFY(dialog.offersRunModes());
        QCOMPARE(dialog.runMode(), CsvExportDialog::RunMode::OneFile);
        dialog.setRunMode(CsvExportDialog::RunMode::FilePerRun);
        QCOMPARE(dialog.runMode(), CsvExportDialog::RunMode::FilePerRun);
    }

    void perRunNamesAreSanitizedAndUnique()
    {
        QCOMPARE(CsvExportDialog::sanitizeLabel(QStringLiteral("mu=0.2")),
                 QStringLiteral("mu=0.2"));
        QCOMPARE(CsvExportDialog::sanitizeLabel(QStringLiteral("μ = 0.3, a/b")),
                 QStringLiteral("_=0.3_a_b"));
        const QStringList paths = CsvExportDialog::perRunPaths(
            QStringLiteral("/data/out.csv"), {"mu=0.2", "mu=0.2", "MU=0.2", "", "../x", "a b"});
        QCOMPARE(paths, (QStringList{QStringLiteral("/data/out-mu=0.2.csv"),
                                     QStringLiteral("/data/out-mu=0.2-2.csv"),
                                     QStringLiteral("/data/out-MU=0.2-3.csv"),
                                     QStringLiteral("/data/out-run4.csv"),
                                     QStringLiteral("/data/out-.._x.csv"),
                                     QStringLiteral("/data/out-a_b.csv")}));
        // Compare-mode labels give names a shell takes unquoted (once "out-mu_=_0.1.csv").
        QCOMPARE(CsvExportDialog::perRunPaths(QStringLiteral("/data/compare.csv"),
                                              {"mu = 0.1", "mu = 0.1, mu_s = 0.3", " g = 9.81 "}),
                 (QStringList{QStringLiteral("/data/compare-mu=0.1.csv"),
                              QStringLiteral("/data/compare-mu=0.1_mu_s=0.3.csv"),
                              QStringLiteral("/data/compare-g=9.81.csv")}));
        // The last suffix is kept; a name without one gets ".csv".
        QCOMPARE(CsvExportDialog::perRunPaths(QStringLiteral("/d/trace.v2.CSV"), {"a"}),
                 QStringList{QStringLiteral("/d/trace.v2-a.CSV")});
        QCOMPARE(CsvExportDialog::perRunPaths(QStringLiteral("/d/trace"), {"a"}),
                 QStringList{QStringLiteral("/d/trace-a.csv")});
    }

    void singleRunParsesBackEqualToTrace()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("ring.csv"));
        CsvExportDialog dialog(ring_->columnNames(), 1);
        dialog.checkShown(false);
        for (const char* c : {"E", "t", "theta", "Qcni_theta"})
            if (ring_->columnIndex(c) >= 0)
                dialog.setColumnChecked(c, true);
        const std::vector<std::string> columns = dialog.selectedColumns();
        QVERIFY(columns.size() >= 2);
        GuiSceneStore store;
        const QStringList written =
            CsvExportDialog::write(store, {{"mu=0.1", ring_}}, columns, dialog.runMode(), path);
        QCOMPARE(written, QStringList{path});
        const Csv csv = readCsv(path);
        QCOMPARE(csv.header, names(columns)); // no "run" column for one run
        QCOMPARE(csv.rows.size(), static_cast<qsizetype>(ring_->samples.size()));
        compareValues(csv, 0, 0, *ring_, columns);
    }

    void severalRunsInOneFileHaveRunColumn()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("compare.csv"));
        const auto other = simulate("ring", 0.2, {{"mu", {0.4}}, {"mu_s", {0.4}}});
        const std::vector<LabelledTrace> runs = {{"mu=0.1", ring_}, {"mu=0.4", other}};
        const std::vector<std::string> columns = {"t", "E"};
        GuiSceneStore store;
        CsvExportDialog::write(store, runs, columns, CsvExportDialog::RunMode::OneFile, path);
        const Csv csv = readCsv(path);
        QCOMPARE(csv.header, (QList<QByteArray>{"run", "t", "E"}));
        const auto n1 = static_cast<qsizetype>(ring_->samples.size());
        const auto n2 = static_cast<qsizetype>(other->samples.size());
        QCOMPARE(csv.rows.size(), n1 + n2);
        for (qsizetype i = 0; i < n1 + n2; ++i)
            QCOMPARE(csv.rows[i].front(), QByteArray(i < n1 ? "mu=0.1" : "mu=0.4"));
        compareValues(csv, 0, 1, *ring_, columns);
        compareValues(csv, n1, 1, *other, columns);
    }

    void severalRunsOneFileEach()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("compare.csv"));
        const auto other = simulate("ring", 0.2, {{"mu", {0.4}}, {"mu_s", {0.4}}});
        const std::vector<LabelledTrace> runs = {{"mu=0.1", ring_}, {"mu=0.4", other}};
        GuiSceneStore store;
        const QStringList written =
            CsvExportDialog::write(store, runs, {}, CsvExportDialog::RunMode::FilePerRun, path);
        QCOMPARE(written, (QStringList{dir.filePath(QStringLiteral("compare-mu=0.1.csv")),
                                       dir.filePath(QStringLiteral("compare-mu=0.4.csv"))}));
        QVERIFY(!QFile::exists(path));
        for (int r = 0; r < 2; ++r) {
            const Csv csv = readCsv(written[r]);
            const Trace& trace = *runs[static_cast<std::size_t>(r)].trace;
            QCOMPARE(csv.header, names(trace.columnNames())); // all columns, no "run"
            QCOMPARE(csv.rows.size(), static_cast<qsizetype>(trace.samples.size()));
            compareValues(csv, 0, 0, trace, trace.columnNames());
        }
    }

    void unwritableFolderIsReportedWithThePath()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("missing/ring.csv"));
        GuiSceneStore store;
        try {
            CsvExportDialog::write(store, {{"", ring_}}, {}, CsvExportDialog::RunMode::OneFile,
                                   path);
            QFAIL("no error for a missing folder");
        } catch (const std::exception& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(path), e.what());
        }
        QVERIFY(!QFile::exists(path));
    }

private:
    std::shared_ptr<const Trace> ring_;
};

QTEST_MAIN(TestCsvExportDialog)
#include "tst_CsvExportDialog.moc"
