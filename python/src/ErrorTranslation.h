#pragma once

#include "model/ConstraintLabError.h"

#include <pybind11/pybind11.h>

#include <QString>

namespace clab::python {

/// Turns the engine's and the file formats' exceptions into Python's, with the messages
/// constraintlab-cli prints (without its "constraintlab-cli: " prefix): FileError of bad input
/// and ConstraintLabError of an invalid parameter or initial state become ValueError, an
/// unreadable file OSError, a numerical failure RuntimeError (with the CLI's "hint:" line).
void registerErrorTranslation();

/// Sets the Python error for an engine error of a run of `source` ("scene ring"), as the CLI
/// words it: "SOURCE: KIND: WHAT", then "hint: ..." on a line of its own.
void setEngineError(const ConstraintLabError& error, const QString& source);

/// Runs `work`, turning an engine error into the Python error of setEngineError (raised as
/// pybind11::error_already_set).
template <typename Work> auto namingSource(const QString& source, Work work)
{
    try {
        return work();
    } catch (const ConstraintLabError& e) {
        setEngineError(e, source);
        throw pybind11::error_already_set();
    }
}

} // namespace clab::python
