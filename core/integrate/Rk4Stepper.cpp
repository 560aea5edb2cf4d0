#include "integrate/Rk4Stepper.h"

#include <algorithm>
#include <utility>

namespace clab {

Rk4Stepper::Rk4Stepper(const Rhs& rhs, double h, std::size_t size)
    : rhs_{&rhs}, h_(h), x_(size), dxdt_(size), xPrev_(size), dxdtPrev_(size)
{
}

void Rk4Stepper::initialize(const State& x, double t, double /*dt*/)
{
    std::copy(x.begin(), x.end(), x_.begin());
    t_ = tPrev_ = t;
    rhs_(x_, dxdt_, t_);
    xPrev_ = x_;
    dxdtPrev_ = dxdt_;
}

void Rk4Stepper::doStep(double tStop)
{
    double h = h_;
    // Land exactly on tStop when the step would reach it or stop just short of it.
    const bool lands = t_ + h >= tStop - 1e-6 * h_;
    if (lands)
        h = tStop - t_;
    std::swap(xPrev_, x_);
    std::swap(dxdtPrev_, dxdt_);
    tPrev_ = t_;
    stepper_.do_step(rhs_, xPrev_, dxdtPrev_, tPrev_, x_, h);
    t_ = lands ? tStop : tPrev_ + h;
    rhs_(x_, dxdt_, t_);
}

void Rk4Stepper::calcState(double t, State& x)
{
    const double h = t_ - tPrev_;
    if (h <= 0.0) {
        x = x_;
        return;
    }
    const double s = (t - tPrev_) / h;
    const double s2 = s * s, s3 = s2 * s;
    const double h00 = 2 * s3 - 3 * s2 + 1, h10 = s3 - 2 * s2 + s;
    const double h01 = -2 * s3 + 3 * s2, h11 = s3 - s2;
    x.resize(x_.size());
    for (std::size_t i = 0; i < x_.size(); ++i)
        x[i] = h00 * xPrev_[i] + h10 * h * dxdtPrev_[i] + h01 * x_[i] + h11 * h * dxdt_[i];
}

} // namespace clab
