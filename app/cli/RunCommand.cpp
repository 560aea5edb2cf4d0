// run SCENE: simulate a scene and write its trace as CSV, streamed as it is computed.
#include "cli/CliText.h"
#include "cli/CommandContext.h"
#include "cli/Commands.h"
#include "cli/FilePaths.h"
#include "cli/PreparedScene.h"
#include "cli/SceneOptions.h"
#include "cli/TerminalProgress.h"
#include "cli/UsageProblem.h"

#include "AtomicFile.h"
#include "CsvStream.h"
#include "CsvWriter.h"
#include "FileError.h"
#include "SceneLoading.h"
#include "integrate/Simulator.h"
#include "symbolic/SymbolicSystem.h"

#include <QTextStream>

#include <memory>

namespace clab::cli {

namespace {

QString help()
{
    const QString head = QStringLiteral(
        "Usage: constraintlab-cli run SCENE [OPTIONS]\n"
        "\n"
        "Simulates SCENE and writes its trace as CSV. SCENE is a built-in scene name (see\n"
        "`constraintlab-cli list`) or the path of a scene file; an argument containing '/'\n"
        "or ending in .json is always taken as a path. Settings the options leave alone\n"
        "come from the scene file.\n"
        "\n"
        "Options (write --option VALUE or --option=VALUE):\n"
        "  --set NAME=VALUE     Set a parameter; vectors as comma lists, e.g. --set J=1,2,3.\n"
        "                       May be repeated.\n");
    const QString tail = QStringLiteral(
        "  --columns A,B,...    Write only these columns, in this order.\n"
        "  -o, --output FILE    Write the CSV to FILE as the rows are computed (memory\n"
        "                       stays flat), renamed into place only when the run\n"
        "                       succeeded: a failed run never leaves half a file. A device\n"
        "                       or a pipe (/dev/null, a FIFO) is written in place, never\n"
        "                       replaced. \"-\" is standard output, the default.\n"
        "  --comment-header     Start the CSV with lines \"# ...\": scene, parameters and\n"
        "                       simulation settings with units, and each column's unit\n"
        "                       (off by default: plain RFC 4180; pandas: comment='#').\n"
        "  --stats              After the run, print its cost on standard error: accepted\n"
        "                       and rejected steps, right-hand-side evaluations, events,\n"
        "                       integrator restarts and projections, wall time.\n"
        "  --events FILE        Also write the stick-slip events as CSV to FILE, atomically:\n"
        "                       t, scene, contact (index), contact_name, event (stick, slip\n"
        "                       or reversal). \"-\" is standard output (with --output FILE).\n"
        "\n"
        "The CSV has a header row, '.' as decimal point, 17 significant digits and CRLF\n"
        "line ends (RFC 4180). Columns: t; for each coordinate c: c, c_dot, c_ddot, Q_c,\n"
        "Qci_c, Qcni_c; then T, V, E, W_nonideal, residual_max, E_error; W_ideal when the\n"
        "constraints depend on time; contact (1 sliding, 0 stuck) for scenes with a\n"
        "frictional contact (contact_NAME for each of several); then the scene's own\n"
        "columns. E_error = E - E(0) - W_nonideal - W_given_nc - W_ideal is the energy\n"
        "audit: it stays at the level of the tolerances.\n"
        "\n"
        "Limits: at most 1e7 output intervals (t_end / dt); rtol from 1e-15 to 1; parameter\n"
        "values within +-1e12 (SI units), positive ones at least 1e-12.\n"
        "On a terminal, a run longer than a second shows its progress on standard error.\n"
        "\n"
        "Exit codes: 0 success, 1 output not writable, 2 usage error, 3 invalid scene or\n"
        "parameter, 4 numerical failure (the message names the scene, the time and what\n"
        "failed; a \"hint:\" line says the likely cause and what to try).\n");
    return head + SceneOptions::simulationOptionsHelp() + tail;
}

// The output options of `run`.
struct RunRequest {
    SceneOptions scene;
    QString output = QStringLiteral("-");
    QString events; // empty: no event file
    std::vector<std::string> columns;
    bool stats = false;         // --stats: the run's cost on standard error
    bool commentHeader = false; // --comment-header: "# ..." lines before the CSV header
};

RunRequest parseRun(const QStringList& args)
{
    RunRequest request;
    request.scene = SceneOptions::parse(args, QStringLiteral("run"), [&](const OptionCursor& o) {
        if (o.option == QLatin1String("--events")) {
            request.events = o.value();
            if (request.events.isEmpty())
                throw UsageProblem{QStringLiteral("option --events needs a file name or -")};
        } else if (isOutputOption(o.option)) {
            request.output = outputOption(o);
        } else if (o.option == QLatin1String("--columns")) {
            request.columns = nameList(o);
        } else if (o.option == QLatin1String("--stats")) {
            request.stats = true;
        } else if (o.option == QLatin1String("--comment-header")) {
            request.commentHeader = true;
        } else {
            return false;
        }
        return true;
    });
    if (request.events == QLatin1String("-") && request.output == QLatin1String("-"))
        throw UsageProblem{QStringLiteral("--events -: standard output already carries the trace; "
                                          "give --output FILE or an event file name")};
    FilePaths files(request.scene.scene);
    files.output(QStringLiteral("--output"), request.output);
    files.output(QStringLiteral("--events"), request.events);
    files.check();
    return request;
}

// Initial values a format-2 file left out and the constraints determined, on standard error.
void reportInitialNotes(const MechanicalSystem& system, QTextStream& err)
{
    if (const auto* symbolic = dynamic_cast<const SymbolicSystem*>(&system))
        for (const std::string& note : symbolic->initialNotes())
            err << prefix << "initial value " << qs(note) << "\n";
}

// The stick-slip events, to standard output ("-") or atomically to a file.
void writeEvents(const Trace& trace, const QString& label, const QString& events,
                 CommandContext& context)
{
    if (events == QLatin1String("-")) {
        context.out << QLatin1String(CsvWriter::eventsCsv(trace, label.toStdString()));
        return;
    }
    CsvWriter::writeEventsFile(trace, label.toStdString(), events);
    context.err << prefix << "wrote " << trace.events.size() << " contact event"
                << (trace.events.size() == 1 ? "" : "s") << " to " << events << "\n";
}

int run(const QStringList& args, CommandContext& context)
{
    QTextStream& out = context.out;
    QTextStream& err = context.err;
    const RunRequest request = parseRun(args);
    const PreparedScene prepared = request.scene.prepare();
    const SceneDocument& document = prepared.document;
    context.source = prepared.source;

    const std::unique_ptr<MechanicalSystem> system =
        prepared.definition->create(document.parameters);
    reportInitialNotes(*system, err);
    CsvWriter writer(request.columns);
    checkColumns(writer, *system);
    const Trace shape = Simulator::emptyTrace(*system);
    if (request.commentHeader)
        writer.setComment(writer.describe(document, shape));

    // The rows stream to the output as they are computed, so memory stays flat however long
    // the run. A regular file is a temporary renamed into place at the end (a failed run leaves
    // no file); standard output, a device or a pipe receives complete rows as they come.
    std::unique_ptr<AtomicFile> file;
    if (request.output != QLatin1String("-"))
        file = std::make_unique<AtomicFile>(request.output, QStringLiteral("the CSV"));
    CsvStream stream(writer, shape, [&](const std::string& chunk) {
        if (file) {
            file->append(chunk.data(), static_cast<qint64>(chunk.size()));
            return;
        }
        out << QString::fromUtf8(chunk.data(), static_cast<qsizetype>(chunk.size()));
        out.flush();
        if (out.status() != QTextStream::Ok)
            throw FileError(FileError::Kind::Write, QStringLiteral("standard output"), QString(),
                            QStringLiteral("cannot write the CSV") + closedPipeReason());
    });

    Simulator simulator(*system);
    SimulationOptions options = document.simulation;
    const double t0 = options.startTime(system->initialTime());
    TerminalProgress progress(err, t0, options.tEnd);
    const RunControl control{[&progress](double t) {
        progress.update(t);
        return true;
    }};
    double lastTime = 0.0;
    const Trace trace = simulator.run(
        options,
        [&](const TraceSample& sample) {
            lastTime = sample.t;
            stream.add(sample);
        },
        control);
    stream.finish();
    progress.clear();
    if (trace.reachedEnd)
        err << prefix << "the run ended at " << (lastTime == t0 ? "its start, " : "")
            << "t = " << number(lastTime) << " s, where " << qs(prepared.definition->end)
            << " (--no-stop-at-end runs on to t_end)\n";
    if (request.stats)
        err << prefix << "stats: " << QString::fromStdString(trace.stats.summary()) << "\n";

    if (file) {
        file->commit();
        err << prefix << "wrote " << stream.rows() << " samples of " << sceneLabel(document)
            << " to " << request.output << "\n";
    }
    if (!request.events.isEmpty())
        writeEvents(trace, sceneLabel(document), request.events, context);
    return CliApplication::Success;
}

} // namespace

CliCommand runCommand()
{
    return {QStringLiteral("run"), QStringLiteral("run SCENE [OPTIONS]"),
            QStringLiteral("Simulate a scene and write the trace as CSV (to standard\n"
                           "output unless --output FILE is given)."),
            help, run};
}

} // namespace clab::cli
