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

private:
    static QString compose(const QString& path, const QString& key, const QString& reason)
    {
        return key.isEmpty() ? path + QStringLiteral(": ") + reason
                             : path + QStringLiteral(": ") + key + QStringLiteral(": ") + reason;
    }

    Kind kind_;
    QString path_;
    QString key_;
    QString reason_;
};

} // namespace clab
