#include "scenes/SceneStart.h"

#include "scenes/AcatastaticParticle.h"
#include "scenes/BeadOnWire.h"
#include "scenes/NonholonomicParticle.h"
#include "scenes/RigidBodyQuaternion.h"
#include "scenes/RingWithFriction.h"

#include <utility>

namespace clab {

SceneStart::Function SceneStart::of(const std::string& sceneName)
{
    static const std::pair<const char*, Function> table[] = {
        {"bead-on-wire", &BeadOnWire::startFromState},
        {"ring", &RingWithFriction::startFromState},
        {"nonholonomic-particle", &NonholonomicParticle::startFromState},
        {"acatastatic-particle", &AcatastaticParticle::startFromState},
        {"rigid-body", &RigidBodyQuaternion::startFromState},
    };
    for (const auto& [name, function] : table)
        if (sceneName == name)
            return function;
    return nullptr;
}

} // namespace clab
