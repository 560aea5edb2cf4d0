// The main window's files: save and open round trips, bad files, systems written as equations, the
// unsaved-changes prompt, drag and drop, and the image and video exports. Modal dialogs are
// replaced by the window's test hooks. The shared setup is in support/MainWindowTestCase.h.

#include <MainWindow.h>
#include <SceneFile.h>
#include <export/VideoExportDialog.h>
#include <panels/ParameterEditor.h>
#include <scenes/SceneRegistry.h>
#include <session/SceneSession.h>
#include <session/SimulationWorker.h>
#include <view3d/SceneView.h>
#include <widgets/MessageBanner.h>

#include <QAction>
#include <QApplication>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QMimeData>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QUndoStack>
#include <QUrl>

#include "../support/MainWindowTestCase.h"

#include <cmath>

using namespace clab;

namespace {

[[maybe_unused]] const bool surfaceFormatSet = testing::setSurfaceFormat();

} // namespace

class MainWindowFilesTest : public QObject, private testing::MainWindowTestCase {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY2(settings_.start(), qPrintable(settings_.problem())); }

    void cleanup() { closeWindow(); }

    void videoDialogOffersTheLastVideosPath()
    {
        // The first time: a file named after the scene; the next time: the last video's path.
        MainWindow& window = freshWindow();
        QVERIFY(waitForMu(window, 0.2));
        QSettings().remove(QStringLiteral("export/videoPath"));
        QAction* exportVideo = nullptr;
        for (QAction* action : window.findChildren<QAction*>())
            if (action->text() == QStringLiteral("Export &Video…"))
                exportVideo = action;
        QVERIFY(exportVideo != nullptr && exportVideo->isEnabled());
        QTemporaryDir dir;
        const QString lesson = dir.filePath(QStringLiteral("lesson.ogv"));
        QStringList offered;
        // Records a short, small video through the modal dialog once it is up.
        const auto record = [&](const QString& path) {
            QTimer::singleShot(0, &window, [&offered, path] {
                auto* dialog = qobject_cast<VideoExportDialog*>(QApplication::activeModalWidget());
                if (dialog == nullptr)
                    return;
                offered << dialog->outputPath();
                VideoExporter::Settings s = dialog->settings();
                s.t1 = s.t0 + 0.2;
                s.fps = 10;
                s.size = QSize(160, 120);
                dialog->setSettings(s);
                dialog->setOutputPath(path);
                if (!dialog->startExport())
                    dialog->reject();
            });
            exportVideo->trigger();
        };
        record(lesson);
        QCOMPARE(offered.size(), 1);
        QVERIFY2(offered[0].endsWith(QStringLiteral("bead-on-wire.ogv")), qPrintable(offered[0]));
        QVERIFY(QFileInfo(lesson).size() > 0);
        record(dir.filePath(QStringLiteral("second.ogv")));
        QCOMPARE(offered.size(), 2);
        QCOMPARE(offered[1], lesson);
    }

    void saveAndOpenRoundTrip()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("rough-wire.json"));
        MainWindow& window = freshWindow();
        window.parameterEditor()->spinBox(QStringLiteral("mu"))->setValue(0.45);
        window.parameterEditor()->spinBox(QStringLiteral("angle_deg"))->setValue(40.0);
        QVERIFY(window.isWindowModified());
        QVERIFY(window.saveAs(path));
        QVERIFY(!window.isWindowModified());
        QVERIFY(window.windowTitle().startsWith(QStringLiteral("rough-wire.json")));
        QCOMPARE(window.recentFiles().value(0), path);

        // Independent reader: the file holds what the editor showed.
        const SceneDocument onDisk = SceneFile::load(path);
        QCOMPARE(param(onDisk, "mu"), 0.45);
        QCOMPARE(param(onDisk, "angle_deg"), 40.0);
        QCOMPARE(onDisk.simulation.tEnd, 2.0);

        // Change it, discard the change and open the file again.
        window.parameterEditor()->spinBox(QStringLiteral("mu"))->setValue(0.1);
        window.setUnsavedChangesPrompt(
            [](const QString&) { return MainWindow::UnsavedChoice::Discard; });
        QVERIFY(window.openFile(path));
        QCOMPARE(window.session()->document(), onDisk);
        QCOMPARE(window.parameterEditor()->spinBox(QStringLiteral("mu"))->value(), 0.45);
        QCOMPARE(window.session()->undoStack()->count(), 0);
        QVERIFY(!window.isWindowModified());
        QVERIFY(waitForMu(window, 0.45));
    }

    void badSceneFileGivesMessageAndKeepsScene()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("broken.json"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"format": 1, "scene": "bead-on-wire", "parameters": {"mu": "lots"}})");
        file.close();

        MainWindow& window = freshWindow();
        QVERIFY(waitForMu(window, 0.2));
        const SceneDocument before = window.session()->document();
        const std::shared_ptr<const Trace> trace = window.trace();
        QVERIFY(!window.openFile(path));
        QVERIFY(window.banner()->isVisibleTo(&window));
        QCOMPARE(window.banner()->kind(), MessageBanner::Kind::Error);
        QVERIFY2(window.banner()->text().contains(QStringLiteral("broken.json")),
                 qPrintable(window.banner()->text()));
        QVERIFY2(window.banner()->text().contains(QStringLiteral("parameters.mu")),
                 qPrintable(window.banner()->text()));
        QCOMPARE(window.session()->document(), before);
        QCOMPARE(window.trace(), trace);
        QVERIFY(!window.recentFiles().contains(path));

        // A file that does not exist is reported the same way.
        QVERIFY(!window.openFile(dir.filePath(QStringLiteral("missing.json"))));
        QVERIFY(window.banner()->text().contains(QStringLiteral("missing.json")));
        QCOMPARE(window.session()->document(), before);

        // The message goes once the user has moved on: the next edit that computes fine.
        window.session()->edit(QStringLiteral("mu"), {0.3});
        QTRY_VERIFY_WITH_TIMEOUT(param(window.shownDocument(), "mu") == 0.3, timeout);
        QVERIFY2(!window.banner()->isVisibleTo(&window), qPrintable(window.banner()->text()));
    }

    // A system written as equations opens like a scene file: it runs, its parameters are
    // edited in the Scene dock's session, and an edit runs it again.
    void systemFileOpensRunsAndFollowsAParameterEdit()
    {
        MainWindow& window = freshWindow();
        QVERIFY(waitForMu(window, 0.2));
        const QString path = QStringLiteral(CLAB_SOURCE_DIR "/scenes/systems/double-pendulum.json");
        QVERIFY(window.openFile(path));
        QVERIFY(window.session()->document().system);
        QTRY_VERIFY_WITH_TIMEOUT(window.trace() && window.shownDocument().system, timeout);
        QCOMPARE(window.trace()->samples.front().q.size(), 4);
        QCOMPARE(window.trace()->samples.front().q[2], 1.7); // x2 = l1 + l2
        QVERIFY(window.recentFiles().contains(QFileInfo(path).absoluteFilePath()));

        window.session()->edit(QStringLiteral("l2"), {0.5});
        QTRY_VERIFY_WITH_TIMEOUT(param(window.shownDocument(), "l2") == 0.5, timeout);
        QTRY_COMPARE_WITH_TIMEOUT(window.trace()->samples.front().q[2], 1.5, timeout);
        // The energy audit of the new run stays at round-off: no friction in this system.
        for (const TraceSample& sample : window.trace()->samples)
            QVERIFY(std::abs(sample.E_error) < 1e-6);
    }

    // File → New lists the shipped systems and starts one as a new, unsaved document.
    void newMenuStartsASystemFromEquations()
    {
        MainWindow& window = freshWindow();
        QVERIFY(waitForMu(window, 0.2));
        auto* action = window.findChild<QAction*>(QStringLiteral("newSystem_double-pendulum"));
        QVERIFY(action);
        QCOMPARE(action->text(), QStringLiteral("Double pendulum"));
        action->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(window.shownDocument().system, timeout);
        QVERIFY(window.session()->filePath().isEmpty());
        QCOMPARE(window.session()->definition()->title, std::string("Double pendulum"));
    }

    // At start-up (a scene file from the command line that cannot be opened) the message must
    // outlive the default scene's first trajectory, which the user did not ask for.
    void startUpErrorOutlivesTheFirstTrajectory()
    {
        MainWindow& window = freshWindow();
        window.showError(QStringLiteral("Could not open \"x.json\""),
                         QStringLiteral("x.json: not valid JSON"));
        QTRY_VERIFY_WITH_TIMEOUT(window.trace() != nullptr && !window.worker()->isBusy(), timeout);
        QVERIFY(window.banner()->isVisibleTo(&window));
        QVERIFY(window.banner()->text().contains(QStringLiteral("x.json")));
    }

    void unsavedChangesPromptGuardsNewOpenAndClose()
    {
        QTemporaryDir dir;
        MainWindow& window = freshWindow();
        // Unmodified: no question asked.
        QVERIFY(window.newFromBuiltIn("bead-on-wire"));
        QCOMPARE(prompts_, 0);

        window.parameterEditor()->spinBox(QStringLiteral("mu"))->setValue(0.3);
        QVERIFY(window.isWindowModified());
        // Cancel keeps everything.
        QVERIFY(!window.newFromBuiltIn("ring"));
        QCOMPARE(prompts_, 1);
        QCOMPARE(window.session()->document().scene, std::string("bead-on-wire"));
        QVERIFY(!window.close());
        QCOMPARE(prompts_, 2);
        QVERIFY(window.isVisible());

        // Save asks for a file name (the document has none) and then proceeds.
        const QString path = dir.filePath(QStringLiteral("saved-on-prompt.json"));
        window.setUnsavedChangesPrompt(
            [](const QString&) { return MainWindow::UnsavedChoice::Save; });
        window.setFileDialogs([] { return QString(); },
                              [path](const QString&, const QString&) { return path; });
        QVERIFY(window.newFromBuiltIn("ring"));
        QCOMPARE(window.session()->document().scene, std::string("ring"));
        QCOMPARE(param(SceneFile::load(path), "mu"), 0.3);

        // Cancelling the file dialog of that Save cancels the New.
        window.parameterEditor()->spinBox(QStringLiteral("mu"))->setValue(0.05);
        window.setFileDialogs([] { return QString(); },
                              [](const QString&, const QString&) { return QString(); });
        QVERIFY(!window.newFromBuiltIn("bead-on-wire"));
        QCOMPARE(window.session()->document().scene, std::string("ring"));

        // Discard throws the change away.
        window.setUnsavedChangesPrompt(
            [](const QString&) { return MainWindow::UnsavedChoice::Discard; });
        QVERIFY(window.newFromBuiltIn("bead-on-wire"));
        QVERIFY(!window.isWindowModified());
    }

    void droppingASceneFileOpensIt()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("dropped.json"));
        SceneDocument document = SceneDocument::fromDefinition(*SceneRegistry::find("ring"));
        document.simulation.tEnd = 1.0;
        SceneFile::save(document, path);

        MainWindow& window = freshWindow();
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(path)});
        QDragEnterEvent enter(QPoint(100, 100), Qt::CopyAction, &mime, Qt::LeftButton,
                              Qt::NoModifier);
        QApplication::sendEvent(&window, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(100, 100), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &drop);
        QTRY_COMPARE_WITH_TIMEOUT(window.session()->document().scene, std::string("ring"), timeout);
        QCOMPARE(window.session()->filePath(), path);

        // Something that is not a scene file is refused.
        QMimeData text;
        text.setUrls({QUrl::fromLocalFile(dir.filePath(QStringLiteral("notes.txt")))});
        QDragEnterEvent refuse(QPoint(100, 100), Qt::CopyAction, &text, Qt::LeftButton,
                               Qt::NoModifier);
        refuse.setAccepted(false);
        QApplication::sendEvent(&window, &refuse);
        QVERIFY(!refuse.isAccepted());
    }

    void droppingASceneFileOnTheViewOpensIt()
    {
        // As the platform delivers it: to the top-level window, at a point over the 3D view
        // (a native window of its own), from where it must reach the main window.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("dropped.json"));
        SceneDocument document = SceneDocument::fromDefinition(*SceneRegistry::find("ring"));
        document.simulation.tEnd = 1.0;
        SceneFile::save(document, path);
        MainWindow& window = freshWindow();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        SceneView* view = window.sceneView();
        const QPoint over = view->mapTo(&window, view->rect().center());
        QWindow* top = window.windowHandle();
        QVERIFY(top != nullptr);
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(path)});
        QDragEnterEvent enter(over, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        enter.setAccepted(false);
        QApplication::sendEvent(top, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(over), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(top, &drop);
        QTRY_COMPARE_WITH_TIMEOUT(window.session()->document().scene, std::string("ring"), timeout);
    }

    void viewImageExportHasTheChosenSizeAndFailuresAreReported()
    {
        MainWindow& window = freshWindow();
        QVERIFY(waitForMu(window, 0.2));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("view.png"));
        QVERIFY(window.exportViewImage(path, QSize(640, 360)));
        QImage image(path);
        QCOMPARE(image.size(), QSize(640, 360));
        // A folder that does not exist: a message naming the file, nothing written.
        const QString bad = dir.filePath(QStringLiteral("missing/view.png"));
        QVERIFY(!window.exportViewImage(bad, QSize(640, 360)));
        QVERIFY(window.banner()->isVisibleTo(&window));
        QVERIFY(window.banner()->text().contains(bad));
        QVERIFY(!QFile::exists(bad));
    }
};

QTEST_MAIN(MainWindowFilesTest)
#include "tst_MainWindowFiles.moc"
