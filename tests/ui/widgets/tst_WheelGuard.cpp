// The mouse wheel never changes a value behind the user's back: over a control without the
// keyboard focus it scrolls the panel around it (ui/widgets/WheelGuard), in a panel of its own
// and in every control of the real main window; a focused control still takes the wheel.

#include <MainWindow.h>
#include <panels/FitPanel.h>
#include <panels/ParameterEditor.h>
#include <scenes/SceneDocument.h>
#include <scenes/SceneRegistry.h>
#include <view3d/SceneView.h>
#include <widgets/WheelGuard.h>

#include <QAbstractScrollArea>
#include <QComboBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QDoubleValidator>
#include <QLineEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QSlider>
#include <QSpinBox>
#include <QTest>
#include <QVBoxLayout>
#include <QWheelEvent>
#include <QtTest/qtestspontaneevent.h>

#include "../../support/MainWindowFixture.h"

#include <memory>

using namespace clab;

namespace {

[[maybe_unused]] const bool surfaceFormatSet = testing::setSurfaceFormat();

/// One notch of the wheel (down) over the middle of `widget`, delivered as the window system
/// delivers it: to the innermost widget under the pointer, spontaneous, free to propagate.
void turnWheel(QWidget* widget, int notches = -1)
{
    const QPoint centre = widget->rect().center();
    QWidget* target = widget->childAt(centre);
    if (!target)
        target = widget;
    const QPointF local = target->mapFrom(widget, centre);
    QWheelEvent event(local, target->mapToGlobal(local), QPoint(), QPoint(0, 120 * notches),
                      Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QSpontaneKeyEvent::setSpontaneous(&event);
    qApp->notify(target, &event);
}

/// What the wheel could change: the text of a field or spin box, the index of a combo box,
/// the position of a slider.
QString valueOf(const QWidget* control)
{
    if (const auto* spin = qobject_cast<const QAbstractSpinBox*>(control))
        return spin->text();
    if (const auto* combo = qobject_cast<const QComboBox*>(control))
        return QString::number(combo->currentIndex()) + combo->currentText();
    if (const auto* slider = qobject_cast<const QAbstractSlider*>(control))
        return QString::number(slider->value());
    if (const auto* edit = qobject_cast<const QLineEdit*>(control))
        return edit->text();
    return {};
}

/// Every visible control of `window` whose value the wheel could change.
QList<QWidget*> wheelControls(QWidget* window)
{
    QList<QWidget*> controls;
    for (QWidget* widget : window->findChildren<QWidget*>()) {
        if (!widget->isVisible() || widget->visibleRegion().isEmpty() ||
            qobject_cast<QScrollBar*>(widget))
            continue;
        if (WheelGuard::guardedControl(widget) == widget)
            controls << widget;
    }
    return controls;
}

/// Sends the wheel to every control in `window`; fails naming any that changed.
void wheelLeavesEveryControlAlone(QWidget* window, int& checked)
{
    for (QWidget* control : wheelControls(window)) {
        if (control->hasFocus())
            continue;
        const QString before = valueOf(control);
        turnWheel(control, -1);
        turnWheel(control, 1);
        turnWheel(control, 1);
        QVERIFY2(valueOf(control) == before,
                 qPrintable(QStringLiteral("the wheel changed %1 (%2) from \"%3\" to \"%4\"")
                                .arg(control->objectName(),
                                     QString::fromLatin1(control->metaObject()->className()),
                                     before, valueOf(control))));
        ++checked;
    }
}

} // namespace

class WheelGuardTest : public QObject {
    Q_OBJECT

private:
    testing::IsolatedSettings settings_;

private slots:
    void initTestCase() { QVERIFY2(settings_.start(), qPrintable(settings_.problem())); }

    void mainWindowControlsIgnoreTheWheelWithoutFocus()
    {
        // The main window installs the guard itself (this test comes first).
        MainWindow window(std::make_shared<GuiSceneStore>());
        window.setUnsavedChangesPrompt(
            [](const QString&) { return MainWindow::UnsavedChoice::Discard; });
        testing::showDocument(window,
                              SceneDocument::fromDefinition(*SceneRegistry::find("bead-on-wire")));
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QVERIFY(window.fitPanel()->loadFile(QStringLiteral(CLAB_SOURCE_DIR) +
                                            QStringLiteral("/scenes/measurements/bead-mu0.4.csv")));
        window.showPanel(QStringLiteral("fit"));
        QTest::qWait(200);
        int checked = 0;
        wheelLeavesEveryControlAlone(&window, checked);
        if (QTest::currentTestFailed())
            return;
        // The Scene dock's parameters (spin boxes and sliders), the plot selector, the Fit
        // panel's mappings and scales, the time slider.
        QVERIFY2(checked >= 10, qPrintable(QString::number(checked)));

        // The parameter editor builds new controls for another scene: guarded too.
        window.setDocument(SceneDocument::fromDefinition(*SceneRegistry::find("ring")));
        window.showPanel(QStringLiteral("system"));
        QTest::qWait(200);
        wheelLeavesEveryControlAlone(&window, checked);
        window.showPanel(QStringLiteral("scene"));
        QTest::qWait(200);
        wheelLeavesEveryControlAlone(&window, checked);
    }

    void mainWindowSceneDockScrollsUnderTheWheel()
    {
        MainWindow window(std::make_shared<GuiSceneStore>());
        testing::showDocument(window, SceneDocument::fromDefinition(*SceneRegistry::find("ring")));
        window.resize(1000, 420); // short: the Scene dock's parameters scroll
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QTest::qWait(200);
        auto* scroll = window.findChild<QScrollArea*>(QStringLiteral("sceneScroll"));
        QVERIFY(scroll);
        QScrollBar* bar = scroll->verticalScrollBar();
        QVERIFY2(bar->maximum() > 0, "the Scene dock does not scroll at this size");
        window.sceneView()->setFocus();
        auto* spin = window.parameterEditor()->findChild<QAbstractSpinBox*>();
        QVERIFY(spin);
        scroll->ensureWidgetVisible(spin);
        bar->setValue(0);
        scroll->ensureWidgetVisible(spin);
        const int scrolled = bar->value();
        const QString before = spin->text();
        turnWheel(spin);
        QCOMPARE(spin->text(), before);
        QVERIFY(bar->value() > scrolled);

        // Clicked into, the field takes the wheel: one step up.
        spin->setFocus(Qt::MouseFocusReason);
        turnWheel(spin, 1);
        QVERIFY(spin->text() != before);
    }
    void wheelOverUnfocusedControlsScrollsThePanelInstead()
    {
        WheelGuard::install(); // the main window installed it already
        QVERIFY(WheelGuard::isInstalled());
        QScrollArea scroll;
        auto* panel = new QWidget;
        auto* layout = new QVBoxLayout(panel);
        auto* spin = new QSpinBox;
        spin->setValue(50);
        auto* real = new QDoubleSpinBox;
        real->setValue(1.0);
        auto* combo = new QComboBox;
        combo->addItems({QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")});
        combo->setCurrentIndex(1);
        auto* slider = new QSlider(Qt::Horizontal);
        slider->setRange(0, 100);
        slider->setValue(50);
        auto* field = new QLineEdit(QStringLiteral("1"));
        field->setValidator(new QDoubleValidator(field));
        auto* focusHolder = new QLineEdit;
        for (QWidget* widget : {static_cast<QWidget*>(spin), static_cast<QWidget*>(real),
                                static_cast<QWidget*>(combo), static_cast<QWidget*>(slider),
                                static_cast<QWidget*>(field), static_cast<QWidget*>(focusHolder)}) {
            layout->addWidget(widget);
            layout->addSpacing(200); // taller than the scroll area: it scrolls
        }
        scroll.setWidget(panel);
        scroll.resize(300, 300);
        scroll.show();
        scroll.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&scroll));
        focusHolder->setFocus();
        QScrollBar* bar = scroll.verticalScrollBar();
        QVERIFY(bar->maximum() > 0);

        for (QWidget* control : {static_cast<QWidget*>(spin), static_cast<QWidget*>(real),
                                 static_cast<QWidget*>(combo), static_cast<QWidget*>(slider),
                                 static_cast<QWidget*>(field)}) {
            bar->setValue(bar->maximum() / 2);
            scroll.ensureWidgetVisible(control);
            const int scrolled = bar->value();
            const QString before = valueOf(control);
            turnWheel(control); // down: the panel scrolls down
            QCOMPARE(valueOf(control), before);
            QVERIFY2(bar->value() > scrolled || bar->value() == bar->maximum(),
                     qPrintable(QStringLiteral("%1: the panel did not scroll")
                                    .arg(QString::fromLatin1(control->metaObject()->className()))));
            QVERIFY(!control->hasFocus()); // the wheel gives no focus either
        }
    }

    void focusedSpinBoxStillTakesTheWheel()
    {
        QScrollArea scroll;
        auto* panel = new QWidget;
        auto* layout = new QVBoxLayout(panel);
        auto* spin = new QSpinBox;
        spin->setValue(50);
        layout->addWidget(spin);
        layout->addSpacing(600);
        scroll.setWidget(panel);
        scroll.resize(300, 300);
        scroll.show();
        scroll.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&scroll));
        spin->setFocus();
        QVERIFY(spin->hasFocus());
        turnWheel(spin, 1);
        QCOMPARE(spin->value(), 51);
        QCOMPARE(scroll.verticalScrollBar()->value(), 0);
    }

    void controlsMadeAfterTheGuardTakeFocusOnlyByClick()
    {
        QSpinBox spin;
        QComboBox combo;
        QSlider slider;
        QScrollBar bar;
        for (QWidget* widget : {static_cast<QWidget*>(&spin), static_cast<QWidget*>(&combo),
                                static_cast<QWidget*>(&slider)}) {
            widget->ensurePolished();
            QVERIFY(!(widget->focusPolicy() & Qt::WheelFocus & ~Qt::StrongFocus));
            QCOMPARE(widget->focusPolicy(), Qt::StrongFocus);
        }
        QCOMPARE(WheelGuard::guardedControl(&bar), nullptr);
        QCOMPARE(WheelGuard::guardedControl(spin.findChild<QLineEdit*>()),
                 static_cast<QWidget*>(&spin));
    }
};

QTEST_MAIN(WheelGuardTest)
#include "tst_WheelGuard.moc"
