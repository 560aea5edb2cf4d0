#pragma once

#include <model/ParameterSpec.h>
#include <scenes/SceneDocument.h>

#include <QString>

namespace clab {

/// \brief The "About this scene" notes of a document: a text whose numbers follow the current
/// parameters.
///
/// Notes may name a parameter in braces, "{mu}", "{angle_deg}", "{J}"; fill() puts the current
/// value there (vectors as "(1, 2, 3)"). The built-in scenes' notes are such templates. They are
/// not copied into a saved file unless the user changed them: a file without notes shows the
/// built-in scene's.
class SceneNotes {
public:
    /// `notes` with every {name} of a parameter in `values` replaced by its value (4
    /// significant digits); other braces stay as they are.
    static QString fill(const QString& notes, const ParameterValues& values);
    /// The notes the document shows, filled in: its own, else its built-in scene's.
    static QString shown(const SceneDocument& document);
    /// True when the notes are empty or exactly the built-in scene's (not worth saving).
    static bool areBuiltIn(const SceneDocument& document);
};

} // namespace clab
