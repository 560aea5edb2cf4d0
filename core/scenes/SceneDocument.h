#pragma once

#include "model/ParameterSpec.h"
#include "scenes/SceneDefinition.h"
#include "integrate/SimulationOptions.h"

#include <memory>
#include <string>

namespace clab {

class SymbolicModel;

/// \brief A shared, immutable system written as equations (format 2); equal when the
/// descriptions are (apart from the parameters' default values, which the document's own
/// values replace), so that two loads of one file, or a saved and reloaded document, compare
/// equal.
struct SystemRef {
    std::shared_ptr<const SymbolicModel> model;

    explicit operator bool() const { return model != nullptr; }
    const SymbolicModel* operator->() const { return model.get(); }
    friend bool operator==(const SystemRef& a, const SystemRef& b);
};

/// \brief What a scene file holds: which scene (built in, or a system written as equations), its
/// parameter values and how to run it.
///
/// A document is the in-memory form of a scene file (formats/SceneFile reads and writes the JSON).
/// `parameters` is complete once a document has been loaded: parameters a file leaves out take
/// the scene's defaults. Adding a setting means a field here (or in SimulationOptions) and one
/// row in SceneFile's key tables; documents compare field by field.
struct SceneDocument {
    std::string
        scene; ///< name of a built-in SceneDefinition, e.g. "bead-on-wire"; empty for a system
    SystemRef system;  ///< a format-2 system; null for a built-in scene
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

    /// A document for a format-2 system with its parameters' values from the description.
    static SceneDocument fromSystem(std::shared_ptr<const SymbolicModel> model);

    /// Sets this document's parameters from `other`'s where the names agree: a scalar by its
    /// name, a vector's components by the first of the namings NAME<i+1>, NAME_<i>, NAME_<i+1>
    /// that this document has for all of them (a built-in scene's J becomes J1..J3 of its
    /// system file, quat0 quat0_0..quat0_3, omega0 omega0_1..omega0_3).
    /// Duplicating a built-in scene as a system keeps the values the user set this way.
    void takeValuesFrom(const SceneDocument& other);
    /// True when both show the same scene: one built-in scene, or one system whatever its
    /// parameter values.
    bool sameScene(const SceneDocument& other) const
    {
        return scene == other.scene && system == other.system;
    }
    /// A short name for file names and labels: the built-in scene's name, or "system".
    std::string shortName() const { return system ? std::string("system") : scene; }

    /// The system's definition, else the built-in scene's; nullptr for an unknown scene name.
    const SceneDefinition* definition() const;

    friend bool operator==(const SceneDocument&, const SceneDocument&) = default;
};

} // namespace clab
