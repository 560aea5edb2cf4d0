#include "CliApplication.h"

#include "SceneNotes.h"

#include "AtomicFile.h"
#include "CsvStream.h"
#include "CsvWriter.h"
#include "FileError.h"
#include "FitReport.h"
#include "MeasurementFile.h"
#include "study/ParameterFit.h"
#include "study/ParameterSweep.h"
#include "trace/PlotCatalog.h"
#include "SceneFile.h"
#include "scenes/SceneRegistry.h"
#include "integrate/SimulationSetting.h"
#include "integrate/Simulator.h"
#include "trace/TraceSeries.h"
#include "symbolic/SymbolicModel.h"
#include "symbolic/SymbolicSystem.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QTextStream>

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <new>
#include <optional>

#ifndef CLAB_VERSION
#define CLAB_VERSION "unknown"
#endif

namespace clab {

namespace {

const QString prefix = QStringLiteral("constraintlab-cli: ");

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

QString number(double v)
{
    return QString::number(v, 'g', QLocale::FloatingPointShortest);
}

// A usage error carries its message up to run(), which prints it with a hint.
struct UsageProblem {
    QString message;
};

// A number in C syntax whatever the locale; nullopt when it is not one. Values beyond the
// range of double come back as ±infinity so that validation names the parameter.
std::optional<double> parseNumber(QString text)
{
    text = text.trimmed();
    if (text.startsWith(QLatin1Char('+')))
        text.remove(0, 1);
    const std::string s = text.toStdString();
    if (s.empty())
        return std::nullopt;
    double value = 0.0;
    const auto result = std::from_chars(s.data(), s.data() + s.size(), value);
    if (result.ptr != s.data() + s.size())
        return std::nullopt;
    if (result.ec == std::errc::result_out_of_range) {
        // from_chars leaves value untouched on overflow/underflow; strtod tells which.
        return std::strtod(s.c_str(), nullptr);
    }
    if (result.ec != std::errc())
        return std::nullopt;
    return value;
}

QString kindName(ConstraintLabError::Kind kind)
{
    switch (kind) {
    case ConstraintLabError::Kind::InvalidParameter:
        return QStringLiteral("invalid parameter");
    case ConstraintLabError::Kind::InvalidInitialState:
        return QStringLiteral("invalid initial state");
    case ConstraintLabError::Kind::InconsistentConstraints:
        return QStringLiteral("inconsistent constraints");
    case ConstraintLabError::Kind::SingularMass:
        return QStringLiteral("singular mass matrix");
    case ConstraintLabError::Kind::NonFinite:
        return QStringLiteral("non-finite value");
    case ConstraintLabError::Kind::IntegrationFailure:
        return QStringLiteral("integration failure");
    }
    return QStringLiteral("error");
}

QString interval(const ParameterSpec& spec)
{
    return QStringLiteral("%1%2, %3]")
        .arg(spec.lowestIncluded() ? "[" : "(")
        .arg(number(spec.lowest()), number(spec.highest()));
}

QString joinValues(const std::vector<double>& values)
{
    QStringList parts;
    for (double v : values)
        parts << number(v);
    return parts.join(QLatin1Char(','));
}

// A follower's default is the parameter it follows ("= mu").
QString defaultText(const ParameterSpec& spec)
{
    return spec.defaultsTo.empty() ? joinValues(spec.defaultValue)
                                   : QStringLiteral("= ") + qs(spec.defaultsTo);
}

// Wraps text at `width` columns, each line indented by `indent` spaces.
QString wrap(const QString& text, int indent, int width = 92)
{
    QString out;
    QString line;
    const QString pad(indent, QLatin1Char(' '));
    for (const QString& word : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        if (!line.isEmpty() && indent + line.size() + 1 + word.size() > width) {
            out += pad + line + QLatin1Char('\n');
            line.clear();
        }
        line += (line.isEmpty() ? QString() : QStringLiteral(" ")) + word;
    }
    if (!line.isEmpty())
        out += pad + line + QLatin1Char('\n');
    return out;
}

// The scene and simulation options that `run`, `sweep` and `plot` share, as given on the
// command line.
struct SceneOptions {
    QString scene;
    std::vector<std::pair<QString, std::vector<double>>> sets; // in command-line order
    std::map<QString, QString> setText;                        // name -> "name=value" as given
    // Simulation settings given on the command line: key -> the value and the option as given
    // ("--t-end 5"), which messages name.
    std::map<std::string, std::pair<double, QString>> simulation;
};

// One command-line option while parsing: its name (without an inline "=value") and a way to
// take its value (the inline one or the next argument).
struct OptionCursor {
    QString option;
    std::function<QString()> value;
};

// The simulation settings' options for a help text: "  --t-end T", its documentation from
// column 23, wrapped at 80 columns (a long option gets a line of its own).
QString simulationOptionsHelp()
{
    constexpr int textColumn = 23;
    constexpr int width = 80;
    QString out;
    for (const SimulationSetting& setting : SimulationSetting::all()) {
        const QString option = QString::fromStdString(setting.option());
        QString line = QStringLiteral("  ") + option +
                       (setting.kind == SimulationSetting::Kind::Flag
                            ? QStringLiteral(", --no-") + option.mid(2)
                            : QLatin1Char(' ') + QString::fromStdString(setting.placeholder));
        if (line.size() >= textColumn - 1) {
            out += line + QLatin1Char('\n');
            line.clear();
        }
        for (const QString& word : QString::fromStdString(setting.documentation).split(' ')) {
            const bool first = line.size() <= textColumn;
            if (!first && line.size() + 1 + word.size() > width) {
                out += line + QLatin1Char('\n');
                line.clear();
            }
            if (line.size() < textColumn)
                line = line.leftJustified(textColumn) + word;
            else
                line += QLatin1Char(' ') + word;
        }
        out += line + QLatin1Char('\n');
    }
    return out;
}

// The simulation setting an option sets ("--t-end", "--stop-at-end", "--no-stop-at-end"), or
// nullptr.
const SimulationSetting* simulationSettingFor(const QString& option)
{
    for (const SimulationSetting& setting : SimulationSetting::all()) {
        const QString name = QString::fromStdString(setting.option());
        if (option == name || (setting.kind == SimulationSetting::Kind::Flag &&
                               option == QLatin1String("--no-") + name.mid(2)))
            return &setting;
    }
    return nullptr;
}

// A comma list of names, e.g. --columns or --y.
std::vector<std::string> nameList(const OptionCursor& option)
{
    const QString list = option.value();
    std::vector<std::string> names;
    for (const QString& name : list.split(QLatin1Char(','))) {
        if (name.trimmed().isEmpty())
            throw UsageProblem{QStringLiteral("%1 %2: empty name").arg(option.option, list)};
        names.push_back(name.trimmed().toStdString());
    }
    return names;
}

// Parses SCENE and the shared options; `extra` handles a command's own options and returns
// false for an option it does not know.
SceneOptions parseSceneOptions(const QStringList& args, const QString& command,
                               const std::function<bool(const OptionCursor&)>& extra)
{
    SceneOptions request;
    bool haveScene = false;
    for (int i = 0; i < args.size(); ++i) {
        QString option = args[i];
        std::optional<QString> inlineValue;
        if (option.startsWith(QLatin1String("--")) && option.contains(QLatin1Char('='))) {
            const int eq = option.indexOf(QLatin1Char('='));
            inlineValue = option.mid(eq + 1);
            option = option.left(eq);
        }
        auto value = [&]() -> QString {
            if (inlineValue)
                return *inlineValue;
            if (i + 1 >= args.size())
                throw UsageProblem{QStringLiteral("option %1 needs a value").arg(option)};
            return args[++i];
        };
        auto numberOption = [&](std::optional<double>& target, QString& text) {
            text = value();
            target = parseNumber(text);
            if (!target)
                throw UsageProblem{
                    QStringLiteral("option %1: \"%2\" is not a number").arg(option, text)};
        };

        if (option == QLatin1String("--set")) {
            const QString assignment = value();
            const int eq = assignment.indexOf(QLatin1Char('='));
            const QString name = eq < 0 ? QString() : assignment.left(eq).trimmed();
            if (eq < 0 || name.isEmpty())
                throw UsageProblem{
                    QStringLiteral("--set %1: expected NAME=VALUE, e.g. --set mu=0.3 "
                                   "or --set J=1,2,3")
                        .arg(assignment)};
            const QString text = assignment.mid(eq + 1);
            std::vector<double> values;
            for (const QString& part : text.split(QLatin1Char(','))) {
                const auto v = parseNumber(part);
                if (!v && part.trimmed().isEmpty())
                    throw UsageProblem{
                        QStringLiteral("--set %1: missing value (vectors are comma lists, e.g. "
                                       "J=1,2,3)")
                            .arg(assignment)};
                if (!v)
                    throw UsageProblem{QStringLiteral("--set %1: \"%2\" is not a number")
                                           .arg(assignment, part.trimmed())};
                values.push_back(*v);
            }
            request.sets.emplace_back(name, values);
            request.setText[name] = assignment;
        } else if (const SimulationSetting* setting = simulationSettingFor(option)) {
            const QString given = option;
            double setValue = 0.0;
            QString text;
            switch (setting->kind) {
            case SimulationSetting::Kind::Number: {
                std::optional<double> number;
                numberOption(number, text);
                setValue = *number;
                break;
            }
            case SimulationSetting::Kind::Choice: {
                text = value();
                const std::optional<double> named = setting->valueNamed(text.toStdString());
                if (!named)
                    throw UsageProblem{QStringLiteral("%1 %2: unknown %3 (use %4)")
                                           .arg(option, text, QString::fromStdString(setting->key),
                                                QString::fromStdString(setting->nameList()))};
                setValue = *named;
                break;
            }
            case SimulationSetting::Kind::Flag:
                if (inlineValue)
                    throw UsageProblem{QStringLiteral("option %1 takes no value").arg(option)};
                setValue = option.startsWith(QLatin1String("--no-")) ? 0.0 : 1.0;
                break;
            }
            request.simulation[setting->key] = {
                setValue, text.isNull() ? given : given + QLatin1Char(' ') + text};
        } else if (option.startsWith(QLatin1Char('-')) && option != QLatin1String("-")) {
            bool tookValue = false;
            const auto countedValue = [&]() {
                tookValue = true;
                return value();
            };
            if (!extra || !extra(OptionCursor{option, countedValue}))
                throw UsageProblem{QStringLiteral("%1: unknown option %2").arg(command, option)};
            if (inlineValue && !tookValue)
                throw UsageProblem{QStringLiteral("option %1 takes no value").arg(option)};
        } else if (!haveScene) {
            request.scene = option;
            haveScene = true;
        } else {
            throw UsageProblem{QStringLiteral("%1: unexpected argument \"%2\" (only one scene)")
                                   .arg(command, option)};
        }
    }
    if (!haveScene)
        throw UsageProblem{
            QStringLiteral("%1: missing SCENE (a built-in name or a scene file)").arg(command)};
    return request;
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

// --output FILE|-, shared by run and sweep.
QString outputOption(const OptionCursor& option)
{
    const QString output = option.value();
    if (output.isEmpty())
        throw UsageProblem{QStringLiteral("option %1 needs a file name or -").arg(option.option)};
    return output;
}

bool isOutputOption(const QString& option)
{
    return option == QLatin1String("--output") || option == QLatin1String("-o");
}

RunRequest parseRun(const QStringList& args)
{
    RunRequest request;
    request.scene = parseSceneOptions(args, QStringLiteral("run"), [&](const OptionCursor& o) {
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
    return request;
}

bool looksLikePath(const QString& scene)
{
    return scene.contains(QLatin1Char('/')) || scene.endsWith(QLatin1String(".json"));
}

bool isBuiltInName(const QString& scene)
{
    return !looksLikePath(scene) && SceneRegistry::find(scene.toStdString());
}

// Built-in name unless it looks like a path; a file of that name is the last resort.
SceneDocument loadScene(const QString& scene)
{
    // Only what the file states, so that --set mu=... also moves a mu_s the file leaves to
    // follow mu; completed and validated after the command-line overrides.
    if (isBuiltInName(scene))
        return SceneFile::loadBuiltIn(scene, SceneFile::Check::Structure);
    if (looksLikePath(scene) || QFileInfo::exists(scene))
        return SceneFile::load(scene, SceneFile::Check::Structure);
    QStringList names;
    for (const SceneDefinition& d : SceneRegistry::builtIn())
        names << qs(d.name);
    throw FileError(FileError::Kind::Invalid, scene, QString(),
                    QStringLiteral("neither a built-in scene (%1) nor a scene file")
                        .arg(names.join(QStringLiteral(", "))));
}

// How messages name a scene: its built-in name, or "system TITLE" for one from equations.
QString sceneLabel(const SceneDocument& document)
{
    if (!document.system)
        return qs(document.scene);
    return QStringLiteral("system \"%1\"").arg(qs(document.definition()->title));
}

// Initial values a format-2 file left out and the constraints determined, on standard error.
void reportInitialNotes(const MechanicalSystem& system, QTextStream& err)
{
    if (const auto* symbolic = dynamic_cast<const SymbolicSystem*>(&system))
        for (const std::string& note : symbolic->initialNotes())
            err << prefix << "initial value " << qs(note) << "\n";
}

} // namespace

int CliApplication::exitCodeFor(ConstraintLabError::Kind kind)
{
    switch (kind) {
    case ConstraintLabError::Kind::InvalidParameter:
    case ConstraintLabError::Kind::InvalidInitialState:
        return InvalidScene;
    case ConstraintLabError::Kind::InconsistentConstraints:
    case ConstraintLabError::Kind::SingularMass:
    case ConstraintLabError::Kind::NonFinite:
    case ConstraintLabError::Kind::IntegrationFailure:
        return NumericalFailure;
    }
    return NumericalFailure;
}

QString CliApplication::usage()
{
    return QStringLiteral(
        "Usage: constraintlab-cli COMMAND [ARGUMENTS]\n"
        "\n"
        "Runs ConstraintLab's scenes (the Udwadia-Kalaba equation M q'' = Q + Qci + Qcni)\n"
        "without a display and writes their traces as CSV.\n"
        "\n"
        "Commands:\n"
        "  list                 List the built-in scenes.\n"
        "  describe SCENE       Show a scene's parameters (units, defaults, ranges) and its\n"
        "                       simulation settings.\n"
        "  run SCENE [OPTIONS]  Simulate a scene and write the trace as CSV (to standard\n"
        "                       output unless --output FILE is given).\n"
        "  derive FILE [--format text|latex|json]\n"
        "                       Print M, Q, A, b and the friction terms derived from a\n"
        "                       system written as equations (a format-2 scene file).\n"
        "  sweep SCENE --param NAME --values V1,V2,... [OPTIONS]\n"
        "                       Run a scene once per value of one parameter, in parallel, and\n"
        "                       write all runs as one CSV with a first column \"run\".\n"
        "  fit SCENE --data FILE --map COLUMN=QUANTITY --param NAME[,NAME...] [OPTIONS]\n"
        "                       Fit scene parameters (friction, ...) to a measured trace by\n"
        "                       least squares; print values, standard errors, correlations.\n"
        "  plot SCENE (--y A,B,... | --preset ID) --output FILE.png|svg|pdf [OPTIONS]\n"
        "                       Simulate a scene and draw quantities of its trace into a file.\n"
        "  help [COMMAND]       Show this help, or the help of COMMAND.\n"
        "\n"
        "Options:\n"
        "  -h, --help           Show this help.\n"
        "  --version            Show the version.\n"
        "\n"
        "Exit codes:\n"
        "  0  success\n"
        "  1  the output file could not be written\n"
        "  2  usage error: unknown command or option, missing or malformed value\n"
        "  3  invalid scene file, scene name or parameter value\n"
        "  4  numerical failure during the simulation (the message says when and why)\n"
        "\n"
        "Examples:\n"
        "  constraintlab-cli run bead-on-wire --set mu=0.3 --t-end 5 --output bead.csv\n"
        "  constraintlab-cli sweep bead-on-wire --param mu --values 0,0.1,0.3 -o sweep.csv\n"
        "  constraintlab-cli plot ring --set mu=0.2 --preset energy --output energy.svg\n"
        "  constraintlab-cli fit bead-on-wire --data meas.csv --map pos=s --param mu\n");
}

QString CliApplication::commandHelp(const QString& command)
{
    if (command == QLatin1String("list"))
        return QStringLiteral("Usage: constraintlab-cli list\n"
                              "\n"
                              "Lists the built-in scenes: name and title, one per line.\n");
    if (command == QLatin1String("derive"))
        return QStringLiteral(
            "Usage: constraintlab-cli derive FILE [--format text|latex|json]\n"
            "\n"
            "Prints what ConstraintLab derives from a system written as equations (a scene\n"
            "file with \"format\": 2): the mass matrix M = d2T/dqdot2, the given force Q (from\n"
            "the potential, the forces and the velocity terms of T), each constraint with its\n"
            "row of A and its b (A qddot = b), and the slip velocity of each friction contact.\n"
            "text is for reading, latex for a document, json for programs.\n");
    if (command == QLatin1String("describe"))
        return QStringLiteral(
            "Usage: constraintlab-cli describe SCENE\n"
            "\n"
            "Shows a built-in scene: title, description, every parameter with its unit,\n"
            "default, valid range and meaning, and the simulation settings of its scene file.\n");
    if (command == QLatin1String("run")) {
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
        return head + simulationOptionsHelp() + tail;
    }
    if (command == QLatin1String("sweep"))
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
    if (command == QLatin1String("fit"))
        return QStringLiteral(
            "Usage: constraintlab-cli fit SCENE --data FILE --map COLUMN=QUANTITY[*SCALE]\n"
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
            "  --data FILE          The measurements: CSV or blank-separated columns, '#'\n"
            "                       comments, a header row (or none: columns 1, 2, ...).\n"
            "  --map COL=Q[*S]      Column COL measures trace quantity Q (s, x, phi, ...; see\n"
            "                       the CSV columns of `run`), times S to make it SI (0.01 for\n"
            "                       cm). Repeat, or give a comma list, for several columns.\n"
            "  --param A,B,...      The scalar parameters to fit (required).\n"
            "  --sigma S | COL=S    Standard deviation of the measured values (SI units); one\n"
            "                       value for all columns or per column. Without it the errors\n"
            "                       are scaled by the residual variance.\n"
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
            "message names the line, column and why), 4 numerical failure.\n");
    if (command == QLatin1String("plot"))
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
    if (command == QLatin1String("help"))
        return QStringLiteral("Usage: constraintlab-cli help [COMMAND]\n"
                              "\n"
                              "Shows the general help, or the help of COMMAND (list, describe, "
                              "run, sweep, fit, plot).\n");
    return QString();
}

int CliApplication::run(const QStringList& arguments, QTextStream& out, QTextStream& err)
{
    const auto usageFailure = [&](const QString& message) {
        err << prefix << message << "\n" << prefix << "try 'constraintlab-cli --help'\n";
        err.flush();
        return static_cast<int>(UsageError);
    };
    if (arguments.isEmpty()) {
        err << prefix << "missing COMMAND\n\n" << usage();
        err.flush();
        return UsageError;
    }
    const QString command = arguments.first();
    const QStringList rest = arguments.mid(1);
    const bool wantsHelp =
        rest.contains(QLatin1String("--help")) || rest.contains(QLatin1String("-h"));

    int code = Success;
    try {
        if (command == QLatin1String("--help") || command == QLatin1String("-h")) {
            out << usage();
        } else if (command == QLatin1String("--version")) {
            out << "constraintlab-cli " << CLAB_VERSION << "\n";
        } else if (command == QLatin1String("help")) {
            if (rest.isEmpty()) {
                out << usage();
            } else if (rest.size() == 1 && !commandHelp(rest.first()).isEmpty()) {
                out << commandHelp(rest.first());
            } else {
                return usageFailure(
                    QStringLiteral("help: unknown command \"%1\"").arg(rest.join(' ')));
            }
        } else if (!commandHelp(command).isEmpty() && wantsHelp) {
            out << commandHelp(command);
        } else if (command == QLatin1String("list")) {
            code = list(rest, out, err);
        } else if (command == QLatin1String("describe")) {
            code = describe(rest, out, err);
        } else if (command == QLatin1String("run")) {
            code = runScene(rest, out, err);
        } else if (command == QLatin1String("derive")) {
            code = derive(rest, out, err);
        } else if (command == QLatin1String("sweep")) {
            code = sweep(rest, out, err);
        } else if (command == QLatin1String("fit")) {
            code = fit(rest, out, err);
        } else if (command == QLatin1String("plot")) {
            code = plot(rest, out, err);
        } else if (command.startsWith(QLatin1Char('-'))) {
            return usageFailure(QStringLiteral("unknown option %1").arg(command));
        } else {
            return usageFailure(QStringLiteral("unknown command \"%1\"").arg(command));
        }
    } catch (const UsageProblem& e) {
        return usageFailure(e.message);
    } catch (const FileError& e) {
        err << prefix << e.what() << "\n";
        code = e.kind() == FileError::Kind::Write ? OutputFailure : InvalidScene;
    } catch (const ConstraintLabError& e) {
        // Which scene, what kind of failure, when and what failed; then the likely cause.
        const QString where = source_.isEmpty() ? QString() : source_ + QStringLiteral(": ");
        err << prefix << FileError::escaped(where, 300) << kindName(e.kind()) << ": "
            << FileError::escaped(QString::fromUtf8(e.what()), 4000) << "\n";
        if (!e.hint().empty())
            err << prefix << "hint: " << QString::fromStdString(e.hint()) << "\n";
        code = exitCodeFor(e.kind());
    } catch (const std::bad_alloc&) {
        err << prefix << "out of memory; try a larger --dt or a shorter --t-end\n";
        code = NumericalFailure;
    } catch (const std::exception& e) {
        // Anything else escapes from the integrator (e.g. an odeint step-size error).
        err << prefix << "the simulation failed: " << e.what() << "\n";
        code = NumericalFailure;
    }
    out.flush();
    if (out.status() != QTextStream::Ok && code == Success) {
        err << prefix << "cannot write to standard output\n";
        code = OutputFailure;
    }
    err.flush();
    return code;
}

int CliApplication::list(const QStringList& args, QTextStream& out, QTextStream&)
{
    if (!args.isEmpty())
        throw UsageProblem{QStringLiteral("list: unexpected argument \"%1\"").arg(args.first())};
    int width = 0;
    for (const SceneDefinition& d : SceneRegistry::builtIn())
        width = std::max(width, static_cast<int>(d.name.size()));
    for (const SceneDefinition& d : SceneRegistry::builtIn())
        out << qs(d.name).leftJustified(width + 2) << qs(d.title) << "\n";
    return Success;
}

int CliApplication::describe(const QStringList& args, QTextStream& out, QTextStream&)
{
    if (args.size() != 1)
        throw UsageProblem{
            args.isEmpty()
                ? QStringLiteral("describe: missing SCENE")
                : QStringLiteral("describe: expected one SCENE, got %1").arg(args.size())};
    const QString name = args.first();
    const bool file = !isBuiltInName(name) && (looksLikePath(name) || QFileInfo::exists(name));
    if (!file && !SceneRegistry::find(name.toStdString())) {
        QStringList names;
        for (const SceneDefinition& d : SceneRegistry::builtIn())
            names << qs(d.name);
        throw FileError(FileError::Kind::Invalid, name, QString(),
                        QStringLiteral("unknown scene (built-in scenes: %1)")
                            .arg(names.join(QStringLiteral(", "))));
    }
    const SceneDocument document = file ? SceneFile::load(name) : SceneFile::loadBuiltIn(name);
    const SceneDefinition* definition = document.definition();

    out << (document.system ? QStringLiteral("system") : qs(definition->name)) << " - "
        << qs(definition->title) << "\n\n";
    out << wrap(qs(definition->description), 0) << "\n";
    if (!document.notes.empty())
        out << "Notes (" << qs(document.title) << "):\n"
            << wrap(SceneNotes::shown(document), 2) << "\n";

    // A table: name, unit, default, range, then the description on its own line(s).
    int nameWidth = 4, unitWidth = 4, defaultWidth = 7, rangeWidth = 5;
    for (const ParameterSpec& p : definition->parameters) {
        nameWidth = std::max(nameWidth, static_cast<int>(p.name.size()));
        unitWidth = std::max(unitWidth, static_cast<int>(qs(p.unit).size()));
        defaultWidth = std::max(defaultWidth, static_cast<int>(defaultText(p).size()));
        rangeWidth = std::max(rangeWidth, static_cast<int>(interval(p).size()));
    }
    out << "Parameters (set with --set NAME=VALUE; vectors as comma lists):\n";
    out << "  " << QStringLiteral("name").leftJustified(nameWidth + 2)
        << QStringLiteral("unit").leftJustified(unitWidth + 2)
        << QStringLiteral("default").leftJustified(defaultWidth + 2)
        << QStringLiteral("range").leftJustified(rangeWidth + 2) << "description\n";
    for (const ParameterSpec& p : definition->parameters) {
        const QString unit = p.unit.empty() ? QStringLiteral("-") : qs(p.unit);
        const QString size =
            p.size() > 1 ? QStringLiteral(" (%1 components)").arg(p.size()) : QString();
        out << "  " << qs(p.name).leftJustified(nameWidth + 2) << unit.leftJustified(unitWidth + 2)
            << defaultText(p).leftJustified(defaultWidth + 2)
            << interval(p).leftJustified(rangeWidth + 2) << qs(p.description) << size << "\n";
    }

    const SimulationOptions& s = document.simulation;
    out << (file ? "\nSimulation (from the scene file; override with --t-end, --dt, ...):\n"
                 : "\nSimulation (from the built-in scene file; override with --t-end, --dt, "
                   "...):\n")
        << "  t_end = " << number(s.tEnd) << " s, dt = " << number(s.dt)
        << " s, integrator = " << qs(SimulationSetting::find("integrator")->nameIn(s))
        << ", rtol = " << number(s.rtol) << ", atol = " << number(s.atol)
        << ", stabilization = " << qs(SimulationSetting::find("stabilization")->nameIn(s));
    if (s.stabilization == Stabilization::Baumgarte)
        out << " (alpha = " << number(s.baumgarteAlpha)
            << " 1/s, beta = " << number(s.baumgarteBeta) << " 1/s)";
    out << "\n";
    if (!definition->end.empty())
        out << "  stop_at_end = " << (s.stopAtEnd ? "on" : "off")
            << ": when on, a run ends early where " << qs(definition->end)
            << " (--stop-at-end, --no-stop-at-end)\n";
    return Success;
}

namespace {

// A scene document with the command line's --set and simulation options applied, completed and
// validated; errors name the command-line option that caused them.
struct PreparedScene {
    SceneDocument document;
    const SceneDefinition* definition = nullptr;
    QString source; ///< "scene NAME" or the file, for messages
};

PreparedScene prepareScene(const SceneOptions& request)
{
    SceneDocument document = loadScene(request.scene);
    const QString source = isBuiltInName(request.scene)
                               ? QStringLiteral("scene %1").arg(request.scene)
                               : request.scene;

    const SceneDefinition* definition = document.definition();
    for (const auto& [name, values] : request.sets) {
        if (!definition->parameter(name.toStdString())) {
            QStringList names;
            for (const ParameterSpec& p : definition->parameters)
                names << qs(p.name);
            throw FileError(FileError::Kind::Invalid,
                            QStringLiteral("--set ") + request.setText.at(name), QString(),
                            QStringLiteral("%1 has no parameter \"%2\" (its parameters: %3)")
                                .arg(sceneLabel(document), name, names.join(QStringLiteral(", "))));
        }
        document.parameters[name.toStdString()] = values;
    }
    document.parameters = definition->complete(document.parameters);
    SimulationOptions& options = document.simulation;
    for (const auto& [key, given] : request.simulation)
        SimulationSetting::find(key)->set(options, given.first);

    // Validate the combination; name the command-line option when it caused the problem.
    try {
        SceneFile::validate(document, source);
    } catch (const FileError& e) {
        const QString key = e.key();
        if (key.startsWith(QLatin1String("simulation."))) {
            const auto it = request.simulation.find(key.mid(11).toStdString());
            if (it != request.simulation.end())
                throw FileError(FileError::Kind::Invalid, it->second.second, QString(), e.reason());
        }
        if (key.startsWith(QLatin1String("parameters."))) {
            const QString name = key.mid(11).section(QLatin1Char('['), 0, 0); // J[1] -> J
            if (const auto it = request.setText.find(name); it != request.setText.end())
                throw FileError(FileError::Kind::Invalid, QStringLiteral("--set ") + it->second,
                                key.mid(11), e.reason());
        }
        if (key == QLatin1String("parameters") && !request.sets.empty())
            throw FileError(FileError::Kind::Invalid, source + QStringLiteral(" with --set"), key,
                            e.reason());
        throw;
    }
    return {document, definition, source};
}

// An empty trace with the system's columns, to check --columns before a possibly long run.
Trace emptyTrace(const MechanicalSystem& system)
{
    return Simulator::emptyTrace(system);
}

void checkColumns(const CsvWriter& writer, const MechanicalSystem& system)
{
    try {
        writer.columnIndices(emptyTrace(system));
    } catch (const FileError& e) {
        throw UsageProblem{QStringLiteral("--columns: ") + e.reason()};
    }
}

// --values V1,V2,...: a non-empty list of numbers.
std::vector<double> valueList(const OptionCursor& option)
{
    const QString list = option.value();
    std::vector<double> values;
    for (const QString& part : list.split(QLatin1Char(','))) {
        if (part.trimmed().isEmpty())
            throw UsageProblem{
                QStringLiteral("%1 \"%2\": empty value (give a comma list, e.g. 0,0.1,0.3)")
                    .arg(option.option, list)};
        const auto v = parseNumber(part);
        if (!v)
            throw UsageProblem{QStringLiteral("%1 %2: \"%3\" is not a number")
                                   .arg(option.option, list, part.trimmed())};
        values.push_back(*v);
    }
    return values;
}

QStringList qList(const std::vector<std::string>& names)
{
    QStringList list;
    for (const std::string& name : names)
        list << qs(name);
    return list;
}

} // namespace

namespace {

// "t = 12.3 s of 100 s (12 %)" on the terminal's last line while a run takes more than a
// second; nothing when standard error is not a terminal (a log or a pipe stays clean).
class TerminalProgress {
public:
    TerminalProgress(QTextStream& err, double t0, double tEnd)
        : err_(err), t0_(t0), tEnd_(tEnd), active_(isatty(STDERR_FILENO) == 1)
    {
        clock_.start();
    }
    ~TerminalProgress() { clear(); }

    void update(double t)
    {
        if (!active_ || clock_.elapsed() < nextMs_)
            return;
        nextMs_ = clock_.elapsed() + 250;
        const double percent = 100.0 * (t - t0_) / (tEnd_ - t0_);
        err_ << "\r" << prefix << "t = " << number(t) << " s of " << number(tEnd_) << " s ("
             << QString::number(percent, 'f', 0) << " %)   ";
        err_.flush();
        shown_ = true;
    }

    void clear()
    {
        if (shown_)
            err_ << "\r\033[K";
        err_.flush();
        shown_ = false;
    }

private:
    QTextStream& err_;
    double t0_, tEnd_;
    bool active_;
    bool shown_ = false;
    qint64 nextMs_ = 1000;
    QElapsedTimer clock_;
};

} // namespace

int CliApplication::derive(const QStringList& args, QTextStream& out, QTextStream&)
{
    QString scene;
    SymbolicModel::Format format = SymbolicModel::Format::Text;
    for (int i = 0; i < args.size(); ++i) {
        const QString& a = args[i];
        QString value;
        const bool formatOption = a == QLatin1String("--format") || a.startsWith("--format=");
        if (formatOption) {
            if (a.contains(QLatin1Char('=')))
                value = a.section(QLatin1Char('='), 1);
            else if (i + 1 < args.size())
                value = args[++i];
            else
                throw UsageProblem{QStringLiteral("option --format needs text, latex or json")};
            if (value == QLatin1String("text"))
                format = SymbolicModel::Format::Text;
            else if (value == QLatin1String("latex"))
                format = SymbolicModel::Format::Latex;
            else if (value == QLatin1String("json"))
                format = SymbolicModel::Format::Json;
            else
                throw UsageProblem{
                    QStringLiteral("--format %1: unknown format (use text, latex or json)")
                        .arg(value)};
        } else if (a.startsWith(QLatin1Char('-')) && a != QLatin1String("-")) {
            throw UsageProblem{QStringLiteral("derive: unknown option %1").arg(a)};
        } else if (scene.isEmpty()) {
            scene = a;
        } else {
            throw UsageProblem{QStringLiteral("derive: unexpected argument \"%1\"").arg(a)};
        }
    }
    if (scene.isEmpty())
        throw UsageProblem{QStringLiteral("derive: missing FILE (a format-2 scene file)")};
    const SceneDocument document = loadScene(scene);
    if (!document.system)
        throw FileError(FileError::Kind::Invalid, scene, QString(),
                        QStringLiteral("is a built-in scene written in C++ (its equations are in "
                                       "docs/MATH.md); derive reads a scene file of format 2, "
                                       "e.g. scenes/systems/%1.json")
                            .arg(qs(document.scene)));
    out << qs(document.system->derivationText(format));
    return Success;
}

int CliApplication::runScene(const QStringList& args, QTextStream& out, QTextStream& err)
{
    const RunRequest request = parseRun(args);
    const PreparedScene prepared = prepareScene(request.scene);
    const SceneDocument& document = prepared.document;
    source_ = prepared.source;

    const std::unique_ptr<MechanicalSystem> system =
        prepared.definition->create(document.parameters);
    reportInitialNotes(*system, err);
    CsvWriter writer(request.columns);
    checkColumns(writer, *system);
    const Trace shape = emptyTrace(*system);
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
                            QStringLiteral("cannot write the CSV"));
    });

    Simulator simulator(*system);
    SimulationOptions options = document.simulation;
    TerminalProgress progress(err, system->initialTime(), options.tEnd);
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
        err << prefix << "the run ended at t = " << number(lastTime) << " s, where "
            << qs(prepared.definition->end) << " (--no-stop-at-end runs on to t_end)\n";
    if (request.stats)
        err << prefix << "stats: " << QString::fromStdString(trace.stats.summary()) << "\n";

    if (file) {
        file->commit();
        err << prefix << "wrote " << stream.rows() << " samples of " << sceneLabel(document)
            << " to " << request.output << "\n";
    }
    if (!request.events.isEmpty()) {
        if (request.events == QLatin1String("-")) {
            out << QLatin1String(CsvWriter::eventsCsv(trace, sceneLabel(document).toStdString()));
        } else {
            CsvWriter::writeEventsFile(trace, sceneLabel(document).toStdString(), request.events);
            err << prefix << "wrote " << trace.events.size() << " contact event"
                << (trace.events.size() == 1 ? "" : "s") << " to " << request.events << "\n";
        }
    }
    return Success;
}

namespace {

// "NAME=VALUE" of --map, --sigma and --bounds: the name and the text after '='.
std::pair<QString, QString> assignment(const QString& option, const QString& text,
                                       const QString& example)
{
    const int eq = text.indexOf(QLatin1Char('='));
    if (eq <= 0 || eq == text.size() - 1)
        throw UsageProblem{QStringLiteral("%1 %2: expected %3")
                               .arg(option, text.isEmpty() ? "\"\"" : text, example)};
    return {text.left(eq).trimmed(), text.mid(eq + 1).trimmed()};
}

double numberOf(const QString& option, const QString& text)
{
    const auto v = parseNumber(text);
    if (!v || !std::isfinite(*v))
        throw UsageProblem{QStringLiteral("%1: \"%2\" is not a finite number").arg(option, text)};
    return *v;
}

// --data, --map, --sigma and the time options, which `fit` and a misfit `sweep` share.
struct MeasurementOptions {
    QString data;
    std::vector<MeasurementFile::Mapping> mappings;
    std::optional<double> sigmaAll;
    std::map<QString, double> sigmas;
    MeasurementFile::Time time;

    // Takes one of these options; false for any other.
    bool parse(const OptionCursor& o)
    {
        const QString& name = o.option;
        if (name == QLatin1String("--data")) {
            data = o.value();
            if (data.isEmpty())
                throw UsageProblem{QStringLiteral("option --data needs a file name")};
        } else if (name == QLatin1String("--map")) {
            for (const QString& item : o.value().split(QLatin1Char(','))) {
                const auto [column, target] =
                    assignment(name, item, QStringLiteral("COLUMN=QUANTITY[*SCALE], e.g. pos=s"));
                const QString quantity = target.section(QLatin1Char('*'), 0, 0).trimmed();
                const double scale =
                    target.contains(QLatin1Char('*'))
                        ? numberOf(name + QLatin1Char(' ') + item, target.section('*', 1))
                        : 1.0;
                mappings.push_back({column, quantity.toStdString(), scale, 0.0});
            }
        } else if (name == QLatin1String("--sigma")) {
            const QString text = o.value();
            if (!text.contains(QLatin1Char('='))) {
                sigmaAll = numberOf(name, text);
            } else {
                for (const QString& item : text.split(QLatin1Char(','))) {
                    const auto [column, value] =
                        assignment(name, item, QStringLiteral("S or COLUMN=S, e.g. pos=0.002"));
                    sigmas[column] = numberOf(name + QLatin1Char(' ') + item, value);
                }
            }
        } else if (name == QLatin1String("--time-column")) {
            time.column = o.value().trimmed();
        } else if (name == QLatin1String("--time-scale")) {
            time.scale = numberOf(name, o.value());
            if (time.scale <= 0.0)
                throw UsageProblem{QStringLiteral("--time-scale must be greater than 0")};
        } else if (name == QLatin1String("--time-offset")) {
            time.offset = numberOf(name, o.value());
        } else {
            return false;
        }
        return true;
    }

    // After parsing: --data and --map given, --sigma for mapped columns, no --t-end or --dt
    // (the measured times set them).
    void check(const QString& command, const SceneOptions& options)
    {
        for (const char* key : {"t_end", "dt"})
            if (const auto it = options.simulation.find(key); it != options.simulation.end())
                throw UsageProblem{QStringLiteral("%1: %2: the measured times set the end and "
                                                  "the output times of the runs")
                                       .arg(command, it->second.second)};
        if (data.isEmpty())
            throw UsageProblem{
                QStringLiteral("%1: missing --data FILE (the measurements)").arg(command)};
        if (mappings.empty())
            throw UsageProblem{QStringLiteral("%1: missing --map COLUMN=QUANTITY (which trace "
                                              "quantity a column measures)")
                                   .arg(command)};
        for (const auto& entry : sigmas) {
            const QString& column =
                entry.first; // not a structured binding: clang 14 cannot capture one
            const auto mapped = std::find_if(mappings.begin(), mappings.end(),
                                             [&](const auto& m) { return m.column == column; });
            if (mapped == mappings.end())
                throw UsageProblem{
                    QStringLiteral("--sigma %1=...: column \"%1\" is not mapped").arg(column)};
            mapped->sigma = entry.second;
        }
        for (MeasurementFile::Mapping& m : mappings) {
            if (sigmaAll && !sigmas.count(m.column))
                m.sigma = *sigmaAll;
            if (m.sigma < 0.0)
                throw UsageProblem{
                    QStringLiteral("--sigma: a standard deviation must not be negative")};
        }
    }

    Measurements load() const { return MeasurementFile::load(data, mappings, time); }
    // Whether any of these options was given.
    bool used() const
    {
        return !data.isEmpty() || !mappings.empty() || sigmaAll || !sigmas.empty();
    }
};

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

} // namespace

int CliApplication::sweep(const QStringList& args, QTextStream& out, QTextStream& err)
{
    // --param and --values alternate: each --values belongs to the --param before it.
    std::vector<SweepAxis> axes;
    bool valuesPending = false;
    QString output = QStringLiteral("-");
    std::vector<std::string> columns;
    int shardK = 1, shardN = 1;
    MeasurementOptions measured; // --data: the misfit at each point instead of the traces
    const SceneOptions options =
        parseSceneOptions(args, QStringLiteral("sweep"), [&](const OptionCursor& o) {
            if (measured.parse(o))
                return true;
            if (o.option == QLatin1String("--param")) {
                const QString parameter = o.value().trimmed();
                if (parameter.isEmpty())
                    throw UsageProblem{QStringLiteral("option --param needs a parameter name")};
                if (valuesPending)
                    throw UsageProblem{QStringLiteral("sweep: --param %1 needs its --values "
                                                      "before the next --param")
                                           .arg(qs(axes.back().parameter))};
                axes.push_back({parameter.toStdString(), {}});
                valuesPending = true;
            } else if (o.option == QLatin1String("--values")) {
                if (!valuesPending)
                    throw UsageProblem{
                        QStringLiteral("sweep: --values must follow the --param it belongs to")};
                axes.back().values = valueList(o);
                valuesPending = false;
            } else if (o.option == QLatin1String("--shard")) {
                const QString text = o.value();
                const QStringList parts = text.split(QLatin1Char('/'));
                bool okK = false, okN = false;
                shardK = parts.size() == 2 ? parts[0].toInt(&okK) : 0;
                shardN = parts.size() == 2 ? parts[1].toInt(&okN) : 0;
                if (!okK || !okN || shardN < 1 || shardK < 1 || shardK > shardN)
                    throw UsageProblem{QStringLiteral("--shard %1: expected K/N with 1 <= K <= N, "
                                                      "e.g. --shard 2/8")
                                           .arg(text)};
            } else if (o.option == QLatin1String("--columns")) {
                columns = nameList(o);
            } else if (isOutputOption(o.option)) {
                output = outputOption(o);
            } else {
                return false;
            }
            return true;
        });
    if (axes.empty())
        throw UsageProblem{QStringLiteral("sweep: missing --param NAME (the parameter to vary)")};
    if (valuesPending)
        throw UsageProblem{QStringLiteral("sweep: missing --values V1,V2,... (its values)")};

    const bool misfit = measured.used();
    if (misfit) {
        measured.check(QStringLiteral("sweep"), options);
        if (!columns.empty())
            throw UsageProblem{QStringLiteral("sweep: --columns goes with trace output; with "
                                              "--data the columns are the misfit's")};
    }

    const PreparedScene prepared = prepareScene(options);
    source_ = prepared.source;
    const CsvWriter writer(columns);
    checkColumns(writer, *prepared.definition->create(prepared.document.parameters));

    // The parameters and every value are validated before any run starts.
    const auto [first, last] =
        ParameterSweep::shard(ParameterSweep::gridSize(axes), shardK, shardN);
    std::vector<LabelledTrace> runs;
    QByteArray csv;
    if (misfit) {
        csv = misfitCsv(prepared.document, measured.load(), axes, first, last);
    } else {
        runs = ParameterSweep::runGrid(prepared.document, axes, first, last, 0);
        csv = writer.runsCsv(runs);
    }
    // Only the first shard has the header, so that the shards concatenate into the whole.
    if (shardK > 1)
        csv.remove(0, csv.indexOf("\r\n") + 2);
    if (output == QLatin1String("-")) {
        out << QString::fromUtf8(csv);
        out.flush();
        if (out.status() != QTextStream::Ok)
            throw FileError(FileError::Kind::Write, QStringLiteral("standard output"), QString(),
                            QStringLiteral("cannot write the CSV"));
    } else {
        AtomicFile::write(output, csv, QStringLiteral("the CSV"));
        if (misfit) {
            err << prefix << "wrote the misfit at " << (last - first) << " grid points of "
                << sceneLabel(prepared.document) << " to " << output << "\n";
            return Success;
        }
        std::size_t samples = 0;
        for (const LabelledTrace& run : runs)
            samples += run.trace->samples.size();
        err << prefix << "wrote " << runs.size() << " runs (" << samples << " samples) of "
            << sceneLabel(prepared.document) << " to " << output << "\n";
    }
    return Success;
}

int CliApplication::fit(const QStringList& args, QTextStream& out, QTextStream& err)
{
    QString output;
    MeasurementOptions measured;
    FitOptions fitOptions;
    const SceneOptions options =
        parseSceneOptions(args, QStringLiteral("fit"), [&](const OptionCursor& o) {
            const QString& name = o.option;
            if (measured.parse(o))
                return true;
            if (name == QLatin1String("--param")) {
                for (const std::string& p : nameList(o))
                    fitOptions.parameters.push_back(p);
            } else if (name == QLatin1String("--bounds")) {
                for (const QString& item : o.value().split(QLatin1Char(','))) {
                    const auto [parameter, range] =
                        assignment(name, item, QStringLiteral("NAME=LOW:HIGH, e.g. mu=0:2"));
                    if (range.count(QLatin1Char(':')) != 1)
                        throw UsageProblem{QStringLiteral("--bounds %1: expected NAME=LOW:HIGH "
                                                          "(either side may be empty)")
                                               .arg(item)};
                    const QString low = range.section(QLatin1Char(':'), 0, 0).trimmed();
                    const QString high = range.section(QLatin1Char(':'), 1, 1).trimmed();
                    const QString where = QStringLiteral("--bounds ") + item;
                    fitOptions.bounds[parameter.toStdString()] = {
                        low.isEmpty() ? -FitOptions::unbounded : numberOf(where, low),
                        high.isEmpty() ? FitOptions::unbounded : numberOf(where, high)};
                }
            } else if (name == QLatin1String("--max-iterations")) {
                const QString text = o.value();
                bool ok = false;
                fitOptions.maxIterations = text.toInt(&ok);
                if (!ok || fitOptions.maxIterations < 1)
                    throw UsageProblem{
                        QStringLiteral("--max-iterations %1: expected a whole number >= 1")
                            .arg(text)};
            } else if (isOutputOption(name)) {
                output = outputOption(o);
            } else {
                return false;
            }
            return true;
        });
    measured.check(QStringLiteral("fit"), options);
    if (fitOptions.parameters.empty())
        throw UsageProblem{QStringLiteral("fit: missing --param NAME[,NAME...] (what to fit)")};

    const PreparedScene prepared = prepareScene(options);
    source_ = prepared.source;
    const Measurements measurements = measured.load();
    // On a terminal each iteration shows on standard error's last line; a log stays clean.
    FitControl control;
    const bool terminal = isatty(STDERR_FILENO) == 1;
    if (terminal)
        control.progress = [&](const FitProgress& p) {
            err << "\r\033[K" << prefix << "iteration " << p.iteration << ", " << p.runs
                << " runs:";
            for (std::size_t i = 0; i < p.values.size(); ++i)
                err << " " << qs(fitOptions.parameters[i]) << "=" << number(p.values[i]);
            err.flush();
        };
    const FitResult result =
        ParameterFit::run(prepared.document, measurements, fitOptions, control);
    if (terminal) {
        err << "\r\033[K";
        err.flush();
    }

    QStringList commandLine{QStringLiteral("constraintlab-cli"), QStringLiteral("fit")};
    commandLine += args;
    const FitReport report(result, prepared.document, measurements, sceneLabel(prepared.document),
                           measured.data, commandLine);
    out << report.table();
    if (!output.isEmpty()) {
        AtomicFile::write(output, report.json(), QStringLiteral("the fit"));
        err << prefix << "wrote " << output << "\n";
    }
    return Success;
}

int CliApplication::plot(const QStringList& args, QTextStream&, QTextStream& err)
{
    std::vector<std::string> y;
    std::optional<std::string> x, preset;
    bool logY = false;
    QString output;
    PlotRequest request;
    const SceneOptions options =
        parseSceneOptions(args, QStringLiteral("plot"), [&](const OptionCursor& o) {
            if (o.option == QLatin1String("--y")) {
                y = nameList(o);
            } else if (o.option == QLatin1String("--x")) {
                x = o.value().trimmed().toStdString();
                if (x->empty())
                    throw UsageProblem{QStringLiteral("option --x needs a quantity name")};
            } else if (o.option == QLatin1String("--preset")) {
                preset = o.value().trimmed().toStdString();
                if (preset->empty())
                    throw UsageProblem{QStringLiteral("option --preset needs a plot id")};
            } else if (o.option == QLatin1String("--log-y")) {
                logY = true;
            } else if (o.option == QLatin1String("--size")) {
                const QString text = o.value();
                const QStringList parts = text.trimmed().split(QLatin1Char('x'));
                bool okW = false, okH = false;
                const int w = parts.size() == 2 ? parts[0].toInt(&okW) : 0;
                const int h = parts.size() == 2 ? parts[1].toInt(&okH) : 0;
                if (!okW || !okH || w <= 0 || h <= 0 || w > 20000 || h > 20000)
                    throw UsageProblem{QStringLiteral("--size %1: expected WIDTHxHEIGHT in "
                                                      "pixels, e.g. 1200x800")
                                           .arg(text)};
                request.size = QSize(w, h);
            } else if (o.option == QLatin1String("--scale")) {
                const QString text = o.value();
                const auto scale = parseNumber(text);
                if (!scale || !std::isfinite(*scale) || *scale <= 0.0 || *scale > 16.0)
                    throw UsageProblem{
                        QStringLiteral("--scale %1: expected a number in (0, 16]").arg(text)};
                request.scale = *scale;
            } else if (isOutputOption(o.option)) {
                output = outputOption(o);
            } else {
                return false;
            }
            return true;
        });
    if (y.empty() && !preset)
        throw UsageProblem{QStringLiteral("plot: give --y A,B,... (quantities to plot) or "
                                          "--preset ID (a ready-made plot)")};
    if (!y.empty() && preset)
        throw UsageProblem{QStringLiteral("plot: give either --y or --preset, not both")};
    if (preset && (x || logY))
        throw UsageProblem{
            QStringLiteral("plot: --x and --log-y go with --y; a preset sets its own axes")};
    if (output.isEmpty() || output == QLatin1String("-"))
        throw UsageProblem{QStringLiteral("plot: missing --output FILE.png|svg|pdf")};
    const QString suffix = QFileInfo(output).suffix().toLower();
    if (suffix != QLatin1String("png") && suffix != QLatin1String("svg") &&
        suffix != QLatin1String("pdf"))
        throw UsageProblem{
            QStringLiteral("--output %1: the file must end in .png, .svg or .pdf").arg(output)};
    if (!plotWriter_) {
        // Said before a possibly long run.
        err << prefix << "plotting is not available in this build\n";
        return OutputFailure;
    }

    const PreparedScene prepared = prepareScene(options);
    source_ = prepared.source;
    const std::unique_ptr<MechanicalSystem> system =
        prepared.definition->create(prepared.document.parameters);
    Simulator simulator(*system);
    const auto trace = std::make_shared<const Trace>(simulator.run(prepared.document.simulation));

    // The quantities depend on the trace (derived ones, scene columns): checked after the run.
    if (preset) {
        const std::vector<PlotSpec> presets = PlotCatalog::presets(*trace);
        const PlotSpec* spec = PlotCatalog::find(presets, *preset);
        if (!spec) {
            QStringList ids;
            for (const PlotSpec& p : presets)
                ids << qs(p.id);
            throw FileError(
                FileError::Kind::Invalid, QStringLiteral("--preset ") + qs(*preset), QString(),
                QStringLiteral("no such plot for %1 (its plots: %2)")
                    .arg(sceneLabel(prepared.document), ids.join(QStringLiteral(", "))));
        }
        request.spec = *spec;
    } else {
        request.spec.x = x.value_or("t");
        request.spec.y = y;
        request.spec.logY = logY;
        std::vector<std::string> asked = y;
        asked.insert(asked.begin(), request.spec.x);
        for (const std::string& name : asked)
            if (!TraceSeries::contains(*trace, name))
                throw FileError(
                    FileError::Kind::Invalid,
                    (x && name == *x ? QStringLiteral("--x ") : QStringLiteral("--y ")) + qs(name),
                    QString(),
                    QStringLiteral("%1 has no quantity \"%2\" (its quantities: %3)")
                        .arg(sceneLabel(prepared.document), qs(name),
                             qList(TraceSeries::names(*trace)).join(QStringLiteral(", "))));
    }
    request.runs = {{sceneLabel(prepared.document).toStdString(), trace}};
    request.path = output;

    QString error;
    if (!plotWriter_(request, &error)) {
        err << prefix
            << (error.isEmpty() ? QStringLiteral("%1: cannot write the plot").arg(output) : error)
            << "\n";
        return OutputFailure;
    }
    err << prefix << "wrote " << output << "\n";
    return Success;
}

} // namespace clab
