// constraintlab: the desktop application.
//
//   constraintlab [SCENE | LESSON] [--present] [--screenshot FILE --size WxH --time T]
//
// SCENE is a built-in scene name or a scene file (default: the first built-in scene); a lesson
// file (told by its content) opens in presentation mode at its first step. --present starts in
// presentation mode. With
// --screenshot the trajectory is computed synchronously, the 3D view is rendered at time T into a
// PNG and the program exits. Exit codes follow constraintlab-cli: 0 success, 1 the image could not
// be written, 2 usage, 3 invalid scene or file, 4 numerical failure. Without --screenshot a scene
// that cannot be opened opens the default scene instead, with the reason in the window.

#include "GuiCommandLine.h"
#include "GuiSceneStore.h"

#include <FileError.h>
#include <LessonFile.h>
#include <MainWindow.h>
#include <export/ImageExportDialog.h>
#include <model/ConstraintLabError.h>
#include <render/VtkSurfaceFormat.h>
#include <scenes/SceneRegistry.h>
#include <session/PlaybackClock.h>
#include <session/SimulationWorker.h>
#include <view3d/SceneView.h>

#include <QApplication>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QIcon>
#include <QImage>
#include <QPixmap>
#include <QScreen>
#include <QTextStream>
#include <QTimer>

#include <memory>
#include <optional>

namespace {

using clab::GuiCommandLine;
constexpr int Success = GuiCommandLine::Success;
constexpr int OutputFailure = GuiCommandLine::OutputFailure;
constexpr int UsageError = GuiCommandLine::UsageError;
constexpr int InvalidScene = GuiCommandLine::InvalidScene;
constexpr int NumericalFailure = GuiCommandLine::NumericalFailure;

int fail(int code, const QString& message)
{
    return GuiCommandLine::fail(code, message);
}

int exitCodeFor(const clab::ConstraintLabError& error)
{
    switch (error.kind()) {
    case clab::ConstraintLabError::Kind::InvalidParameter:
    case clab::ConstraintLabError::Kind::InvalidInitialState:
        return InvalidScene;
    default:
        return NumericalFailure;
    }
}

struct SceneArgument {
    clab::SceneDocument document;
    QString path; // empty for a built-in scene
};

// A built-in name wins over a file of the same name in the current directory only when the
// argument has no path separator and no .json suffix.
bool looksLikeFile(const QString& argument)
{
    return argument.contains(QLatin1Char('/')) ||
           argument.endsWith(QLatin1String(".json"), Qt::CaseInsensitive);
}

SceneArgument loadScene(const clab::GuiSceneStore& store, const QString& argument)
{
    const bool looksLikeFile = ::looksLikeFile(argument);
    if (!looksLikeFile && clab::SceneRegistry::find(argument.toStdString()))
        return {store.builtIn(argument.toStdString()), {}};
    if (!looksLikeFile && !QFileInfo::exists(argument)) {
        throw clab::ConstraintLabError(
            clab::ConstraintLabError::Kind::InvalidParameter,
            QStringLiteral("unknown scene %1: not a built-in scene (%2) and not a file")
                .arg(clab::FileError::quoted(argument),
                     QString::fromStdString(clab::SceneRegistry::nameList()))
                .toStdString());
    }
    clab::SceneDocument document = store.load(argument);
    return {document, QFileInfo(argument).absoluteFilePath()};
}

// A lesson file, told apart from a scene file by its content.
bool isLessonFile(const QString& argument)
{
    QFile file(argument);
    return argument.endsWith(QLatin1String(".json"), Qt::CaseInsensitive) &&
           file.open(QIODevice::ReadOnly) && clab::LessonFile::looksLikeLesson(file.read(16 << 20));
}

// The window a lecture starts with: a lesson at its first step, else the scene, in
// presentation mode. False (after saying why) when the lesson cannot be read.
bool startPresenting(clab::MainWindow& window, const QString& argument)
{
    if (isLessonFile(argument)) {
        try {
            clab::LessonFile::load(argument);
        } catch (const clab::FileError& error) {
            fail(InvalidScene, QString::fromUtf8(error.what()));
            return false;
        }
        return window.openLesson(argument);
    }
    window.setPresenting(true);
    return true;
}

int renderScreenshot(const clab::SceneDocument& document, const QString& file, const QSize& size,
                     double time)
{
    clab::Trace trace;
    try {
        trace = clab::SimulationWorker::simulate(document);
    } catch (const clab::ConstraintLabError& error) {
        return fail(exitCodeFor(error), QString::fromStdString(error.what()));
    }
    if (trace.samples.empty())
        return fail(NumericalFailure, QStringLiteral("the simulation produced no samples"));
    const double t0 = trace.samples.front().t;
    const double t1 = trace.samples.back().t;
    if (time < t0 - 1e-12 || time > t1 + 1e-12) {
        // A run that stopped at the end of its track says so: its span is shorter than t_end.
        const clab::SceneDefinition* definition = document.definition();
        const QString ended = trace.reachedEnd && definition
                                  ? QStringLiteral(" (the run ends at t = %1 s, where %2)")
                                        .arg(t1)
                                        .arg(QString::fromStdString(definition->end))
                                  : QString();
        return fail(UsageError,
                    QStringLiteral("--time %1 is outside the simulated span [%2, %3] s%4")
                        .arg(time)
                        .arg(t0)
                        .arg(t1)
                        .arg(ended));
    }
    clab::SceneView view;
    view.resize(size);
    view.setScene(document);
    view.setTrace(trace);
    view.setTime(time);
    const QImage image = view.renderImage(size);
    if (image.isNull())
        return fail(NumericalFailure,
                    QStringLiteral("%1: the view could not be rendered").arg(file));
    QString error;
    if (!clab::ImageExportDialog::saveImage(image, file, &error))
        return fail(OutputFailure, error);
    return Success;
}

// Shows the whole window, waits for the first trajectory and saves what the window shows
// (documentation and visual checks of the layout).
// The window a user gets: the scene, or the default scene with the reason why the one asked
// for could not be opened in the banner.
void showScene(clab::MainWindow& window, const SceneArgument& scene, const QString& argument,
               const QString& loadError)
{
    window.setDocument(scene.document, scene.path);
    if (!loadError.isEmpty())
        window.showError(QApplication::translate("main", "Could not open %1")
                             .arg(clab::FileError::quoted(QFileInfo(argument).fileName())),
                         loadError);
}

/// Shows the panels named by --panel; false (after saying why) for an unknown name.
bool showPanels(clab::MainWindow& window, const QStringList& panels)
{
    for (const QString& panel : panels)
        if (!window.showPanel(panel)) {
            fail(UsageError, QStringLiteral("unknown --panel \"%1\": expected one of %2")
                                 .arg(panel, window.panelNames().join(QStringLiteral(", "))));
            return false;
        }
    return true;
}

int grabWindow(const SceneArgument& scene, const QString& argument, const QString& loadError,
               const GuiCommandLine& options)
{
    clab::MainWindow window(std::make_shared<clab::GuiSceneStore>());
    if (options.largeText)
        window.setLargeText(true);
    window.resize(options.size);
    if (!isLessonFile(argument))
        showScene(window, scene, argument, loadError);
    if (!showPanels(window, options.panels))
        return UsageError;
    window.show();
    if ((options.present || isLessonFile(argument)) && !startPresenting(window, argument))
        return InvalidScene;
    QEventLoop loop;
    QString failure;
    QObject::connect(&window, &clab::MainWindow::trajectoryShown, &loop, &QEventLoop::quit);
    QObject::connect(&window, &clab::MainWindow::simulationFailed, &loop,
                     [&](const QString& message) {
                         failure = message;
                         loop.quit();
                     });
    QTimer::singleShot(120000, &loop, [&] {
        failure = QStringLiteral("no trajectory within two minutes");
        loop.quit();
    });
    loop.exec();
    if (!failure.isEmpty())
        return fail(NumericalFailure, failure);
    window.clock()->pause();
    window.clock()->setTime(options.time);
    // Let the view render the new time before grabbing.
    QTimer::singleShot(300, &loop, &QEventLoop::quit);
    loop.exec();
    // What the display server shows (QWidget::grab would not include the OpenGL view).
    QPixmap pixmap = window.screen()->grabWindow(window.winId());
    if (pixmap.isNull())
        pixmap = window.grab();
    QString error;
    if (!clab::ImageExportDialog::saveImage(pixmap.toImage(), options.grabFile, &error))
        return fail(OutputFailure, error);
    return Success;
}

} // namespace

namespace {

/// True when the command line asks only for text (--help, --version): that must work without
/// a display, e.g. on a server or when the man pages are made.
bool asksForText(int argc, char* argv[])
{
    for (int i = 1; i < argc; ++i) {
        const QByteArray arg(argv[i]);
        if (arg == "-h" || arg == "--help" || arg == "--help-all" || arg == "-v" ||
            arg == "--version")
            return true;
    }
    return false;
}

// The scene the window opens: the one asked for or, when it cannot be opened, the default scene
// with the reason (for the window's banner) and the exit code a screenshot would stop with.
struct OpenedScene {
    SceneArgument scene;
    QString loadError;
    int loadErrorCode = Success;
};

OpenedScene openScene(const clab::GuiSceneStore& store, const QString& argument)
{
    OpenedScene opened;
    try {
        opened.scene = loadScene(store, argument);
    } catch (const clab::FileError& error) {
        opened.loadError = QString::fromUtf8(error.what());
        opened.loadErrorCode = InvalidScene;
    } catch (const clab::ConstraintLabError& error) {
        opened.loadError = QString::fromUtf8(error.what());
        opened.loadErrorCode = exitCodeFor(error);
    }
    return opened;
}

void setApplicationIdentity()
{
    QApplication::setOrganizationName(QStringLiteral("ConstraintLab"));
    QApplication::setApplicationName(QStringLiteral("ConstraintLab"));
    QApplication::setApplicationDisplayName(QStringLiteral("ConstraintLab"));
    QApplication::setApplicationVersion(QStringLiteral(CLAB_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("org.constraintlab.ConstraintLab"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/constraintlab.svg")));
}

} // namespace

int main(int argc, char* argv[])
{
    clab::VtkSurfaceFormat::makeDefault();
    if (asksForText(argc, argv) && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    setApplicationIdentity();

    // The first scene listed opens when none is named.
    const QString defaultScene =
        QString::fromStdString(clab::SceneRegistry::builtIn().front().name);
    GuiCommandLine options(defaultScene);
    if (const std::optional<int> done = options.parse(QApplication::arguments()))
        return *done;

    const clab::GuiSceneStore store;
    // A lesson names its own scenes; the window starts on the default one until it opens.
    const bool lesson = isLessonFile(options.scene);
    if (lesson && options.screenshot)
        return fail(UsageError, QStringLiteral("--screenshot renders a scene, not a lesson"));
    // The window opens at once on the default scene and a file given to it loads in the
    // background (a large format-2 system takes seconds to derive); a screenshot waits for it.
    // Not when presenting: the status bar with the progress and Cancel is hidden then.
    const bool inBackground = !lesson && !options.screenshot && !options.grab && !options.present &&
                              looksLikeFile(options.scene) && QFileInfo::exists(options.scene);
    OpenedScene opened = openScene(store, lesson || inBackground ? defaultScene : options.scene);
    // A screenshot stops at a bad scene; the desktop opens on the default scene and says why
    // in the window, where a user who started it from a file manager sees it.
    if (!opened.loadError.isEmpty()) {
        fail(opened.loadErrorCode, opened.loadError);
        if (options.screenshot)
            return opened.loadErrorCode;
        opened.scene = loadScene(store, defaultScene);
    }

    if (options.screenshot)
        return renderScreenshot(opened.scene.document, options.screenshotFile, options.size,
                                options.time);
    if (options.grab)
        return grabWindow(opened.scene, options.scene, opened.loadError, options);

    clab::MainWindow window(std::make_shared<clab::GuiSceneStore>());
    if (options.largeText)
        window.setLargeText(true);
    try {
        showScene(window, opened.scene, options.scene, opened.loadError);
    } catch (const clab::ConstraintLabError& error) {
        return fail(exitCodeFor(error), QString::fromStdString(error.what()));
    }
    if (!showPanels(window, options.panels))
        return UsageError;
    window.setAutoPlay(true);
    window.show();
    if (inBackground)
        window.openFileInBackground(options.scene);
    if ((options.present || lesson) && !startPresenting(window, options.scene))
        return InvalidScene;
    return QApplication::exec();
}
