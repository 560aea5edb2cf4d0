#pragma once

#include <Eigen/Core>

namespace clab {

/// \brief A change of a frictional contact's mode during a run, at a located event time.
struct ContactEvent {
    enum class Kind {
        Stick, ///< the slip velocity reached zero and static friction holds the contact
        Slip, ///< the contact breaks away (the force it needs exceeds μₛ‖N‖) or starts sliding
        Reversal, ///< the slip velocity reached zero and the contact slides back the other way
        Leave,    ///< a one-sided contact opens: its force reached zero and would pull
        Touch,    ///< a one-sided contact closes: φ reached zero (after an impact, or gently)
        Impact    ///< a one-sided contact was struck (φ̇ < 0) and took an impulse
    };

    double t = 0.0; ///< event time, located to about 1e-12 of the step on the dense output
    /// Index of the contact: a frictional one (MechanicalSystem::contactName gives its name), or
    /// for Leave, Touch and Impact a one-sided one (Trace::unilateralNames).
    int contact = 0;
    Kind kind = Kind::Stick;
    /// Impact: the generalized impulse Jᵀ P the contact gave (N·s per coordinate unit), for the
    /// view's impulse arrow; empty for the other kinds.
    Eigen::VectorXd impulse = {};

    /// True for the events of one-sided contacts.
    static bool oneSided(Kind kind)
    {
        return kind == Kind::Leave || kind == Kind::Touch || kind == Kind::Impact;
    }

    /// "stick", "slip", "reversal", "leave", "touch" or "impact", as written to event files.
    static const char* kindName(Kind kind)
    {
        switch (kind) {
        case Kind::Stick:
            return "stick";
        case Kind::Slip:
            return "slip";
        case Kind::Reversal:
            return "reversal";
        case Kind::Leave:
            return "leave";
        case Kind::Touch:
            return "touch";
        case Kind::Impact:
            return "impact";
        }
        return "stick";
    }
};

} // namespace clab
