// ChainGeometry: however many links, the chain is a fixed handful of actors (the bobs are
// glyphs of one mapper), and the drawn bobs follow the sample.
#include "view3d/geometry/ChainGeometry.h"

#include <TraceSample.h>

#include <QtTest>

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

} // namespace

class TestChainGeometry : public QObject {
    Q_OBJECT

private slots:
    void aThousandLinksTakeNoMoreActorsThanTen()
    {
        const ChainGeometry few(chain(10, 1)), many(chain(1000, 1));
        QCOMPARE(many.actorCount(), few.actorCount());
        QCOMPARE(few.actorCount(), std::size_t(3)); // links, bob glyphs, pivot
        QCOMPARE(ChainGeometry(chain(1000, 2)).actorCount(), std::size_t(4));
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

    void theSceneHasAGeometry()
    {
        const auto geometry = SceneGeometry::create(chain(20, 1));
        QVERIFY(dynamic_cast<ChainGeometry*>(geometry.get()) != nullptr);
    }
};

QTEST_MAIN(TestChainGeometry)
#include "tst_ChainGeometry.moc"
