#pragma once
// A scene's parameter names and units, in order: what users' scripts and scene files rely on,
// so each scene's own test pins them.

#include <scenes/SceneDefinition.h>

#include <string>
#include <utility>
#include <vector>

namespace clab::testing {

using NamesAndUnits = std::vector<std::pair<std::string, std::string>>;

inline NamesAndUnits namesAndUnits(const SceneDefinition& definition)
{
    NamesAndUnits specs;
    for (const ParameterSpec& p : definition.parameters)
        specs.emplace_back(p.name, p.unit);
    return specs;
}

} // namespace clab::testing
