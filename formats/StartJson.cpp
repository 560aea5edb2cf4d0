#include "StartJson.h"

#include "JsonFields.h"

#include <QJsonArray>

#include <vector>

namespace clab {

namespace {

std::vector<double> readNumbers(const QJsonObject& start, const QString& key, const QString& source)
{
    const QString where = QStringLiteral("start.") + key;
    const QJsonArray array = JsonFields::requireArray(start.value(key), source, where);
    std::vector<double> values;
    values.reserve(static_cast<std::size_t>(array.size()));
    for (qsizetype i = 0; i < array.size(); ++i)
        values.push_back(
            JsonFields::requireNumber(array.at(i), source, where + QStringLiteral("[%1]").arg(i)));
    return values;
}

QByteArray numbers(const std::vector<double>& values)
{
    QByteArray out = "[";
    for (std::size_t i = 0; i < values.size(); ++i)
        out += (i ? ", " : "") + JsonFields::number(values[i]);
    return out + ']';
}

} // namespace

std::optional<StartState> StartJson::read(const QJsonObject& root, const QString& source)
{
    if (!root.contains(QLatin1String("start")))
        return std::nullopt;
    const QJsonObject start =
        JsonFields::requireObject(root.value(QLatin1String("start")), source, "start");
    static const QStringList keys{"t0", "q", "qdot"};
    JsonFields::rejectUnknownKeys(start, keys, source, QStringLiteral("start."));
    for (const QString& key : keys)
        if (!start.contains(key))
            JsonFields::invalid(source, QStringLiteral("start.") + key,
                                QStringLiteral("missing (a start has t0, q and qdot)"));
    StartState state;
    state.t0 = JsonFields::requireNumber(start.value(QLatin1String("t0")), source, "start.t0");
    state.q = readNumbers(start, QStringLiteral("q"), source);
    state.qd = readNumbers(start, QStringLiteral("qdot"), source);
    return state;
}

QByteArray StartJson::write(const StartState& start, const QByteArray& indent)
{
    const QByteArray inner = indent + indent;
    return indent + "\"start\": {\n" + inner + "\"t0\": " + JsonFields::number(start.t0) + ",\n" +
           inner + "\"q\": " + numbers(start.q) + ",\n" + inner + "\"qdot\": " + numbers(start.qd) +
           "\n" + indent + "}";
}

} // namespace clab
