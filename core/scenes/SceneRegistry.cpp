#include "scenes/SceneRegistry.h"

#include "scenes/AcatastaticParticle.h"
#include "scenes/BeadOnWire.h"
#include "scenes/Chain.h"
#include "scenes/NonholonomicParticle.h"
#include "scenes/RigidBodyQuaternion.h"
#include "scenes/RingWithFriction.h"
#include "scenes/SlidingChain.h"

namespace clab {

const std::vector<SceneDefinition>& SceneRegistry::builtIn()
{
    static const std::vector<SceneDefinition> scenes = {
        BeadOnWire::definition(),           RingWithFriction::definition(),
        NonholonomicParticle::definition(), RigidBodyQuaternion::definition(),
        AcatastaticParticle::definition(),  Chain::definition(),
        SlidingChain::definition(),
    };
    return scenes;
}

const SceneDefinition* SceneRegistry::find(const std::string& name)
{
    for (const SceneDefinition& d : builtIn())
        if (d.name == name)
            return &d;
    return nullptr;
}

std::string SceneRegistry::nameList()
{
    std::string names;
    for (const SceneDefinition& d : builtIn())
        names += (names.empty() ? "" : ", ") + d.name;
    return names;
}

} // namespace clab
