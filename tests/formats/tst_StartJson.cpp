// A scene file's stored start ("start": {"t0", "q", "qdot"}, docs/FORMATS.md): a missing or
// unknown key, a value of the wrong type or length, a value that is not finite and a state off
// the constraints are each refused with the key and the reason; a state on them is read.
#include <FileError.h>
#include <SceneFile.h>

#include <QtTest>

#include <limits>

#include "../support/SceneFileErrors.h"

using namespace clab;

namespace {

// The bead on its wire (angle 30° by default): a point s along it is (s cos 30°, s sin 30°).
QByteArray beadWithStart(const QByteArray& start)
{
    return R"({"format": 1, "scene": "bead-on-wire", "simulation": {"t_end": 5}, "start": )" +
           start + "}";
}

} // namespace

class TestStartJson : public QObject {
    Q_OBJECT

private slots:
    void badStartEntriesAreRefusedWithKeyAndReason_data();
    void badStartEntriesAreRefusedWithKeyAndReason();
    void aNonFiniteStartIsRefusedOnSave();
    void aStartOnTheWireIsRead();
};

void TestStartJson::badStartEntriesAreRefusedWithKeyAndReason_data()
{
    QTest::addColumn<QByteArray>("start");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("reason");
    QTest::newRow("not an object") << QByteArray("[1]") << "start"
                                   << "object";
    QTest::newRow("missing qdot") << QByteArray(R"({"t0": 0, "q": [0, 0]})") << "start.qdot"
                                  << "missing";
    QTest::newRow("unknown key") << QByteArray(R"({"t0": 0, "q": [0, 0], "qdot": [0, 0], "v": 1})")
                                 << "start.v"
                                 << "unknown";
    QTest::newRow("t0 a string") << QByteArray(R"({"t0": "now", "q": [0, 0], "qdot": [0, 0]})")
                                 << "start.t0"
                                 << "number";
    QTest::newRow("q not numbers")
        << QByteArray(R"({"t0": 0, "q": [0, "x"], "qdot": [0, 0]})") << "start.q[1]"
        << "number";
    QTest::newRow("q too long") << QByteArray(R"({"t0": 0, "q": [0, 0, 0], "qdot": [0, 0]})")
                                << "start.q"
                                << "has 3 values; the system has 2 coordinates";
    QTest::newRow("qdot too short")
        << QByteArray(R"({"t0": 0, "q": [0, 0], "qdot": [0]})") << "start.qdot"
        << "has 1 values; the system has 2 coordinates";
    QTest::newRow("off the wire") << QByteArray(R"({"t0": 0, "q": [1, 0], "qdot": [0, 0]})")
                                  << "start"
                                  << "the state is off the constraints at t0 = 0";
    QTest::newRow("moving off the wire")
        << QByteArray(R"({"t0": 0, "q": [0, 0], "qdot": [0, 1]})") << "start"
        << "the state is off the constraints";
    QTest::newRow("after t_end") << QByteArray(R"({"t0": 7, "q": [0, 0], "qdot": [0, 0]})")
                                 << "simulation.t_end"
                                 << "";
}

void TestStartJson::badStartEntriesAreRefusedWithKeyAndReason()
{
    QFETCH(QByteArray, start);
    QFETCH(QString, key);
    QFETCH(QString, reason);
    const FileError e = testing::parseError(beadWithStart(start));
    QCOMPARE(e.key(), key);
    QVERIFY2(e.reason().contains(reason), qPrintable(e.reason()));
}

void TestStartJson::aNonFiniteStartIsRefusedOnSave()
{
    SceneDocument document = SceneFile::fromJson(
        beadWithStart(R"({"t0": 0, "q": [0, 0], "qdot": [0, 0]})"), QStringLiteral("bead"));
    document.simulation.start->q[1] = std::numeric_limits<double>::infinity();
    try {
        SceneFile::validate(document, QStringLiteral("bead.json"));
        QFAIL("a start at infinity was accepted");
    } catch (const FileError& e) {
        QCOMPARE(e.key(), QStringLiteral("start.q"));
        QCOMPARE(e.reason(), QStringLiteral("value 2 is not finite"));
    }
}

void TestStartJson::aStartOnTheWireIsRead()
{
    // s = 2 at 30°, moving down the wire at 1 m/s, at t = 1.5 s.
    const QByteArray start = R"({"t0": 1.5, "q": [1.7320508075688772, 1],
        "qdot": [-0.8660254037844386, -0.5]})";
    const SceneDocument document =
        SceneFile::fromJson(beadWithStart(start), QStringLiteral("bead"));
    QVERIFY(document.simulation.start.has_value());
    QCOMPARE(document.simulation.start->t0, 1.5);
    QCOMPARE(document.simulation.start->q, (std::vector<double>{1.7320508075688772, 1.0}));
    QCOMPARE(document.simulation.start->qd, (std::vector<double>{-0.8660254037844386, -0.5}));
}

QTEST_APPLESS_MAIN(TestStartJson)
#include "tst_StartJson.moc"
