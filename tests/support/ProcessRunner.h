#pragma once

#include <QByteArray>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace clab::testing {

/// What a finished program said and returned.
struct ProcessResult {
    int exitCode = -1; ///< -2 when it crashed, -1 when it timed out
    QByteArray out;    ///< standard output, as bytes (CSV, PNG, ...)
    QString err;       ///< standard error, as text

    /// "exit N, stderr: ..." for test failure messages.
    QString describe() const
    {
        return QStringLiteral("exit %1, stderr: %2").arg(exitCode).arg(err);
    }
};

/// Runs `program` with `args` to its end (at most `timeoutMs`), optionally with another
/// environment or with standard output going to a file.
inline ProcessResult
runProcess(const QString& program, const QStringList& args,
           const QProcessEnvironment& environment = QProcessEnvironment::systemEnvironment(),
           const QString& standardOutputFile = {}, int timeoutMs = 180000)
{
    QProcess process;
    process.setProcessEnvironment(environment);
    if (!standardOutputFile.isEmpty())
        process.setStandardOutputFile(standardOutputFile);
    process.start(program, args);
    ProcessResult r;
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished();
        r.err = QStringLiteral("<timed out>");
        return r;
    }
    r.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -2;
    r.out = process.readAllStandardOutput();
    r.err = QString::fromUtf8(process.readAllStandardError());
    return r;
}

} // namespace clab::testing
