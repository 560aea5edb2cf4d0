#include "model/ConstraintLabError.h"
#include "trace/Trace.h"

#include <QtTest>

#include <algorithm>
#include <string>
#include <vector>

using namespace clab;

namespace {

// A sample whose every entry is distinct, so that a swapped column cannot go unnoticed.
TraceSample distinctSample(int k, int n, int extras)
{
    TraceSample s;
    const double base = 1000.0 * (k + 1);
    s.t = base + 0.5;
    s.q.resize(n);
    s.qd.resize(n);
    s.qdd.resize(n);
    s.Q.resize(n);
    s.Qci.resize(n);
    s.Qcni.resize(n);
    for (int i = 0; i < n; ++i) {
        s.q[i] = base + 10 * i + 1;
        s.qd[i] = base + 10 * i + 2;
        s.qdd[i] = base + 10 * i + 3;
        s.Q[i] = base + 10 * i + 4;
        s.Qci[i] = base + 10 * i + 5;
        s.Qcni[i] = base + 10 * i + 6;
    }
    s.T = base + 101;
    s.V = base + 102;
    s.E = base + 103;
    s.W_nonideal = base + 104;
    s.residualMax = base + 105;
    s.W_ideal = base + 106;
    s.W_given_nc = base + 107;
    s.E_error = base + 108;
    s.extra.resize(extras);
    for (int i = 0; i < extras; ++i)
        s.extra[i] = base + 200 + i;
    return s;
}

} // namespace

class TestTrace : public QObject {
    Q_OBJECT

private slots:
    void columnNamesFollowCsvLayout();
    void columnNamesAddIdealWorkAndExtras();
    void contactColumnsFollowIdealWork();
    void rowAndColumnAgree();
    void outOfRangeAccessIsRejected();
    void sampleShownAtATimeIsTheLastAtOrBeforeIt();
};

void TestTrace::columnNamesFollowCsvLayout()
{
    const Trace trace({"x", "y"}, {}, false);
    const std::vector<std::string> expected{
        "t", "x",     "x_dot",      "x_ddot",       "Q_x",    "Qci_x",  "Qcni_x",
        "y", "y_dot", "y_ddot",     "Q_y",          "Qci_y",  "Qcni_y", "T",
        "V", "E",     "W_nonideal", "residual_max", "E_error"};
    QCOMPARE(trace.columnNames(), expected);
    QVERIFY(!trace.hasIdealWork());
    QVERIFY(trace.contactNames().empty());
    QCOMPARE(trace.columnIndex("t"), 0);
    QCOMPARE(trace.columnIndex("Qci_y"), 11);
    QCOMPARE(trace.columnIndex("residual_max"), 17);
    QCOMPARE(trace.columnIndex("E_error"), 18);
    QCOMPARE(trace.columnIndex("W_ideal"), -1);
    QCOMPARE(trace.columnIndex("contact"), -1);
    QCOMPARE(trace.columnIndex("z"), -1);
}

void TestTrace::columnNamesAddIdealWorkAndExtras()
{
    const Trace trace({"u0", "u1"}, {"w1", "quat_norm"}, true);
    const std::vector<std::string> names = trace.columnNames();
    QCOMPARE(names.size(), std::size_t(1 + 2 * 6 + 6 + 1 + 2));
    QCOMPARE(names[1], std::string("u0"));
    QCOMPARE(names[12], std::string("Qcni_u1"));
    const std::vector<std::string> tail(names.end() - 9, names.end());
    const std::vector<std::string> expectedTail{
        "T", "V", "E", "W_nonideal", "residual_max", "E_error", "W_ideal", "w1", "quat_norm"};
    QCOMPARE(tail, expectedTail);
    QCOMPARE(trace.columnIndex("W_ideal"), 19);
    QCOMPARE(trace.columnIndex("quat_norm"), 21);
}

void TestTrace::contactColumnsFollowIdealWork()
{
    // One contact: a column named "contact"; several: "contact_NAME" each.
    const Trace one({"x", "y"}, {"theta"}, true, {"bead"});
    const std::vector<std::string> names = one.columnNames();
    const std::vector<std::string> tail(names.end() - 4, names.end());
    QCOMPARE(tail, (std::vector<std::string>{"E_error", "W_ideal", "contact", "theta"}));
    QCOMPARE(one.contactNames(), std::vector<std::string>{"bead"});

    const Trace two({"x"}, {}, false, {"left", "right"});
    const std::vector<std::string> names2 = two.columnNames();
    const std::vector<std::string> tail2(names2.end() - 3, names2.end());
    QCOMPARE(tail2, (std::vector<std::string>{"E_error", "contact_left", "contact_right"}));

    Trace trace({"x"}, {}, false, {"left", "right"});
    TraceSample s = distinctSample(0, 1, 0);
    s.contacts.resize(2);
    s.contacts << 1.0, 0.0;
    trace.samples.push_back(s);
    std::vector<double> row;
    trace.row(0, row);
    QCOMPARE(row[trace.columnIndex("contact_left")], 1.0);
    QCOMPARE(row[trace.columnIndex("contact_right")], 0.0);
    QCOMPARE(row[trace.columnIndex("E_error")], s.E_error);
    // A sample without the contact modes does not fit this trace.
    trace.samples.push_back(distinctSample(1, 1, 0));
    QVERIFY_THROWS_EXCEPTION(ConstraintLabError, trace.row(1, row));
}

void TestTrace::rowAndColumnAgree()
{
    Trace trace({"x", "y", "z"}, {"theta"}, true);
    for (int k = 0; k < 4; ++k)
        trace.samples.push_back(distinctSample(k, 3, 1));
    const std::vector<std::string> names = trace.columnNames();

    std::vector<double> row;
    for (std::size_t k = 0; k < trace.samples.size(); ++k) {
        trace.row(k, row);
        QCOMPARE(row.size(), names.size());
        const TraceSample& s = trace.samples[k];
        // Against the sample's fields, looked up by column name.
        QCOMPARE(row[trace.columnIndex("t")], s.t);
        QCOMPARE(row[trace.columnIndex("y_dot")], s.qd[1]);
        QCOMPARE(row[trace.columnIndex("z_ddot")], s.qdd[2]);
        QCOMPARE(row[trace.columnIndex("Q_x")], s.Q[0]);
        QCOMPARE(row[trace.columnIndex("Qci_z")], s.Qci[2]);
        QCOMPARE(row[trace.columnIndex("Qcni_y")], s.Qcni[1]);
        QCOMPARE(row[trace.columnIndex("E")], s.E);
        QCOMPARE(row[trace.columnIndex("W_nonideal")], s.W_nonideal);
        QCOMPARE(row[trace.columnIndex("residual_max")], s.residualMax);
        QCOMPARE(row[trace.columnIndex("W_ideal")], s.W_ideal);
        QCOMPARE(row[trace.columnIndex("E_error")], s.E_error);
        QCOMPARE(row[trace.columnIndex("theta")], s.extra[0]);
        // Every column over all samples agrees with the rows.
        for (std::size_t c = 0; c < names.size(); ++c)
            QCOMPARE(trace.column(static_cast<int>(c))[k], row[c]);
    }
    // All entries of a row are distinct: no field is written twice or skipped.
    std::vector<double> sorted = row;
    std::sort(sorted.begin(), sorted.end());
    QVERIFY(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end());
}

void TestTrace::outOfRangeAccessIsRejected()
{
    Trace trace({"x"}, {}, false);
    trace.samples.push_back(distinctSample(0, 1, 0));
    std::vector<double> row;
    QVERIFY_THROWS_EXCEPTION(ConstraintLabError, trace.row(1, row));
    QVERIFY_THROWS_EXCEPTION(ConstraintLabError, trace.column(-1));
    QVERIFY_THROWS_EXCEPTION(ConstraintLabError, trace.column(13));
    // A sample sized for another system is reported, not read out of bounds.
    trace.samples.push_back(distinctSample(1, 2, 0));
    QVERIFY_THROWS_EXCEPTION(ConstraintLabError, trace.row(1, row));
    QVERIFY_THROWS_EXCEPTION(ConstraintLabError, trace.column(0));
}

void TestTrace::sampleShownAtATimeIsTheLastAtOrBeforeIt()
{
    Trace empty;
    QCOMPARE(empty.sampleIndexAt(1.0), std::size_t(0));
    Trace trace;
    for (int k = 0; k <= 100; ++k) {
        TraceSample s;
        s.t = 0.01 * k;
        trace.samples.push_back(s);
    }
    QCOMPARE(trace.sampleIndexAt(-1.0), std::size_t(0));
    QCOMPARE(trace.sampleIndexAt(0.0), std::size_t(0));
    QCOMPARE(trace.sampleIndexAt(0.015), std::size_t(1));
    QCOMPARE(trace.sampleIndexAt(5.0), std::size_t(100));
    // A playback clock that sums its steps lands a hair short of a sample's time: that is the
    // sample shown, not the one before.
    QCOMPARE(trace.sampleIndexAt(trace.samples[30].t - 1e-13), std::size_t(30));
    // Well before a sample (a millionth of a second) is before it.
    QCOMPARE(trace.sampleIndexAt(0.3 - 1e-6), std::size_t(29));
}

QTEST_APPLESS_MAIN(TestTrace)
#include "tst_Trace.moc"
