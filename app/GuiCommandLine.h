#pragma once

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QSize>
#include <QStringList>

#include <optional>

namespace clab {

/// \brief The command line of `constraintlab`: its options, their checks and its messages.
///
///   constraintlab [SCENE | LESSON] [--present] [--screenshot FILE --size WxH --time T]
///                 [--panel NAME]... [--large-text]
///
/// Exit codes follow constraintlab-cli: 0 success, 1 the image could not be written, 2 usage,
/// 3 invalid scene or file, 4 numerical failure.
class GuiCommandLine {
public:
    enum ExitCode {
        Success = 0,
        OutputFailure = 1,
        UsageError = 2,
        InvalidScene = 3,
        NumericalFailure = 4
    };

    /// `defaultScene` opens when no scene is named.
    explicit GuiCommandLine(const QString& defaultScene);

    /// Reads the arguments (with the program name first). Returns the exit code when the
    /// program is done (--help and --version printed, or a usage error reported), else nothing.
    std::optional<int> parse(const QStringList& arguments);

    /// Writes "constraintlab: MESSAGE" to standard error and returns `code`.
    static int fail(int code, const QString& message);

    QString scene;           ///< the scene argument, or the default scene
    bool screenshot = false; ///< --screenshot FILE given
    QString screenshotFile;
    bool grab = false; ///< --grab-window FILE given
    QString grabFile;
    QSize size;             ///< --size
    double time = 0.0;      ///< --time
    QStringList panels;     ///< --panel, in order
    bool largeText = false; ///< --large-text
    bool present = false;   ///< --present: start in presentation mode

private:
    std::optional<int> readValues();

    QString defaultScene_;
    QCommandLineParser parser_;
    QCommandLineOption help_;
    QCommandLineOption version_;
    QCommandLineOption screenshot_;
    QCommandLineOption size_;
    QCommandLineOption time_;
    QCommandLineOption grab_;
    QCommandLineOption panel_;
    QCommandLineOption largeText_;
    QCommandLineOption present_;
};

} // namespace clab
