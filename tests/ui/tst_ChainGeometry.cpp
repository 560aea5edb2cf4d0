// ChainGeometry: however many links, the chain is a fixed handful of actors (the bobs are
// points of one actor, shaded as spheres, at their radius on screen), the drawn bobs follow the
// sample, the arrows and the trail sit on the chosen bob, and a chain without a pivot (the base of
// a chain lying on a table) draws no pivot.
#include "view3d/geometry/ChainGeometry.h"

#include <trace/TraceSample.h>

#include <QtTest>

#include <vtkCamera.h>
#include <vtkNew.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>

#include <cmath>

using namespace clab;

namespace {

/// The chain of the built-in scene with `links` links, pinned at `pinned` ends.
Chain chain(int links, int pinned)
{
    ParameterValues values = Chain::definition().defaults();
    values["links"] = {static_cast<double>(links)};
    values["pinned"] = {static_cast<double>(pinned)};
    return Chain(values);
}

/// N bobs of a chain with no pivot (coordinates x1, y1, …, xN, yN as for the chain): the
/// protected constructor a subclass for a chain lying on a table uses.
class FreeChainGeometry : public ChainGeometry {
public:
    FreeChainGeometry(int links, double length) : ChainGeometry(links, length, false) {}
};

/// The same with a scene size of its own (a table wider than the chain).
class WideFreeChainGeometry : public FreeChainGeometry {
public:
    using FreeChainGeometry::FreeChainGeometry;
    double sceneSize() const override { return 10.0; }
};

/// A sample whose bob i sits at (xᵢ, yᵢ) = (5 + 0.1 i, 1 + 0.05 i²) and carries the force
/// (i, −2i): no two bobs share a position or a force.
TraceSample spreadSample(int links)
{
    TraceSample sample;
    sample.q.resize(2 * links);
    sample.Q.resize(2 * links);
    for (int i = 1; i <= links; ++i) {
        sample.q[2 * i - 2] = 5.0 + 0.1 * i;
        sample.q[2 * i - 1] = 1.0 + 0.05 * i * i;
        sample.Q[2 * i - 2] = i;
        sample.Q[2 * i - 1] = -2.0 * i;
    }
    return sample;
}

/// Bounds of every prop `geometry` draws, as a renderer computes them.
Eigen::AlignedBox3d drawnBounds(const SceneGeometry& geometry)
{
    vtkNew<vtkRenderer> renderer;
    geometry.addTo(renderer);
    double b[6];
    renderer->ComputeVisiblePropBounds(b);
    return Eigen::AlignedBox3d(Eigen::Vector3d(b[0], b[2], b[4]),
                               Eigen::Vector3d(b[1], b[3], b[5]));
}

} // namespace

class TestChainGeometry : public QObject {
    Q_OBJECT

private slots:
    void aThousandLinksTakeNoMoreActorsThanTen()
    {
        const ChainGeometry few(chain(10, 1)), many(chain(1000, 1));
        QCOMPARE(many.actorCount(), few.actorCount());
        QCOMPARE(few.actorCount(), std::size_t(4)); // links, bobs, ring, pivot
        QCOMPARE(ChainGeometry(chain(1000, 2)).actorCount(), std::size_t(5));
        QCOMPARE(many.bobCount(), 1000);
    }

    void bobsFollowTheSampleAndTheFreeEndCarriesTheArrows()
    {
        ChainGeometry geometry(chain(4, 1));
        TraceSample sample;
        sample.q.resize(8);
        for (int i = 0; i < 8; ++i)
            sample.q[i] = 0.1 * (i + 1) * (i % 2 == 0 ? 1.0 : -1.0);
        geometry.update(sample);
        QCOMPARE(geometry.drawnBob(0), Eigen::Vector3d::Zero().eval()); // the pivot stays
        // VTK keeps the points in single precision.
        for (int i = 1; i <= 4; ++i)
            QVERIFY((geometry.drawnBob(i) -
                     Eigen::Vector3d(sample.q[2 * i - 2], sample.q[2 * i - 1], 0.0))
                        .norm() <= 1e-6);
        QCOMPARE(geometry.bodyPosition(sample.q), Eigen::Vector3d(sample.q[6], sample.q[7], 0.0));
        Eigen::VectorXd force = Eigen::VectorXd::Zero(8);
        force[6] = 3.0;
        force[7] = -4.0;
        QCOMPARE(geometry.forceVector(sample.q, force), Eigen::Vector3d(3.0, -4.0, 0.0));
    }

    void theArrowsAndTheTrailSitOnTheChosenBob()
    {
        ChainGeometry geometry(chain(6, 1));
        const TraceSample sample = spreadSample(6);
        QCOMPARE(geometry.bodyCount(), 6);
        QCOMPARE(geometry.chosenBody(), 6); // the free end unless chosen
        geometry.update(sample);
        for (int bob = 1; bob <= 6; ++bob) {
            geometry.chooseBody(bob);
            QCOMPARE(geometry.chosenBody(), bob);
            QCOMPARE(geometry.circledBob(), geometry.drawnBob(bob));
            const Eigen::Vector3d at(sample.q[2 * bob - 2], sample.q[2 * bob - 1], 0.0);
            const Eigen::Vector3d force(sample.Q[2 * bob - 2], sample.Q[2 * bob - 1], 0.0);
            QCOMPARE(geometry.bodyPosition(sample.q), at);
            QCOMPARE(geometry.trailPoint(sample.q), at);
            QCOMPARE(geometry.forceVector(sample.q, sample.Q), force);
            QCOMPARE(geometry.arrowVector(sample, ForceKind::Given), force);
            // Any bob's, whichever is chosen.
            QCOMPARE(geometry.bodyPositionOf(7 - bob, sample.q),
                     Eigen::Vector3d(sample.q[12 - 2 * bob], sample.q[13 - 2 * bob], 0.0));
        }
    }

    void aBobOutOfRangeIsClampedToTheChain()
    {
        ChainGeometry geometry(chain(6, 1));
        geometry.chooseBody(0);
        QCOMPARE(geometry.chosenBody(), 1);
        geometry.chooseBody(-4);
        QCOMPARE(geometry.chosenBody(), 1);
        geometry.chooseBody(1000);
        QCOMPARE(geometry.chosenBody(), 6);
        // A coordinate vector too short for a bob gives no position, not a read past its end.
        const TraceSample sample = spreadSample(3);
        QCOMPARE(geometry.bodyPosition(sample.q), Eigen::Vector3d::Zero().eval());
        QCOMPARE(geometry.forceVectorOf(4, sample.q, sample.Q), Eigen::Vector3d::Zero().eval());
    }

    void aChainWithoutAPivotStartsAtItsFirstBob()
    {
        // Far from the origin: a polyline through a pivot at the origin, or a pivot block, would
        // reach it.
        FreeChainGeometry free(5, 1.0);
        const TraceSample sample = spreadSample(5);
        free.update(sample);
        QCOMPARE(free.actorCount(), std::size_t(3)); // links, bobs, ring
        QCOMPARE(free.chosenBody(), 5);
        for (int i = 1; i <= 5; ++i)
            QVERIFY(
                (free.drawnBob(i) - Eigen::Vector3d(sample.q[2 * i - 2], sample.q[2 * i - 1], 0.0))
                    .norm() <= 1e-6);
        const Eigen::AlignedBox3d drawn = drawnBounds(free);
        const double radius = free.bodyRadius();
        QVERIFY2(drawn.min().x() > 5.1 - radius - 1e-6 && drawn.min().y() > 1.05 - radius - 1e-6,
                 "something is drawn outside the bobs (a pivot, or a link to one)");
        QVERIFY(drawn.max().x() < 5.5 + radius + 1e-6);

        // The circle is the body's size (arrows start on it), a subclass's sceneSize included.
        QCOMPARE(free.circleRadius(), free.bodyRadius());
        WideFreeChainGeometry wide(5, 1.0);
        wide.update(sample);
        QCOMPARE(wide.circleRadius(), 0.03 * 10.0);

        // The anchored chain, same sample: its link to the pivot reaches the origin.
        ChainGeometry anchored(chain(5, 1));
        anchored.update(sample);
        QVERIFY(drawnBounds(anchored).contains(Eigen::Vector3d::Zero()));
    }

    /// The bobs are sprites sized in pixels: whatever the zoom and the projection, a bob's
    /// diameter on screen is what VTK's own world-to-display transform makes of 2r at the
    /// chain's centre, across the camera's up direction.
    void bobsAreDrawnAtTheirRadiusWhateverTheZoom()
    {
        ChainGeometry geometry(chain(50, 1)); // straight along x, as before the first sample
        vtkNew<vtkRenderWindow> window;
        window->SetOffScreenRendering(1);
        window->SetSize(800, 500);
        vtkNew<vtkRenderer> renderer;
        window->AddRenderer(renderer);
        geometry.addTo(renderer);
        renderer->ResetCamera();
        vtkCamera* camera = renderer->GetActiveCamera();

        const auto displayDiameter = [&] {
            double bounds[6];
            renderer->ComputeVisiblePropBounds(bounds);
            const Eigen::Vector3d centre(0.5 * (bounds[0] + bounds[1]),
                                         0.5 * (bounds[2] + bounds[3]),
                                         0.5 * (bounds[4] + bounds[5]));
            camera->OrthogonalizeViewUp();
            double up[3];
            camera->GetViewUp(up);
            const Eigen::Vector3d top =
                centre + 2.0 * geometry.bobRadius() * Eigen::Vector3d(up[0], up[1], up[2]);
            const auto display = [&](const Eigen::Vector3d& p) {
                renderer->SetWorldPoint(p.x(), p.y(), p.z(), 1.0);
                renderer->WorldToDisplay();
                double d[3];
                renderer->GetDisplayPoint(d);
                return Eigen::Vector2d(d[0], d[1]);
            };
            return (display(top) - display(centre)).norm();
        };
        const auto check = [&](const char* what) {
            geometry.beforeRender(renderer);
            const double expected = displayDiameter();
            QVERIFY2(std::abs(geometry.bobPixels() - expected) <= 0.02 * expected,
                     qPrintable(QStringLiteral("%1: %2 px drawn, %3 px expected")
                                    .arg(what)
                                    .arg(geometry.bobPixels())
                                    .arg(expected)));
        };
        check("perspective, framed");
        const double framed = geometry.bobPixels();
        camera->Zoom(4.0);
        check("perspective, zoomed in 4x");
        QVERIFY(geometry.bobPixels() > 3.5 * framed); // Zoom narrows the view angle 4x
        camera->UseHorizontalViewAngleOn();
        check("horizontal view angle");
        camera->UseHorizontalViewAngleOff();
        camera->ParallelProjectionOn();
        camera->SetParallelScale(0.5);
        check("parallel projection");
        window->SetSize(1600, 1000);
        check("parallel projection, window twice as large");

        // Zoomed far out, a bob keeps two pixels rather than vanishing.
        camera->SetParallelScale(1e6);
        geometry.beforeRender(renderer);
        QCOMPARE(geometry.bobPixels(), 2.0);
    }

    void theSceneHasAGeometry()
    {
        const auto geometry = SceneGeometry::create(chain(20, 1));
        QVERIFY(dynamic_cast<ChainGeometry*>(geometry.get()) != nullptr);
    }
};

QTEST_MAIN(TestChainGeometry)
#include "tst_ChainGeometry.moc"
