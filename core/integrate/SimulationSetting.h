#pragma once

#include "integrate/SimulationOptions.h"

#include <functional>
#include <limits>
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
    /// Words for people in the Scene dock ("Integrator", "Stop at the end of the track"); a
    /// number's is its symbol, shown with its unit.
    std::string label;
    /// A choice's words in the Scene dock, by value ("Runge-Kutta 4, fixed step").
    std::vector<std::string> choiceLabels;

    /// A number's range, which check() holds it to: at least `min` (greater than it when
    /// `minExclusive`; greater than the run's initial time when `afterInitialTime`), at most
    /// `max`. `minWhy` says why min is what it is ("the limit of double precision").
    double min = -std::numeric_limits<double>::infinity();
    double max = std::numeric_limits<double>::infinity();
    bool minExclusive = false;
    bool afterInitialTime = false;
    std::string minWhy;
    /// A number set by factors of ten (a tolerance) rather than in steps.
    bool logarithmic = false;
    /// A rule of this setting beyond its range, checked right after it (dt: the number of
    /// output intervals): why `options` break it, nullopt when they do not.
    std::function<std::optional<std::string>(const SimulationOptions&, double t0)> alsoCheck;

    /// The other setting and value with which this one has an effect (the tolerances only
    /// with dopri5, the Baumgarte gains only with Baumgarte stabilization).
    struct Condition {
        std::string key;
        double value = 0.0;
    };
    std::optional<Condition> enabledWhen;
    /// How a summary (the CSV header, `describe`) names a setting that it shows only while it
    /// has an effect, in parentheses after the one it depends on ("alpha"); "" for a setting a
    /// summary always lists by its key.
    std::string summaryName;
    std::function<double(const SimulationOptions&)> get;
    std::function<void(SimulationOptions&, double)> set;
    /// True for a setting that a summary leaves out because `describe` and the CSV header give
    /// it a sentence of its own (stop_at_end, worded by the scene's end); any other flag is
    /// listed as "key = on" or "key = off".
    bool summarizedApart = false;

    /// The command-line option: "--" and the key with '-' for '_' ("--baumgarte-alpha").
    std::string option() const;
    /// A choice's name in `options` ("rk4"); "" for other kinds.
    std::string nameIn(const SimulationOptions& options) const;
    /// The value a choice's name stands for, nullopt for an unknown name or another kind.
    std::optional<double> valueNamed(std::string_view name) const;
    /// A choice's names for a message: "none, baumgarte or projection".
    std::string nameList() const;
    /// Whether the setting has an effect with `options` (see enabledWhen).
    bool enabledIn(const SimulationOptions& options) const;
    /// Why a number's `value` is outside its range for a run from t0 ("must be greater than 0
    /// s (got 0)"), nullopt when it is inside.
    std::optional<std::string> rangeProblem(double value, double t0) const;

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

    /// How summary() writes the settings.
    struct SummaryStyle {
        /// Between a choice's key and its name: " " ("integrator rk4") or " = ".
        std::string choiceJoin = " = ";
        /// Whether the settings with a summaryName follow, in parentheses, the setting they
        /// depend on while they have an effect ("stabilization = baumgarte (alpha = 5 1/s, ...)").
        bool withDependents = true;
        std::function<std::string(double)> number = &SimulationSetting::number;
    };
    /// The numbers and choices of `options` on one line, in the table's order: "t_end = 10 s,
    /// dt = 0.01 s, integrator = dopri5, ...". Flags are not in it: what they mean depends on
    /// the scene (stop_at_end: where its track ends).
    static std::string summary(const SimulationOptions& options, const SummaryStyle& style);

    /// A number for a message or a label: the shortest text that reads back to it, "%g" style
    /// ("0.0001", "1e+07").
    static std::string number(double value);
};

} // namespace clab
