#include "JsonFields.h"

#include "FileError.h"

#include <QJsonDocument>
#include <QLocale>

namespace clab {

void JsonFields::invalid(const QString& source, const QString& key, const QString& reason)
{
    throw FileError(FileError::Kind::Invalid, source, key, reason);
}

QString JsonFields::typeName(const QJsonValue& v)
{
    switch (v.type()) {
    case QJsonValue::Null:
        return QStringLiteral("null");
    case QJsonValue::Bool:
        return QStringLiteral("a boolean");
    case QJsonValue::Double:
        return QStringLiteral("a number");
    case QJsonValue::String:
        return QStringLiteral("a string");
    case QJsonValue::Array:
        return QStringLiteral("an array");
    case QJsonValue::Object:
        return QStringLiteral("an object");
    case QJsonValue::Undefined:
        break;
    }
    return QStringLiteral("undefined");
}

double JsonFields::requireNumber(const QJsonValue& v, const QString& source, const QString& key)
{
    if (!v.isDouble())
        invalid(source, key, QStringLiteral("must be a number, not %1").arg(typeName(v)));
    return v.toDouble();
}

bool JsonFields::requireBool(const QJsonValue& v, const QString& source, const QString& key)
{
    if (!v.isBool())
        invalid(source, key, QStringLiteral("must be true or false, not %1").arg(typeName(v)));
    return v.toBool();
}

QString JsonFields::requireString(const QJsonValue& v, const QString& source, const QString& key)
{
    if (!v.isString())
        invalid(source, key, QStringLiteral("must be a string, not %1").arg(typeName(v)));
    return v.toString();
}

QJsonObject JsonFields::requireObject(const QJsonValue& v, const QString& source,
                                      const QString& key)
{
    if (!v.isObject())
        invalid(source, key, QStringLiteral("must be an object, not %1").arg(typeName(v)));
    return v.toObject();
}

QJsonArray JsonFields::requireArray(const QJsonValue& v, const QString& source, const QString& key)
{
    if (!v.isArray())
        invalid(source, key, QStringLiteral("must be an array, not %1").arg(typeName(v)));
    return v.toArray();
}

void JsonFields::rejectUnknownKeys(const QJsonObject& object, const QStringList& allowed,
                                   const QString& source, const QString& prefix)
{
    for (auto it = object.begin(); it != object.end(); ++it) {
        if (!allowed.contains(it.key()))
            invalid(source, prefix + it.key(),
                    QStringLiteral("unknown key (allowed here: %1)")
                        .arg(allowed.join(QStringLiteral(", "))));
    }
}

QByteArray JsonFields::scalar(const QJsonValue& v)
{
    const QByteArray text = QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact);
    return text.mid(1, text.size() - 2);
}

QByteArray JsonFields::number(double v)
{
    return QByteArray::number(v, 'g', QLocale::FloatingPointShortest);
}

} // namespace clab
