#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

namespace clab {

/// \brief Locates the time at which an event function crosses over inside one integrator step.
///
/// The event function g(t) is evaluated on the step's dense output. The step start `a` counts
/// as before the event whatever g(a) is (a mode may start exactly on its boundary, e.g. a contact
/// that breaks away starts with zero slip velocity), and `crossed(g(b))` holds at the step end.
/// The bracket is narrowed by the Illinois variant of regula falsi, with a bisection every
/// fourth iteration so that progress is guaranteed even for flat or noisy g, until it is no
/// wider than `tol`. The result is the bracket's far end, where the event has happened, so a
/// mode decided there is consistent with the event (no chattering back and forth).
///
/// g may be non-finite beyond the event (an end condition sqrt(x + 1) − 0.5 turns NaN soon after
/// its zero): a non-finite value counts as the far side of the bracket, which is then halved
/// until a finite crossed value is found or the bracket is within `tol`. So a step that ends
/// where g is not finite still has the crossing inside it located; when g turns non-finite
/// without crossing first, the result's g says so.
class EventLocator {
public:
    /// Where the event happened and g there: finite when crossed(g) holds, non-finite when g
    /// became non-finite at t (to within the tolerance) without crossing before.
    struct Crossing {
        double t;
        double g;
    };

    /// Relative tolerance of the event time, as a fraction of the step.
    static constexpr double relativeTolerance = 1e-12;

    /// Time tolerance for a step [a, b]: relativeTolerance of the step, and at least a few
    /// units in the last place of the time itself.
    static double tolerance(double a, double b)
    {
        const double ulp = 4.0 * std::numeric_limits<double>::epsilon() *
                           std::max({std::abs(a), std::abs(b), 1e-300});
        return std::max(relativeTolerance * (b - a), ulp);
    }

    /// Smallest t in (a, b] where the event has happened, to within `tol`. `gb` is g(b) with
    /// crossed(gb) true; `ga` is g(a). Allocation-free; g is called at most ~200 times.
    template <class Function, class Crossed>
    static double locate(Function&& g, Crossed&& crossed, double a, double ga, double b, double gb,
                         double tol)
    {
        return locateCrossing(g, crossed, a, ga, b, gb, tol).t;
    }

    /// As locate, where g(b) may also be non-finite (g is finite and not crossed at a).
    template <class Function, class Crossed>
    static Crossing locateCrossing(Function&& g, Crossed&& crossed, double a, double ga, double b,
                                   double gb, double tol)
    {
        int lastSide = 0; // +1: the last trial replaced a, −1: it replaced b
        for (int iteration = 0; iteration < 400 && b - a > tol; ++iteration) {
            const bool secant = ga > 0.0 && gb <= 0.0 && ga != gb && iteration % 4 != 3;
            double t = secant ? b - gb * (b - a) / (gb - ga) : 0.5 * (a + b);
            // Keep the trial strictly inside so that the bracket always shrinks.
            const double margin = std::min(0.25 * tol, 0.25 * (b - a));
            t = std::clamp(t, a + margin, b - margin);
            if (!(t > a && t < b))
                t = 0.5 * (a + b);
            if (!(t > a && t < b))
                break; // a and b are adjacent doubles
            const double gt = g(t);
            if (!std::isfinite(gt)) {
                // Beyond where g is defined: the crossing, if any, is before t. A non-finite
                // gb also turns the secant off until a finite crossed value replaces it.
                b = t;
                gb = gt;
                lastSide = 0;
            } else if (crossed(gt)) {
                b = t;
                gb = gt;
                if (lastSide == -1)
                    ga *= 0.5; // Illinois: a was kept twice, halve its weight
                lastSide = -1;
            } else {
                a = t;
                ga = gt;
                if (lastSide == +1)
                    gb *= 0.5;
                lastSide = +1;
            }
        }
        return {b, gb};
    }
};

} // namespace clab
