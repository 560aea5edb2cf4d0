#pragma once

#include "integrate/Stepper.h"

#include <boost/numeric/odeint.hpp>

#include <cmath>
#include <cstddef>

namespace clab {

/// \brief Dormand–Prince 5(4) with error control and its 4th-order dense output (Boost.Odeint).
///
/// The step size is the error control's alone: output times and events are found on the dense
/// output, so doStep ignores tStop. Refused trial steps are counted into `*rejected`.
class Dopri5Stepper final : public Stepper {
public:
    Dopri5Stepper(const Rhs& rhs, double atol, double rtol, std::size_t* rejected);

    void initialize(const State& x, double t, double dt) override;
    void doStep(double tStop) override;
    double previousTime() const override { return tPrev_; }
    double currentTime() const override { return dense_.current_time(); }
    void calcState(double t, State& x) override { dense_.calc_state(t, x); }
    const State& currentState() const override { return dense_.current_state(); }
    double stepSize() const override { return dense_.current_time_step(); }

private:
    using Method = boost::numeric::odeint::runge_kutta_dopri5<State>;
    using BaseChecker = boost::numeric::odeint::default_error_checker<double, Method::algebra_type,
                                                                      Method::operations_type>;

    /// odeint's error test, counting the trial steps it refuses (RunStats::rejectedSteps).
    class CountingErrorChecker : public BaseChecker {
    public:
        CountingErrorChecker(double atol, double rtol, std::size_t* rejected)
            : BaseChecker(atol, rtol), rejected_(rejected)
        {
        }
        template <class X, class D, class E, class T>
        double error(BaseChecker::algebra_type& algebra, const X& x, const D& dxdt, E& err,
                     T dt) const
        {
            // A trial step through a point where the right-hand side is not finite (outside the
            // domain of a sqrt or log) has a NaN error estimate, which odeint's maximum skips:
            // it would accept the step. Refuse it instead, so the step is retried smaller.
            for (const double v : err)
                if (!std::isfinite(v)) {
                    ++*rejected_;
                    return kRefused;
                }
            const double e = BaseChecker::error(algebra, x, dxdt, err, dt);
            if (e > 1.0)
                ++*rejected_;
            return e;
        }
        /// The error reported for a non-finite trial step: odeint then shrinks the step by its
        /// largest factor (5).
        static constexpr double kRefused = 1e6;

    private:
        std::size_t* rejected_;
    };

    using Controlled = boost::numeric::odeint::controlled_runge_kutta<Method, CountingErrorChecker>;
    using Dense = boost::numeric::odeint::dense_output_runge_kutta<Controlled>;
    RhsRef rhs_;
    Dense dense_;
    double tPrev_ = 0.0;
};

} // namespace clab
