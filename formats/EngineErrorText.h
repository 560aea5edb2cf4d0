#pragma once

#include "model/ConstraintLabError.h"

#include <QString>

namespace clab {

/// \brief How front ends word an engine error (ConstraintLabError): constraintlab-cli on
/// standard error, the Python module in its exceptions.
class EngineErrorText {
public:
    /// "invalid parameter", "singular mass matrix", ...
    static QString kindName(ConstraintLabError::Kind kind);
    /// "SOURCE: KIND: WHAT" (no "SOURCE: " when `source` is empty), escaped and bounded like a
    /// FileError's parts. The hint (ConstraintLabError::hint) is the front end's to add.
    static QString message(const ConstraintLabError& error, const QString& source);
};

} // namespace clab
