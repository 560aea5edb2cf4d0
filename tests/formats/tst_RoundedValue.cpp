#include "RoundedValue.h"

#include <QtTest>

#include <cmath>
#include <limits>

using namespace clab;

class tst_RoundedValue : public QObject {
    Q_OBJECT

private slots:
    // The error to two significant digits, the value to the same decimal place.
    void valueKeepsTheDigitsOfItsError_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<double>("error");
        QTest::addColumn<QString>("text");
        QTest::addColumn<double>("rounded");
        QTest::newRow("issue 32") << 0.24993948 << 0.000121601 << "0.24994 ± 0.00012" << 0.24994;
        QTest::newRow("closed form")
            << 0.399998528831 << 1.88e-06 << "0.3999985 ± 0.0000019" << 0.3999985;
        QTest::newRow("metres") << 24.9998812 << 0.000143 << "24.99988 ± 0.00014" << 24.99988;
        QTest::newRow("carry into a new digit")
            << 1.23456 << 0.000996 << "1.2346 ± 0.0010" << 1.2346;
        QTest::newRow("error above ten") << 1234.5678 << 23.4 << "1235 ± 23" << 1235.0;
        QTest::newRow("error above a hundred")
            << 12345.6 << 234.0 << "1.235e+04 ± 2.3e+02" << 12350.0;
        QTest::newRow("negative") << -0.7462 << 0.0123 << "-0.746 ± 0.012" << -0.746;
        QTest::newRow("tiny") << 3.14159e-12 << 2.2e-15 << "3.1416e-12 ± 2.2e-15" << 3.1416e-12;
    }
    void valueKeepsTheDigitsOfItsError()
    {
        QFETCH(double, value);
        QFETCH(double, error);
        QFETCH(QString, text);
        QFETCH(double, rounded);
        const RoundedValue r(value, error);
        QCOMPARE(r.text(), text);
        QVERIFY2(std::abs(r.value() - rounded) <= 1e-12 * std::abs(rounded),
                 qPrintable(QString::number(r.value(), 'g', 17)));
    }

    // Without a usable error the value stays as it is, at six digits, and nothing is invented.
    void withoutAnErrorTheValueIsKept()
    {
        const double inf = std::numeric_limits<double>::infinity();
        QCOMPARE(RoundedValue(0.24993948, inf).text(), QStringLiteral("0.249939"));
        QCOMPARE(RoundedValue(0.24993948, inf).value(), 0.24993948);
        QCOMPARE(RoundedValue(0.24993948, inf).errorText(), QStringLiteral("-"));
        QCOMPARE(RoundedValue(2.0, 0.0).text(), QStringLiteral("2"));
        QCOMPARE(RoundedValue(2.0, std::nan("")).errorText(), QStringLiteral("-"));
    }
};

QTEST_APPLESS_MAIN(tst_RoundedValue)
#include "tst_RoundedValue.moc"
