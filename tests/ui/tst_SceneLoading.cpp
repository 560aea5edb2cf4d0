// Opening a file in the background (issue 34): the window answers while a scene file is read
// and derived, the status bar shows how far it has come with a Cancel button, Cancel keeps the
// scene that was open and stops the derivation, a file that fails is reported, and edits made
// while it loaded are not dropped without asking.
#include "../support/MainWindowFixture.h"

#include <SceneFile.h>
#include <scenes/SceneRegistry.h>
#include <session/SceneLoader.h>
#include <session/SceneSession.h>
#include <symbolic/DerivationProgress.h>
#include <widgets/LoadingIndicator.h>
#include <widgets/MessageBanner.h>

#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QStatusBar>
#include <QtTest>

#include <atomic>
#include <chrono>
#include <thread>

using namespace clab;

namespace {

[[maybe_unused]] const bool surfaceFormatSet = testing::setSurfaceFormat();

/// A store whose load() derives as slowly as a large file: it reports progress in steps and
/// goes on until the test releases it (then it reads the file for real) or cancels it.
class SlowStore : public GuiSceneStore {
public:
    mutable std::atomic<bool> released{false}, stopped{false};
    mutable std::atomic<int> steps{0};

    SceneDocument load(const QString& path) const override
    {
        try {
            for (int k = 0; !released.load(); ++k) {
                DerivationProgress::reach(std::min(0.9, k / 100.0));
                steps.store(k);
                std::this_thread::sleep_for(std::chrono::milliseconds(5));
            }
        } catch (const DerivationProgress::Cancelled&) {
            stopped.store(true);
            throw;
        }
        return GuiSceneStore::load(path);
    }
};

QString shippedSystem()
{
    return QStringLiteral(CLAB_SOURCE_DIR "/scenes/systems/double-pendulum.json");
}

} // namespace

class SceneLoadingTest : public QObject {
    Q_OBJECT

private:
    testing::IsolatedSettings settings_;
    std::unique_ptr<MainWindow> window_;
    std::shared_ptr<SlowStore> store_;
    int prompts_ = 0;

    MainWindow& slowWindow()
    {
        window_.reset();
        store_ = std::make_shared<SlowStore>();
        window_ = std::make_unique<MainWindow>(store_);
        prompts_ = 0;
        window_->setUnsavedChangesPrompt([this](const QString&) {
            ++prompts_;
            return MainWindow::UnsavedChoice::Cancel;
        });
        SceneDocument ring = SceneDocument::fromDefinition(*SceneRegistry::find("ring"));
        return testing::showDocument(*window_, ring);
    }

private slots:
    void initTestCase() { QVERIFY2(settings_.start(), qPrintable(settings_.problem())); }
    void cleanup() { window_.reset(); }

    void theWindowAnswersWhileAFileLoads();
    void cancelKeepsTheOpenSceneAndStopsTheDerivation();
    void aFileThatCannotBeOpenedIsReportedAndTheSceneStays();
    void editsMadeWhileAFileLoadsAreAskedAbout();
    void whilePresentingAFileOpensAtOnce();
};

void SceneLoadingTest::theWindowAnswersWhileAFileLoads()
{
    MainWindow& window = slowWindow();
    LoadingIndicator* indicator = window.loadingIndicator();
    QVERIFY(!indicator->isVisible());
    window.openFileInBackground(shippedSystem());

    // The GUI thread goes on: timers fire and the bar follows the derivation.
    int ticks = 0;
    QTimer timer;
    connect(&timer, &QTimer::timeout, [&] { ++ticks; });
    timer.start(20);
    QTRY_VERIFY_WITH_TIMEOUT(indicator->isVisible() && indicator->bar()->value() >= 20, 20000);
    ticks = 0;
    QTest::qWait(1000);
    // 50 on an idle machine; a few under a loaded CI, none if the load held the GUI thread.
    QVERIFY2(ticks >= 3, qPrintable(QString::number(ticks) + " ticks of 20 ms in 1 s"));
    QVERIFY(window.sceneLoader()->isLoading());
    QCOMPARE(window.session()->document().scene, std::string("ring"));
    if (const QString dir = qEnvironmentVariable("CLAB_SCREENSHOT_DIR"); !dir.isEmpty())
        window.grab().save(dir + QStringLiteral("/loading.png"));

    store_->released = true;
    QTRY_COMPARE_WITH_TIMEOUT(window.session()->filePath(), shippedSystem(), 20000);
    QVERIFY(window.session()->document().system);
    QVERIFY(!indicator->isVisible());
    QVERIFY(!window.sceneLoader()->isLoading());
}

void SceneLoadingTest::cancelKeepsTheOpenSceneAndStopsTheDerivation()
{
    MainWindow& window = slowWindow();
    QSignalSpy loaded(window.sceneLoader(), &SceneLoader::loaded);
    window.openFileInBackground(shippedSystem());
    QTRY_VERIFY_WITH_TIMEOUT(window.loadingIndicator()->isVisible(), 20000);

    QTest::mouseClick(window.loadingIndicator()->cancelButton(), Qt::LeftButton);
    // At once: the bar goes, the open scene stays, and the status bar says so.
    QVERIFY(!window.loadingIndicator()->isVisible());
    QVERIFY(!window.sceneLoader()->isLoading());
    QCOMPARE(window.session()->document().scene, std::string("ring"));
    QVERIFY2(window.statusBar()->currentMessage().contains(QLatin1String("Stopped loading")),
             qPrintable(window.statusBar()->currentMessage()));
    // The derivation itself stopped at its next step, and nothing arrives later.
    QTRY_VERIFY_WITH_TIMEOUT(store_->stopped.load(), 20000);
    QTest::qWait(100);
    QCOMPARE(loaded.count(), 0);
    QCOMPARE(window.session()->filePath(), QString());
}

void SceneLoadingTest::aFileThatCannotBeOpenedIsReportedAndTheSceneStays()
{
    MainWindow& window = testing::newWindow(window_);
    testing::showDocument(window, SceneDocument::fromDefinition(*SceneRegistry::find("ring")));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("bomb.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"format": 2, "system": {"coordinates": ["x"], "masses": ["1"],
                  "potential_energy": "9^9^9*x"}})");
    file.close();

    QSignalSpy failed(window.sceneLoader(), &SceneLoader::failed);
    window.openFileInBackground(path);
    QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 20000);
    const QString message = failed.at(0).at(1).toString();
    QVERIFY2(message.contains(QLatin1String("system.potential_energy")), qPrintable(message));
    QVERIFY2(message.contains(QLatin1String("beyond the largest number")), qPrintable(message));
    QCOMPARE(window.session()->document().scene, std::string("ring"));
    QVERIFY(!window.loadingIndicator()->isVisible());
}

void SceneLoadingTest::editsMadeWhileAFileLoadsAreAskedAbout()
{
    MainWindow& window = slowWindow();
    window.openFileInBackground(shippedSystem());
    QTRY_VERIFY_WITH_TIMEOUT(window.sceneLoader()->isLoading(), 20000);
    QCOMPARE(prompts_, 0); // nothing to ask when it started

    // The teacher changes the friction while the file loads, then the file arrives: asked,
    // and answering Cancel keeps the ring with the change.
    window.session()->edit(QStringLiteral("mu"), {0.37}, 0);
    QVERIFY(window.session()->isModified());
    store_->released = true;
    QTRY_COMPARE_WITH_TIMEOUT(prompts_, 1, 20000);
    QCOMPARE(window.session()->document().scene, std::string("ring"));
    QCOMPARE(window.session()->document().parameters.at("mu").at(0), 0.37);
    QVERIFY2(window.banner()->text().contains(QLatin1String("Did not open")),
             qPrintable(window.banner()->text()));
}

// Presentation mode hides the status bar, and with it the progress and Cancel: a file dropped on
// the window then opens before the call returns, as it did before loading moved to a thread.
void SceneLoadingTest::whilePresentingAFileOpensAtOnce()
{
    MainWindow& window = testing::newWindow(window_);
    testing::showDocument(window, SceneDocument::fromDefinition(*SceneRegistry::find("ring")));
    window.setPresenting(true);
    QVERIFY(!window.statusBar()->isVisible());
    window.openFileInBackground(shippedSystem());
    QVERIFY(!window.sceneLoader()->isLoading());
    QCOMPARE(window.session()->filePath(), shippedSystem());
}

QTEST_MAIN(SceneLoadingTest)
#include "tst_SceneLoading.moc"
