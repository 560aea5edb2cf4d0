// constraintlab-plot: `constraintlab-cli plot` with its VTK plot writer. constraintlab-cli runs
// this program for `plot` (and only for it), so that its other commands start without loading
// Qt GUI, OpenGL and VTK.
#include "CliApplication.h"

#include <QCoreApplication>
#include <QTextStream>

#include <cstdio>
#include <cstring>
#include <memory>

#include <plots/PlotBuilder.h>
#include <plots/PlotExporter.h>
#include <render/VtkSurfaceFormat.h>

#include <QGuiApplication>

namespace {

/// `plot` draws with OpenGL, which needs a QGuiApplication; `plot --help` does not.
bool needsOpenGL(int argc, char* argv[])
{
    if (argc < 2 || std::strcmp(argv[1], "plot") != 0) {
        return false;
    }
    for (int i = 2; i < argc; ++i) {
        if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) {
            return false;
        }
    }
    return true;
}

/// The VTK plot writer: the same charts as the GUI's Plots dock.
bool writePlot(const clab::CliApplication::PlotRequest& request, QString* error)
{
    try {
        const clab::PlotData data = clab::PlotBuilder::build(request.spec, request.runs);
        clab::PlotExporter::Options options;
        options.size = request.size;
        options.scale = request.scale;
        return clab::PlotExporter::write(data, request.path, options, error);
    } catch (const std::exception& e) {
        *error = QString::fromUtf8(e.what());
        return false;
    }
}

} // namespace

int main(int argc, char* argv[])
{
    std::unique_ptr<QCoreApplication> application;
    // QGuiApplication aborts the process when its platform has no display. Without one, the
    // arguments are still checked (usage errors come first) and the writer says what to do.
    const bool hasDisplay = !qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") ||
                            !qEnvironmentVariableIsEmpty("DISPLAY") ||
                            !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY");
    const bool plotting = needsOpenGL(argc, argv);
    if (plotting && hasDisplay) {
        // Not QT_QPA_PLATFORM=offscreen: under Xvfb its OpenGL context renders only black
        // frames, while the xcb platform's offscreen surface (no window is shown) renders.
        clab::VtkSurfaceFormat::makeDefault();
        application = std::make_unique<QGuiApplication>(argc, argv);
    }
    if (!application) {
        application = std::make_unique<QCoreApplication>(argc, argv);
    }
    QCoreApplication::setApplicationName(QStringLiteral("constraintlab-cli"));
    QTextStream out(stdout);
    QTextStream err(stderr);
    clab::CliApplication cli;
    if (plotting) {
        if (hasDisplay) {
            cli.setPlotWriter(writePlot);
        } else {
            cli.setPlotWriter([](const clab::CliApplication::PlotRequest&, QString* error) {
                *error =
                    QStringLiteral("plot needs a display for OpenGL; run it under xvfb-run -a");
                return false;
            });
        }
    }
    return cli.run(QCoreApplication::arguments().mid(1), out, err);
}
