// The main window on the 1024×768 screen of a classroom projector (tests/CMakeLists.txt runs
// this program on an X screen of that size): a first start, with normal and with large text,
// puts the window and every panel on the screen.

#include <GuiSceneStore.h>
#include <MainWindow.h>
#include <scenes/SceneDocument.h>
#include <scenes/SceneRegistry.h>
#include <render/VtkOpenGLWindow.h>
#include <render/VtkSurfaceFormat.h>
#include <view3d/SceneView.h>

#include <QDockWidget>
#include <QGuiApplication>
#include <QScreen>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <QWindow>

#include "../support/MainWindowFixture.h"

#include <memory>

using namespace clab;

namespace {

const bool surfaceFormatSet = testing::setSurfaceFormat();

/// Shows the built-in bead in `window` as a first start does; false when it never appeared.
bool showBead(MainWindow& window)
{
    window.setUnsavedChangesPrompt(
        [](const QString&) { return MainWindow::UnsavedChoice::Discard; });
    window.setDocument(SceneDocument::fromDefinition(*SceneRegistry::find("bead-on-wire")));
    window.show();
    if (!QTest::qWaitForWindowExposed(&window))
        return false;
    QTest::qWait(200); // the first-start dock sizes are set from the event loop
    return true;
}

} // namespace

class SmallScreenTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir settingsDir_;

private slots:
    void initTestCase()
    {
        QVERIFY(surfaceFormatSet);
        QVERIFY(testing::isolateSettings(settingsDir_));
        // Not a check of the program: the test is only meaningful on the projector's screen.
        QCOMPARE(QGuiApplication::primaryScreen()->size(), QSize(1024, 768));
    }

    void firstStartPutsEveryPanelOnTheScreen_data()
    {
        QTest::addColumn<bool>("largeText");
        QTest::newRow("normal text") << false;
        QTest::newRow("large text") << true;
    }

    void firstStartPutsEveryPanelOnTheScreen()
    {
        QFETCH(bool, largeText);
        {
            // A first start: no saved geometry or layout; the text size as a teacher left it.
            QSettings settings;
            settings.clear();
            settings.setValue(QStringLiteral("view/largeText"), largeText);
        }
        MainWindow window(std::make_shared<GuiSceneStore>());
        QVERIFY(showBead(window));

        const QRect screen = window.screen()->availableGeometry();
        QVERIFY2(screen.contains(window.frameGeometry()),
                 qPrintable(QStringLiteral("window %1x%2 at %3,%4 on a %5x%6 screen")
                                .arg(window.frameGeometry().width())
                                .arg(window.frameGeometry().height())
                                .arg(window.frameGeometry().x())
                                .arg(window.frameGeometry().y())
                                .arg(screen.width())
                                .arg(screen.height())));
        int docks = 0;
        for (QDockWidget* dock : window.findChildren<QDockWidget*>()) {
            // A dock behind another in a tab group (System, Derivation) is moved off the
            // window rather than hidden: what counts is what can be seen.
            if (!dock->isVisible() || dock->visibleRegion().isEmpty())
                continue;
            ++docks;
            const QRect onScreen(dock->mapToGlobal(QPoint(0, 0)), dock->size());
            QVERIFY2(screen.contains(onScreen),
                     qPrintable(QStringLiteral("dock %1 at %2,%3 (%4x%5) is off the screen")
                                    .arg(dock->objectName())
                                    .arg(onScreen.x())
                                    .arg(onScreen.y())
                                    .arg(onScreen.width())
                                    .arg(onScreen.height())));
        }
        QVERIFY(docks >= 4); // Scene, Forces, Plots, Time
        // The 3D view keeps room to show the scene.
        const QWidget* view = window.sceneView();
        QVERIFY2(view->width() >= 360 && view->height() >= 300,
                 qPrintable(QStringLiteral("view %1x%2").arg(view->width()).arg(view->height())));
    }
    void viewNeverCoversADockAfterResizesAndTextSizeChanges()
    {
        // The 3D view is a native window in a container: after each resize or text-size
        // change its window must sit exactly on the container, which no panel overlaps.
        {
            QSettings settings;
            settings.clear();
        }
        MainWindow window(std::make_shared<GuiSceneStore>());
        QVERIFY(showBead(window));
        const QWidget* container = window.sceneView()->findChild<QWidget*>("vtkView");
        QVERIFY(container != nullptr);
        QWindow* gl = nullptr;
        for (QWindow* candidate : QGuiApplication::allWindows()) {
            if (qobject_cast<VtkOpenGLWindow*>(candidate) != nullptr)
                gl = candidate;
        }
        QVERIFY(gl != nullptr);

        const auto check = [&](const QString& step) {
            QTest::qWait(300);
            const QRect box(container->mapToGlobal(QPoint(0, 0)), container->size());
            const QRect glBox(gl->mapToGlobal(QPoint(0, 0)), gl->size());
            QVERIFY2(glBox == box,
                     qPrintable(QStringLiteral("%1: GL window %2,%3 %4x%5, container %6,%7 %8x%9")
                                    .arg(step)
                                    .arg(glBox.x())
                                    .arg(glBox.y())
                                    .arg(glBox.width())
                                    .arg(glBox.height())
                                    .arg(box.x())
                                    .arg(box.y())
                                    .arg(box.width())
                                    .arg(box.height())));
            for (QDockWidget* dock : window.findChildren<QDockWidget*>()) {
                if (!dock->isVisible())
                    continue;
                const QRect dockBox(dock->mapToGlobal(QPoint(0, 0)), dock->size());
                QVERIFY2(!dockBox.intersects(glBox),
                         qPrintable(QStringLiteral("%1: the view covers dock %2")
                                        .arg(step, dock->objectName())));
            }
        };
        window.setLargeText(true);
        check(QStringLiteral("large text"));
        window.resize(700, 560);
        check(QStringLiteral("small window, large text"));
        window.resize(1024, 740);
        check(QStringLiteral("full width, large text"));
        window.setLargeText(false);
        check(QStringLiteral("normal text"));
        window.showMaximized();
        check(QStringLiteral("maximized"));
    }
};

QTEST_MAIN(SmallScreenTest)
#include "tst_SmallScreen.moc"
