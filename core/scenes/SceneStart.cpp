#include "scenes/SceneStart.h"

#include "scenes/AcatastaticParticle.h"
#include "scenes/BeadOnWire.h"
#include "scenes/NonholonomicParticle.h"
#include "scenes/RigidBodyQuaternion.h"
#include "scenes/RingWithFriction.h"
#include "scenes/SceneDocument.h"

#include <exception>
#include <memory>
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

bool SceneStart::keepsStoredStart(const SceneDocument& before, const SceneDocument& after)
{
    const SceneDefinition* from = before.definition();
    const SceneDefinition* to = after.definition();
    if (!before.simulation.start || from == nullptr || to == nullptr)
        return false;
    try {
        const std::unique_ptr<MechanicalSystem> old = from->create(before.parameters);
        const std::unique_ptr<MechanicalSystem> now = to->create(after.parameters);
        Eigen::VectorXd q0, qd0, q1, qd1;
        old->initialState(q0, qd0);
        now->initialState(q1, qd1);
        const bool sameStart = old->initialTime() == now->initialTime() && q0.size() == q1.size() &&
                               qd0.size() == qd1.size() && q0 == q1 && qd0 == qd1;
        return sameStart && !before.simulation.start->problem(*now);
    } catch (const std::exception&) {
        return false;
    }
}

} // namespace clab
