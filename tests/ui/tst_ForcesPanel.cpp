// The Forces dock: one switch per force of the fundamental equation, the logarithmic arrow
// scale ×0.1 … ×10, the legend switch, the magnitude readouts, and for a scene of many bodies the
// body chooser and the arrow field's switch.

#include <panels/ForcesPanel.h>

#include <QCheckBox>
#include <QGroupBox>
#include <QLabel>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
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

    void bodyChooserShowsForManyBodiesAndSpeaksOncePerChange()
    {
        ForcesPanel panel;
        QSignalSpy chosen(&panel, &ForcesPanel::chosenBodyChanged);
        QSignalSpy field(&panel, &ForcesPanel::arrowFieldVisibilityChanged);
        panel.setBodies(1, 1, QStringLiteral("body"));
        QVERIFY(!panel.bodyGroup()->isVisibleTo(&panel));
        panel.setBodies(1000, 1000, QStringLiteral("bob"));
        QVERIFY(panel.bodyGroup()->isVisibleTo(&panel));
        QCOMPARE(chosen.count(), 0); // the view told the panel, not the other way round
        QCOMPARE(panel.bodySpinBox()->maximum(), 1000);
        QCOMPARE(panel.bodySlider()->maximum(), 1000);
        QCOMPARE(panel.chosenBody(), 1000);
        QVERIFY(panel.bodyGroup()->title().contains(QStringLiteral("bob")));

        // The slider and the spin box move together; one signal per change, from either.
        panel.bodySlider()->setValue(500);
        QCOMPARE(panel.bodySpinBox()->value(), 500);
        panel.bodySpinBox()->setValue(21);
        QCOMPARE(panel.bodySlider()->value(), 21);
        QCOMPARE(chosen.count(), 2);
        QCOMPARE(chosen.at(0).at(0).toInt(), 500);
        QCOMPARE(chosen.at(1).at(0).toInt(), 21);

        // Fewer bodies: the spin box shows the clamped choice, without a signal.
        panel.setBodies(10, 10, QStringLiteral("bob"));
        QCOMPARE(panel.chosenBody(), 10);
        QCOMPARE(panel.bodySlider()->value(), 10);
        QCOMPARE(chosen.count(), 2);

        QVERIFY(!panel.isArrowFieldVisible());
        panel.arrowFieldCheckBox()->click();
        QCOMPARE(field.count(), 1);
        QVERIFY(field.front().at(0).toBool());
        QVERIFY(panel.isArrowFieldVisible());
    }
};

QTEST_MAIN(ForcesPanelTest)
#include "tst_ForcesPanel.moc"
