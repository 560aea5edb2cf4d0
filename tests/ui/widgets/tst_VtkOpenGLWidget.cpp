// The QOpenGLWidget bridge: what VTK renders reaches the widget's framebuffer object, opaque.
// Qt composes that framebuffer with its alpha, so a translucent pixel would show what lies
// behind the widget; grabFramebuffer() keeps the alpha channel, so these tests can see it.
#include <render/VtkSurfaceFormat.h>
#include <widgets/VtkOpenGLWidget.h>

#include <QSignalSpy>
#include <QTest>

#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkNew.h>
#include <vtkRenderer.h>

using namespace clab;

namespace {

/// Pixels of `image` whose alpha is below 255.
int translucentPixels(const QImage& image)
{
    const QImage argb = image.convertToFormat(QImage::Format_ARGB32);
    int count = 0;
    for (int y = 0; y < argb.height(); ++y) {
        for (int x = 0; x < argb.width(); ++x) {
            count += qAlpha(argb.pixel(x, y)) != 255 ? 1 : 0;
        }
    }
    return count;
}

/// The first frame a shown VtkOpenGLWidget of `size` renders of `renderer`, with its alpha;
/// null when none came within 10 s.
QImage firstFrame(vtkRenderer* renderer, const QSize& size)
{
    VtkOpenGLWidget widget;
    widget.renderWindow()->AddRenderer(renderer);
    QSignalSpy frames(&widget, &VtkOpenGLWidget::frameRendered);
    widget.resize(size);
    widget.show();
    if (!QTest::qWaitForWindowExposed(&widget))
        return {};
    if (frames.isEmpty() && !frames.wait(10000))
        return {};
    return widget.grabFramebuffer();
}

} // namespace

class TestVtkOpenGLWidget : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { VtkSurfaceFormat::makeDefault(); }

    /// VTK clears to alpha 0 unless told otherwise; the bridge makes every pixel opaque.
    void framesAreOpaqueWhateverTheBackgroundAlpha()
    {
        vtkNew<vtkRenderer> renderer;
        renderer->SetBackground(0.2, 0.4, 0.8);
        renderer->SetBackgroundAlpha(0.0);
        const QImage image = firstFrame(renderer, QSize(240, 160));
        QVERIFY(!image.isNull());
        QVERIFY(image.hasAlphaChannel());
        QCOMPARE(translucentPixels(image), 0);
        const QRgb centre = image.pixel(image.width() / 2, image.height() / 2);
        QCOMPARE(qRed(centre), 51);
        QCOMPARE(qGreen(centre), 102);
        QCOMPARE(qBlue(centre), 204);
    }

    /// A gradient background, as the 3D view and the plots draw, is opaque too.
    void gradientBackgroundsAreOpaque()
    {
        vtkNew<vtkRenderer> renderer;
        renderer->GradientBackgroundOn();
        renderer->SetBackground(0.8, 0.85, 0.9);
        renderer->SetBackground2(1.0, 1.0, 1.0);
        const QImage image = firstFrame(renderer, QSize(200, 200));
        QVERIFY(!image.isNull());
        QVERIFY(image.hasAlphaChannel());
        QCOMPARE(translucentPixels(image), 0);
        // Top lighter than bottom: the gradient is there.
        QVERIFY(qRed(image.pixel(100, 2)) > qRed(image.pixel(100, 197)));
    }
};

QTEST_MAIN(TestVtkOpenGLWidget)
#include "tst_VtkOpenGLWidget.moc"
