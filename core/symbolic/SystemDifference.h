#pragma once

#include "symbolic/SystemDescription.h"

#include <string>
#include <vector>

namespace clab {

/// \brief Where two descriptions of a system differ, entry by entry, keyed as SystemError keys
/// them ("system.kinetic_energy", "system.initial.x", "view.points[0]").
///
/// The System editor says with it which fields hold text the running system does not: the
/// system shown is the last one that built, and the fields may have moved on since.
class SystemDifference {
public:
    struct Change {
        std::string key;
        std::string shown; ///< the entry as `shown` states it ("" when it has none)
        std::string typed; ///< the entry as `typed` states it ("" when it has none)
        friend bool operator==(const Change&, const Change&) = default;
    };

    /// The entries of `typed` that differ from `shown`, in the order of the file's keys.
    static std::vector<Change> between(const SystemDescription& shown,
                                       const SystemDescription& typed);
};

} // namespace clab
