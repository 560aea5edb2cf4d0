#pragma once

#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <QStringList>

namespace clab {

/// \brief Typed access to parsed scene-file JSON, and the text of single JSON values.
///
/// Shared by the scene file's readers and writers (SceneFile, SystemJson) so that every format
/// words its errors alike: each require* returns the value or throws FileError(Invalid) naming
/// `source`, the `key` (a JSON path such as "simulation.dt") and what was expected.
class JsonFields {
public:
    [[noreturn]] static void invalid(const QString& source, const QString& key,
                                     const QString& reason);
    /// "a number", "an object", "null", ... for messages.
    static QString typeName(const QJsonValue& v);

    static double requireNumber(const QJsonValue& v, const QString& source, const QString& key);
    static bool requireBool(const QJsonValue& v, const QString& source, const QString& key);
    static QString requireString(const QJsonValue& v, const QString& source, const QString& key);
    static QJsonObject requireObject(const QJsonValue& v, const QString& source,
                                     const QString& key);
    static QJsonArray requireArray(const QJsonValue& v, const QString& source, const QString& key);
    /// Throws for the first key of `object` not in `allowed`, naming it as `prefix` + key.
    static void rejectUnknownKeys(const QJsonObject& object, const QStringList& allowed,
                                  const QString& source, const QString& prefix);

    /// Compact JSON text of one scalar value, escaped the way QJsonDocument escapes it.
    static QByteArray scalar(const QJsonValue& v);
    /// The shortest text that reads back as exactly `v` (finite values only).
    static QByteArray number(double v);
};

} // namespace clab
