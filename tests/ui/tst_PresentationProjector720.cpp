// Presentation mode on a 1280×720 projector (tests/CMakeLists.txt gives this program that
// screen): every text at least 18 px high, the 3D view most of the screen.
#include "../support/MainWindowFixture.h"
#include "../support/PresentationChecks.h"

#include <QTemporaryDir>

using namespace clab;

namespace {
const bool surfaceFormatSet = testing::setSurfaceFormat();
}

class PresentationProjector720Test : public QObject {
    Q_OBJECT

private:
    QTemporaryDir settingsDir_;

private slots:
    void initTestCase()
    {
        QVERIFY(surfaceFormatSet);
        QVERIFY(testing::isolateSettings(settingsDir_));
        QCOMPARE(QGuiApplication::primaryScreen()->size(), QSize(1280, 720));
    }

    void everyTextIsLegibleAndTheViewTakesMostOfTheScreen()
    {
        MainWindow window(std::make_shared<GuiSceneStore>());
        QVERIFY(testing::presentRing(window));
        testing::checkLegible(window);
    }
};

QTEST_MAIN(PresentationProjector720Test)
#include "tst_PresentationProjector720.moc"
