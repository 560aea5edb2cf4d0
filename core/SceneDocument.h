#pragma once

#include "ParameterSpec.h"
#include "SceneDefinition.h"
#include "SimulationOptions.h"

#include <string>

namespace clab {

/// \brief What a scene file holds: which built-in scene, its parameter values and how to run it.
///
/// A document is the in-memory form of a scene file (app/SceneFile reads and writes the JSON).
/// `parameters` is complete once a document has been loaded: parameters a file leaves out take
/// the scene's defaults. Adding a setting means a field here (or in SimulationOptions) and one
/// row in SceneFile's key tables; documents compare field by field.
struct SceneDocument {
    std::string scene; ///< name of a built-in SceneDefinition, e.g. "bead-on-wire"
    std::string title; ///< optional human title shown instead of the scene's own
    std::string notes; ///< optional free text, e.g. what a teacher wants students to look at
    ParameterValues parameters;
    SimulationOptions simulation;

    /// A document for `definition` with its default parameters and default simulation options.
    static SceneDocument fromDefinition(const SceneDefinition& definition)
    {
        SceneDocument document;
        document.scene = definition.name;
        document.parameters = definition.defaults();
        return document;
    }

    friend bool operator==(const SceneDocument&, const SceneDocument&) = default;
};

} // namespace clab
