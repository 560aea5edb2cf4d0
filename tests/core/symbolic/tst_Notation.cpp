// Notation: the names of the expression notation, which name checks and completion share with
// the parser.
#include "symbolic/Notation.h"

#include <QtTest>

#include <algorithm>

using namespace clab;

class TestNotation : public QObject {
    Q_OBJECT

private slots:
    void namesAreCheckedForTheNotation();
    void functionNamesComeInTheDocsOrderAndAreReserved();
};

void TestNotation::namesAreCheckedForTheNotation()
{
    QVERIFY(Notation::isReserved("sin"));
    QVERIFY(Notation::isReserved("pi"));
    QVERIFY(Notation::isReserved("t"));
    QVERIFY(!Notation::isReserved("theta"));
    QVERIFY(Notation::isIdentifier("x_1"));
    QVERIFY(!Notation::isIdentifier("1x"));
    QVERIFY(!Notation::isIdentifier("x-y"));
    QVERIFY(!Notation::isIdentifier(""));
}

void TestNotation::functionNamesComeInTheDocsOrderAndAreReserved()
{
    const std::vector<std::string> names = Notation::functionNames();
    QCOMPARE(names.size(), Notation::functions().size());
    QCOMPARE(names.front(), std::string("sin"));
    QCOMPARE(names.back(), std::string("pi"));
    QVERIFY(std::find(names.begin(), names.end(), "atan2") != names.end());
    for (const std::string& name : names)
        QVERIFY2(Notation::isReserved(name), name.c_str());
    QVERIFY(std::find(names.begin(), names.end(), "t") == names.end()); // reserved, no function
}

QTEST_APPLESS_MAIN(TestNotation)
#include "tst_Notation.moc"
