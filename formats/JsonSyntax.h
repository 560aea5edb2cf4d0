#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace clab {

/// \brief Checks JSON text against RFC 8259 before Qt parses it.
///
/// QJsonDocument is lenient where a scene file must not be: it accepts duplicate keys (the
/// last one wins, so `"mu": 5` then `"mu": 0.2` hides an out-of-range value), numbers such as
/// `.3` or `1.`, raw control characters inside strings and invalid UTF-8. check() refuses each
/// of these with the line and column, so that what is loaded is exactly what the file says.
class JsonSyntax {
public:
    /// Throws FileError(Invalid) for `source` whose reason gives the line and column, e.g.
    /// "not valid JSON: line 4, column 9: duplicate key \"mu\" (first at line 3)".
    /// Nesting deeper than maxDepth is refused as well (a scene file is a few levels deep).
    static void check(const QByteArray& json, const QString& source);

    /// The keys of the object at `path` (member names from the root, e.g. {"system",
    /// "parameters"}) in the order the text gives them, which QJsonObject does not keep; empty
    /// when there is no object there. `json` must have passed check().
    static QStringList keyOrder(const QByteArray& json, const QStringList& path);

    static constexpr int maxDepth = 64;
};

} // namespace clab
