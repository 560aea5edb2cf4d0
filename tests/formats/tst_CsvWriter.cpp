#include "CsvWriter.h"
#include "SceneFile.h"

#include <QBuffer>
#include <QDir>
#include <QFile>
#include <QLocale>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTextStream>
#include <QtTest>

#include <charconv>
#include <clocale>
#include <cstring>
#include <locale>
#include <random>
#include <sstream>

using namespace clab;

namespace {

// The columns Trace.h promises for coordinates x, y, rheonomic constraints, one frictional
// contact and one extra column, spelled out here rather than taken from Trace::columnNames().
const QStringList expectedHeader = {
    "t",       "x",       "x_dot",   "x_ddot",   "Q_x",        "Qci_x",
    "Qcni_x",  "y",       "y_dot",   "y_ddot",   "Q_y",        "Qci_y",
    "Qcni_y",  "T",       "V",       "E",        "W_nonideal", "residual_max",
    "E_error", "W_ideal", "contact", "quat_norm"};

// Awkward doubles: no short decimal form, extremes, subnormals, signed zero.
std::vector<double> awkwardValues()
{
    std::vector<double> v = {0.1,
                             1.0 / 3.0,
                             -2.0 / 3.0,
                             M_PI,
                             1e-300,
                             5e-324,
                             -0.0,
                             0.0,
                             1.7976931348623157e308,
                             -2.2250738585072014e-308,
                             123456789012345678.0,
                             9.81,
                             1e21,
                             1e-7};
    std::mt19937_64 rng(42);
    std::uniform_int_distribution<std::uint64_t> bits;
    while (v.size() < 400) {
        const std::uint64_t b = bits(rng);
        double d;
        std::memcpy(&d, &b, sizeof d);
        if (std::isfinite(d))
            v.push_back(d);
    }
    return v;
}

// A trace with two coordinates, rheonomic constraints, one contact and one extra column, filled
// cell by cell from `values` (cycling), so that every cell holds a known double.
Trace makeTrace(const std::vector<double>& values, int samples)
{
    Trace trace({"x", "y"}, {"quat_norm"}, true, {"wire"});
    std::size_t k = 0;
    auto next = [&] {
        return values[k++ % values.size()];
    };
    for (int s = 0; s < samples; ++s) {
        TraceSample sample;
        sample.t = next();
        sample.q.resize(2);
        sample.qd.resize(2);
        sample.qdd.resize(2);
        sample.Q.resize(2);
        sample.Qci.resize(2);
        sample.Qcni.resize(2);
        for (int i = 0; i < 2; ++i) {
            sample.q[i] = next();
            sample.qd[i] = next();
            sample.qdd[i] = next();
            sample.Q[i] = next();
            sample.Qci[i] = next();
            sample.Qcni[i] = next();
        }
        sample.T = next();
        sample.V = next();
        sample.E = next();
        sample.W_nonideal = next();
        sample.residualMax = next();
        sample.E_error = next();
        sample.W_ideal = next();
        sample.contacts.resize(1);
        sample.contacts[0] = next();
        sample.extra.resize(1);
        sample.extra[0] = next();
        trace.samples.push_back(sample);
    }
    return trace;
}

// The expected cell values of one row, in the documented column order.
std::vector<double> expectedRow(const TraceSample& s)
{
    std::vector<double> r = {s.t};
    for (int i = 0; i < 2; ++i)
        for (double v : {s.q[i], s.qd[i], s.qdd[i], s.Q[i], s.Qci[i], s.Qcni[i]})
            r.push_back(v);
    for (double v : {s.T, s.V, s.E, s.W_nonideal, s.residualMax, s.E_error, s.W_ideal,
                     s.contacts[0], s.extra[0]})
        r.push_back(v);
    return r;
}

QList<QByteArray> records(const QByteArray& csv)
{
    QList<QByteArray> lines = csv.split('\n');
    if (!lines.isEmpty() && lines.last().isEmpty())
        lines.removeLast();
    return lines;
}

bool sameBits(double a, double b)
{
    return std::memcmp(&a, &b, sizeof a) == 0;
}

// Parses with from_chars: locale-independent, so a ',' decimal separator cannot sneak through.
bool parseExact(const QByteArray& field, double& value)
{
    const auto r = std::from_chars(field.constData(), field.constData() + field.size(), value);
    return r.ec == std::errc() && r.ptr == field.constData() + field.size();
}

// A C++ locale whose decimal point is a comma, like de_DE, available without installed locales.
struct CommaDecimal : std::numpunct<char> {
    char do_decimal_point() const override { return ','; }
    char do_thousands_sep() const override { return '.'; }
    std::string do_grouping() const override { return "\3"; }
};

// Switches LC_NUMERIC to German. Minimal systems (Debian containers, CI) ship the locale
// sources but no compiled locales: then compile de_DE into `dir` with localedef and point
// glibc at it with LOCPATH.
bool setGermanCLocale(const QTemporaryDir& dir)
{
    for (const char* name : {"de_DE.UTF-8", "de_DE.utf8", "de_DE"})
        if (std::setlocale(LC_NUMERIC, name))
            return true;
    if (!dir.isValid() || QStandardPaths::findExecutable("localedef").isEmpty())
        return false;
    QProcess localedef;
    localedef.start("localedef", {"-i", "de_DE", "-f", "UTF-8", dir.filePath("de_DE.UTF-8")});
    if (!localedef.waitForFinished(60000) || localedef.exitCode() != 0)
        return false;
    qputenv("LOCPATH", dir.path().toLocal8Bit());
    return std::setlocale(LC_NUMERIC, "de_DE.UTF-8") != nullptr;
}

// RFC 4180 records: fields split at commas outside quotes, "" inside quotes is one quote,
// records end with CRLF. Written independently of CsvWriter::quote.
QList<QList<QByteArray>> parseCsv(const QByteArray& csv)
{
    QList<QList<QByteArray>> result;
    QList<QByteArray> record;
    QByteArray field;
    bool quoted = false;
    for (qsizetype i = 0; i < csv.size(); ++i) {
        const char c = csv[i];
        if (quoted) {
            if (c == '"' && i + 1 < csv.size() && csv[i + 1] == '"') {
                field += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            record << field;
            field.clear();
        } else if (c == '\r' && i + 1 < csv.size() && csv[i + 1] == '\n') {
            record << field;
            field.clear();
            result << record;
            record.clear();
            ++i;
        } else {
            field += c;
        }
    }
    return result;
}

// Runs with labels that need quoting, of different lengths and contents.
std::vector<LabelledTrace> makeRuns()
{
    const std::vector<double> values = awkwardValues();
    std::vector<LabelledTrace> runs;
    const char* const labels[] = {"mu=0.1", "a, \"quoted\" run", "two\r\nlines"};
    for (int r = 0; r < 3; ++r) {
        std::vector<double> shifted(values.begin() + 7 * r, values.end());
        runs.push_back({labels[r], std::make_shared<const Trace>(makeTrace(shifted, 2 + 3 * r))});
    }
    return runs;
}

} // namespace

class CsvWriterTest : public QObject {
    Q_OBJECT

private slots:
    void headerListsTheDocumentedColumns();
    void recordsEndWithCrLf();
    void seventeenDigitsRoundTripBitForBit();
    void decimalPointIsAPeriodInAGermanLocale();
    void columnSubsetKeepsTheChosenOrder();
    void unknownColumnIsRefusedBeforeWriting();
    void fieldsWithSeparatorsAreQuoted();
    void textStreamAndDeviceGiveTheSameBytes();
    void fileIsReplacedAtomically();
    void eventsAreWrittenAsCsv();
    void runsParseBackToTheirTracesAndLabels();
    void runsWithColumnSubset();
    void runsWithDifferentColumnsAreRefused();
    void runsFileIsWrittenAtomically();
    void describeListsASystemsParametersInItsOrder();
    void describeListsTheSimulationSettings();
};

void CsvWriterTest::headerListsTheDocumentedColumns()
{
    const Trace trace = makeTrace(awkwardValues(), 3);
    const QList<QByteArray> lines = records(CsvWriter().toCsv(trace));
    QCOMPARE(lines.size(), 4);
    QCOMPARE(QString::fromLatin1(lines[0].trimmed()), expectedHeader.join(','));
}

void CsvWriterTest::recordsEndWithCrLf()
{
    const QByteArray csv = CsvWriter().toCsv(makeTrace(awkwardValues(), 5));
    QVERIFY(csv.endsWith("\r\n"));
    QCOMPARE(csv.count("\r\n"), 6);
    QCOMPARE(csv.count('\n'), 6); // no bare LF
    QCOMPARE(csv.count('\r'), 6); // no bare CR
}

void CsvWriterTest::seventeenDigitsRoundTripBitForBit()
{
    const std::vector<double> values = awkwardValues();
    const Trace trace = makeTrace(values, 40); // 40 × 22 cells cycle through all values
    const QList<QByteArray> lines = records(CsvWriter().toCsv(trace));
    QCOMPARE(lines.size(), 41);
    int checked = 0;
    for (int s = 0; s < 40; ++s) {
        const QList<QByteArray> fields = lines[s + 1].trimmed().split(',');
        const std::vector<double> expected = expectedRow(trace.samples[s]);
        QCOMPARE(fields.size(), static_cast<qsizetype>(expected.size()));
        for (std::size_t c = 0; c < expected.size(); ++c) {
            const QByteArray& field = fields[static_cast<int>(c)];
            // std::strtod is the reference reader the task names; C locale here.
            char* end = nullptr;
            const double back = std::strtod(field.constData(), &end);
            QVERIFY2(end == field.constData() + field.size(), field.constData());
            QVERIFY2(sameBits(back, expected[c]), field.constData());
            // 17 significant digits at most (digits before the exponent, leading zeros aside).
            QByteArray mantissa = field.split('e').first();
            mantissa.replace("-", "").replace(".", "");
            while (mantissa.startsWith('0') && mantissa.size() > 1)
                mantissa.remove(0, 1);
            QVERIFY2(mantissa.size() <= 17, field.constData());
            ++checked;
        }
    }
    QCOMPARE(checked, 40 * static_cast<int>(expectedHeader.size()));
    // 0.1 needs all 17 digits to come back as the same double.
    QCOMPARE(QByteArray::fromStdString(CsvWriter::formatNumber(0.1)),
             QByteArray("0.10000000000000001"));
}

void CsvWriterTest::decimalPointIsAPeriodInAGermanLocale()
{
    const std::vector<double> values = awkwardValues();
    const Trace trace = makeTrace(values, 10);
    const QByteArray reference = CsvWriter().toCsv(trace);

    const QLocale previousQt;
    const std::locale previousCpp;
    const std::string previousC = std::setlocale(LC_NUMERIC, nullptr);
    QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
    std::locale::global(std::locale(std::locale::classic(), new CommaDecimal));
    QTemporaryDir localeDir;
    const bool cLocaleIsGerman = setGermanCLocale(localeDir);

    // The locales really are in force: Qt and C++ streams would write "0,5".
    QCOMPARE(QLocale().toString(0.5), QStringLiteral("0,5"));
    std::ostringstream cpp;
    cpp << 0.5;
    QCOMPARE(cpp.str(), std::string("0,5"));
    if (cLocaleIsGerman) {
        char buffer[32];
        std::snprintf(buffer, sizeof buffer, "%g", 0.5);
        QCOMPARE(std::string(buffer), std::string("0,5"));
    } else {
        qInfo("no German C locale installed; checking the Qt and C++ locales only");
    }

    const QByteArray german = CsvWriter().toCsv(trace);
    QTemporaryDir dir;
    const QString path = dir.filePath("german.csv");
    CsvWriter().writeFile(trace, path);
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray fromFile = file.readAll();

    QLocale::setDefault(previousQt);
    std::locale::global(previousCpp);
    std::setlocale(LC_NUMERIC, previousC.c_str());
    qunsetenv("LOCPATH");

    QCOMPARE(german, reference);
    QCOMPARE(fromFile, reference);
    // Every record has exactly one field per column, and every field reads back exactly.
    const QList<QByteArray> lines = records(german);
    for (int s = 0; s < 10; ++s) {
        const QList<QByteArray> fields = lines[s + 1].trimmed().split(',');
        QCOMPARE(fields.size(), static_cast<qsizetype>(expectedHeader.size()));
        const std::vector<double> expected = expectedRow(trace.samples[s]);
        for (int c = 0; c < fields.size(); ++c) {
            double v = 0;
            QVERIFY2(parseExact(fields[c], v), fields[c].constData());
            QVERIFY(sameBits(v, expected[c]));
        }
    }
}

void CsvWriterTest::columnSubsetKeepsTheChosenOrder()
{
    const Trace trace = makeTrace(awkwardValues(), 6);
    const QList<QByteArray> lines =
        records(CsvWriter({"E", "t", "Qci_y", "quat_norm"}).toCsv(trace));
    QCOMPARE(lines.size(), 7);
    QCOMPARE(lines[0], QByteArray("E,t,Qci_y,quat_norm\r"));
    for (int s = 0; s < 6; ++s) {
        const TraceSample& sample = trace.samples[s];
        const QList<QByteArray> fields = lines[s + 1].trimmed().split(',');
        QCOMPARE(fields.size(), 4);
        double v = 0;
        QVERIFY(parseExact(fields[0], v) && sameBits(v, sample.E));
        QVERIFY(parseExact(fields[1], v) && sameBits(v, sample.t));
        QVERIFY(parseExact(fields[2], v) && sameBits(v, sample.Qci[1]));
        QVERIFY(parseExact(fields[3], v) && sameBits(v, sample.extra[0]));
    }
}

void CsvWriterTest::unknownColumnIsRefusedBeforeWriting()
{
    const Trace trace = makeTrace(awkwardValues(), 2);
    QTemporaryDir dir;
    const QString path = dir.filePath("subset.csv");
    try {
        CsvWriter({"t", "z_dot"}).writeFile(trace, path);
        QFAIL("an unknown column was accepted");
    } catch (const FileError& e) {
        QCOMPARE(e.kind(), FileError::Kind::Invalid);
        QCOMPARE(e.key(), QStringLiteral("columns"));
        QVERIFY(e.reason().contains("z_dot"));
        QVERIFY(e.reason().contains("residual_max")); // lists what there is
    }
    QVERIFY(!QFile::exists(path));
    QVERIFY_THROWS_EXCEPTION(FileError, CsvWriter({"t", "t"}).toCsv(trace));
}

void CsvWriterTest::fieldsWithSeparatorsAreQuoted()
{
    QCOMPARE(CsvWriter::quote("E"), std::string("E"));
    QCOMPARE(CsvWriter::quote("a,b"), std::string("\"a,b\""));
    QCOMPARE(CsvWriter::quote("say \"hi\""), std::string("\"say \"\"hi\"\"\""));
    QCOMPARE(CsvWriter::quote("two\r\nlines"), std::string("\"two\r\nlines\""));
    Trace trace({"x"}, {"force, total"}, false);
    TraceSample s;
    s.q = s.qd = s.qdd = s.Q = s.Qci = s.Qcni = Eigen::VectorXd::Zero(1);
    s.extra = Eigen::VectorXd::Constant(1, 2.5);
    trace.samples.push_back(s);
    const QList<QByteArray> lines = records(CsvWriter().toCsv(trace));
    QVERIFY(lines[0].endsWith(",\"force, total\"\r"));
    QVERIFY(lines[1].endsWith(",2.5\r"));
}

void CsvWriterTest::textStreamAndDeviceGiveTheSameBytes()
{
    const Trace trace = makeTrace(awkwardValues(), 3000); // several 64 KiB chunks
    const QByteArray reference = CsvWriter().toCsv(trace);
    QVERIFY(reference.size() > 3 * 65536);
    QBuffer buffer;
    QVERIFY(buffer.open(QIODevice::WriteOnly));
    CsvWriter().write(trace, buffer, QStringLiteral("buffer"));
    QCOMPARE(buffer.data(), reference);
    QString text;
    QTextStream stream(&text);
    CsvWriter().write(trace, stream, QStringLiteral("string"));
    QCOMPARE(text.toLatin1(), reference);
}

void CsvWriterTest::fileIsReplacedAtomically()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("trace.csv");
    const Trace small = makeTrace(awkwardValues(), 2);
    CsvWriter().writeFile(small, path);
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), CsvWriter().toCsv(small));
    file.close();

    // A second, longer trace replaces the file completely.
    const Trace longer = makeTrace(awkwardValues(), 50);
    CsvWriter().writeFile(longer, path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), CsvWriter().toCsv(longer));
    file.close();

    // A write into a directory that does not exist fails with the path and leaves nothing.
    const QString missing = dir.filePath("no/such/dir/trace.csv");
    try {
        CsvWriter().writeFile(longer, missing);
        QFAIL("wrote into a missing directory");
    } catch (const FileError& e) {
        QCOMPARE(e.kind(), FileError::Kind::Write);
        QVERIFY2(QString(e.what()).startsWith(missing), e.what());
    }
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{"trace.csv"});
}

void CsvWriterTest::eventsAreWrittenAsCsv()
{
    Trace trace({"x"}, {}, false, {"left", "right, rear"});
    trace.events.push_back({0.0, 0, ContactEvent::Kind::Stick});
    trace.events.push_back({0.1, 1, ContactEvent::Kind::Slip});
    trace.events.push_back({1.25, 1, ContactEvent::Kind::Reversal});
    const QByteArray csv = CsvWriter::eventsCsv(trace, "two-beads");
    QCOMPARE(csv, QByteArray("t,scene,contact,contact_name,event\r\n"
                             "0,two-beads,0,left,stick\r\n"
                             "0.10000000000000001,two-beads,1,\"right, rear\",slip\r\n"
                             "1.25,two-beads,1,\"right, rear\",reversal\r\n"));
    // No events: the header alone.
    QCOMPARE(CsvWriter::eventsCsv(Trace({"x"}, {}, false), "free"),
             QByteArray("t,scene,contact,contact_name,event\r\n"));

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath("events.csv");
    CsvWriter::writeEventsFile(trace, "two-beads", path);
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), csv);
    QVERIFY_THROWS_EXCEPTION(
        FileError, CsvWriter::writeEventsFile(trace, "x", dir.filePath("no/such/dir.csv")));
}

void CsvWriterTest::runsParseBackToTheirTracesAndLabels()
{
    const std::vector<LabelledTrace> runs = makeRuns();
    const QByteArray csv = CsvWriter().runsCsv(runs);
    QVERIFY(csv.endsWith("\r\n"));
    const QList<QList<QByteArray>> rows = parseCsv(csv);
    QStringList header;
    for (const QByteArray& field : rows[0])
        header << QString::fromUtf8(field);
    QCOMPARE(header, QStringList{"run"} + expectedHeader);
    int line = 1;
    for (const LabelledTrace& run : runs) {
        for (const TraceSample& sample : run.trace->samples) {
            QVERIFY(line < rows.size());
            const QList<QByteArray>& fields = rows[line++];
            QCOMPARE(fields.size(), expectedHeader.size() + 1);
            QCOMPARE(fields[0].toStdString(), run.label);
            const std::vector<double> expected = expectedRow(sample);
            for (std::size_t i = 0; i < expected.size(); ++i) {
                double v = 0;
                QVERIFY(parseExact(fields[static_cast<qsizetype>(i) + 1], v));
                QVERIFY(sameBits(v, expected[i]));
            }
        }
    }
    QCOMPARE(line, rows.size()); // 2 + 5 + 8 samples, nothing more
    QCOMPARE(rows.size(), 1 + 2 + 5 + 8);
}

void CsvWriterTest::runsWithColumnSubset()
{
    const std::vector<LabelledTrace> runs = makeRuns();
    const QList<QList<QByteArray>> rows = parseCsv(CsvWriter({"E", "t"}).runsCsv(runs));
    QCOMPARE(rows[0], (QList<QByteArray>{"run", "E", "t"}));
    int line = 1;
    for (const LabelledTrace& run : runs)
        for (const TraceSample& sample : run.trace->samples) {
            const QList<QByteArray>& fields = rows[line++];
            QCOMPARE(fields.size(), 3);
            QCOMPARE(fields[0].toStdString(), run.label);
            double v = 0;
            QVERIFY(parseExact(fields[1], v) && sameBits(v, sample.E));
            QVERIFY(parseExact(fields[2], v) && sameBits(v, sample.t));
        }
    QCOMPARE(line, rows.size());
}

void CsvWriterTest::runsWithDifferentColumnsAreRefused()
{
    std::vector<LabelledTrace> runs = makeRuns();
    auto other =
        std::make_shared<Trace>(std::vector<std::string>{"x"}, std::vector<std::string>{}, false);
    TraceSample s;
    s.q = s.qd = s.qdd = s.Q = s.Qci = s.Qcni = Eigen::VectorXd::Zero(1);
    other->samples.push_back(s);
    runs.push_back({"single", other});
    try {
        CsvWriter().runsCsv(runs);
        QFAIL("runs with different columns were accepted");
    } catch (const FileError& e) {
        QCOMPARE(e.kind(), FileError::Kind::Invalid);
        QCOMPARE(e.key(), QStringLiteral("columns"));
        QVERIFY2(e.reason().contains("single"), e.what());
    }
    // Columns every run has are fine ...
    const QList<QList<QByteArray>> rows = parseCsv(CsvWriter({"t", "x_dot"}).runsCsv(runs));
    QCOMPARE(rows.size(), 1 + 2 + 5 + 8 + 1);
    QCOMPARE(rows.last(), (QList<QByteArray>{"single", "0", "0"}));
    // ... one that a run lacks is named with the run.
    try {
        CsvWriter({"t", "y"}).runsCsv(runs);
        QFAIL("a column missing from a run was accepted");
    } catch (const FileError& e) {
        QCOMPARE(e.key(), QStringLiteral("columns"));
        QVERIFY2(e.reason().contains("single") && e.reason().contains("\"y\""), e.what());
    }
    try {
        CsvWriter().runsCsv({});
        QFAIL("no runs were accepted");
    } catch (const FileError& e) {
        QCOMPARE(e.key(), QStringLiteral("runs"));
    }
    try {
        CsvWriter().runsCsv({{"empty", nullptr}});
        QFAIL("a null trace was accepted");
    } catch (const FileError& e) {
        QCOMPARE(e.key(), QStringLiteral("runs"));
        QVERIFY2(e.reason().contains("empty"), e.what());
    }
}

void CsvWriterTest::runsFileIsWrittenAtomically()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("sweep.csv");
    std::vector<LabelledTrace> runs = makeRuns();
    CsvWriter().writeRunsFile(runs, path);
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray written = file.readAll();
    file.close();
    QCOMPARE(written, CsvWriter().runsCsv(runs));
    // A refused request leaves the old file as it was.
    QVERIFY_THROWS_EXCEPTION(FileError, CsvWriter({"nope"}).writeRunsFile(runs, path));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), written);
    file.close();
    QVERIFY_THROWS_EXCEPTION(FileError,
                             CsvWriter().writeRunsFile(runs, dir.filePath("no/such/sweep.csv")));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{"sweep.csv"});
}

void CsvWriterTest::describeListsASystemsParametersInItsOrder()
{
    // A system from equations has no built-in scene: its own definition names and orders.
    const SceneDocument document = SceneFile::fromJson(
        R"({"format": 2, "title": "Spring", "system": {"coordinates": ["x"],
            "parameters": {"zeta": {"value": 3, "unit": "N/m"}, "alpha": 1},
            "masses": ["alpha"], "potential_energy": "zeta*x^2/2", "initial": {"x": 0.1}}})",
        QStringLiteral("spring.json"));
    const std::vector<std::string> lines =
        CsvWriter().describe(document, makeTrace(awkwardValues(), 1));
    QCOMPARE(lines.at(0), std::string("ConstraintLab trace of scene system (Spring)"));
    QCOMPARE(lines.at(1), std::string("parameters: zeta = 3 N/m, alpha = 1"));
}

void CsvWriterTest::describeListsTheSimulationSettings()
{
    // The settings line of the comment header, from the table of settings: choices without
    // "=", no Baumgarte gains, and where a run stops for a scene with an end.
    SceneDocument document = SceneFile::loadBuiltIn(QStringLiteral("bead-on-wire"));
    document.simulation = SimulationOptions{};
    document.simulation.dt = 0.1 / 3.0;
    document.simulation.integrator = IntegratorKind::Rk4;
    document.simulation.stabilization = Stabilization::Baumgarte;
    const Trace trace = makeTrace(awkwardValues(), 1);
    QCOMPARE(CsvWriter().describe(document, trace).at(2),
             std::string("simulation: t_end = 10 s, dt = 0.03333333333 s, integrator rk4, "
                         "rtol = 1e-09, atol = 1e-12, stabilization baumgarte"));
    document.simulation.stopAtEnd = true;
    QCOMPARE(CsvWriter().describe(document, trace).at(2),
             "simulation: t_end = 10 s, dt = 0.03333333333 s, integrator rk4, rtol = 1e-09, "
             "atol = 1e-12, stabilization baumgarte, stops where " +
                 document.definition()->end);
}

QTEST_APPLESS_MAIN(CsvWriterTest)
#include "tst_CsvWriter.moc"
