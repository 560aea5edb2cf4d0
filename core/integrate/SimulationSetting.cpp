#include "integrate/SimulationSetting.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

namespace clab {

namespace {

// What every kind has: key, kind, the value's placeholder and the documentation.
SimulationSetting described(std::string key, SimulationSetting::Kind kind, std::string placeholder,
                            std::string documentation)
{
    SimulationSetting s;
    s.key = std::move(key);
    s.kind = kind;
    s.placeholder = std::move(placeholder);
    s.documentation = std::move(documentation);
    return s;
}

SimulationSetting numberSetting(std::string key, std::string placeholder, std::string unit,
                                std::string symbol, std::string documentation,
                                double SimulationOptions::*member)
{
    SimulationSetting s = described(std::move(key), SimulationSetting::Kind::Number,
                                    std::move(placeholder), std::move(documentation));
    s.unit = std::move(unit);
    s.symbol = std::move(symbol);
    s.label = s.symbol;
    s.get = [member](const SimulationOptions& o) {
        return o.*member;
    };
    s.set = [member](SimulationOptions& o, double v) {
        o.*member = v;
    };
    return s;
}

/// A choice stored as an enum whose values are 0, 1, ... in the order of `names`.
template <typename Enum>
SimulationSetting choiceSetting(std::string key, std::string placeholder,
                                std::vector<std::string> names, std::vector<std::string> words,
                                std::string documentation, Enum SimulationOptions::*member)
{
    SimulationSetting s = described(std::move(key), SimulationSetting::Kind::Choice,
                                    std::move(placeholder), std::move(documentation));
    s.names = std::move(names);
    s.words = std::move(words);
    const int last = static_cast<int>(s.names.size()) - 1;
    s.get = [member](const SimulationOptions& o) {
        return static_cast<double>(o.*member);
    };
    s.set = [member, last](SimulationOptions& o, double v) {
        o.*member = static_cast<Enum>(std::clamp(static_cast<int>(v), 0, last));
    };
    return s;
}

// A setting the summaries leave to a sentence of its own.
SimulationSetting apart(SimulationSetting s)
{
    s.summarizedApart = true;
    return s;
}

SimulationSetting flagSetting(std::string key, std::vector<std::string> words, std::string label,
                              std::string documentation, bool SimulationOptions::*member)
{
    SimulationSetting s =
        described(std::move(key), SimulationSetting::Kind::Flag, {}, std::move(documentation));
    s.words = std::move(words);
    s.label = std::move(label);
    s.get = [member](const SimulationOptions& o) {
        return o.*member ? 1.0 : 0.0;
    };
    s.set = [member](SimulationOptions& o, double v) {
        o.*member = v != 0.0;
    };
    return s;
}

// A number's range: [min, max], or (min, max] when minExclusive.
SimulationSetting ranged(SimulationSetting s, double min, double max, bool minExclusive = false)
{
    s.min = min;
    s.max = max;
    s.minExclusive = minExclusive;
    return s;
}

// A setting that has an effect only while setting `key` has `value`.
SimulationSetting enabledWhen(SimulationSetting s, std::string key, double value)
{
    s.enabledWhen = SimulationSetting::Condition{std::move(key), value};
    return s;
}

constexpr double inf = std::numeric_limits<double>::infinity();

// t_end after the initial time, which is 0 for every scene so far (MechanicalSystem).
SimulationSetting endTime()
{
    SimulationSetting s = ranged(
        numberSetting("t_end", "T", "s", "t_end", "End time in s.", &SimulationOptions::tEnd), 0.0,
        inf, true);
    s.afterInitialTime = true;
    return s;
}

// dt above 0, and not so small that the run has more than maxIntervals output intervals.
SimulationSetting outputInterval()
{
    SimulationSetting s = ranged(numberSetting("dt", "H", "s", "dt",
                                               "Output interval in s (also the fixed step of rk4).",
                                               &SimulationOptions::dt),
                                 0.0, inf, true);
    s.alsoCheck = [](const SimulationOptions& o, double t0) -> std::optional<std::string> {
        const double intervals = SimulationOptions::outputIntervals(t0, o.tEnd, o.dt);
        if (intervals <= SimulationOptions::maxIntervals)
            return std::nullopt;
        return SimulationSetting::number(o.tEnd - t0) + " s in steps of " +
               SimulationSetting::number(o.dt) + " s gives " +
               SimulationSetting::number(intervals) + " output intervals, more than " +
               SimulationSetting::number(SimulationOptions::maxIntervals) +
               "; use a larger dt or a shorter t_end";
    };
    return s;
}

// A tolerance of dopri5 (rk4 has none), set by factors of ten.
SimulationSetting tolerance(std::string key, std::string placeholder, std::string documentation,
                            double SimulationOptions::*member, double min, double max,
                            bool minExclusive)
{
    SimulationSetting s = enabledWhen(ranged(numberSetting(key, std::move(placeholder), "", key,
                                                           std::move(documentation), member),
                                             min, max, minExclusive),
                                      "integrator", static_cast<double>(IntegratorKind::Dopri5));
    s.logarithmic = true;
    return s;
}

// A gain of Baumgarte stabilization: at least 0, only with that stabilization.
SimulationSetting baumgarteGain(std::string key, std::string placeholder, std::string symbol,
                                std::string summaryName, std::string documentation,
                                double SimulationOptions::*member)
{
    SimulationSetting s =
        enabledWhen(ranged(numberSetting(std::move(key), std::move(placeholder), "1/s",
                                         std::move(symbol), std::move(documentation), member),
                           0.0, inf),
                    "stabilization", static_cast<double>(Stabilization::Baumgarte));
    s.summaryName = std::move(summaryName);
    return s;
}

SimulationSetting withMinWhy(SimulationSetting s, std::string why)
{
    s.minWhy = std::move(why);
    return s;
}

// A choice with its words in the Scene dock.
SimulationSetting labelledChoice(SimulationSetting s, std::string label,
                                 std::vector<std::string> choiceLabels)
{
    s.label = std::move(label);
    s.choiceLabels = std::move(choiceLabels);
    return s;
}

} // namespace

const std::vector<SimulationSetting>& SimulationSetting::all()
{
    static_assert(static_cast<int>(IntegratorKind::Dopri5) == 0 &&
                      static_cast<int>(IntegratorKind::Rk4) == 1,
                  "integrator names are listed by enum value");
    static_assert(static_cast<int>(Stabilization::None) == 0 &&
                      static_cast<int>(Stabilization::Baumgarte) == 1 &&
                      static_cast<int>(Stabilization::Projection) == 2,
                  "stabilization names are listed by enum value");
    static const std::vector<SimulationSetting> settings = {
        endTime(),
        outputInterval(),
        labelledChoice(
            choiceSetting("integrator", "NAME", {"dopri5", "rk4"}, {"Dopri5", "RK4"},
                          "dopri5 (adaptive Dormand-Prince 5(4), the default) or rk4 (fixed "
                          "step).",
                          &SimulationOptions::integrator),
            "Integrator", {"Dormand–Prince 5(4), adaptive", "Runge–Kutta 4, fixed step"}),
        withMinWhy(tolerance("rtol", "R", "Relative tolerance of dopri5.", &SimulationOptions::rtol,
                             SimulationOptions::minRtol, 1.0, false),
                   "the limit of double precision"),
        tolerance("atol", "A", "Absolute tolerance of dopri5.", &SimulationOptions::atol, 0.0, inf,
                  true),
        labelledChoice(
            choiceSetting("stabilization", "S", {"none", "baumgarte", "projection"},
                          {"no stabilization", "Baumgarte", "projection"},
                          "How the constraints are kept from drifting: projection (q and q' back "
                          "onto the constraints after every step, the default), baumgarte or "
                          "none.",
                          &SimulationOptions::stabilization),
            "Stabilization", {"None", "Baumgarte", "Projection"}),
        baumgarteGain("baumgarte_alpha", "A", "α", "alpha",
                      "Baumgarte alpha in 1/s (b -= 2 alpha phi' + beta^2 phi); alpha = beta "
                      "damps the drift critically.",
                      &SimulationOptions::baumgarteAlpha),
        baumgarteGain("baumgarte_beta", "B", "β", "beta", "Baumgarte beta in 1/s.",
                      &SimulationOptions::baumgarteBeta),
        apart(flagSetting("stop_at_end", {"runs on", "stops at end"},
                          "Stop at the end of the track",
                          "End the run (or not) where the body reaches the end of its track "
                          "before t_end: the bead at the foot of its wire (s = 0; on in the "
                          "built-in bead scene). The last row is then that moment, off the dt "
                          "grid. Other scenes have none.",
                          &SimulationOptions::stopAtEnd)),
    };
    return settings;
}

const SimulationSetting* SimulationSetting::find(std::string_view key)
{
    for (const SimulationSetting& s : all())
        if (s.key == key)
            return &s;
    return nullptr;
}

std::string SimulationSetting::option() const
{
    std::string text = "--" + key;
    std::replace(text.begin(), text.end(), '_', '-');
    return text;
}

std::string SimulationSetting::nameIn(const SimulationOptions& options) const
{
    if (kind != Kind::Choice)
        return {};
    const auto index = static_cast<std::size_t>(get(options));
    return index < names.size() ? names[index] : std::string();
}

std::optional<double> SimulationSetting::valueNamed(std::string_view name) const
{
    if (kind != Kind::Choice)
        return std::nullopt;
    const auto it = std::find(names.begin(), names.end(), name);
    if (it == names.end())
        return std::nullopt;
    return static_cast<double>(it - names.begin());
}

std::string SimulationSetting::nameList() const
{
    std::string text;
    for (std::size_t i = 0; i < names.size(); ++i)
        text += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
    return text;
}

std::string SimulationSetting::number(double value)
{
    char buffer[64];
    const auto result =
        std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::general);
    return std::string(buffer, result.ptr);
}

std::optional<SimulationSetting::Problem> SimulationSetting::check(const SimulationOptions& o,
                                                                   double t0)
{
    for (const SimulationSetting& s : all()) {
        if (s.kind == Kind::Number && !std::isfinite(s.get(o)))
            return Problem{s.key, "must be a finite number (got " + number(s.get(o)) + ")"};
    }
    for (const SimulationSetting& s : all()) {
        if (s.kind != Kind::Number)
            continue;
        if (auto reason = s.rangeProblem(s.get(o), t0))
            return Problem{s.key, *reason};
        if (s.alsoCheck)
            if (auto reason = s.alsoCheck(o, t0))
                return Problem{s.key, *reason};
    }
    return std::nullopt;
}

std::optional<std::string> SimulationSetting::rangeProblem(double value, double t0) const
{
    const std::string unitText = unit.empty() ? "" : " " + unit;
    const std::string got = " (got " + number(value) + ")";
    if (afterInitialTime) {
        if (value > t0)
            return std::nullopt;
        return "must be after the initial time " + number(t0) + unitText + got;
    }
    const bool aboveMin = minExclusive ? value > min : value >= min;
    if (aboveMin && value <= max)
        return std::nullopt;
    const std::string why = minWhy.empty() ? "" : " (" + minWhy + ")";
    if (max < inf && min > -inf)
        return "must be between " + number(min) + why + " and " + number(max) + unitText + got;
    if (!aboveMin)
        return (minExclusive ? "must be greater than " : "must be at least ") + number(min) + why +
               unitText + got;
    return "must be at most " + number(max) + unitText + got;
}

bool SimulationSetting::enabledIn(const SimulationOptions& options) const
{
    if (!enabledWhen)
        return true;
    const SimulationSetting* other = find(enabledWhen->key);
    return other != nullptr && other->get(options) == enabledWhen->value;
}

std::string SimulationSetting::summary(const SimulationOptions& options, const SummaryStyle& style)
{
    std::string text;
    for (const SimulationSetting& s : all()) {
        if (s.summarizedApart || !s.summaryName.empty())
            continue;
        text += text.empty() ? "" : ", ";
        if (s.kind == Kind::Flag)
            text += s.key + (s.get(options) != 0.0 ? " = on" : " = off");
        else if (s.kind == Kind::Choice)
            text += s.key + style.choiceJoin + s.nameIn(options);
        else
            text +=
                s.key + " = " + style.number(s.get(options)) + (s.unit.empty() ? "" : " " + s.unit);
        if (!style.withDependents)
            continue;
        // The settings that follow this one, while they have an effect.
        std::string dependents;
        for (const SimulationSetting& d : all())
            if (!d.summaryName.empty() && d.enabledWhen && d.enabledWhen->key == s.key &&
                d.enabledIn(options))
                dependents += (dependents.empty() ? "" : ", ") + d.summaryName + " = " +
                              style.number(d.get(options)) + (d.unit.empty() ? "" : " " + d.unit);
        if (!dependents.empty())
            text += " (" + dependents + ")";
    }
    return text;
}

} // namespace clab
