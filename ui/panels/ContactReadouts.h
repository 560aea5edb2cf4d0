#pragma once

#include <QStringList>

namespace clab {

class Trace;

/// \brief The Forces dock's lines for the one-sided contacts (docs/MATH.md §11) at a time:
/// "Contact floor: open", "…: closed, N_floor = 0.981 N", and "…: impact" briefly after one.
///
/// The state comes from the run's events: the last leave, touch or impact of the contact at or
/// before t (an impact that rebounds leaves it open; one that ends in a touch, closed); before
/// its first event, the opposite of that event; a contact without events is closed where its
/// force N_name pushes and open where it is zero (the simulator keeps it at exactly zero open).
class ContactReadouts {
public:
    enum class State { Open, Closed };

    /// One line per one-sided contact of the trace, for the sample shown at t.
    static QStringList lines(const Trace& trace, double t);
    /// Contact k's state at time t (k indexes Trace::unilateralNames).
    static State state(const Trace& trace, int k, double t);
    /// Whether contact k took an impact within impactSpan(trace) before t (or at t).
    static bool recentImpact(const Trace& trace, int k, double t);
    /// How long "impact" shows: three output intervals, or 2 % of the run when that is longer.
    static double impactSpan(const Trace& trace);
};

} // namespace clab
