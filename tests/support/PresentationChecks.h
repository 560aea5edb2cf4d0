#pragma once
// What presentation mode must show on any projector: text legible from the back of a room and
// the 3D view taking most of the screen. Used by the presentation tests at 1024×768, 1280×720
// and 1920×1080 (tests/CMakeLists.txt gives each its screen).

#include <GuiSceneStore.h>
#include <MainWindow.h>
#include <present/PresentationMode.h>
#include <scenes/SceneRegistry.h>
#include <session/SceneSession.h>
#include <view3d/SceneView.h>
#include <view3d/SceneViewContent.h>

#include <QAbstractButton>
#include <QFontInfo>
#include <QGuiApplication>
#include <QLabel>
#include <QScreen>
#include <QSignalSpy>
#include <QTest>

namespace clab::testing {

/// Shows `window` with the built-in ring and enters presentation mode; false when the window
/// never showed or no trajectory came.
inline bool presentRing(MainWindow& window)
{
    window.setDocument(GuiSceneStore().builtIn("ring")); // as File → New gives it
    QSignalSpy shown(&window, &MainWindow::trajectoryShown);
    window.show();
    if (!QTest::qWaitForWindowExposed(&window))
        return false;
    window.setPresenting(true);
    if (!shown.count() && !shown.wait(20000))
        return false;
    QTest::qWait(300); // full screen, the panel's fonts and the view's text follow the size
    return window.isPresenting();
}

/// Every visible text at least 18 px high (most 24 px or more), the 3D view's text at 24 px or
/// more and the view at least 60 % of the screen.
inline void checkLegible(MainWindow& window)
{
    const QSize screen = window.screen()->size();
    QCOMPARE(window.size(), screen);
    int large = 0, all = 0;
    for (QWidget* w : window.findChildren<QWidget*>()) {
        const bool text = qobject_cast<QLabel*>(w) || qobject_cast<QAbstractButton*>(w);
        if (!text || !w->isVisible() ||
            (qobject_cast<QLabel*>(w) && static_cast<QLabel*>(w)->text().isEmpty()))
            continue;
        const int pixels = QFontInfo(w->font()).pixelSize();
        QVERIFY2(pixels >= 18,
                 qPrintable(QStringLiteral("%1 \"%2\" is %3 px")
                                .arg(w->objectName(), qobject_cast<QLabel*>(w)
                                                          ? static_cast<QLabel*>(w)->text()
                                                          : QString())
                                .arg(pixels)));
        ++all;
        large += pixels >= 24;
    }
    QVERIFY2(all >= 8, "the panel shows its caption, clock, forces, contact and sliders");
    QVERIFY2(large * 4 >= all * 3,
             qPrintable(QStringLiteral("%1 of %2 texts at 24 px or more").arg(large).arg(all)));
    const SceneView* view = window.sceneView();
    QVERIFY2(view->content().fontPixelsFor(view->width(), view->height()) >= 24,
             qPrintable(QStringLiteral("the 3D view's text is %1 px")
                            .arg(view->content().fontPixelsFor(view->width(), view->height()))));
    const double share =
        double(view->width()) * view->height() / (screen.width() * screen.height());
    QVERIFY2(share >= 0.6,
             qPrintable(
                 QStringLiteral("the 3D view has %1 % of the screen").arg(share * 100, 0, 'f', 0)));
}

} // namespace clab::testing
