// Tolerance entry: values show as 1e-09, arrows step by decades, typed exponents parse.

#include <widgets/ScientificSpinBox.h>

#include <QTest>

#include <cmath>

using namespace clab;

class ScientificSpinBoxTest : public QObject {
    Q_OBJECT
private slots:
    void showsValuesInScientificNotation()
    {
        ScientificSpinBox box;
        box.setValue(1e-9);
        QCOMPARE(box.text(), QStringLiteral("1e-09"));
        QCOMPARE(box.value(), 1e-9);
    }

    void stepsByDecades()
    {
        ScientificSpinBox box;
        box.setValue(1e-9);
        box.stepUp();
        QVERIFY(std::abs(box.value() / 1e-8 - 1.0) < 1e-12);
        box.stepBy(-3);
        QVERIFY(std::abs(box.value() / 1e-11 - 1.0) < 1e-12);
    }

    void typedExponentIsAccepted()
    {
        ScientificSpinBox box;
        box.selectAll();
        QTest::keyClicks(&box, QStringLiteral("2.5e-7"));
        QTest::keyClick(&box, Qt::Key_Enter);
        QCOMPARE(box.value(), 2.5e-7);
        QString partial = QStringLiteral("1e-");
        int pos = 0;
        QCOMPARE(box.validate(partial, pos), QValidator::Intermediate);
        QString garbage = QStringLiteral("abc");
        QCOMPARE(box.validate(garbage, pos), QValidator::Invalid);
    }
};

QTEST_MAIN(ScientificSpinBoxTest)
#include "tst_ScientificSpinBox.moc"
