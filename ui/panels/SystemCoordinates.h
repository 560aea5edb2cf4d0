#pragma once

#include <symbolic/SystemDescription.h>

#include <map>
#include <string>
#include <vector>

namespace clab {

/// \brief The System editor's changes to the draft's coordinates (add, rename, remove, move),
/// which keep each coordinate's extra force and initial values with it.
///
/// Those values are stored by the coordinate's name (SystemDescription::forces, ::initial), so
/// they follow the name, never the row. While a new name is typed it may pass through another
/// coordinate's name ("q1" → "x" → "xc" beside an "x"): the renamed coordinate's values are then
/// held aside (the draft does not build with two x anyway), so that neither takes the other's,
/// and go back under its next name of its own.
class SystemCoordinates {
public:
    /// A coordinate's extra force, start value and start velocity (empty: none, computed).
    struct Values {
        std::string force, start, velocity;
    };

    explicit SystemCoordinates(SystemDescription& draft) : draft_(draft) {}

    /// The draft was replaced: nothing is held any more.
    void reset() { held_.clear(); }
    /// A coordinate q1, q2, … at the end (mass 1 when masses are given by coordinate).
    void add();
    void rename(int i, const std::string& name);
    /// Removes coordinate i with its values, its mass and its row and column of M.
    void remove(int i);
    /// Swaps two coordinates; their values stay with their names, masses move with them.
    void swap(int i, int j);
    /// Coordinate i's values, held or under its name.
    Values values(int i) const;
    /// Sets one of coordinate i's values: in the draft, or aside while it is held.
    void setValue(int i, std::string Values::*which, const std::string& expression);
    /// True while coordinate i's name is another's and its values are held aside.
    bool isHeld(int i) const { return held_.count(i) > 0; }

private:
    /// The coordinate other than `except` that has `name` and owns the values under it; -1.
    int ownerOf(const std::string& name, int except) const;
    Values valuesOf(const std::string& name) const;
    /// The values under `name`, taken out of the draft.
    Values takeValues(const std::string& name);
    void putValues(const std::string& name, const Values& values);
    /// Held values whose name no other coordinate owns any more go back into the draft.
    void releaseHeld();
    /// Sets (or, when empty, removes) the entry `name` of a list of named expressions.
    static void setNamed(std::vector<SystemDescription::Named>& list, const std::string& name,
                         const std::string& expression);

    SystemDescription& draft_;
    std::map<int, Values> held_; ///< by row
};

} // namespace clab
