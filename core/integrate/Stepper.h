#pragma once

#include <functional>
#include <vector>

namespace clab {

/// \brief An ODE method that takes one accepted step at a time, so that the run loop can add
/// post-step work (projection onto the constraint manifold, event location on the dense output)
/// and re-initialize the method after an event.
///
/// Implementations: Dopri5Stepper (adaptive, dense output) and Rk4Stepper (fixed step, Hermite
/// interpolant). Both take the right-hand side by reference; it must outlive the stepper.
class Stepper {
public:
    using State = std::vector<double>;
    /// dx/dt = f(x, t), written into its second argument.
    using Rhs = std::function<void(const State& x, State& dxdt, double t)>;

    virtual ~Stepper() = default;
    /// Restarts from state x at time t; dt is the first trial step.
    virtual void initialize(const State& x, double t, double dt) = 0;
    /// Takes one accepted step. Fixed-step methods do not step past tStop; adaptive ones may,
    /// and are then sampled through their dense output.
    virtual void doStep(double tStop) = 0;
    virtual double previousTime() const = 0;
    virtual double currentTime() const = 0;
    /// State at previousTime() <= t <= currentTime() by the method's interpolant.
    virtual void calcState(double t, State& x) = 0;
    virtual const State& currentState() const = 0;
    /// The step size the next step would try.
    virtual double stepSize() const = 0;

protected:
    /// Odeint copies the system functor on every call; this keeps the copy to one pointer.
    struct RhsRef {
        const Rhs* f;
        void operator()(const State& x, State& dxdt, double t) const { (*f)(x, dxdt, t); }
    };
};

} // namespace clab
