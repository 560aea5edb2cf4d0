// The Forces dock: one switch per force of the fundamental equation, the logarithmic arrow
// scale ×0.1 … ×10, the legend switch, and the magnitude readouts.

#include <panels/ForcesPanel.h>

#include <QCheckBox>
#include <QLabel>
#include <QSignalSpy>
#include <QSlider>
#include <QTest>

#include <cmath>

using namespace clab;

class ForcesPanelTest : public QObject {
    Q_OBJECT
private slots:
    void eachForceHasItsOwnSwitchInItsColour()
    {
        ForcesPanel panel;
        QSignalSpy spy(&panel, &ForcesPanel::forceVisibilityChanged);
        for (int i = 0; i < 3; ++i) {
            const auto kind = static_cast<ForceKind>(i);
            QCheckBox* box = panel.forceCheckBox(kind);
            QCOMPARE(box->text(), forceSymbol(kind));
            QVERIFY(box->isChecked());
            // The swatch is painted in the force's colour.
            const QImage swatch = box->icon().pixmap(QSize(36, 18)).toImage();
            bool found = false;
            for (int x = 0; x < swatch.width() && !found; ++x)
                for (int y = 0; y < swatch.height() && !found; ++y)
                    found = swatch.pixelColor(x, y).rgb() == forceColor(kind).rgb();
            QVERIFY(found);
        }
        panel.forceCheckBox(ForceKind::NonIdealConstraint)->click();
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.front().at(0).value<ForceKind>(), ForceKind::NonIdealConstraint);
        QCOMPARE(spy.front().at(1).toBool(), false);
        QVERIFY(!panel.isForceVisible(ForceKind::NonIdealConstraint));
        QVERIFY(panel.isForceVisible(ForceKind::Given));
    }

    void arrowScaleIsLogarithmicFromTenthToTenfold()
    {
        ForcesPanel panel;
        QSignalSpy spy(&panel, &ForcesPanel::arrowScaleChanged);
        QSlider* slider = panel.arrowScaleSlider();
        QCOMPARE(panel.arrowScale(), 1.0);
        slider->setValue(slider->minimum());
        QVERIFY(std::abs(panel.arrowScale() - 0.1) < 1e-12);
        slider->setValue(slider->maximum());
        QVERIFY(std::abs(panel.arrowScale() - 10.0) < 1e-12);
        // Halfway up the slider is the geometric middle, √10.
        slider->setValue(slider->maximum() / 2);
        QVERIFY(std::abs(panel.arrowScale() - std::sqrt(10.0)) < 1e-12);
        QCOMPARE(spy.count(), 3);
        panel.setArrowScale(100.0);
        QVERIFY(std::abs(panel.arrowScale() - 10.0) < 1e-12);
    }

    void legendSwitch()
    {
        ForcesPanel panel;
        QSignalSpy spy(&panel, &ForcesPanel::legendVisibilityChanged);
        panel.setLegendVisible(false);
        QCOMPARE(spy.count(), 1);
        QVERIFY(!panel.isLegendVisible());
    }

    void magnitudesAreShownWithTheirUnit()
    {
        ForcesPanel panel;
        panel.setMagnitudes({9.81, 8.4957, 1.69914}, QStringLiteral("N"));
        const auto text = [&](int i) {
            return panel.findChild<QLabel*>(QStringLiteral("forceMagnitude%1").arg(i))->text();
        };
        QCOMPARE(text(0), QStringLiteral("9.810 N"));
        QCOMPARE(text(1), QStringLiteral("8.496 N"));
        QCOMPARE(text(2), QStringLiteral("1.699 N"));
        panel.clearMagnitudes();
        QCOMPARE(text(0), QStringLiteral("—"));
    }
};

QTEST_MAIN(ForcesPanelTest)
#include "tst_ForcesPanel.moc"
