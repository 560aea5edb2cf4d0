// fit SCENE --data FILE --map ... --param ...: scene parameters from measurements.
#include "cli/CliText.h"
#include "cli/CommandContext.h"
#include "cli/Commands.h"
#include "cli/FilePaths.h"
#include "cli/MeasurementOptions.h"
#include "cli/PreparedScene.h"
#include "cli/SceneOptions.h"
#include "cli/UsageProblem.h"

#include "AtomicFile.h"
#include "FitReport.h"
#include "SceneLoading.h"
#include "study/ParameterFit.h"

#include <QTextStream>

#include <unistd.h>

namespace clab::cli {

namespace {

QString help()
{
    return QStringLiteral(
        "Usage: constraintlab-cli fit SCENE --data FILE [--map COLUMN=QUANTITY[*SCALE]]\n"
        "                             --param NAME[,NAME...] [OPTIONS]\n"
        "\n"
        "Fits parameters of SCENE (a built-in name or a scene file) to measured values by\n"
        "nonlinear least squares (Levenberg-Marquardt; the Jacobian from whole runs, on all\n"
        "processor cores). Each evaluation simulates from the scene's start to the last\n"
        "measured time and compares the mapped trace quantities at the measured times.\n"
        "Prints each parameter's best value and standard error, their correlations, the\n"
        "residual RMS per column, chi^2/dof and warnings for parameters the data do not\n"
        "determine (e.g. mu_s when the body never stops). The parameters' values in the\n"
        "scene (or --set) are the starting point; the other parameters stay fixed.\n"
        "\n"
        "Options: --set and the simulation settings of `run` except --t-end and --dt\n"
        "(the measured times set them), and\n"
        "  --data FILE          The measurements: comma-, semicolon- (decimal commas),\n"
        "                       tab- or blank-separated columns (Tracker exports too),\n"
        "                       '#' comments, a header row (or none: columns 1, 2, ...).\n"
        "  --map COL=Q[*S]      Column COL measures trace quantity Q (s, x, phi, ...; see\n"
        "                       the CSV columns of `run`), times S to make it SI (0.01 for\n"
        "                       cm). Repeat, or give a comma list, for several columns;\n"
        "                       each column once. Without --map, columns named like a\n"
        "                       trace quantity measure it (x -> x).\n"
        "  --param A,B,...      The scalar parameters to fit (required).\n"
        "  --sigma S | COL=S    Standard deviation of the measured values (SI units, > 0);\n"
        "                       one value for all columns or per column. Without it the\n"
        "                       errors are scaled by the residual variance.\n"
        "  --bounds N=LO:HI     Keep parameter N within [LO, HI]; either side may be empty.\n"
        "                       Repeat or give a comma list. Scene ranges always apply.\n"
        "  --time-column NAME   The time column (default: t or time, else the first).\n"
        "  --time-scale F       Multiply the file's times by F (0.001 for ms).\n"
        "  --time-offset T0     Add T0 seconds to the (scaled) times.\n"
        "  --max-iterations N   At most N iterations (default 100).\n"
        "  -o, --output FILE    Also write the result as JSON (values, standard errors,\n"
        "                       covariance, correlation, RMS, the command line), atomically.\n"
        "\n"
        "Exit codes: 0 success (also a fit that did not converge; it says so), 1 output\n"
        "not writable, 2 usage error, 3 invalid scene, parameter or measurement file (the\n"
        "message names the line, column and why), 4 numerical failure, or a fit whose\n"
        "model cannot reach the data (\"fit failed:\" and why, then a hint; no JSON).\n");
}

// What `fit` was asked, as parsed.
struct FitRequest {
    SceneOptions scene;
    QString output;
    MeasurementOptions measured;
    FitOptions fit;
};

// --bounds N=LO:HI[,...]
void parseBounds(const QString& option, const QString& list, FitOptions& fit)
{
    for (const QString& item : list.split(QLatin1Char(','))) {
        const auto [parameter, range] =
            assignment(option, item, QStringLiteral("NAME=LOW:HIGH, e.g. mu=0:2"));
        if (range.count(QLatin1Char(':')) != 1)
            throw UsageProblem{
                QStringLiteral("--bounds %1: expected NAME=LOW:HIGH (either side may be empty)")
                    .arg(item)};
        const QString low = range.section(QLatin1Char(':'), 0, 0).trimmed();
        const QString high = range.section(QLatin1Char(':'), 1, 1).trimmed();
        const QString where = QStringLiteral("--bounds ") + item;
        fit.bounds[parameter.toStdString()] = {
            low.isEmpty() ? -FitOptions::unbounded : numberOf(where, low),
            high.isEmpty() ? FitOptions::unbounded : numberOf(where, high)};
    }
}

FitRequest parseFit(const QStringList& args)
{
    FitRequest request;
    request.scene = SceneOptions::parse(args, QStringLiteral("fit"), [&](const OptionCursor& o) {
        const QString& name = o.option;
        if (request.measured.parse(o))
            return true;
        if (name == QLatin1String("--param")) {
            for (const std::string& p : nameList(o))
                request.fit.parameters.push_back(p);
        } else if (name == QLatin1String("--bounds")) {
            parseBounds(name, o.value(), request.fit);
        } else if (name == QLatin1String("--max-iterations")) {
            const QString text = o.value();
            bool ok = false;
            request.fit.maxIterations = text.toInt(&ok);
            if (!ok || request.fit.maxIterations < 1)
                throw UsageProblem{
                    QStringLiteral("--max-iterations %1: expected a whole number >= 1").arg(text)};
        } else if (isOutputOption(name)) {
            request.output = outputOption(o);
        } else {
            return false;
        }
        return true;
    });
    request.measured.check(QStringLiteral("fit"), request.scene);
    if (request.fit.parameters.empty())
        throw UsageProblem{QStringLiteral("fit: missing --param NAME[,NAME...] (what to fit)")};
    FilePaths files(request.scene.scene);
    files.input(QStringLiteral("--data"), request.measured.data);
    files.output(QStringLiteral("--output"), request.output);
    files.check();
    return request;
}

// A fit whose model cannot reach the data: the reason and what to type, exit 4, no JSON
// (values that mean nothing are not written where a script would take them).
int failedFit(const FitResult& result, const Measurements& measurements, const FitRequest& request,
              CommandContext& context)
{
    QTextStream& err = context.err;
    err << prefix << "fit failed: " << qs(result.failure) << "\n";
    if (!result.startParameters.empty()) {
        const QString start = qs(result.startParameters.front());
        QStringList fitted;
        for (const std::string& name : request.fit.parameters)
            fitted << qs(name);
        // The first value of the column the start parameter starts (s0 for s).
        double first = measurements.columns.front().values.front();
        for (const Measurements::Column& column : measurements.columns)
            if (column.quantity + "0" == result.startParameters.front())
                first = column.values.front();
        err << prefix << "hint: --param " << fitted.join(QLatin1Char(',')) << "," << start
            << " (fit the start too), or --set " << start << "=" << number(first)
            << " (the first measured value)\n";
    }
    if (!request.output.isEmpty())
        err << prefix << "did not write " << request.output << "\n";
    return CliApplication::NumericalFailure;
}

int run(const QStringList& args, CommandContext& context)
{
    QTextStream& err = context.err;
    const FitRequest request = parseFit(args);
    const PreparedScene prepared = request.scene.prepare();
    context.source = prepared.source;
    const Measurements measurements = request.measured.load(prepared.document);
    // On a terminal each iteration shows on standard error's last line; a log stays clean.
    FitControl control;
    const bool terminal = isatty(STDERR_FILENO) == 1;
    if (terminal)
        control.progress = [&](const FitProgress& p) {
            err << "\r\033[K" << prefix << "iteration " << p.iteration << ", " << p.runs
                << " runs:";
            for (std::size_t i = 0; i < p.values.size(); ++i)
                err << " " << qs(request.fit.parameters[i]) << "=" << number(p.values[i]);
            err.flush();
        };
    const FitResult result =
        ParameterFit::run(prepared.document, measurements, request.fit, control);
    if (terminal) {
        err << "\r\033[K";
        err.flush();
    }

    QStringList commandLine{QStringLiteral("constraintlab-cli"), QStringLiteral("fit")};
    commandLine += args;
    const FitReport report(result, prepared.document, measurements, sceneLabel(prepared.document),
                           request.measured.data, commandLine);
    context.out << report.table();
    if (result.failed())
        return failedFit(result, measurements, request, context);
    if (!request.output.isEmpty()) {
        AtomicFile::write(request.output, report.json(), QStringLiteral("the fit"));
        err << prefix << "wrote " << request.output << "\n";
    }
    return CliApplication::Success;
}

} // namespace

CliCommand fitCommand()
{
    return {QStringLiteral("fit"),
            QStringLiteral(
                "fit SCENE --data FILE --map COLUMN=QUANTITY --param NAME[,NAME...] [OPTIONS]"),
            QStringLiteral("Fit scene parameters (friction, ...) to a measured trace by\n"
                           "least squares; print values, standard errors, correlations."),
            help, run};
}

} // namespace clab::cli
