#pragma once

namespace clab {

/// \brief A parameter kept within [lower, upper] by a change of variable, so that an
/// unconstrained optimizer (Levenberg–Marquardt) can move it freely (docs/MATH.md §9).
///
/// Both bounds finite: p = l + (u − l) / (1 + e^(−x)), the logistic function; only a lower
/// bound: p = l + eˣ; only an upper bound: p = u − eˣ; none: p = x. Each map is monotonic, so
/// a long step cannot wrap around to where it started (as the sine map of MINUIT can), and
/// each reaches its bound only as x goes to infinity: a start on a bound must move inside.
/// An infinite bound is given as ±infinity.
class BoundedParameter {
public:
    BoundedParameter(double lower, double upper) : lower_(lower), upper_(upper) {}

    double lower() const { return lower_; }
    double upper() const { return upper_; }
    /// The free variable x of a value p within the bounds.
    double internal(double p) const;
    /// The value p of a free variable x; always within the bounds.
    double external(double x) const;
    /// dp/dx at x.
    double derivative(double x) const;

private:
    double lower_, upper_;
};

} // namespace clab
