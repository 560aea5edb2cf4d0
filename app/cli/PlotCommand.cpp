// plot SCENE (--y ... | --preset ID) --output FILE: draw quantities of a run's trace.
#include "cli/CliText.h"
#include "cli/CommandContext.h"
#include "cli/Commands.h"
#include "cli/FilePaths.h"
#include "cli/PreparedScene.h"
#include "cli/SceneOptions.h"
#include "cli/UsageProblem.h"

#include "FileError.h"
#include "SceneLoading.h"
#include "integrate/Simulator.h"
#include "trace/PlotCatalog.h"
#include "trace/TraceSeries.h"

#include <QFileInfo>
#include <QTextStream>

#include <cmath>
#include <memory>
#include <optional>

namespace clab::cli {

namespace {

QString help()
{
    return QStringLiteral(
        "Usage: constraintlab-cli plot SCENE (--y A,B,... | --preset ID)\n"
        "                              --output FILE.png|svg|pdf [OPTIONS]\n"
        "\n"
        "Simulates SCENE and draws quantities of its trace into an image (PNG) or a\n"
        "vector file (SVG, PDF), chosen by the suffix of FILE.\n"
        "\n"
        "Quantities are the CSV columns of `run` (t, x, x_dot, Q_x, Qci_x, Qcni_x, T, V,\n"
        "E, W_nonideal, residual_max, E_error, ...) and the derived |Q|, |Qci|, |Qcni|\n"
        "(force magnitudes), E_balance (E - E(0) minus every work term) and, for the\n"
        "rigid body, quat_norm_error (|u| - 1). An unknown name is reported with the list\n"
        "of names.\n"
        "\n"
        "Options: --set and the simulation settings (--t-end, --dt, --integrator, ...)\n"
        "as for `run` (see `constraintlab-cli help run`), and\n"
        "  --y A,B,...          Quantities on the vertical axis.\n"
        "  --x NAME             Quantity on the horizontal axis (default t).\n"
        "  --log-y              Logarithmic vertical axis (absolute values).\n"
        "  --preset ID          A ready-made plot instead of --y: energy, forces,\n"
        "                       residual; path for particles; omega, quat-norm and\n"
        "                       rigid-energy for the rigid body.\n"
        "  --size WxH           Size in pixels (default 1200x800).\n"
        "  --scale S            Scale of fonts and lines (default 1).\n"
        "  -o, --output FILE    The file to write (required), .png, .svg or .pdf.\n"
        "\n"
        "Exit codes: 0 success, 1 the file could not be written or plotting is not\n"
        "available in this build, 2 usage error, 3 invalid scene, parameter or quantity,\n"
        "4 numerical failure.\n");
}

// What `plot` was asked, as parsed.
struct PlotArgs {
    SceneOptions scene;
    std::vector<std::string> y;
    std::optional<std::string> x, preset;
    bool logY = false;
    QString output;
    CliApplication::PlotRequest request; // size and scale so far
};

// The options that shape the image: --size WxH and --scale S.
bool parseImageOption(const OptionCursor& o, CliApplication::PlotRequest& request)
{
    if (o.option == QLatin1String("--size")) {
        const QString text = o.value();
        const QStringList parts = text.trimmed().split(QLatin1Char('x'));
        bool okW = false, okH = false;
        const int w = parts.size() == 2 ? parts[0].toInt(&okW) : 0;
        const int h = parts.size() == 2 ? parts[1].toInt(&okH) : 0;
        if (!okW || !okH || w <= 0 || h <= 0 || w > 20000 || h > 20000)
            throw UsageProblem{
                QStringLiteral("--size %1: expected WIDTHxHEIGHT in pixels, e.g. 1200x800")
                    .arg(text)};
        request.size = QSize(w, h);
    } else if (o.option == QLatin1String("--scale")) {
        const QString text = o.value();
        const auto scale = parseNumber(text);
        if (!scale || !std::isfinite(*scale) || *scale <= 0.0 || *scale > 16.0)
            throw UsageProblem{
                QStringLiteral("--scale %1: expected a number in (0, 16]").arg(text)};
        request.scale = *scale;
    } else {
        return false;
    }
    return true;
}

// The combination of options: --y or --preset, and an output file of a known kind.
void checkPlotArgs(const PlotArgs& a)
{
    if (a.y.empty() && !a.preset)
        throw UsageProblem{QStringLiteral("plot: give --y A,B,... (quantities to plot) or "
                                          "--preset ID (a ready-made plot)")};
    if (!a.y.empty() && a.preset)
        throw UsageProblem{QStringLiteral("plot: give either --y or --preset, not both")};
    if (a.preset && (a.x || a.logY))
        throw UsageProblem{
            QStringLiteral("plot: --x and --log-y go with --y; a preset sets its own axes")};
    if (a.output.isEmpty() || a.output == QLatin1String("-"))
        throw UsageProblem{QStringLiteral("plot: missing --output FILE.png|svg|pdf")};
    const QString suffix = QFileInfo(a.output).suffix().toLower();
    if (suffix != QLatin1String("png") && suffix != QLatin1String("svg") &&
        suffix != QLatin1String("pdf"))
        throw UsageProblem{
            QStringLiteral("--output %1: the file must end in .png, .svg or .pdf").arg(a.output)};
}

PlotArgs parsePlot(const QStringList& args)
{
    PlotArgs a;
    a.scene = SceneOptions::parse(args, QStringLiteral("plot"), [&](const OptionCursor& o) {
        if (o.option == QLatin1String("--y")) {
            a.y = nameList(o);
        } else if (o.option == QLatin1String("--x")) {
            a.x = o.value().trimmed().toStdString();
            if (a.x->empty())
                throw UsageProblem{QStringLiteral("option --x needs a quantity name")};
        } else if (o.option == QLatin1String("--preset")) {
            a.preset = o.value().trimmed().toStdString();
            if (a.preset->empty())
                throw UsageProblem{QStringLiteral("option --preset needs a plot id")};
        } else if (o.option == QLatin1String("--log-y")) {
            a.logY = true;
        } else if (isOutputOption(o.option)) {
            a.output = outputOption(o);
        } else {
            return parseImageOption(o, a.request);
        }
        return true;
    });
    checkPlotArgs(a);
    FilePaths files(a.scene.scene);
    files.output(QStringLiteral("--output"), a.output);
    files.check();
    return a;
}

// The plot of the trace that was asked for; the quantities depend on the trace (derived ones,
// scene columns), so they are checked after the run.
PlotSpec plotSpec(const PlotArgs& a, const Trace& trace, const QString& label)
{
    if (a.preset) {
        const std::vector<PlotSpec> presets = PlotCatalog::presets(trace);
        const PlotSpec* spec = PlotCatalog::find(presets, *a.preset);
        if (!spec) {
            QStringList ids;
            for (const PlotSpec& p : presets)
                ids << qs(p.id);
            throw FileError(FileError::Kind::Invalid, QStringLiteral("--preset ") + qs(*a.preset),
                            QString(),
                            QStringLiteral("no such plot for %1 (its plots: %2)")
                                .arg(label, ids.join(QStringLiteral(", "))));
        }
        return *spec;
    }
    PlotSpec spec;
    spec.x = a.x.value_or("t");
    spec.y = a.y;
    spec.logY = a.logY;
    std::vector<std::string> asked = a.y;
    asked.insert(asked.begin(), spec.x);
    for (const std::string& name : asked)
        if (!TraceSeries::contains(trace, name))
            throw FileError(
                FileError::Kind::Invalid,
                (a.x && name == *a.x ? QStringLiteral("--x ") : QStringLiteral("--y ")) + qs(name),
                QString(),
                QStringLiteral("%1 has no quantity \"%2\" (its quantities: %3)")
                    .arg(label, qs(name),
                         qList(TraceSeries::names(trace)).join(QStringLiteral(", "))));
    return spec;
}

int run(const QStringList& args, CommandContext& context)
{
    const PlotArgs a = parsePlot(args);
    if (!context.plotWriter) {
        // Said before a possibly long run.
        context.err << prefix << "plotting is not available in this build\n";
        return CliApplication::OutputFailure;
    }

    const PreparedScene prepared = a.scene.prepare();
    context.source = prepared.source;
    const std::unique_ptr<MechanicalSystem> system =
        prepared.definition->create(prepared.document.parameters);
    Simulator simulator(*system);
    const auto trace = std::make_shared<const Trace>(simulator.run(prepared.document.simulation));

    const QString label = sceneLabel(prepared.document);
    CliApplication::PlotRequest request = a.request;
    request.spec = plotSpec(a, *trace, label);
    request.runs = {{label.toStdString(), trace}};
    request.path = a.output;

    QString error;
    if (!context.plotWriter(request, &error)) {
        context.err << prefix
                    << (error.isEmpty() ? QStringLiteral("%1: cannot write the plot").arg(a.output)
                                        : error)
                    << "\n";
        return CliApplication::OutputFailure;
    }
    context.err << prefix << "wrote " << a.output << "\n";
    return CliApplication::Success;
}

} // namespace

CliCommand plotCommand()
{
    return {QStringLiteral("plot"),
            QStringLiteral("plot SCENE (--y A,B,... | --preset ID) --output FILE.png|svg|pdf "
                           "[OPTIONS]"),
            QStringLiteral("Simulate a scene and draw quantities of its trace into a file."), help,
            run};
}

} // namespace clab::cli
