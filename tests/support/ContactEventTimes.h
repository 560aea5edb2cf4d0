#pragma once
// The times of a run's contact events of one kind (impacts, lift-offs, ...), for the tests of
// one-sided contacts in the engine and in the desktop application.
#include <trace/Trace.h>

#include <vector>

namespace clab::testing {

inline std::vector<double> eventTimes(const Trace& trace, ContactEvent::Kind kind)
{
    std::vector<double> out;
    for (const ContactEvent& event : trace.events)
        if (event.kind == kind)
            out.push_back(event.t);
    return out;
}

} // namespace clab::testing
