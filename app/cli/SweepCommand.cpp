// sweep SCENE --param NAME --values ...: a run per grid point, or the misfit at each point.
#include "cli/CliText.h"
#include "cli/CommandContext.h"
#include "cli/Commands.h"
#include "cli/FilePaths.h"
#include "cli/MeasurementOptions.h"
#include "cli/PreparedScene.h"
#include "cli/SceneOptions.h"
#include "cli/UsageProblem.h"

#include "AtomicFile.h"
#include "CsvWriter.h"
#include "FileError.h"
#include "SceneLoading.h"
#include "study/ParameterFit.h"
#include "study/ParameterSweep.h"

#include <QTextStream>

#include <algorithm>
#include <cmath>
#include <optional>

namespace clab::cli {

namespace {

QString help()
{
    return QStringLiteral(
        "Usage: constraintlab-cli sweep SCENE --param NAME --values V1,V2,...\n"
        "                             [--param NAME2 --values W1,W2,...]... [OPTIONS]\n"
        "\n"
        "Runs SCENE once for each value of the scalar parameter NAME, on all processor\n"
        "cores, and writes the runs as one CSV: a first column \"run\" holding NAME=VALUE,\n"
        "then the trace columns of `run`, rows run after run in the order of --values.\n"
        "Several --param/--values pairs sweep their product grid (the last parameter\n"
        "varies fastest; \"run\" holds \"NAME=V NAME2=W\"), e.g. for a misfit landscape.\n"
        "Each run is exactly the trace `run --set NAME=VALUE` gives. A parameter that\n"
        "follows NAME (mu_s follows mu) follows the swept value unless it is set to a\n"
        "different value. Every value is validated before the first run starts.\n"
        "\n"
        "Options: --set and the simulation settings (--t-end, --dt, --integrator, ...)\n"
        "as for `run` (see `constraintlab-cli help run`), and\n"
        "  --param NAME         A parameter to vary (required; repeat for a grid).\n"
        "  --values V1,V2,...   Its values, a comma list of numbers (after its --param).\n"
        "  --shard K/N          Run only the K-th of N contiguous blocks of the grid (a\n"
        "                       job of a Slurm array or GNU parallel). Only shard 1 writes\n"
        "                       the header row, so `cat` of the shards' files in K order\n"
        "                       is the whole sweep's CSV.\n"
        "  --columns A,B,...    Write only these columns (after \"run\"), in this order.\n"
        "  --data FILE --map COL=Q[*S] [--sigma S] [--time-...]\n"
        "                       Instead of the traces, write the misfit against measured\n"
        "                       values at each grid point (options as for `fit`): a\n"
        "                       column per parameter, chi_square, rms_COL per column.\n"
        "  -o, --output FILE    Write the CSV to FILE, atomically. \"-\" is standard\n"
        "                       output, the default.\n"
        "\n"
        "Exit codes: 0 success, 1 output not writable, 2 usage error (missing --param or\n"
        "--values, malformed number, empty list, bad --shard), 3 invalid scene, parameter\n"
        "or value, 4 numerical failure (the message names the value whose run failed).\n");
}

// What `sweep` was asked, as parsed.
struct SweepRequest {
    SceneOptions scene;
    std::vector<SweepAxis> axes;
    QString output = QStringLiteral("-");
    std::vector<std::string> columns;
    int shardK = 1, shardN = 1;
    MeasurementOptions measured; // --data: the misfit at each point instead of the traces
};

// --shard K/N
void parseShard(const QString& text, SweepRequest& request)
{
    const QStringList parts = text.split(QLatin1Char('/'));
    bool okK = false, okN = false;
    request.shardK = parts.size() == 2 ? parts[0].toInt(&okK) : 0;
    request.shardN = parts.size() == 2 ? parts[1].toInt(&okN) : 0;
    if (!okK || !okN || request.shardN < 1 || request.shardK < 1 || request.shardK > request.shardN)
        throw UsageProblem{
            QStringLiteral("--shard %1: expected K/N with 1 <= K <= N, e.g. --shard 2/8")
                .arg(text)};
}

SweepRequest parseSweep(const QStringList& args)
{
    // --param and --values alternate: each --values belongs to the --param before it.
    SweepRequest request;
    bool valuesPending = false;
    request.scene = SceneOptions::parse(args, QStringLiteral("sweep"), [&](const OptionCursor& o) {
        if (request.measured.parse(o))
            return true;
        if (o.option == QLatin1String("--param")) {
            const QString parameter = o.value().trimmed();
            if (parameter.isEmpty())
                throw UsageProblem{QStringLiteral("option --param needs a parameter name")};
            if (valuesPending)
                throw UsageProblem{
                    QStringLiteral("sweep: --param %1 needs its --values before the next --param")
                        .arg(qs(request.axes.back().parameter))};
            request.axes.push_back({parameter.toStdString(), {}});
            valuesPending = true;
        } else if (o.option == QLatin1String("--values")) {
            if (!valuesPending)
                throw UsageProblem{
                    QStringLiteral("sweep: --values must follow the --param it belongs to")};
            request.axes.back().values = valueList(o);
            valuesPending = false;
        } else if (o.option == QLatin1String("--shard")) {
            parseShard(o.value(), request);
        } else if (o.option == QLatin1String("--columns")) {
            request.columns = nameList(o);
        } else if (isOutputOption(o.option)) {
            request.output = outputOption(o);
        } else {
            return false;
        }
        return true;
    });
    if (request.axes.empty())
        throw UsageProblem{QStringLiteral("sweep: missing --param NAME (the parameter to vary)")};
    if (valuesPending)
        throw UsageProblem{QStringLiteral("sweep: missing --values V1,V2,... (its values)")};
    // A shard per grid point at most, as ParameterSweep::shard requires: said here, as a usage
    // error, since the command line alone decides it.
    if (const std::size_t points = ParameterSweep::gridSize(request.axes);
        static_cast<std::size_t>(request.shardN) > points)
        throw UsageProblem{QStringLiteral("--shard %1/%2: %2 shards for a grid of %3 points would "
                                          "leave some empty (N must not exceed the points)")
                               .arg(request.shardK)
                               .arg(request.shardN)
                               .arg(points)};
    if (request.measured.used()) {
        request.measured.check(QStringLiteral("sweep"), request.scene);
        if (!request.columns.empty())
            throw UsageProblem{QStringLiteral("sweep: --columns goes with trace output; with "
                                              "--data the columns are the misfit's")};
    }
    FilePaths files(request.scene.scene);
    files.input(QStringLiteral("--data"), request.measured.data);
    files.output(QStringLiteral("--output"), request.output);
    files.check();
    return request;
}

// The misfit landscape as CSV: a column per swept parameter, chi_square (Σ r², r weighted by
// sigma when given) and rms_COLUMN per measured column (its SI unit), a row per grid point.
QByteArray misfitCsv(const SceneDocument& document, const Measurements& measurements,
                     const std::vector<SweepAxis>& axes, std::size_t first, std::size_t last)
{
    const std::vector<std::vector<double>> grid =
        ParameterFit::residualGrid(document, measurements, axes, first, last);
    std::string csv;
    for (const SweepAxis& axis : axes)
        csv += CsvWriter::quote(axis.parameter) + ',';
    csv += "chi_square";
    for (const Measurements::Column& column : measurements.columns)
        csv += ',' + CsvWriter::quote("rms_" + column.name());
    csv += "\r\n";
    const std::size_t times = measurements.times.size();
    for (std::size_t k = 0; k < grid.size(); ++k) {
        for (double value : ParameterSweep::gridPoint(axes, first + k))
            csv += number(value).toStdString() + ','; // as given: 0.39, not 0.39000000000000001
        double chi2 = 0.0;
        for (double r : grid[k])
            chi2 += r * r;
        csv += CsvWriter::formatNumber(chi2);
        for (std::size_t c = 0; c < measurements.columns.size(); ++c) {
            const double sigma =
                measurements.columns[c].sigma > 0.0 ? measurements.columns[c].sigma : 1.0;
            double sum = 0.0;
            for (std::size_t i = 0; i < times; ++i)
                sum += std::pow(grid[k][c * times + i] * sigma, 2);
            csv += ',' + CsvWriter::formatNumber(std::sqrt(sum / static_cast<double>(times)));
        }
        csv += "\r\n";
    }
    return QByteArray::fromStdString(csv);
}

/// Where the sweep's CSV goes, chunk by chunk: standard output, or a file that is renamed into
/// place only when the last chunk arrived (a sweep that fails leaves no half file).
class SweepOutput {
public:
    SweepOutput(const QString& path, CommandContext& context) : context_(context)
    {
        if (path != QLatin1String("-"))
            file_.emplace(path, QStringLiteral("the CSV"));
    }

    void append(const QByteArray& csv)
    {
        if (file_) {
            file_->append(csv);
            return;
        }
        context_.out << QString::fromUtf8(csv);
        context_.out.flush();
        if (context_.out.status() != QTextStream::Ok)
            throw FileError(FileError::Kind::Write, QStringLiteral("standard output"), QString(),
                            QStringLiteral("cannot write the CSV") + closedPipeReason());
    }

    /// Whether the CSV went to a file (which is now complete).
    bool commit()
    {
        if (file_)
            file_->commit();
        return file_.has_value();
    }

private:
    CommandContext& context_;
    std::optional<AtomicFile> file_;
};

// Grid points run and written at a time: the runs' traces and the CSV are held for one chunk
// only, so that a sweep's memory does not grow with its grid (issue 34: 2 kB per point).
constexpr std::size_t kChunk = 256;

int run(const QStringList& args, CommandContext& context)
{
    const SweepRequest request = parseSweep(args);
    const bool misfit = request.measured.used();
    const PreparedScene prepared = request.scene.prepare();
    context.source = prepared.source;
    const CsvWriter writer(request.columns);
    checkColumns(writer, *prepared.definition->create(prepared.document.parameters));

    // The parameters and every value are validated before any run starts.
    const auto [first, last] = ParameterSweep::shard(ParameterSweep::gridSize(request.axes),
                                                     request.shardK, request.shardN);
    const Measurements measurements =
        misfit ? request.measured.load(prepared.document) : Measurements{};
    SweepOutput output(request.output, context);
    std::size_t runs = 0, samples = 0;
    for (std::size_t a = first; a < last; a += kChunk) {
        const std::size_t b = std::min(last, a + kChunk);
        QByteArray csv;
        if (misfit) {
            csv = misfitCsv(prepared.document, measurements, request.axes, a, b);
        } else {
            const std::vector<LabelledTrace> chunk =
                ParameterSweep::runGrid(prepared.document, request.axes, a, b, 0);
            csv = writer.runsCsv(chunk);
            runs += chunk.size();
            for (const LabelledTrace& run : chunk)
                samples += run.trace->samples.size();
        }
        // The header once: only the first shard has it, so that the shards concatenate.
        if (a != first || request.shardK > 1)
            csv.remove(0, csv.indexOf("\r\n") + 2);
        output.append(csv);
    }
    if (!output.commit())
        return CliApplication::Success;
    context.err << prefix;
    if (misfit)
        context.err << "wrote the misfit at " << (last - first) << " grid points";
    else
        context.err << "wrote " << runs << " runs (" << samples << " samples)";
    context.err << " of " << sceneLabel(prepared.document) << " to " << request.output << "\n";
    return CliApplication::Success;
}

} // namespace

CliCommand sweepCommand()
{
    return {QStringLiteral("sweep"),
            QStringLiteral("sweep SCENE --param NAME --values V1,V2,... [OPTIONS]"),
            QStringLiteral("Run a scene once per value of one parameter, in parallel, and\n"
                           "write all runs as one CSV with a first column \"run\"."),
            help, run};
}

} // namespace clab::cli
