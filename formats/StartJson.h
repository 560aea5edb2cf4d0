#pragma once

#include "integrate/StartState.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <optional>

namespace clab {

/// \brief The "start" member of a scene file (docs/FORMATS.md): a stored start that replaces
/// the one the parameters give,
///
///     "start": { "t0": 1.25, "q": [0.3, -0.95, ...], "qdot": [0.1, 0.03, ...] }
///
/// Read for its types here; its lengths, finiteness and the constraints are checked against the
/// system by SceneFile::validate (StartState::problem).
class StartJson {
public:
    /// The root's "start", or none when it has none. Throws FileError(Invalid) naming
    /// "start.KEY" for a missing or unknown key or a value of the wrong type.
    static std::optional<StartState> read(const QJsonObject& root, const QString& source);
    /// `"start": {...}` at `indent`, without a trailing comma or newline; numbers in their
    /// shortest text that reads back exactly.
    static QByteArray write(const StartState& start, const QByteArray& indent);
};

} // namespace clab
