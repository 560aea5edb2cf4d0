#include <render/VtkOpenGLWindow.h>
#include <render/VtkSurfaceFormat.h>

#include <QSignalSpy>
#include <QTest>
#include <QVBoxLayout>
#include <QWidget>

#include <cmath>

#include <vtkCamera.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkNew.h>
#include <vtkRenderer.h>

using namespace clab;

namespace {

/// A window container with a VtkOpenGLWindow whose renderer clears to one colour.
struct Host {
    QWidget widget;
    VtkOpenGLWindow* window = new VtkOpenGLWindow;
    vtkNew<vtkRenderer> renderer;

    explicit Host(const QSize& size)
    {
        auto* layout = new QVBoxLayout(&widget);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->addWidget(QWidget::createWindowContainer(window, &widget));
        renderer->SetBackground(0.2, 0.4, 0.8);
        window->renderWindow()->AddRenderer(renderer);
        widget.resize(size);
    }
};

QRgb centre(const QImage& image)
{
    return image.pixel(image.width() / 2, image.height() / 2);
}

} // namespace

class TestVtkOpenGLWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { VtkSurfaceFormat::makeDefault(); }

    void showsWhatVtkRendersAtTheWindowsPixelSize()
    {
        Host host(QSize(320, 200));
        QSignalSpy frames(host.window, &VtkOpenGLWindow::frameRendered);
        host.widget.show();
        QVERIFY(QTest::qWaitForWindowExposed(host.window));
        QTRY_VERIFY_WITH_TIMEOUT(frames.count() > 0, 10000);
        const QImage image = host.window->grabFramebuffer();
        QCOMPARE(image.size(), host.window->size() * host.window->devicePixelRatio());
        QCOMPARE(qRed(centre(image)), 51);
        QCOMPARE(qGreen(centre(image)), 102);
        QCOMPARE(qBlue(centre(image)), 204);
    }

    void changesInOneTurnOfTheEventLoopGiveOneFrame()
    {
        Host host(QSize(200, 150));
        QSignalSpy frames(host.window, &VtkOpenGLWindow::frameRendered);
        host.widget.show();
        QVERIFY(QTest::qWaitForWindowExposed(host.window));
        QTRY_VERIFY_WITH_TIMEOUT(frames.count() > 0, 10000);
        QTest::qWait(100);
        frames.clear();
        for (int i = 0; i < 10; ++i) {
            host.window->scheduleFrame();
        }
        QCOMPARE(frames.count(), 0); // nothing drawn inside the caller's turn
        QTRY_COMPARE_WITH_TIMEOUT(frames.count(), 1, 5000);
        QTest::qWait(100);
        QCOMPARE(frames.count(), 1);
    }

    void hiddenWindowDrawsNothingAndDrawsAgainWhenShown()
    {
        Host host(QSize(200, 150));
        QSignalSpy frames(host.window, &VtkOpenGLWindow::frameRendered);
        host.widget.show();
        QVERIFY(QTest::qWaitForWindowExposed(host.window));
        QTRY_VERIFY_WITH_TIMEOUT(frames.count() > 0, 10000);
        host.widget.hide();
        QTRY_VERIFY_WITH_TIMEOUT(!host.window->isExposed(), 5000);
        frames.clear();
        host.window->scheduleFrame();
        QTest::qWait(100);
        QCOMPARE(frames.count(), 0);
        QVERIFY(host.window->grabFramebuffer().isNull());
        host.widget.show();
        QVERIFY(QTest::qWaitForWindowExposed(host.window));
        QTRY_VERIFY_WITH_TIMEOUT(frames.count() > 0, 10000);
    }

    void resizingRendersAtTheNewSize()
    {
        Host host(QSize(200, 150));
        QSignalSpy resized(host.window, &VtkOpenGLWindow::resized);
        host.widget.show();
        QVERIFY(QTest::qWaitForWindowExposed(host.window));
        resized.clear();
        host.widget.resize(420, 260);
        QTRY_VERIFY_WITH_TIMEOUT(resized.count() > 0, 5000);
        QTRY_COMPARE_WITH_TIMEOUT(host.window->size(), QSize(420, 260), 5000);
        const QImage image = host.window->grabFramebuffer();
        QCOMPARE(image.size(), QSize(420, 260) * host.window->devicePixelRatio());
        QCOMPARE(qBlue(image.pixel(image.width() - 2, image.height() - 2)), 204);
    }

    void surfaceDestroyedAndCreatedAgainKeepsRendering()
    {
        // Reparenting a window container (docking, full screen) destroys the native surface;
        // VTK's GL objects go with the context and are made again for the new one.
        Host host(QSize(200, 150));
        QSignalSpy frames(host.window, &VtkOpenGLWindow::frameRendered);
        host.widget.show();
        QVERIFY(QTest::qWaitForWindowExposed(host.window));
        QTRY_VERIFY_WITH_TIMEOUT(frames.count() > 0, 10000);
        QWidget other;
        other.resize(300, 200);
        auto* layout = new QVBoxLayout(&other);
        QWidget* container = host.widget.findChild<QWidget*>();
        QVERIFY(container != nullptr);
        layout->addWidget(container);
        other.show();
        QVERIFY(QTest::qWaitForWindowExposed(&other));
        QTRY_VERIFY_WITH_TIMEOUT(host.window->isExposed(), 5000);
        frames.clear();
        const QImage image = host.window->grabFramebuffer();
        QVERIFY(!image.isNull());
        QCOMPARE(qBlue(centre(image)), 204);
        QCOMPARE(frames.count(), 1);

        // The native surface itself destroyed and made again.
        host.window->destroy();
        QVERIFY(host.window->grabFramebuffer().isNull());
        host.window->show();
        QVERIFY(QTest::qWaitForWindowExposed(host.window));
        const QImage again = host.window->grabFramebuffer();
        QVERIFY(!again.isNull());
        QCOMPARE(qBlue(centre(again)), 204);
    }

    void mouseDragTurnsTheCamera()
    {
        Host host(QSize(240, 180));
        host.widget.show();
        QVERIFY(QTest::qWaitForWindowExposed(host.window));
        vtkCamera* camera = host.renderer->GetActiveCamera();
        double before[3];
        camera->GetPosition(before);
        QSignalSpy interacted(host.window, &VtkOpenGLWindow::interacted);
        QTest::mousePress(host.window, Qt::LeftButton, Qt::NoModifier, QPoint(120, 90));
        QCOMPARE(interacted.count(), 1);
        for (int i = 1; i <= 5; ++i) {
            QTest::mouseMove(host.window, QPoint(120 + 10 * i, 90));
        }
        QTest::mouseRelease(host.window, Qt::LeftButton, Qt::NoModifier, QPoint(170, 90));
        double after[3];
        camera->GetPosition(after);
        const double moved =
            std::hypot(after[0] - before[0], after[1] - before[1], after[2] - before[2]);
        QVERIFY2(moved > 1e-3, qPrintable(QString::number(moved)));
    }
};

QTEST_MAIN(TestVtkOpenGLWindow)
#include "tst_VtkOpenGLWindow.moc"
