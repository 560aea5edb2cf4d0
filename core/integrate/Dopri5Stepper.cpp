#include "integrate/Dopri5Stepper.h"

namespace clab {

Dopri5Stepper::Dopri5Stepper(const Rhs& rhs, double atol, double rtol, std::size_t* rejected)
    : rhs_{&rhs}, dense_(Controlled(CountingErrorChecker(atol, rtol, rejected)))
{
}

void Dopri5Stepper::initialize(const State& x, double t, double dt)
{
    dense_.initialize(x, t, dt);
    tPrev_ = t;
}

void Dopri5Stepper::doStep(double /*tStop*/)
{
    const auto span = dense_.do_step(rhs_);
    tPrev_ = span.first;
}

} // namespace clab
