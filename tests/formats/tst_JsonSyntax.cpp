#include "FileError.h"
#include "JsonSyntax.h"

#include <QDir>
#include <QFile>
#include <QtTest>

using namespace clab;

namespace {

// The reason check() gives for `json`, or "" when it accepts it.
QString problem(const QByteArray& json)
{
    try {
        JsonSyntax::check(json, QStringLiteral("t.json"));
    } catch (const FileError& e) {
        return e.reason();
    }
    return {};
}

} // namespace

class JsonSyntaxTest : public QObject {
    Q_OBJECT

private slots:
    void validDocumentsPass_data();
    void validDocumentsPass();
    void everyBuiltInSceneFilePasses();
    void duplicateKeyNamesTheKeyAndBothLines();
    void violationsOfRfc8259AreRefusedWithTheirPlace_data();
    void violationsOfRfc8259AreRefusedWithTheirPlace();
    void nestingIsBounded();
    void keysWithControlCharactersAreQuotedEscaped();
    void keyOrderFollowsTheText();
};

void JsonSyntaxTest::validDocumentsPass_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::newRow("numbers") << QByteArray(R"({"a": [0, -0, 0.5, -1.25e-3, 1E+9, 10, 3e0]})");
    QTest::newRow("escapes") << QByteArray(R"({"s": "tab\t quote\" slash\/ \u00e9 \ud83d\ude00"})");
    QTest::newRow("utf-8") << QByteArray("{\"title\": \"Perle auf dem Draht – μ, θ, 😀\"}");
    QTest::newRow("literals") << QByteArray(
        R"({"t": true, "f": false, "n": null, "e": {}, "a": []})");
    QTest::newRow("same key in two objects") << QByteArray(R"({"a": {"mu": 1}, "b": {"mu": 2}})");
    QTest::newRow("byte order mark") << QByteArray("\xEF\xBB\xBF{\"format\": 1}");
    QTest::newRow("whitespace") << QByteArray(" \t\r\n{ } \n");
}

void JsonSyntaxTest::validDocumentsPass()
{
    QFETCH(QByteArray, json);
    QCOMPARE(problem(json), QString());
}

void JsonSyntaxTest::everyBuiltInSceneFilePasses()
{
    const QDir scenes(QStringLiteral(CLAB_SOURCE_DIR "/scenes"));
    const QStringList files = scenes.entryList({QStringLiteral("*.json")});
    QVERIFY(files.size() >= 5);
    for (const QString& name : files) {
        QFile file(scenes.filePath(name));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY2(problem(file.readAll()).isEmpty(), qPrintable(name));
    }
}

void JsonSyntaxTest::duplicateKeyNamesTheKeyAndBothLines()
{
    // mu = 5 is out of range; a lenient parser keeps the last value and never sees it.
    const QByteArray json = "{\n"
                            "  \"format\": 1,\n"
                            "  \"parameters\": {\n"
                            "    \"mu\": 5,\n"
                            "    \"mu\": 0.2\n"
                            "  }\n"
                            "}\n";
    const QString reason = problem(json);
    QVERIFY2(reason.contains("line 5, column 5"), qPrintable(reason));
    QVERIFY2(reason.contains("duplicate key \"mu\""), qPrintable(reason));
    QVERIFY2(reason.contains("first at line 4"), qPrintable(reason));
}

void JsonSyntaxTest::violationsOfRfc8259AreRefusedWithTheirPlace_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("expected");
    QTest::newRow("leading dot") << QByteArray("{\"mu\": .3}")
                                 << "line 1, column 8: a number must start with a digit";
    QTest::newRow("trailing dot") << QByteArray("{\"mu\": 1.}")
                                  << "line 1, column 10: expected a digit after the decimal point";
    QTest::newRow("leading zero") << QByteArray("{\"n\": 012}") << "leading zeros";
    QTest::newRow("plus sign") << QByteArray("{\"n\": +1}") << "expected a value";
    QTest::newRow("raw newline in string")
        << QByteArray("{\"title\": \"a\nb\"}")
        << "line 1, column 13: a control character (0x0a) must be escaped";
    QTest::newRow("raw tab in string")
        << QByteArray("{\"title\": \"a\tb\"}") << "control character (0x09)";
    QTest::newRow("raw escape in string")
        << QByteArray("{\"title\": \"\x1b]0;pwned\x07\"}") << "control character (0x1b)";
    QTest::newRow("bad escape") << QByteArray(R"({"t": "\x41"})") << "unknown escape \\x";
    QTest::newRow("short unicode escape")
        << QByteArray(R"({"t": "\u12"})") << "four hexadecimal digits";
    QTest::newRow("invalid UTF-8") << QByteArray("{\"t\": \"\xC3\x28\"}") << "invalid UTF-8";
    QTest::newRow("overlong UTF-8") << QByteArray("{\"t\": \"\xC0\xAF\"}") << "invalid UTF-8";
    QTest::newRow("trailing comma in object")
        << QByteArray("{\"a\": 1,}") << "trailing comma before '}'";
    QTest::newRow("trailing comma in array")
        << QByteArray("{\"a\": [1,]}") << "trailing comma before ']'";
    QTest::newRow("single quotes") << QByteArray("{'a': 1}") << "expected a key in double quotes";
    QTest::newRow("comment") << QByteArray("{\"a\": 1 // no\n}") << "expected ',' or '}'";
    QTest::newRow("NaN") << QByteArray("{\"a\": NaN}") << "expected a value";
    QTest::newRow("unclosed object")
        << QByteArray("{\n\"a\": 1\n") << "line 1, column 1: this object is never closed";
    QTest::newRow("unclosed string") << QByteArray("{\"a\": \"x}") << "this string is never closed";
    QTest::newRow("text after the end") << QByteArray("{} {}") << "unexpected text after the end";
    QTest::newRow("empty") << QByteArray("") << "found the end of the file";
}

void JsonSyntaxTest::violationsOfRfc8259AreRefusedWithTheirPlace()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, expected);
    const QString reason = problem(json);
    QVERIFY2(reason.startsWith("not valid JSON: line "), qPrintable(reason));
    QVERIFY2(reason.contains(expected), qPrintable(reason));
}

void JsonSyntaxTest::nestingIsBounded()
{
    const QByteArray deep = QByteArray(100000, '[') + QByteArray(100000, ']');
    QVERIFY2(problem(deep).contains("nested more than 64 levels"), qPrintable(problem(deep)));
    const QByteArray fine = QByteArray(60, '[') + QByteArray(60, ']');
    QCOMPARE(problem(fine), QString());
}

void JsonSyntaxTest::keysWithControlCharactersAreQuotedEscaped()
{
    // A NUL or an escape sequence in a key must neither cut nor colour the message.
    const QByteArray json = "{\"a\\u0000\\u001b[31m\": 1, \"a\\u0000\\u001b[31m\": 2}";
    try {
        JsonSyntax::check(json, QStringLiteral("t.json"));
        QFAIL("duplicate accepted");
    } catch (const FileError& e) {
        const QString what = QString::fromUtf8(e.what());
        QVERIFY2(what.contains("duplicate key \"a\\u0000\\u001b[31m\""), e.what());
        QVERIFY(!what.contains(QChar(0)));
        QVERIFY(!what.contains(QChar(0x1b)));
    }
}

void JsonSyntaxTest::keyOrderFollowsTheText()
{
    // Quotes, braces and colons inside strings are text, not structure; escaped keys are decoded.
    const QByteArray json = R"({"a\"}": {"zeta": 1, "x": {"q": 0}},
        "system": {"parameters": {"k\"": "}", "zeta": {"alpha": 1}, "alpha": [{"q": 1}],
                                  "mid": "\"parameters\": {\"z\": 1}", "\u00e9": null}},
        "parameters": {"b": 1, "a": 2}})";
    QCOMPARE(problem(json), QString());
    QCOMPARE(JsonSyntax::keyOrder(json, {"system", "parameters"}),
             QStringList({"k\"", "zeta", "alpha", "mid", "\u00e9"}));
    QCOMPARE(JsonSyntax::keyOrder(json, {"system", "parameters", "zeta"}), QStringList({"alpha"}));
    QCOMPARE(JsonSyntax::keyOrder(json, {"parameters"}), QStringList({"b", "a"}));
    QCOMPARE(JsonSyntax::keyOrder(json, {}), QStringList({"a\"}", "system", "parameters"}));
    // No object there: a missing key, an array (paths do not enter arrays), a string.
    QCOMPARE(JsonSyntax::keyOrder(json, {"system", "nothing"}), QStringList());
    QCOMPARE(JsonSyntax::keyOrder(json, {"system", "parameters", "alpha"}), QStringList());
    QCOMPARE(JsonSyntax::keyOrder(json, {"system", "parameters", "mid"}), QStringList());
    QCOMPARE(JsonSyntax::keyOrder("\xEF\xBB\xBF{\"z\": 1, \"y\": 2}", {}), QStringList({"z", "y"}));
}

QTEST_APPLESS_MAIN(JsonSyntaxTest)
#include "tst_JsonSyntax.moc"
