#include "EngineErrorText.h"

#include "FileError.h"

namespace clab {

QString EngineErrorText::kindName(ConstraintLabError::Kind kind)
{
    switch (kind) {
    case ConstraintLabError::Kind::InvalidParameter:
        return QStringLiteral("invalid parameter");
    case ConstraintLabError::Kind::InvalidInitialState:
        return QStringLiteral("invalid initial state");
    case ConstraintLabError::Kind::InconsistentConstraints:
        return QStringLiteral("inconsistent constraints");
    case ConstraintLabError::Kind::SingularMass:
        return QStringLiteral("singular mass matrix");
    case ConstraintLabError::Kind::NonFinite:
        return QStringLiteral("non-finite value");
    case ConstraintLabError::Kind::IntegrationFailure:
        return QStringLiteral("integration failure");
    }
    return QStringLiteral("error");
}

QString EngineErrorText::message(const ConstraintLabError& error, const QString& source)
{
    const QString where = source.isEmpty() ? QString() : source + QStringLiteral(": ");
    return FileError::escaped(where, 300) + kindName(error.kind()) + QStringLiteral(": ") +
           FileError::escaped(QString::fromUtf8(error.what()), 4000);
}

} // namespace clab
