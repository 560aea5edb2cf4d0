#pragma once

#include <QString>
#include <QStringList>

#include <string>
#include <vector>

namespace clab::cli {

/// Every message on standard error starts with this.
inline const QString prefix = QStringLiteral("constraintlab-cli: ");

QString qs(const std::string& s);
QStringList qList(const std::vector<std::string>& names);
/// The shortest text that reads back as `v` ("0.1", not "0.10000000000000001").
QString number(double v);
/// Wraps text at `width` columns, each line indented by `indent` spaces.
QString wrap(const QString& text, int indent, int width = 92);
/// Why standard output took no more: "the reader closed the pipe" after EPIPE (the program
/// ignores SIGPIPE, so `| head` ends it with exit 1 and this, not with a signal), else "".
QString closedPipeReason();

} // namespace clab::cli
