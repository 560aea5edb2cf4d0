#include "cli/CliText.h"

#include <cerrno>

#include <QLocale>

namespace clab::cli {

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

QStringList qList(const std::vector<std::string>& names)
{
    QStringList list;
    for (const std::string& name : names)
        list << qs(name);
    return list;
}

QString number(double v)
{
    return QString::number(v, 'g', QLocale::FloatingPointShortest);
}

QString wrap(const QString& text, int indent, int width)
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

QString closedPipeReason()
{
    return errno == EPIPE ? QStringLiteral(" (the reader closed the pipe)") : QString();
}

} // namespace clab::cli
