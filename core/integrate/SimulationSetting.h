#pragma once

#include "integrate/SimulationOptions.h"

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clab {

/// \brief One simulation setting, described once: scene files (the "simulation" object), the
/// command line, the Scene dock, compare-mode labels and validation all read this table.
///
/// Every setting is read and written as a double: a number as it is, a choice as its enum
/// value (an index into `names`), a flag as 0 or 1.
struct SimulationSetting {
    enum class Kind {
        Number, ///< a real number with a unit
        Choice, ///< one of `names`
        Flag    ///< on or off
    };

    std::string key; ///< the file key, e.g. "t_end"; the option is "--t-end" (see option())
    Kind kind = Kind::Number;
    std::string unit;   ///< of a number ("s", "1/s"), "" when it has none
    std::string symbol; ///< how a compare-mode label names a number ("t_end", "α")
    /// A choice's names in files and on the command line, by enum value ("dopri5", "rk4").
    std::vector<std::string> names;
    /// A choice's or flag's words in compare-mode labels, by value ("RK4"; "runs on").
    std::vector<std::string> words;
    /// What it does, for help texts and tooltips (plain ASCII: it goes to terminals too).
    std::string documentation;
    std::string placeholder; ///< the value in a usage line ("T" in "--t-end T"); "" for a flag
    std::function<double(const SimulationOptions&)> get;
    std::function<void(SimulationOptions&, double)> set;

    /// The command-line option: "--" and the key with '-' for '_' ("--baumgarte-alpha").
    std::string option() const;
    /// A choice's name in `options` ("rk4"); "" for other kinds.
    std::string nameIn(const SimulationOptions& options) const;
    /// The value a choice's name stands for, nullopt for an unknown name or another kind.
    std::optional<double> valueNamed(std::string_view name) const;
    /// A choice's names for a message: "none, baumgarte or projection".
    std::string nameList() const;

    /// Every setting, in the order the Scene dock and session keys list them.
    static const std::vector<SimulationSetting>& all();
    /// The setting with this key, or nullptr.
    static const SimulationSetting* find(std::string_view key);

    /// What is wrong with a setting: its key and why, e.g. {"dt", "must be greater than 0 s
    /// (got -1)"}.
    struct Problem {
        std::string key;
        std::string reason;
    };
    /// The first setting of `options` that a run from the initial time t0 cannot use: a
    /// non-finite number, t_end not after t0, dt not positive or giving more than
    /// SimulationOptions::maxIntervals output intervals, rtol outside [minRtol, 1], atol not
    /// positive, a negative Baumgarte gain. nullopt when all are usable.
    static std::optional<Problem> check(const SimulationOptions& options, double t0);

    /// A number for a message or a label: the shortest text that reads back to it, "%g" style
    /// ("0.0001", "1e+07").
    static std::string number(double value);
};

} // namespace clab
