// The placement of the 3D view's texts: near the anchor, clear of the texts placed before and
// inside the view, clear of obstacles while there is room, and nowhere when there is none.
#include <view3d/TextPlacer.h>

#include <QtTest>

using namespace clab;
using Box = TextPlacer::Box;

namespace {

Box boxAt(const Eigen::Vector2d& corner, const Eigen::Vector2d& size)
{
    return Box(corner, corner + size);
}

bool overlap(const Box& a, const Box& b)
{
    return a.min().x() < b.max().x() && b.min().x() < a.max().x() && a.min().y() < b.max().y() &&
           b.min().y() < a.max().y();
}

} // namespace

class TestTextPlacer : public QObject {
    Q_OBJECT

private slots:
    void preferredPlaceWhenItIsClear()
    {
        TextPlacer placer(400, 300);
        const auto place = placer.place({200, 150}, {60, 20}, Eigen::Vector2d(210, 160), 6.0);
        QVERIFY(place);
        QCOMPARE(place->corner, Eigen::Vector2d(210, 160));
        QVERIFY(place->beside);
        QCOMPARE(placer.texts().size(), std::size_t(1));
    }

    void manyTextsAtOneAnchorNeverOverlapAndStayInTheView()
    {
        // Forty labels of one point: each goes elsewhere, none on another, none outside.
        TextPlacer placer(400, 300);
        placer.addFixedText(Box(Eigen::Vector2d(300, 200), Eigen::Vector2d(400, 300)));
        for (int i = 0; i < 40; ++i) {
            const auto place = placer.place({390, 290}, {50, 14}, Eigen::Vector2d(380, 280), 6.0);
            QVERIFY2(place, qPrintable(QString::number(i)));
        }
        const std::vector<Box>& texts = placer.texts();
        QCOMPARE(texts.size(), std::size_t(41));
        for (std::size_t i = 0; i < texts.size(); ++i) {
            if (i > 0) {
                QVERIFY(texts[i].min().x() >= 0.0 && texts[i].min().y() >= 0.0);
                QVERIFY(texts[i].max().x() <= 400.0 && texts[i].max().y() <= 300.0);
            }
            for (std::size_t j = i + 1; j < texts.size(); ++j)
                QVERIFY2(!overlap(texts[i], texts[j]),
                         qPrintable(QStringLiteral("%1 and %2").arg(i).arg(j)));
        }
    }

    void obstaclesAreAvoidedWhileThereIsRoom()
    {
        TextPlacer placer(400, 300);
        // An arrow from the anchor up and to the right, through the preferred place.
        placer.addObstacle(Eigen::Vector2d(200, 150), Eigen::Vector2d(300, 250), 4.0);
        const Eigen::Vector2d size(60, 20);
        const auto place = placer.place({200, 150}, size, Eigen::Vector2d(230, 170), 6.0);
        QVERIFY(place);
        QVERIFY(place->corner != Eigen::Vector2d(230, 170));
        // Near the anchor still: in the first rings.
        QVERIFY((boxAt(place->corner, size).center() - Eigen::Vector2d(200, 150)).norm() < 80.0);
    }

    void obstaclesGiveWayToTheNoOverlapRule()
    {
        // The whole view is an obstacle: the text still goes where no text is.
        TextPlacer placer(200, 100);
        placer.addObstacle(Box(Eigen::Vector2d(0, 0), Eigen::Vector2d(200, 100)));
        placer.addFixedText(Box(Eigen::Vector2d(0, 0), Eigen::Vector2d(200, 50)));
        const auto place = placer.place({100, 25}, {40, 12}, std::nullopt, 6.0);
        QVERIFY(place);
        QVERIFY(!place->beside);
        QVERIFY(place->corner.y() >= 50.0);
    }

    void noRoomNoPlace()
    {
        TextPlacer placer(200, 100);
        placer.addFixedText(Box(Eigen::Vector2d(0, 0), Eigen::Vector2d(200, 100)));
        QVERIFY(!placer.place({100, 50}, {40, 12}, std::nullopt, 6.0));
        // A text larger than the view has no place either.
        TextPlacer small(30, 10);
        QVERIFY(!small.place({15, 5}, {40, 12}, std::nullopt, 6.0));
        QVERIFY(small.texts().empty());
    }
};

QTEST_MAIN(TestTextPlacer)
#include "tst_TextPlacer.moc"
