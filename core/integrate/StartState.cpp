#include "integrate/StartState.h"

#include "model/ConstraintLabError.h"
#include "model/MechanicalSystem.h"

#include <cmath>

namespace clab {

namespace {

Eigen::VectorXd vectorOf(const std::vector<double>& values)
{
    return Eigen::Map<const Eigen::VectorXd>(values.data(),
                                             static_cast<Eigen::Index>(values.size()));
}

std::vector<double> valuesOf(const Eigen::VectorXd& v)
{
    return {v.data(), v.data() + v.size()};
}

} // namespace

StartState::StartState(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& qd)
    : t0(t), q(valuesOf(q)), qd(valuesOf(qd))
{
}

Eigen::VectorXd StartState::positions() const
{
    return vectorOf(q);
}

Eigen::VectorXd StartState::velocities() const
{
    return vectorOf(qd);
}

double StartState::residualTolerance(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t0)
{
    const double qMax = q.lpNorm<Eigen::Infinity>(), qdMax = qd.lpNorm<Eigen::Infinity>();
    return 1e-9 * (1.0 + qMax + qdMax + qMax * qdMax + std::abs(t0) * qdMax);
}

std::optional<StartState::Problem> StartState::problem(const MechanicalSystem& system) const
{
    const auto count = static_cast<std::size_t>(system.dof());
    if (!std::isfinite(t0))
        return Problem{"start.t0", "must be a finite number"};
    const std::pair<const char*, const std::vector<double>*> parts[] = {{"start.q", &q},
                                                                        {"start.qdot", &qd}};
    for (const auto& [key, values] : parts) {
        if (values->size() != count)
            return Problem{key, "has " + std::to_string(values->size()) +
                                    " values; the system has " + std::to_string(count) +
                                    " coordinates"};
        for (std::size_t i = 0; i < values->size(); ++i)
            if (!std::isfinite((*values)[i]))
                return Problem{key, "value " + std::to_string(i + 1) + " is not finite"};
    }
    const Eigen::VectorXd q0 = positions(), qd0 = velocities();
    Eigen::VectorXd r(system.residualCount());
    system.constraintResiduals(q0, qd0, t0, r);
    const double tol = residualTolerance(q0, qd0, t0);
    for (Eigen::Index i = 0; i < r.size(); ++i)
        if (!(std::abs(r[i]) <= tol))
            return Problem{"start", "the state is off the constraints at t0 = " +
                                        ConstraintLabError::number(t0) + ": residual " +
                                        std::to_string(i + 1) + " of " + std::to_string(r.size()) +
                                        " is " + ConstraintLabError::number(r[i]) + " (tolerance " +
                                        ConstraintLabError::number(tol) + ")"};
    return std::nullopt;
}

} // namespace clab
