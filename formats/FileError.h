#pragma once

#include <QString>

#include <stdexcept>

namespace clab {

/// \brief A file could not be read, is not a valid scene/CSV request, or could not be written.
///
/// what() reads "PATH: KEY: REASON" (KEY omitted when the problem is not tied to one key), so
/// it can be shown as is; the parts are kept for front ends that want to highlight a field.
class FileError : public std::runtime_error {
public:
    enum class Kind {
        Read,    ///< the file cannot be opened or read (missing, no permission)
        Invalid, ///< the content is wrong: not JSON, unknown key, wrong type, bad value, ...
        Write    ///< the file cannot be written (no permission, disk full); the old one is intact
    };

    FileError(Kind kind, const QString& path, const QString& key, const QString& reason)
        : std::runtime_error(compose(path, key, reason).toStdString()), kind_(kind), path_(path),
          key_(key), reason_(reason)
    {
    }

    Kind kind() const { return kind_; }
    /// The file (or "-" for standard output, or a description such as "command line").
    const QString& path() const { return path_; }
    /// JSON path of the offending key, e.g. "parameters.mu"; empty when not tied to a key.
    const QString& key() const { return key_; }
    const QString& reason() const { return reason_; }

    /// Text from a file or command line, fit to be quoted in a message: in double quotes, with
    /// control characters, quotes and backslashes escaped (a NUL cannot cut the message, an
    /// escape sequence cannot reach the terminal) and cut to `limit` characters with "…".
    static QString quoted(const QString& text, int limit = 80);
    /// Control characters escaped, cut to `limit` characters; used on every part of what().
    static QString escaped(const QString& text, int limit);

private:
    // The path and the key may come from the file itself (e.g. an unknown key): escaped and
    // bounded like quoted text, so that no part of a message can be garbage or gigabytes.
    static QString compose(const QString& path, const QString& key, const QString& reason)
    {
        const QString where = escaped(path, 300);
        return key.isEmpty() ? where + QStringLiteral(": ") + escaped(reason, 4000)
                             : where + QStringLiteral(": ") + escaped(key, 120) +
                                   QStringLiteral(": ") + escaped(reason, 4000);
    }

    Kind kind_;
    QString path_;
    QString key_;
    QString reason_;
};

inline QString FileError::escaped(const QString& text, int limit)
{
    QString out;
    int count = 0;
    for (const QChar c : text) {
        if (count++ == limit) {
            out += QStringLiteral("…");
            break;
        }
        const char16_t u = c.unicode();
        if (u == u'\n')
            out += QStringLiteral("\\n");
        else if (u == u'\t')
            out += QStringLiteral("\\t");
        else if (u == u'\r')
            out += QStringLiteral("\\r");
        else if (u < 0x20 || u == 0x7F || (u >= 0x80 && u < 0xA0)) // C0, DEL, C1 (ESC, CSI)
            out += QStringLiteral("\\u%1").arg(static_cast<int>(u), 4, 16, QLatin1Char('0'));
        else
            out += c;
    }
    return out;
}

inline QString FileError::quoted(const QString& text, int limit)
{
    QString inner = text.left(limit + 1);
    inner.replace(QLatin1Char('\\'), QStringLiteral("\\\\"));
    inner.replace(QLatin1Char('"'), QStringLiteral("\\\""));
    return QLatin1Char('"') + escaped(inner, limit) + QLatin1Char('"');
}

} // namespace clab
