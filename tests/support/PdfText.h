#pragma once
// The PDF tools the export tests read their files with (poppler-utils' pdftotext, qpdf).

#include <QByteArray>
#include <QProcess>
#include <QString>
#include <QStringList>

namespace clab::testing {

/// Runs a PDF tool (poppler-utils, qpdf); its standard output, or a null array with `*why` set
/// when it is missing or fails.
inline QByteArray runTool(const QString& program, const QStringList& arguments, QString* why)
{
    QProcess process;
    process.start(program, arguments);
    if (!process.waitForFinished(60000) || process.exitStatus() != QProcess::NormalExit ||
        process.exitCode() != 0) {
        *why = QStringLiteral("%1 %2 failed (%3): %4")
                   .arg(program, arguments.join(' '), process.errorString(),
                        QString::fromLocal8Bit(process.readAllStandardError() +
                                               process.readAllStandardOutput()));
        return {};
    }
    QByteArray out = process.readAllStandardOutput();
    return out.isNull() ? QByteArray("") : out;
}

/// The text of a PDF as pdftotext reads it, each run of white space one blank.
inline QString pdfWords(const QString& path)
{
    QString why;
    const QByteArray text = runTool(QStringLiteral("pdftotext"), {path, QStringLiteral("-")}, &why);
    if (text.isNull()) {
        qWarning("%s", qPrintable(why));
        return {};
    }
    return QString::fromUtf8(text).simplified();
}

} // namespace clab::testing
