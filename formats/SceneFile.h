#pragma once

#include "FileError.h"
#include "scenes/SceneDocument.h"

#include <QByteArray>
#include <QJsonValue>
#include <QString>

#include <optional>

namespace clab {

/// \brief Reads and writes scene files (JSON) and checks them against the built-in scenes.
///
/// Format 1:
///
///     {
///         "format": 1,
///         "scene": "bead-on-wire",
///         "title": "Bead on a rough wire",
///         "notes": "Free text for the reader.",
///         "parameters": { "mass": 1, "mu": 0.2, ... },
///         "simulation": { "t_end": 10, "dt": 0.01, "integrator": "dopri5",
///                         "rtol": 1e-9, "atol": 1e-12, "stabilization": "projection",
///                         "baumgarte_alpha": 5, "baumgarte_beta": 5 }
///     }
///
/// Either format may also hold a stored start, "start": {"t0": ..., "q": [...], "qdot": [...]}
/// (StartJson; SimulationOptions::start), checked against the system by validate().
///
/// "stabilization" is "projection" (onto the constraints after every step, the default),
/// "baumgarte" (with "baumgarte_alpha" and "baumgarte_beta" in 1/s, both at least 0) or "none".
///
/// Required: "format" and "scene". "title", "notes", "parameters" and "simulation" are
/// optional; a parameter the file leaves out takes the scene's default value (or, for one that
/// follows another, such as mu_s following mu, that other parameter's value), a simulation
/// key it leaves out takes the SimulationOptions default. Scalars are JSON numbers, vector
/// parameters (J, torque, quat0, omega0) arrays of numbers of the scene's length. Unknown keys,
/// wrong types, out-of-range or non-finite values, initial conditions that violate the
/// constraints and files written by a newer ConstraintLab are rejected with a FileError naming
/// the file, the key (a JSON path such as "parameters.mu") and the reason.
///
/// Format 2 holds a whole system written as equations instead of a built-in scene:
///
///     {
///         "format": 2,
///         "title": "Double pendulum",
///         "notes": "...",
///         "system": { "coordinates": [...], "parameters": {...}, "kinetic_energy": "...", ... },
///         "view": { "points": [...], "links": [...] },
///         "simulation": { ... as in format 1 ... }
///     }
///
/// "system" is required, "view" optional (SystemJson reads and writes both); "scene" and a
/// top-level "parameters" are refused (the parameters are system.parameters). SymbolicModel
/// parses and derives the system; its errors name the key and the column in the expression.
/// Documents of built-in scenes are still written as format 1, so that older versions read them.
class SceneFile {
public:
    /// The newest format this version reads, and the one it writes for a system (a built-in
    /// scene is written as format 1).
    static constexpr int formatVersion = 2;

    /// How much load, fromJson and loadBuiltIn check.
    enum class Check {
        Full,     ///< everything validate() checks; parameters are complete (the default)
        Structure ///< syntax, keys, types and lengths only, and `parameters` holds only what the
                  ///< file states: a caller overrides values (command line), completes them
                  ///< with SceneDefinition::complete and then calls validate()
    };

    /// Reads and validates a scene file. Throws FileError (Read or Invalid).
    static SceneDocument load(const QString& path, Check check = Check::Full);
    /// Parses and validates scene JSON; `source` names it in error messages.
    static SceneDocument fromJson(const QByteArray& json, const QString& source,
                                  Check check = Check::Full);
    /// Indented, human-readable JSON with keys in a fixed order (parameters in the scene's
    /// order; one that equals the parameter it follows is left out, so that it keeps following
    /// it when the file is edited by hand; a system's in its own order, with the document's
    /// values). Does not validate.
    static QByteArray toJson(const SceneDocument& document);
    /// Validates, then writes atomically (QSaveFile): on any failure the previous file is left
    /// untouched. Throws FileError (Invalid or Write, with the system's reason).
    static void save(const SceneDocument& document, const QString& path);

    /// Checks a complete document: known scene (or a system), every parameter known, of the right
    /// length, finite and in range, initial conditions consistent with the constraints, sensible
    /// simulation settings. Throws FileError(Invalid) with `source` as the path.
    static void validate(const SceneDocument& document, const QString& source);

    /// The object `value` as values of `definition`'s parameters (numbers, arrays for vectors),
    /// types and ranges checked one by one; errors name `key` + "." + the parameter (lessons
    /// read a step's values with it). Throws FileError(Invalid).
    static ParameterValues readParameters(const QJsonValue& value,
                                          const SceneDefinition& definition, const QString& source,
                                          const QString& key);

    /// Resource path of a built-in scene file (":/scenes/NAME.json"), embedded in clab_app.
    static QString builtInPath(const QString& sceneName);
    /// The built-in scene file for `sceneName`, or the registry defaults when the scene has no
    /// file. Throws FileError(Invalid) when there is no such built-in scene.
    static SceneDocument loadBuiltIn(const QString& sceneName, Check check = Check::Full);
};

} // namespace clab
