#pragma once

#include "integrate/Stepper.h"

#include <boost/numeric/odeint/stepper/runge_kutta4.hpp>

#include <cstddef>

namespace clab {

/// \brief Classic RK4 with a fixed step h that lands exactly on the tStop it is given; between
/// steps a cubic Hermite interpolant on the end states and derivatives (third order, enough to
/// locate events to the step's accuracy).
class Rk4Stepper final : public Stepper {
public:
    Rk4Stepper(const Rhs& rhs, double h, std::size_t size);

    void initialize(const State& x, double t, double dt) override;
    void doStep(double tStop) override;
    double previousTime() const override { return tPrev_; }
    double currentTime() const override { return t_; }
    void calcState(double t, State& x) override;
    const State& currentState() const override { return x_; }
    double stepSize() const override { return h_; }

private:
    RhsRef rhs_;
    double h_;
    boost::numeric::odeint::runge_kutta4<State> stepper_;
    State x_, dxdt_, xPrev_, dxdtPrev_;
    double t_ = 0.0, tPrev_ = 0.0;
};

} // namespace clab
