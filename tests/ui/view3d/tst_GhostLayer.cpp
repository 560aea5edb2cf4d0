// GhostLayer: compared runs listed in the legend in order, carried by the frame, gone with
// clear(); each caption beside its ghost, up-right when that is free, elsewhere (with a leader
// line) when it is not, never over what the view keeps clear.
#include <plots/RunColors.h>
#include <view3d/GhostLayer.h>
#include <view3d/TextPlacer.h>

#include <render/OffscreenRenderWindow.h>

#include "../../support/PointGeometry.h"

#include <QtTest>

#include <vtkActor2D.h>
#include <vtkCamera.h>
#include <vtkCoordinate.h>
#include <vtkNew.h>
#include <vtkPropCollection.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>

using namespace clab;
using namespace clab::testing;

namespace {

/// A run of the point from (0, 0, 0) to (1, 0, 0).
std::shared_ptr<const Trace> straightRun()
{
    std::vector<TraceSample> samples;
    for (int i = 0; i <= 10; ++i)
        samples.push_back(
            pointSample(0.1 * i, Eigen::Vector3d(0.1 * i, 0.0, 0.0), Eigen::Vector3d::Zero()));
    return std::make_shared<const Trace>(pointRun(samples));
}

/// The props of `renderer` of type T.
template <typename T> std::vector<T*> propsOf(vtkRenderer* renderer)
{
    std::vector<T*> found;
    vtkPropCollection* props = renderer->GetViewProps();
    props->InitTraversal();
    while (vtkProp* prop = props->GetNextProp())
        if (T* typed = T::SafeDownCast(prop))
            found.push_back(typed);
    return found;
}

/// The box a caption takes in `renderer`, in display pixels: its size from VTK, from where its
/// position (its lower-left corner: left and bottom justified) is on screen.
Eigen::AlignedBox2d boxOf(vtkTextActor* text, vtkRenderer* renderer)
{
    double box[4];
    text->GetBoundingBox(renderer, box);
    const double* at = text->GetPositionCoordinate()->GetComputedDoubleDisplayValue(renderer);
    const Eigen::Vector2d corner(at[0], at[1]);
    return {corner, corner + Eigen::Vector2d(box[1] - box[0], box[3] - box[2])};
}

Eigen::Vector2d toDisplay(vtkRenderer* renderer, const Eigen::Vector3d& point)
{
    vtkNew<vtkCoordinate> coordinate;
    coordinate->SetCoordinateSystemToWorld();
    coordinate->SetValue(point.x(), point.y(), point.z());
    const double* d = coordinate->GetComputedDoubleDisplayValue(renderer);
    return {d[0], d[1]};
}

} // namespace

class TestGhostLayer : public QObject {
    Q_OBJECT
private slots:
    void runsAreListedFramedAndCleared();
    void captionGoesUpRightWhenFree();
    void captionKeepsClearOfTakenBoxes();
    void eachRunTakesItsCompareColour();

private:
    struct View {
        OffscreenRenderWindow window;
        vtkNew<vtkRenderer> scene;
        vtkNew<vtkRenderer> overlay;
        GhostLayer ghosts{scene, overlay};
        PointGeometry geometry;
        View();
    };
};

TestGhostLayer::View::View()
{
    window.window()->SetNumberOfLayers(2);
    window.window()->AddRenderer(scene);
    overlay->SetLayer(1);
    overlay->SetActiveCamera(scene->GetActiveCamera());
    window.window()->AddRenderer(overlay);
    vtkCamera* camera = scene->GetActiveCamera();
    camera->SetFocalPoint(0.0, 0.0, 0.0);
    camera->SetPosition(0.0, 0.0, 5.0);
    camera->SetViewUp(0.0, 1.0, 0.0);
    ghosts.add(straightRun(), QStringLiteral("\u03BC = 0.1"));
    ghosts.rebuild(&geometry);
    ghosts.show(geometry, 0.0);
}

void TestGhostLayer::runsAreListedFramedAndCleared()
{
    vtkNew<vtkRenderer> scene;
    vtkNew<vtkRenderer> overlay;
    GhostLayer ghosts(scene, overlay);
    const PointGeometry geometry;
    ghosts.add(straightRun(), QStringLiteral("first"));
    ghosts.add(straightRun(), QStringLiteral("second"));
    QCOMPARE(ghosts.count(), 2);
    ghosts.rebuild(&geometry);
    std::vector<SceneGeometry::LegendEntry> entries;
    ghosts.addLegendEntries(entries);
    QCOMPARE(entries.size(), std::size_t(2));
    QCOMPARE(entries[0].label, QStringLiteral("first"));
    QCOMPARE(entries[1].label, QStringLiteral("second"));
    // Two colours, so that the runs can be told apart.
    QVERIFY(entries[0].color != entries[1].color);
    Eigen::AlignedBox3d box;
    ghosts.extendBox(box);
    QVERIFY(box.contains(Eigen::Vector3d(1.0, 0.0, 0.0)));
    QVERIFY(box.contains(Eigen::Vector3d::Zero()));
    std::vector<TraceSample> samples;
    ghosts.appendSamples(samples);
    QCOMPARE(samples.size(), std::size_t(22));
    QVERIFY(!propsOf<vtkProp>(scene).empty());
    ghosts.clear();
    QVERIFY(ghosts.empty());
    QVERIFY(propsOf<vtkProp>(scene).empty());
    QVERIFY(propsOf<vtkProp>(overlay).empty());
}

void TestGhostLayer::captionGoesUpRightWhenFree()
{
    View view;
    QVERIFY2(!view.window.render(QSize(400, 300)).isNull(), qPrintable(view.window.errorString()));
    TextPlacer placer(400, 300);
    view.ghosts.layoutCaptions(12, placer, 5.0);
    const std::vector<vtkTextActor*> captions = propsOf<vtkTextActor>(view.overlay);
    QCOMPARE(captions.size(), std::size_t(1));
    const Eigen::Vector2d anchor = toDisplay(view.scene, Eigen::Vector3d::Zero());
    const Eigen::AlignedBox2d box = boxOf(captions.front(), view.scene);
    QVERIFY2(box.min().x() > anchor.x() && box.min().y() > anchor.y(),
             qPrintable(QStringLiteral("%1 %2 %3 %4 / %5 %6")
                            .arg(box.min().x())
                            .arg(box.min().y())
                            .arg(box.max().x())
                            .arg(box.max().y())
                            .arg(anchor.x())
                            .arg(anchor.y())));
    // Within the first ring: no leader line.
    for (vtkActor2D* actor : propsOf<vtkActor2D>(view.overlay))
        if (vtkTextActor::SafeDownCast(actor) == nullptr)
            QCOMPARE(actor->GetVisibility(), 0);
}

void TestGhostLayer::captionKeepsClearOfTakenBoxes()
{
    View view;
    QVERIFY2(!view.window.render(QSize(400, 300)).isNull(), qPrintable(view.window.errorString()));
    const Eigen::Vector2d anchor = toDisplay(view.scene, Eigen::Vector3d::Zero());
    // Everything up-right and up-left of the ghost is taken, and the lower right.
    const std::vector<Eigen::AlignedBox2d> taken = {
        Eigen::AlignedBox2d(Eigen::Vector2d(0.0, anchor.y() - 1.0), Eigen::Vector2d(400.0, 300.0)),
        Eigen::AlignedBox2d(Eigen::Vector2d(anchor.x() - 1.0, 0.0),
                            Eigen::Vector2d(400.0, anchor.y()))};
    TextPlacer placer(400, 300);
    for (const Eigen::AlignedBox2d& box : taken)
        placer.addObstacle(box);
    view.ghosts.layoutCaptions(12, placer, 5.0);
    vtkTextActor* caption = propsOf<vtkTextActor>(view.overlay).front();
    const Eigen::AlignedBox2d box = boxOf(caption, view.scene);
    for (const Eigen::AlignedBox2d& other : taken)
        QVERIFY(!other.intersects(box));
    QVERIFY(box.max().x() <= anchor.x() && box.max().y() <= anchor.y());
}

void TestGhostLayer::eachRunTakesItsCompareColour()
{
    // The plots draw compare run i in runColor(i): its trail and caption here have that hue.
    vtkNew<vtkRenderer> scene;
    vtkNew<vtkRenderer> overlay;
    GhostLayer ghosts(scene, overlay);
    for (int i = 0; i < 3; ++i)
        ghosts.add(straightRun(), QStringLiteral("run %1").arg(i));
    std::vector<SceneGeometry::LegendEntry> entries;
    ghosts.addLegendEntries(entries);
    const std::vector<vtkTextActor*> captions = propsOf<vtkTextActor>(overlay);
    QCOMPARE(captions.size(), std::size_t(3));
    for (std::size_t i = 0; i < 3; ++i) {
        const QColor expected = runColor(i);
        double rgb[3];
        captions[i]->GetTextProperty()->GetColor(rgb);
        const QColor caption = QColor::fromRgbF(rgb[0], rgb[1], rgb[2]);
        const auto sameHue = [&](const QColor& c) {
            // The grey run has no hue: it stays a grey.
            return expected.hsvHue() < 0 ? c.hsvSaturation() < 40
                                         : std::abs(c.hsvHue() - expected.hsvHue()) <= 8;
        };
        QVERIFY2(sameHue(caption) && sameHue(entries[i].color),
                 qPrintable(QStringLiteral("run %1: caption %2, trail %3, palette %4")
                                .arg(i)
                                .arg(caption.name(), entries[i].color.name(), expected.name())));
    }
}

QTEST_MAIN(TestGhostLayer)
#include "tst_GhostLayer.moc"
