#include "scenes/SceneDefinition.h"

#include "model/ConstraintLabError.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace clab {

namespace {

// Shortest text that reads back as the same double.
std::string number(double v)
{
    char buf[64];
    const auto res = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, res.ptr);
}

std::string valueText(const std::vector<double>& v)
{
    if (v.size() == 1)
        return number(v[0]);
    std::string s = "(";
    for (std::size_t i = 0; i < v.size(); ++i)
        s += (i ? ", " : "") + number(v[i]);
    return s + ")";
}

std::string rangeText(const ParameterSpec& p)
{
    const std::string unit = p.unit.empty() ? "" : " " + p.unit;
    return (p.lowestIncluded() ? "in [" : "in (") + number(p.lowest()) + ", " +
           number(p.highest()) + "]" + unit;
}

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
        const std::string where = "scene '" + name + "': parameter '" + key + "'";
        if (static_cast<int>(value.size()) != p->size())
            invalid(where + " needs " + std::to_string(p->size()) + " component" +
                    (p->size() == 1 ? "" : "s") + ", got " + std::to_string(value.size()) +
                    (value.empty() ? "" : " (" + valueText(value) + ")"));
        bool allZero = true;
        for (std::size_t i = 0; i < value.size(); ++i) {
            const double v = value[i];
            const std::string which =
                value.size() == 1 ? where : where + " component " + std::to_string(i + 1);
            if (!std::isfinite(v))
                invalid(which + " = " + number(v) + " is not finite; allowed: " + rangeText(*p));
            if (!p->admits(v))
                invalid(which + " = " + number(v) + (p->unit.empty() ? "" : " " + p->unit) +
                        " is out of range; allowed: " + rangeText(*p));
            if (p->wholeNumber && v != std::round(v))
                invalid(which + " = " + number(v) + " must be a whole number (" + p->description +
                        ")");
            allZero = allZero && v == 0.0;
        }
        if (p->nonZero && allZero)
            invalid(where + " = " + valueText(value) + " must not be all zero");
        if (!p->notBelow.empty()) {
            const auto other = values.find(p->notBelow);
            if (other != values.end() && other->second.size() == value.size()) {
                for (std::size_t i = 0; i < value.size(); ++i)
                    if (value[i] < other->second[i])
                        invalid(where + " = " + number(value[i]) + " is below '" + p->notBelow +
                                "' = " + number(other->second[i]) + "; it must be at least " +
                                p->notBelow + " (" + p->description + ")");
            }
        }
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
        Eigen::MatrixXd M(n, n), A(m, n);
        Eigen::VectorXd Q(n), b(m);
        system->massMatrix(q0, t0, M);
        system->givenForce(q0, qd0, t0, Q);
        system->constraintMatrix(q0, qd0, t0, A, b);
        const double T = system->kineticEnergy(q0, qd0, t0), V = system->potentialEnergy(q0, t0);
        const char* what = !std::isfinite(T)                   ? "kinetic energy"
                           : !std::isfinite(V)                 ? "potential energy"
                           : !M.allFinite()                    ? "mass matrix"
                           : !Q.allFinite()                    ? "given force"
                           : !(A.allFinite() && b.allFinite()) ? "constraint equations"
                                                               : nullptr;
        if (what)
            throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter,
                                     "scene '" + name + "': the parameters give a non-finite " +
                                         what +
                                         " at the start; values of this size are beyond "
                                         "double precision");
    }
    system->constraintResiduals(q0, qd0, t0, r);
    // Residuals are products of at most two state components, so round-off scales like this.
    const double scale = 1.0 + q0.lpNorm<Eigen::Infinity>() + qd0.lpNorm<Eigen::Infinity>() +
                         q0.lpNorm<Eigen::Infinity>() * qd0.lpNorm<Eigen::Infinity>() +
                         std::abs(t0) * qd0.lpNorm<Eigen::Infinity>();
    const double tol = 1e-9 * scale;
    for (Eigen::Index i = 0; i < r.size(); ++i) {
        if (!(std::abs(r[i]) <= tol)) {
            std::ostringstream msg;
            msg << "scene '" << name << "': the initial state violates constraint residual "
                << i + 1 << " of " << r.size() << " (" << number(r[i]) << ", tolerance "
                << number(tol) << ")";
            throw ConstraintLabError(ConstraintLabError::Kind::InvalidInitialState, msg.str());
        }
    }
    return system;
}

} // namespace clab
