#pragma once

#include "model/ParameterSpec.h"
#include "symbolic/SystemDescription.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

namespace clab {

/// \brief The "system" and "view" objects of a format-2 scene file, read into a
/// SystemDescription and written back.
///
///     "system": {
///         "coordinates": [{"name": "phi", "unit": "rad"}, "x1", ...],   // a string: unit "m"
///         "parameters": {"m1": 1, "mu": {"value": 0.2, "unit": "", "min": 0, "max": 2,
///                                         "description": "..."}},
///         "kinetic_energy": "...",   or "mass_matrix": [["m", 0], [0, "m"]],  or "masses": [...]
///         "potential_energy": "...",
///         "forces": {"x2": "-0.1*x2_dot"},
///         "constraints": [{"name": "rod1", "holonomic": "..."}, {"velocity": "..."}],
///         "friction": [{"name": "bead", "slip": ["..."], "normal": ["wire"], "mu": "mu",
///                       "mu_s": "mu_s"}, {"name": "drag", "slip": "x_dot", "magnitude": "a0"}],
///         "nonideal": {"x1": "..."},
///         "initial": {"x1": 1, "y1": "-l1"},
///         "columns": {"s": "...", "phi": {"expression": "...", "unit": "rad"}},
///         "end": "..."   or {"expression": "...", "description": "..."}
///     },
///     "view": {"points": [{"name": "bob1", "at": ["x1", "y1", 0], "radius": 0.05}],
///              "links": [["origin", "bob1"]],
///              "curves": [{"x": "s", "y": "s^2/2", "z": "0", "s": [-2, 2]}]}
///
/// An expression may be a JSON string or number (kept as its shortest text). Objects whose
/// order matters (parameters, forces, nonideal, initial, columns) keep the file's order. Only
/// structure and types are checked here; SymbolicModel checks names and expressions.
class SystemJson {
public:
    /// Reads root["system"] (required) and root["view"] (optional). `rawJson` is the text
    /// `root` was parsed from (the key order comes from it; empty: alphabetical). Throws
    /// FileError(Invalid) with `source`, the key (e.g. "system.constraints[1].holonomic") and
    /// the reason.
    static SystemDescription read(const QJsonObject& root, const QByteArray& rawJson,
                                  const QString& source);

    /// The "system" member and, when the description has a view, ",\n" and the "view" member,
    /// indented by `indentLevel` levels of four spaces, without a trailing comma or newline.
    /// Keys in a fixed order, empty optional parts left out; a parameter's value is taken from
    /// `values` (the document's current values) when it is there, else from the description.
    static QByteArray write(const SystemDescription& description, const ParameterValues& values,
                            int indentLevel);
};

} // namespace clab
