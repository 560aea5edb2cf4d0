// constraintlab: the desktop application.
//
//   constraintlab [SCENE] [--screenshot FILE --size WxH --time T]
//
// SCENE is a built-in scene name or a scene file (default: the first built-in scene). With
// --screenshot the trajectory is computed synchronously, the 3D view is rendered at time T into a
// PNG and the program exits. Exit codes follow constraintlab-cli: 0 success, 1 the image could not
// be written, 2 usage, 3 invalid scene or file, 4 numerical failure. Without --screenshot a scene
// that cannot be opened opens the default scene instead, with the reason in the window.

#include "GuiSceneStore.h"

#include <model/ConstraintLabError.h>
#include <FileError.h>
#include <MainWindow.h>
#include <scenes/SceneRegistry.h>
#include <export/ImageExportDialog.h>
#include <render/VtkSurfaceFormat.h>
#include <session/PlaybackClock.h>
#include <session/SimulationWorker.h>
#include <view3d/SceneView.h>

#include <QApplication>
#include <QCommandLineParser>
#include <QEventLoop>
#include <QFileInfo>
#include <QIcon>
#include <QImage>
#include <QPixmap>
#include <QRegularExpression>
#include <QScreen>
#include <QTextStream>
#include <QTimer>

#include <cmath>
#include <cstdio>
#include <memory>

namespace {

enum ExitCode {
    Success = 0,
    OutputFailure = 1,
    UsageError = 2,
    InvalidScene = 3,
    NumericalFailure = 4
};

int fail(int code, const QString& message)
{
    QTextStream err(stderr);
    err << "constraintlab: " << message << '\n';
    return code;
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
SceneArgument loadScene(const clab::GuiSceneStore& store, const QString& argument)
{
    const bool looksLikeFile = argument.contains(QLatin1Char('/')) ||
                               argument.endsWith(QLatin1String(".json"), Qt::CaseInsensitive);
    if (!looksLikeFile && clab::SceneRegistry::find(argument.toStdString()))
        return {store.builtIn(argument.toStdString()), {}};
    if (!looksLikeFile && !QFileInfo::exists(argument)) {
        QStringList names;
        for (const clab::SceneDefinition& definition : clab::SceneRegistry::builtIn())
            names << QString::fromStdString(definition.name);
        throw clab::ConstraintLabError(
            clab::ConstraintLabError::Kind::InvalidParameter,
            QStringLiteral("unknown scene %1: not a built-in scene (%2) and not a file")
                .arg(clab::FileError::quoted(argument), names.join(QStringLiteral(", ")))
                .toStdString());
    }
    clab::SceneDocument document = store.load(argument);
    return {document, QFileInfo(argument).absoluteFilePath()};
}

bool parseSize(const QString& text, QSize& size)
{
    static const QRegularExpression pattern(QStringLiteral("^(\\d{1,5})x(\\d{1,5})$"));
    const QRegularExpressionMatch match = pattern.match(text);
    if (!match.hasMatch())
        return false;
    size = QSize(match.captured(1).toInt(), match.captured(2).toInt());
    return size.width() >= 16 && size.height() >= 16 && size.width() <= 16384 &&
           size.height() <= 16384;
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
               const QString& file, const QSize& size, double time, const QStringList& panels)
{
    clab::MainWindow window(std::make_shared<clab::GuiSceneStore>());
    window.resize(size);
    showScene(window, scene, argument, loadError);
    if (!showPanels(window, panels))
        return UsageError;
    window.show();
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
    window.clock()->setTime(time);
    // Let the view render the new time before grabbing.
    QTimer::singleShot(300, &loop, &QEventLoop::quit);
    loop.exec();
    // What the display server shows (QWidget::grab would not include the OpenGL view).
    QPixmap pixmap = window.screen()->grabWindow(window.winId());
    if (pixmap.isNull())
        pixmap = window.grab();
    QString error;
    if (!clab::ImageExportDialog::saveImage(pixmap.toImage(), file, &error))
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

} // namespace

int main(int argc, char* argv[])
{
    clab::VtkSurfaceFormat::makeDefault();
    if (asksForText(argc, argv) && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("ConstraintLab"));
    QApplication::setApplicationName(QStringLiteral("ConstraintLab"));
    QApplication::setApplicationDisplayName(QStringLiteral("ConstraintLab"));
    QApplication::setApplicationVersion(QStringLiteral(CLAB_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("org.constraintlab.ConstraintLab"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/constraintlab.svg")));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "ConstraintLab: the Udwadia–Kalaba fundamental equation of constrained motion, "
        "M q'' = Q + Qci + Qcni, seen and played with."));
    const QCommandLineOption helpOption = parser.addHelpOption();
    const QCommandLineOption versionOption = parser.addVersionOption();
    // The first scene listed opens when none is named.
    const QString defaultScene =
        QString::fromStdString(clab::SceneRegistry::builtIn().front().name);
    parser.addPositionalArgument(QStringLiteral("scene"),
                                 QStringLiteral("A built-in scene name (default %1) or a "
                                                "scene file (.json).")
                                     .arg(defaultScene),
                                 QStringLiteral("[SCENE]"));
    const QCommandLineOption screenshotOption(
        QStringLiteral("screenshot"),
        QStringLiteral("Compute the trajectory, render the 3D view at --time into FILE (PNG) "
                       "and exit."),
        QStringLiteral("FILE"));
    const QCommandLineOption sizeOption(
        QStringLiteral("size"), QStringLiteral("Image size for --screenshot (default 1280x720)."),
        QStringLiteral("WxH"), QStringLiteral("1280x720"));
    const QCommandLineOption timeOption(
        QStringLiteral("time"),
        QStringLiteral("Simulated time shown in the screenshot, in seconds "
                       "(default 0)."),
        QStringLiteral("T"), QStringLiteral("0"));
    QCommandLineOption grabOption(QStringLiteral("grab-window"),
                                  QStringLiteral("Save an image of the whole main window."),
                                  QStringLiteral("FILE"));
    grabOption.setFlags(QCommandLineOption::HiddenFromHelp);
    const QCommandLineOption panelOption(
        QStringLiteral("panel"),
        QStringLiteral("Show the panel NAME on top at the start: scene, system, forces, plots, "
                       "derivation or time (may be given more than once)."),
        QStringLiteral("NAME"));
    parser.addOptions({screenshotOption, sizeOption, timeOption, grabOption, panelOption});

    if (!parser.parse(QApplication::arguments()))
        return fail(UsageError, parser.errorText() + QStringLiteral(" (see --help)"));
    if (parser.isSet(QStringLiteral("help-all")))
        parser.process(QApplication::arguments()); // prints the Qt options too and exits
    if (parser.isSet(helpOption)) {
        std::fputs(qPrintable(parser.helpText()), stdout);
        return Success;
    }
    if (parser.isSet(versionOption)) {
        std::printf("%s %s\n", qPrintable(QApplication::applicationName()),
                    qPrintable(QApplication::applicationVersion()));
        return Success;
    }
    const QStringList positional = parser.positionalArguments();
    if (positional.size() > 1)
        return fail(UsageError, QStringLiteral("expected at most one scene, got %1 (see --help)")
                                    .arg(positional.size()));
    const bool screenshot = parser.isSet(screenshotOption);
    const bool grab = parser.isSet(grabOption);
    if (!screenshot && !grab && (parser.isSet(sizeOption) || parser.isSet(timeOption)))
        return fail(UsageError, QStringLiteral("--size and --time only apply to --screenshot"));
    QSize size;
    if (!parseSize(parser.value(sizeOption), size))
        return fail(UsageError, QStringLiteral("bad --size \"%1\": expected WxH, e.g. 1280x720, "
                                               "each between 16 and 16384")
                                    .arg(parser.value(sizeOption)));
    bool timeOk = false;
    const double time = parser.value(timeOption).toDouble(&timeOk);
    if (!timeOk || !std::isfinite(time))
        return fail(UsageError, QStringLiteral("bad --time \"%1\": expected a number of seconds")
                                    .arg(parser.value(timeOption)));

    const clab::GuiSceneStore store;
    const QString argument = positional.isEmpty() ? defaultScene : positional.front();
    SceneArgument scene;
    QString loadError; // a scene that cannot be opened, for the window's banner
    int loadErrorCode = Success;
    try {
        scene = loadScene(store, argument);
    } catch (const clab::FileError& error) {
        loadError = QString::fromUtf8(error.what());
        loadErrorCode = InvalidScene;
    } catch (const clab::ConstraintLabError& error) {
        loadError = QString::fromUtf8(error.what());
        loadErrorCode = exitCodeFor(error);
    }
    // A screenshot stops at a bad scene; the desktop opens on the default scene and says why
    // in the window, where a user who started it from a file manager sees it.
    if (!loadError.isEmpty() && screenshot)
        return fail(loadErrorCode, loadError);
    if (!loadError.isEmpty()) {
        fail(loadErrorCode, loadError);
        scene = loadScene(store, defaultScene);
    }

    if (screenshot)
        return renderScreenshot(scene.document, parser.value(screenshotOption), size, time);
    if (grab)
        return grabWindow(scene, argument, loadError, parser.value(grabOption), size, time,
                          parser.values(panelOption));

    clab::MainWindow window(std::make_shared<clab::GuiSceneStore>());
    try {
        showScene(window, scene, argument, loadError);
    } catch (const clab::ConstraintLabError& error) {
        return fail(exitCodeFor(error), QString::fromStdString(error.what()));
    }
    if (!showPanels(window, parser.values(panelOption)))
        return UsageError;
    window.setAutoPlay(true);
    window.show();
    return QApplication::exec();
}
