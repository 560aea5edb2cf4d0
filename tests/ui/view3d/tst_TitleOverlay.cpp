// TitleOverlay: how far the title reaches grows with its text and its size (the legend moves
// below the title when they would meet).
#include <view3d/TitleOverlay.h>

#include <QtTest>

using namespace clab;

class TestTitleOverlay : public QObject {
    Q_OBJECT
private slots:
    void titleReachGrowsWithTextAndSize();
};

void TestTitleOverlay::titleReachGrowsWithTextAndSize()
{
    TitleOverlay titles;
    // No title: only the margins on either side.
    QCOMPARE(titles.titleRight(20, 72.0), 2 * 0.8 * 20);
    titles.setTitle(QStringLiteral("Bead"));
    const double shortTitle = titles.titleRight(20, 72.0);
    QVERIFY(shortTitle > 2 * 0.8 * 20);
    titles.setTitle(QStringLiteral("Bead on a wire with friction"));
    const double longTitle = titles.titleRight(20, 72.0);
    QVERIFY(longTitle > 3.0 * (shortTitle - 2 * 0.8 * 20));
    QVERIFY(titles.titleRight(30, 72.0) > 1.3 * longTitle);
}

QTEST_MAIN(TestTitleOverlay)
#include "tst_TitleOverlay.moc"
