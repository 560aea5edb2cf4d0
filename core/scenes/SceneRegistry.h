#pragma once

#include "scenes/SceneDefinition.h"

#include <string>
#include <vector>

namespace clab {

/// \brief The built-in scenes, in the order they are listed to users.
class SceneRegistry {
public:
    static const std::vector<SceneDefinition>& builtIn();
    /// nullptr when there is no built-in scene of that name.
    static const SceneDefinition* find(const std::string& name);
    /// The names in listing order, joined by ", ", for messages that list the choices.
    static std::string nameList();
};

} // namespace clab
