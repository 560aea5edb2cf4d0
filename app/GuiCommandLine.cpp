#include "GuiCommandLine.h"

#include <QApplication>
#include <QFile>
#include <QRegularExpression>
#include <QTextStream>

#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace clab {

namespace {

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

// The memory an image of `size` takes to render and save: the offscreen colour and depth
// buffers, the read-back copy, the QImage and the PNG encoder's rows, about 20 bytes a pixel.
double renderBytes(const QSize& size)
{
    return 20.0 * size.width() * size.height();
}

// A "Key:  N kB" line of a /proc file, in bytes (0 when absent).
double procBytes(const QString& path, const QByteArray& key)
{
    QFile file(path);
    if (file.open(QIODevice::ReadOnly))
        for (const QByteArray& line : file.readAll().split('\n'))
            if (line.startsWith(key))
                return line.mid(key.size()).trimmed().split(' ').front().toDouble() * 1024.0;
    return 0;
}

// Bytes this process can still allocate: the memory the system has available, or less under an
// address-space limit (ulimit -v), minus what the process has mapped already.
double availableBytes()
{
    double available = procBytes(QStringLiteral("/proc/meminfo"), "MemAvailable:");
    rlimit limit{};
    if (getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
        const double room = static_cast<double>(limit.rlim_cur) -
                            procBytes(QStringLiteral("/proc/self/status"), "VmSize:");
        available = available > 0 ? std::min(available, room) : room;
    }
    return available;
}

QString gigabytes(double bytes)
{
    return QString::number(bytes / 1e9, 'f', 1) + QStringLiteral(" GB");
}

QCommandLineOption hidden(QCommandLineOption option)
{
    option.setFlags(QCommandLineOption::HiddenFromHelp);
    return option;
}

} // namespace

GuiCommandLine::GuiCommandLine(const QString& defaultScene)
    : defaultScene_(defaultScene), help_(parser_.addHelpOption()),
      version_(parser_.addVersionOption()),
      screenshot_(QStringLiteral("screenshot"),
                  QStringLiteral("Compute the trajectory, render the 3D view at --time into FILE "
                                 "(PNG) and exit."),
                  QStringLiteral("FILE")),
      size_(QStringLiteral("size"),
            QStringLiteral("Image size for --screenshot (default 1280x720)."),
            QStringLiteral("WxH"), QStringLiteral("1280x720")),
      time_(QStringLiteral("time"),
            QStringLiteral("Simulated time shown in the screenshot, in seconds "
                           "(default 0)."),
            QStringLiteral("T"), QStringLiteral("0")),
      grab_(hidden(QCommandLineOption(QStringLiteral("grab-window"),
                                      QStringLiteral("Save an image of the whole main window."),
                                      QStringLiteral("FILE")))),
      panel_(QStringLiteral("panel"),
             QStringLiteral("Show the panel NAME on top at the start: scene, system, forces, "
                            "plots, derivation or time (may be given more than once)."),
             QStringLiteral("NAME")),
      largeText_(QStringLiteral("large-text"),
                 QStringLiteral("Start with large text for a lecture room, as View > Large Text "
                                "for Projection (Ctrl+Shift+L) does; remembered like it.")),
      present_(QStringLiteral("present"),
               QStringLiteral("Start in presentation mode, for a lecture on a projector: the 3D "
                              "view, large sliders and readouts. With a lesson file, step "
                              "through it with Page Down / Page Up; Space plays, B blanks the "
                              "screen, Escape leaves."))
{
    parser_.setApplicationDescription(QStringLiteral(
        "ConstraintLab: the Udwadia–Kalaba fundamental equation of constrained motion, "
        "M q'' = Q + Qci + Qcni, seen and played with."));
    parser_.addPositionalArgument(QStringLiteral("scene"),
                                  QStringLiteral("A built-in scene name (default %1), a "
                                                 "scene file (.json) or a lesson file.")
                                      .arg(defaultScene),
                                  QStringLiteral("[SCENE]"));
    parser_.addOptions({screenshot_, size_, time_, grab_, panel_, largeText_, present_});
}

int GuiCommandLine::fail(int code, const QString& message)
{
    QTextStream err(stderr);
    err << "constraintlab: " << message << '\n';
    return code;
}

std::optional<int> GuiCommandLine::parse(const QStringList& arguments)
{
    if (!parser_.parse(arguments))
        return fail(UsageError, parser_.errorText() + QStringLiteral(" (see --help)"));
    if (parser_.isSet(QStringLiteral("help-all")))
        parser_.process(arguments); // prints the Qt options too and exits
    if (parser_.isSet(help_)) {
        std::fputs(qPrintable(parser_.helpText()), stdout);
        return Success;
    }
    if (parser_.isSet(version_)) {
        std::printf("%s %s\n", qPrintable(QApplication::applicationName()),
                    qPrintable(QApplication::applicationVersion()));
        return Success;
    }
    return readValues();
}

std::optional<int> GuiCommandLine::readValues()
{
    const QStringList positional = parser_.positionalArguments();
    if (positional.size() > 1)
        return fail(UsageError, QStringLiteral("expected at most one scene, got %1 (see --help)")
                                    .arg(positional.size()));
    scene = positional.isEmpty() ? defaultScene_ : positional.front();
    screenshot = parser_.isSet(screenshot_);
    screenshotFile = parser_.value(screenshot_);
    grab = parser_.isSet(grab_);
    grabFile = parser_.value(grab_);
    panels = parser_.values(panel_);
    largeText = parser_.isSet(largeText_);
    present = parser_.isSet(present_);
    if (present && screenshot)
        return fail(UsageError, QStringLiteral("--present shows the window; --screenshot renders "
                                               "the 3D view alone (see --help)"));
    if (!screenshot && !grab && (parser_.isSet(size_) || parser_.isSet(time_)))
        return fail(UsageError, QStringLiteral("--size and --time only apply to --screenshot"));
    if (!parseSize(parser_.value(size_), size))
        return fail(UsageError, QStringLiteral("bad --size \"%1\": expected WxH, e.g. 1280x720, "
                                               "each between 16 and 16384")
                                    .arg(parser_.value(size_)));
    // Checked before anything renders: 16384x16384 died of SIGSEGV or bad_alloc (issue 34).
    if (const double available = availableBytes();
        (screenshot || grab) && available > 0 && renderBytes(size) > available)
        return fail(UsageError, QStringLiteral("--size %1x%2: rendering an image of this size "
                                               "needs about %3 of memory, and %4 are available; "
                                               "choose a smaller size")
                                    .arg(size.width())
                                    .arg(size.height())
                                    .arg(gigabytes(renderBytes(size)), gigabytes(available)));
    bool timeOk = false;
    time = parser_.value(time_).toDouble(&timeOk);
    if (!timeOk || !std::isfinite(time))
        return fail(UsageError, QStringLiteral("bad --time \"%1\": expected a number of seconds")
                                    .arg(parser_.value(time_)));
    return std::nullopt;
}

} // namespace clab
