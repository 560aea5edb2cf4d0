#include "scenes/SceneDefinition.h"

#include "integrate/StartState.h"
#include "model/ConstraintLabError.h"
#include "model/ParameterRule.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <sstream>
#include <stdexcept>

namespace clab {

namespace {

[[noreturn]] void invalid(const std::string& message)
{
    throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter, message);
}

} // namespace

void SceneDefinition::setLabels(const std::vector<std::pair<std::string, std::string>>& labels)
{
    for (const auto& label : labels) {
        const std::string& key =
            label.first; // not a structured binding: clang 14 cannot capture one
        const auto it = std::find_if(parameters.begin(), parameters.end(),
                                     [&](const ParameterSpec& spec) { return spec.name == key; });
        if (it == parameters.end())
            throw std::logic_error("scene " + name + " has no parameter " + key + " to label");
        it->label = label.second;
    }
}

const ParameterSpec* SceneDefinition::parameter(const std::string& parameterName) const
{
    for (const ParameterSpec& p : parameters)
        if (p.name == parameterName)
            return &p;
    return nullptr;
}

ParameterValues SceneDefinition::defaults() const
{
    return complete({});
}

bool SceneDefinition::tiedToLeader(const ParameterValues& values, const std::string& name) const
{
    const ParameterSpec* spec = parameter(name);
    if (spec == nullptr || spec->defaultsTo.empty())
        return false;
    const auto self = values.find(name);
    const auto leader = values.find(spec->defaultsTo);
    return self != values.end() && leader != values.end() && self->second == leader->second;
}

ParameterValues SceneDefinition::untieFollowers(const ParameterValues& given,
                                                const std::vector<std::string>& leaders) const
{
    const auto isLeader = [&](const std::string& name) {
        return std::find(leaders.begin(), leaders.end(), name) != leaders.end();
    };
    ParameterValues result = given;
    const ParameterValues completed = complete(given);
    for (const ParameterSpec& p : parameters)
        if (isLeader(p.defaultsTo) && !isLeader(p.name) && tiedToLeader(completed, p.name))
            result.erase(p.name);
    return result;
}

ParameterValues SceneDefinition::complete(const ParameterValues& given) const
{
    ParameterValues values = given;
    for (const ParameterSpec& p : parameters)
        if (p.defaultsTo.empty())
            values.try_emplace(p.name, p.defaultValue);
    // Followers after the others, so that they see the given or default value they follow.
    for (const ParameterSpec& p : parameters) {
        if (p.defaultsTo.empty() || values.count(p.name))
            continue;
        const auto it = values.find(p.defaultsTo);
        values[p.name] = it != values.end() ? it->second : p.defaultValue;
    }
    return values;
}

void SceneDefinition::validate(const ParameterValues& values) const
{
    for (const auto& [key, value] : values) {
        const ParameterSpec* p = parameter(key);
        if (!p) {
            std::string known;
            for (const ParameterSpec& q : parameters) {
                if (!known.empty())
                    known += ", ";
                known += q.name;
            }
            invalid("scene '" + name + "': unknown parameter '" + key + "' (known: " + known + ")");
        }
        const std::vector<ParameterRule::Violation> violations = ParameterRule::check(*p, value);
        std::optional<ParameterRule::Violation> violation;
        if (!violations.empty())
            violation = violations.front();
        else
            violation = ParameterRule::checkFloor(*p, value, values);
        if (!violation)
            continue;
        // A vector's component is named where it is the one at fault.
        const bool ofComponent = violation->component >= 0 && value.size() > 1;
        invalid("scene '" + name + "': parameter '" + key + "'" +
                (ofComponent ? " component " + std::to_string(violation->component + 1) : "") +
                " " + violation->reason);
    }
}

std::unique_ptr<MechanicalSystem> SceneDefinition::create(const ParameterValues& values) const
{
    const ParameterValues complete = this->complete(values);
    validate(complete);
    if (!factory)
        throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter,
                                 "scene '" + name + "' has no factory");
    std::unique_ptr<MechanicalSystem> system = factory(complete);

    // Every scene builds its initial state on the constraint manifold; check it anyway, since
    // extreme parameters can overflow and later code relies on consistent initial conditions.
    Eigen::VectorXd q0(system->dof()), qd0(system->dof()), r(system->residualCount());
    system->initialState(q0, qd0);
    const double t0 = system->initialTime();
    if (q0.size() != system->dof() || qd0.size() != system->dof() || !q0.allFinite() ||
        !qd0.allFinite())
        throw ConstraintLabError(ConstraintLabError::Kind::InvalidInitialState,
                                 "scene '" + name +
                                     "': the parameters give a non-finite initial state");
    // Parameters whose products overflow (a position of 1e308 m) give an infinite energy or
    // force at the start: refuse them here rather than run into NaN.
    {
        const int n = system->dof(), m = system->constraintCount();
        Eigen::VectorXd Q(n), b(m);
        bool massFinite = true, constraintsFinite = true;
        if (system->providesSparseMatrices()) {
            // As the simulator will ask for them: a large system needs no n×n matrix here.
            MechanicalSystem::SparseMatrix M, A;
            system->sparseMassMatrix(q0, t0, M);
            system->sparseConstraintMatrix(q0, qd0, t0, A, b);
            massFinite = M.coeffs().allFinite();
            constraintsFinite = A.coeffs().allFinite();
        } else {
            Eigen::MatrixXd M(n, n), A(m, n);
            system->massMatrix(q0, t0, M);
            system->constraintMatrix(q0, qd0, t0, A, b);
            massFinite = M.allFinite();
            constraintsFinite = A.allFinite();
        }
        system->givenForce(q0, qd0, t0, Q);
        const double T = system->kineticEnergy(q0, qd0, t0), V = system->potentialEnergy(q0, t0);
        const char* what = !std::isfinite(T)                       ? "kinetic energy"
                           : !std::isfinite(V)                     ? "potential energy"
                           : !massFinite                           ? "mass matrix"
                           : !Q.allFinite()                        ? "given force"
                           : !(constraintsFinite && b.allFinite()) ? "constraint equations"
                                                                   : nullptr;
        if (what)
            throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter,
                                     "scene '" + name + "': the parameters give a non-finite " +
                                         what +
                                         " at the start; values of this size are beyond "
                                         "double precision");
    }
    system->constraintResiduals(q0, qd0, t0, r);
    const double tol = StartState::residualTolerance(q0, qd0, t0);
    for (Eigen::Index i = 0; i < r.size(); ++i) {
        if (!(std::abs(r[i]) <= tol)) {
            std::ostringstream msg;
            msg << "scene '" << name << "': the initial state violates constraint residual "
                << i + 1 << " of " << r.size() << " (" << ParameterRule::number(r[i])
                << ", tolerance " << ParameterRule::number(tol) << ")";
            throw ConstraintLabError(ConstraintLabError::Kind::InvalidInitialState, msg.str());
        }
    }
    return system;
}

} // namespace clab
