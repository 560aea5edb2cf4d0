#include "study/BoundedParameter.h"

#include <QtTest>

#include <cmath>
#include <limits>

using namespace clab;

namespace {
constexpr double inf = std::numeric_limits<double>::infinity();
}

class tst_BoundedParameter : public QObject {
    Q_OBJECT

private slots:
    void everyFreeValueMapsInsideTheBounds_data()
    {
        QTest::addColumn<double>("lower");
        QTest::addColumn<double>("upper");
        QTest::newRow("both") << 0.1 << 0.3;
        QTest::newRow("lower") << 0.0 << inf;
        QTest::newRow("upper") << -inf << 2.0;
        QTest::newRow("none") << -inf << inf;
    }
    void everyFreeValueMapsInsideTheBounds()
    {
        QFETCH(double, lower);
        QFETCH(double, upper);
        const BoundedParameter b(lower, upper);
        double previous = std::nan("");
        for (double x = -30.0; x <= 30.0; x += 0.25) {
            const double p = b.external(x);
            QVERIFY(p >= lower && p <= upper);
            // Monotonic: a long step never wraps around to where it started.
            if (!std::isnan(previous))
                QVERIFY(std::isfinite(upper) && !std::isfinite(lower) ? p <= previous
                                                                      : p >= previous);
            previous = p;
        }
    }

    void internalInvertsExternal_data() { everyFreeValueMapsInsideTheBounds_data(); }
    void internalInvertsExternal()
    {
        QFETCH(double, lower);
        QFETCH(double, upper);
        const BoundedParameter b(lower, upper);
        for (double p : {-1.5, 0.12, 0.2, 0.29, 1.0, 1.9}) {
            if (p <= lower || p >= upper)
                continue;
            QVERIFY(std::abs(b.external(b.internal(p)) - p) < 1e-14);
        }
    }

    // dp/dx against a central difference of external().
    void derivativeMatchesADifference_data() { everyFreeValueMapsInsideTheBounds_data(); }
    void derivativeMatchesADifference()
    {
        QFETCH(double, lower);
        QFETCH(double, upper);
        const BoundedParameter b(lower, upper);
        const double h = 1e-6;
        for (double x : {-3.0, -0.5, 0.0, 0.7, 2.5}) {
            const double difference = (b.external(x + h) - b.external(x - h)) / (2 * h);
            QVERIFY(std::abs(b.derivative(x) - difference) < 1e-8);
        }
    }
};

QTEST_APPLESS_MAIN(tst_BoundedParameter)
#include "tst_BoundedParameter.moc"
