#pragma once

#include "SceneRequest.h"
#include "scenes/SceneDocument.h"

#include <pybind11/pybind11.h>

#include <QString>

namespace clab::python {

/// \brief A scene as Python's `constraintlab.load` gives it: the argument (a built-in name or a
/// file) and its document as the file states it, loaded once.
///
/// Keyword arguments of run, fit and sweep become a SceneRequest: a simulation setting's key
/// (t_end, dt, integrator, ...) sets it, any other name sets a parameter; the request validates
/// them as the CLI validates --set and its options, with the same reasons.
class SceneHandle {
public:
    explicit SceneHandle(const QString& argument);

    const QString& argument() const { return argument_; }
    const SceneDocument& document() const { return document_; }
    /// The document with the defaults filled in (what a run without arguments uses).
    SceneRequest::Prepared prepared() const;
    /// The document with `settings` (keyword arguments) applied, validated.
    SceneRequest::Prepared prepared(const pybind11::dict& settings) const;

    /// {name: {"value", "unit", "default", "min", "max", "min_exclusive", "description",
    /// "label"}} in the scene's order.
    pybind11::dict parameters() const;
    /// {key: value}: numbers as float, choices by name ("rk4"), flags as bool.
    pybind11::dict settings() const;
    /// M, Q, A, b and the rest of a format-2 system's derivation; ValueError for a built-in
    /// scene (its equations are in C++), with the CLI's message.
    pybind11::dict derive() const;
    /// Runs the scene (the GIL released, Ctrl+C stops it): {"columns", "data" (samples ×
    /// columns), "events", "stats", "reached_end"}.
    pybind11::dict run(const pybind11::dict& settings) const;

private:
    QString argument_;
    SceneDocument document_;
};

} // namespace clab::python
