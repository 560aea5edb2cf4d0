#pragma once

namespace clab {

/// \brief A change of a frictional contact's mode during a run, at a located event time.
struct ContactEvent {
    enum class Kind {
        Stick, ///< the slip velocity reached zero and static friction holds the contact
        Slip, ///< the contact breaks away (the force it needs exceeds μₛ‖N‖) or starts sliding
        Reversal ///< the slip velocity reached zero and the contact slides back the other way
    };

    double t = 0.0;  ///< event time, located to about 1e-12 of the step on the dense output
    int contact = 0; ///< index of the contact (MechanicalSystem::contactName gives its name)
    Kind kind = Kind::Stick;

    /// "stick", "slip" or "reversal", as written to event files.
    static const char* kindName(Kind kind)
    {
        switch (kind) {
        case Kind::Stick:
            return "stick";
        case Kind::Slip:
            return "slip";
        case Kind::Reversal:
            return "reversal";
        }
        return "stick";
    }
};

} // namespace clab
