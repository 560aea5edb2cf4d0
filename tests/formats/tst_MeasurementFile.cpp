#include "FileError.h"
#include "MeasurementFile.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace clab;

namespace {

using Mapping = MeasurementFile::Mapping;

QString errorOf(const QByteArray& text, const std::vector<Mapping>& mappings,
                const MeasurementFile::Time& time = {})
{
    try {
        MeasurementFile::parse(text, QStringLiteral("meas.csv"), mappings, time);
    } catch (const FileError& e) {
        return QString::fromUtf8(e.what());
    }
    return QStringLiteral("no error");
}

} // namespace

class tst_MeasurementFile : public QObject {
    Q_OBJECT

private slots:
    // What the Fit dock offers to map: every column but the time, found as load finds it.
    void measuredColumnsLeaveOutTheTime()
    {
        QCOMPARE(MeasurementFile::measuredColumns("# c\n\npos_cm,Time,angle\n1,2,3\n"),
                 (QStringList{"pos_cm", "angle"}));
        QCOMPARE(MeasurementFile::measuredColumns("0.1 2 3\n0.2 4 5\n"), (QStringList{"2", "3"}));
        QCOMPARE(MeasurementFile::measuredColumns("# nothing\n"), QStringList{});
        // The time is where load takes it from: a mapping of "angle" reads the third field.
        const Measurements m = MeasurementFile::parse("pos_cm,Time,angle\n1,2,3\n", "m.csv",
                                                      {{"angle", "phi", 1.0, 0.0}}, {});
        QCOMPARE(m.times, std::vector<double>{2.0});
        QCOMPARE(m.columns[0].values, std::vector<double>{3.0});
    }

    // The Fit dock's time column choice: every column, and the one load takes by default.
    void columnsListTheTimeAndItsDefault()
    {
        const QByteArray text = "# c\n\npos_cm,Time,angle\n1,2,3\n";
        QCOMPARE(MeasurementFile::columns(text), (QStringList{"pos_cm", "Time", "angle"}));
        QCOMPARE(MeasurementFile::defaultTimeColumn(MeasurementFile::columns(text)),
                 QStringLiteral("Time"));
        QCOMPARE(MeasurementFile::defaultTimeColumn({"a", "b"}), QStringLiteral("a"));
        QCOMPARE(MeasurementFile::defaultTimeColumn({}), QString());
        QCOMPARE(MeasurementFile::columns("0.1 2 3\n"), (QStringList{"1", "2", "3"}));
    }

    void csvWithHeaderAndComments()
    {
        const QByteArray text = "# bead, camera at 100 Hz\r\n"
                                "time,pos,angle\r\n"
                                "0.01, 199.9 ,0.5\r\n"
                                "\r\n"
                                "0.02,199.6,+0.25\r\n";
        const Measurements m = MeasurementFile::parse(
            text, "meas.csv", {{"pos", "s", 0.01, 0.002}, {"angle", "phi", 1.0, 0.0}},
            {QString(), 1.0, 0.5});
        QCOMPARE(m.times, (std::vector<double>{0.51, 0.52}));
        QCOMPARE(m.columns.size(), std::size_t(2));
        QCOMPARE(m.columns[0].quantity, std::string("s"));
        QCOMPARE(m.columns[0].label, std::string("pos"));
        QCOMPARE(m.columns[0].sigma, 0.002);
        QCOMPARE(m.columns[0].values[0], 199.9 * 0.01);
        QCOMPARE(m.columns[0].values[1], 199.6 * 0.01);
        QCOMPARE(m.columns[1].values, (std::vector<double>{0.5, 0.25}));
    }

    // Blanks and tabs separate fields; without a header the columns are numbered from 1, and
    // the time is the first; milliseconds are scaled to seconds.
    void whitespaceWithoutHeader()
    {
        const QByteArray text = "10\t1.5   2\n20  1.25 3\n";
        const Measurements m =
            MeasurementFile::parse(text, "m.txt", {{"3", "x", 1.0, 0.0}}, {QString(), 1e-3, 0.0});
        QCOMPARE(m.times, (std::vector<double>{0.01, 0.02}));
        QCOMPARE(m.columns[0].values, (std::vector<double>{2.0, 3.0}));
    }

    // Tracker's export: the tracked object's name on the first line, then a tab-separated
    // header; the title is no column.
    void trackerExportSkipsItsTitleLine()
    {
        const QByteArray text = "mass A\n"
                                "t\tx\ty\n"
                                "0.0\t0.125\t-0.5\n"
                                "0.033\t0.25\t-0.75\n";
        QCOMPARE(MeasurementFile::columns(text), (QStringList{"t", "x", "y"}));
        const Measurements m =
            MeasurementFile::parse(text, "tracker.txt", {{"y", "y", 1.0, 0.0}}, {});
        QCOMPARE(m.times, (std::vector<double>{0.0, 0.033}));
        QCOMPARE(m.columns[0].values, (std::vector<double>{-0.5, -0.75}));
    }

    // A European spreadsheet's CSV: semicolons between fields, decimal commas in numbers, a
    // quoted header.
    void semicolonsWithDecimalCommas()
    {
        const QByteArray text = "\"Zeit\";\"pos_cm\"\r\n0,01;2500,25\r\n0,02;+2499,5\r\n";
        QCOMPARE(MeasurementFile::columns(text), (QStringList{"Zeit", "pos_cm"}));
        const Measurements m = MeasurementFile::parse(text, "de.csv", {{"pos_cm", "s", 0.01, 0.0}},
                                                      {"Zeit", 1.0, 0.0});
        QCOMPARE(m.times, (std::vector<double>{0.01, 0.02}));
        QCOMPARE(m.columns[0].values, (std::vector<double>{2500.25 * 0.01, 2499.5 * 0.01}));
    }

    // Tabs separate fields whose names have blanks; decimal commas are read there too.
    void tabsSeparateNamesWithBlanks()
    {
        const QByteArray text = "time\tpos (cm)\tangle\n0.5\t1,5\t2\n1.5\t2.5\t3\n";
        QCOMPARE(MeasurementFile::columns(text), (QStringList{"time", "pos (cm)", "angle"}));
        const Measurements m =
            MeasurementFile::parse(text, "m.tsv", {{"pos (cm)", "s", 1.0, 0.0}}, {});
        QCOMPARE(m.times, (std::vector<double>{0.5, 1.5}));
        QCOMPARE(m.columns[0].values, (std::vector<double>{1.5, 2.5}));
    }

    // What still cannot be read is named by line and column, in each format.
    void newFormatsNameTheirBadFields_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("tracker, empty field")
            << QByteArray("mass A\nt\tpos\n0\t1\n0.1\t\t\n")
            << "meas.csv: line 4: 1 fields, but the header has 2 (fields separated by tabs)";
        QTest::newRow("semicolons, empty field")
            << QByteArray("t;pos\n0;1\n0,1;\n")
            << "meas.csv: line 3, column 2 (pos): the field is empty";
        QTest::newRow("semicolons, two commas")
            << QByteArray("t;pos\n0;1,2,5\n")
            << "meas.csv: line 2, column 2 (pos): \"1,2,5\" is not a number";
        QTest::newRow("commas, decimal comma in quotes")
            << QByteArray("t,pos\n0,\"1,5\"\n")
            << "meas.csv: line 2: 3 fields, but the header has 2 (fields separated by commas)";
    }
    void newFormatsNameTheirBadFields()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, message);
        const QString error = errorOf(text, {{"pos", "s", 1.0, 0.0}});
        QVERIFY2(error.startsWith(message), qPrintable(error));
    }

    // Columns named like trace quantities map themselves (x → x, Phi → phi); the time and
    // other columns do not.
    void columnsNamedLikeQuantitiesMapThemselves()
    {
        const std::vector<Mapping> m = MeasurementFile::mappingsByName(
            {"t", "x", "pos", "Phi", "y"}, QString(), {"t", "x", "y", "phi", "s"});
        QCOMPARE(m.size(), std::size_t(3));
        QCOMPARE(m[0].column, QStringLiteral("x"));
        QCOMPARE(m[0].quantity, std::string("x"));
        QCOMPARE(m[1].column, QStringLiteral("Phi"));
        QCOMPARE(m[1].quantity, std::string("phi"));
        QCOMPARE(m[2].quantity, std::string("y"));
        QCOMPARE(m[0].scale, 1.0);
        // A chosen time column is left out even when it is named like a quantity.
        QVERIFY(MeasurementFile::mappingsByName({"x", "s"}, "s", {"s"}).empty());
    }

    // The shipped measurements read as their header says: 500 rows from t = 0.01 s, 25 m.
    void shippedMeasurementsRead()
    {
        const Measurements m = MeasurementFile::load(
            QStringLiteral(CLAB_SOURCE_DIR "/scenes/measurements/bead-mu0.4.csv"),
            {{"pos_cm", "s", 0.01, 0.0}});
        QCOMPARE(m.times.size(), std::size_t(500));
        QCOMPARE(m.times.front(), 0.01);
        QVERIFY(std::abs(m.columns[0].values.front() - 25.0) < 0.01);
    }

    void timeColumnByName()
    {
        const Measurements m = MeasurementFile::parse("pos t\n1 0.1\n2 0.2\n", "m.txt",
                                                      {{"pos", "s", 1.0, 0.0}}, {"t", 1.0, 0.0});
        QCOMPARE(m.times, (std::vector<double>{0.1, 0.2}));
        // Found by its name without being told.
        QCOMPARE(
            MeasurementFile::parse("pos t\n1 0.1\n2 0.2\n", "m.txt", {{"pos", "s", 1.0, 0.0}}, {})
                .times,
            (std::vector<double>{0.1, 0.2}));
    }

    void badFilesAreNamed_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("not a number") << QByteArray("t,pos\n0.1,1\n0.2,1,2x\n")
                                      << "meas.csv: line 3: 3 fields, but the header has 2";
        QTest::newRow("unparsable field")
            << QByteArray("t,pos\n0.1,1\n0.2,abc\n")
            << "meas.csv: line 3, column 2 (pos): \"abc\" is not a number";
        QTest::newRow("NaN") << QByteArray("t,pos\n0.1,nan\n")
                             << "meas.csv: line 2, column 2 (pos): \"nan\" is not a finite number";
        QTest::newRow("time goes back")
            << QByteArray("t,pos\n0.1,1\n# a comment\n0.1,2\n")
            << "meas.csv: line 4: the time 0.10000000000000001 s is not after the time of line 2";
        QTest::newRow("no such column") << QByteArray("t,x\n0.1,1\n")
                                        << "meas.csv: no column \"pos\" for the quantity s (its "
                                           "columns: t, x)";
        QTest::newRow("only comments")
            << QByteArray("# nothing\n\n") << "meas.csv: no data (only blank or comment lines)";
        QTest::newRow("header only")
            << QByteArray("t,pos\n") << "meas.csv: a header but no rows of data";
    }
    void badFilesAreNamed()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, message);
        const QString error = errorOf(text, {{"pos", "s", 1.0, 0.0}});
        QVERIFY2(error.startsWith(message), qPrintable(error));
    }

    void timeColumnCannotBeMeasured()
    {
        QVERIFY(errorOf("t,pos\n0.1,1\n", {{"t", "s", 1.0, 0.0}}).contains("is the time column"));
    }

    void missingFileIsARead()
    {
        QTemporaryDir dir;
        try {
            MeasurementFile::load(dir.filePath("none.csv"), {{"pos", "s", 1.0, 0.0}});
            QFAIL("no error");
        } catch (const FileError& e) {
            QCOMPARE(e.kind(), FileError::Kind::Read);
            QVERIFY(e.reason().startsWith("cannot read the measurements"));
        }
    }
};

QTEST_APPLESS_MAIN(tst_MeasurementFile)
#include "tst_MeasurementFile.moc"
