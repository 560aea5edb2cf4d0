// CameraRig: a framed box is in the view, inside the region it was framed in; the clipping
// range holds the overlay's props too.
#include <view3d/CameraRig.h>

#include <render/OffscreenRenderWindow.h>

#include <QtTest>

#include <vtkActor.h>
#include <vtkCamera.h>
#include <vtkNew.h>
#include <vtkPolyDataMapper.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkSphereSource.h>

using namespace clab;

class TestCameraRig : public QObject {
    Q_OBJECT
private slots:
    void framedBoxFillsItsRegion_data();
    void framedBoxFillsItsRegion();
    void clippingRangeHoldsTheOverlay();
};

void TestCameraRig::framedBoxFillsItsRegion_data()
{
    QTest::addColumn<double>("width");
    QTest::addColumn<double>("height");
    QTest::newRow("whole view") << 1.0 << 1.0;
    QTest::newRow("left half") << 0.5 << 1.0;
    QTest::newRow("lower part") << 1.0 << 0.6;
}

void TestCameraRig::framedBoxFillsItsRegion()
{
    QFETCH(double, width);
    QFETCH(double, height);
    OffscreenRenderWindow window;
    vtkNew<vtkRenderer> scene;
    window.window()->AddRenderer(scene);
    CameraRig rig(scene);
    QVERIFY2(!window.render(QSize(400, 300)).isNull(), qPrintable(window.errorString()));
    const Eigen::AlignedBox3d box(Eigen::Vector3d(-2.0, -1.0, -0.5),
                                  Eigen::Vector3d(2.0, 1.0, 0.5));
    const Eigen::Vector3d direction = Eigen::Vector3d(0.2, 0.3, 1.0).normalized();
    rig.frame(box, direction, Eigen::Vector3d::UnitY(), 400.0 / 300.0, {{width, height}});
    Eigen::AlignedBox2d onScreen;
    for (int i = 0; i < 8; ++i)
        onScreen.extend(rig.toDisplay(box.corner(static_cast<Eigen::AlignedBox3d::CornerType>(i))));
    const Eigen::AlignedBox2d region(Eigen::Vector2d::Zero(),
                                     Eigen::Vector2d(400.0 * width, 300.0 * height));
    QVERIFY2(region.contains(onScreen), qPrintable(QStringLiteral("%1 %2 %3 %4")
                                                       .arg(onScreen.min().x())
                                                       .arg(onScreen.min().y())
                                                       .arg(onScreen.max().x())
                                                       .arg(onScreen.max().y())));
    // Filled: the box touches the region's breathing room on one side or the other.
    const Eigen::Vector2d filled = onScreen.sizes().cwiseQuotient(region.sizes());
    QVERIFY(filled.maxCoeff() > 0.8);
    // Upright.
    QVERIFY(rig.viewUp().dot(Eigen::Vector3d::UnitY()) > 0.9);
}

void TestCameraRig::clippingRangeHoldsTheOverlay()
{
    OffscreenRenderWindow window;
    vtkNew<vtkRenderer> scene;
    vtkNew<vtkRenderer> overlay;
    overlay->SetActiveCamera(scene->GetActiveCamera());
    CameraRig rig(scene);
    rig.frame(Eigen::AlignedBox3d(Eigen::Vector3d::Constant(-1.0), Eigen::Vector3d::Constant(1.0)),
              Eigen::Vector3d::UnitZ(), Eigen::Vector3d::UnitY(), 1.0, {{1.0, 1.0}});
    // A prop of the overlay far behind the scene.
    vtkNew<vtkSphereSource> sphere;
    sphere->SetCenter(0.0, 0.0, -40.0);
    vtkNew<vtkPolyDataMapper> mapper;
    mapper->SetInputConnection(sphere->GetOutputPort());
    vtkNew<vtkActor> actor;
    actor->SetMapper(mapper);
    overlay->AddActor(actor);
    double position[3];
    scene->GetActiveCamera()->GetPosition(position);
    rig.fitClippingRange(overlay);
    double range[2];
    scene->GetActiveCamera()->GetClippingRange(range);
    QVERIFY(range[1] > position[2] + 40.0);
}

QTEST_MAIN(TestCameraRig)
#include "tst_CameraRig.moc"
