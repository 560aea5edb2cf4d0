#pragma once

#include "model/MechanicalSystem.h"
#include "model/ParameterSpec.h"
#include "scenes/SceneExpectations.h"

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace clab {

/// \brief A built-in scene: its name, its parameters and a factory for its system.
struct SceneDefinition {
    std::string name;        ///< command-line name, e.g. "bead-on-wire"
    std::string title;       ///< human title, e.g. "Bead on an inclined wire"
    std::string description; ///< a few sentences for `describe` and the GUI
    std::vector<ParameterSpec> parameters;
    /// The few scalar parameters a lecture turns (presentation mode's sliders), most telling
    /// first (μ where there is friction); empty when none suits a slider (vectors only).
    std::vector<std::string> keyParameters;
    /// Where a run ends with simulation.stop_at_end, in words ("the bead reaches the foot of
    /// the wire (s = 0)"); empty when the scene has no end (MechanicalSystem::hasEnd).
    std::string end;
    /// Builds the system from complete, validated values (see SceneRegistry::create).
    std::function<std::unique_ptr<MechanicalSystem>(const ParameterValues&)> factory;
    /// What the generic scene tests expect (tst_SceneRegistry, the CLI's CSV header test).
    SceneExpectations expected;

    const ParameterSpec* parameter(const std::string& name) const;
    /// Gives parameters their display labels, {name, label} pairs; throws std::logic_error for
    /// a name the scene does not have (a typo in a scene's table).
    void setLabels(const std::vector<std::pair<std::string, std::string>>& labels);
    /// Every parameter's default; a parameter with `defaultsTo` gets its target's default.
    ParameterValues defaults() const;
    /// `given` completed: defaults for the parameters it leaves out, except that one with
    /// `defaultsTo` takes the (given or default) value of the parameter it follows. Not validated.
    ParameterValues complete(const ParameterValues& given) const;
    /// True when `name` follows another parameter (ParameterSpec::defaultsTo, mu_s follows mu)
    /// and still has that parameter's value in `values`: it is then "tied" to it. A tied
    /// follower moves with its leader (an edit, a sweep), is left out of a saved file, and adds
    /// nothing to a label that names the leader.
    bool tiedToLeader(const ParameterValues& values, const std::string& name) const;
    /// `given` without the followers that are tied to one of `leaders` in complete(given) and
    /// are not leaders themselves: they then follow whatever value their leader takes next (a
    /// sweep's or a fit's values of mu move a mu_s that followed mu).
    ParameterValues untieFollowers(const ParameterValues& given,
                                   const std::vector<std::string>& leaders) const;
    /// Throws ConstraintLabError(InvalidParameter) naming the parameter and the reason: unknown
    /// name, wrong number of components, non-finite or out-of-range value, or a value below the
    /// one its `notBelow` names (when both are present).
    void validate(const ParameterValues& values) const;
    /// complete(values), validated, then the factory. The factory may throw
    /// InvalidInitialState when the initial conditions cannot satisfy the constraints.
    std::unique_ptr<MechanicalSystem> create(const ParameterValues& values) const;
};

} // namespace clab
