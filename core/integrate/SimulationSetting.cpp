#include "integrate/SimulationSetting.h"

#include <charconv>
#include <cmath>

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

SimulationSetting flagSetting(std::string key, std::vector<std::string> words,
                              std::string documentation, bool SimulationOptions::*member)
{
    SimulationSetting s =
        described(std::move(key), SimulationSetting::Kind::Flag, {}, std::move(documentation));
    s.words = std::move(words);
    s.get = [member](const SimulationOptions& o) {
        return o.*member ? 1.0 : 0.0;
    };
    s.set = [member](SimulationOptions& o, double v) {
        o.*member = v != 0.0;
    };
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
        numberSetting("t_end", "T", "s", "t_end", "End time in s.", &SimulationOptions::tEnd),
        numberSetting("dt", "H", "s", "dt", "Output interval in s (also the fixed step of rk4).",
                      &SimulationOptions::dt),
        choiceSetting("integrator", "NAME", {"dopri5", "rk4"}, {"Dopri5", "RK4"},
                      "dopri5 (adaptive Dormand-Prince 5(4), the default) or rk4 (fixed step).",
                      &SimulationOptions::integrator),
        numberSetting("rtol", "R", "", "rtol", "Relative tolerance of dopri5.",
                      &SimulationOptions::rtol),
        numberSetting("atol", "A", "", "atol", "Absolute tolerance of dopri5.",
                      &SimulationOptions::atol),
        choiceSetting("stabilization", "S", {"none", "baumgarte", "projection"},
                      {"no stabilization", "Baumgarte", "projection"},
                      "How the constraints are kept from drifting: projection (q and q' back "
                      "onto the constraints after every step, the default), baumgarte or none.",
                      &SimulationOptions::stabilization),
        numberSetting("baumgarte_alpha", "A", "1/s", "α",
                      "Baumgarte alpha in 1/s (b -= 2 alpha phi' + beta^2 phi); alpha = beta "
                      "damps the drift critically.",
                      &SimulationOptions::baumgarteAlpha),
        numberSetting("baumgarte_beta", "B", "1/s", "β", "Baumgarte beta in 1/s.",
                      &SimulationOptions::baumgarteBeta),
        flagSetting("stop_at_end", {"runs on", "stops at end"},
                    "End the run (or not) where the body reaches the end of its track before "
                    "t_end: the bead at the foot of its wire (s = 0; on in the built-in bead "
                    "scene). The last row is then that moment, off the dt grid. Other scenes "
                    "have none.",
                    &SimulationOptions::stopAtEnd),
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
    if (!(o.tEnd > t0))
        return Problem{"t_end", "must be after the initial time " + number(t0) + " s (got " +
                                    number(o.tEnd) + ")"};
    if (!(o.dt > 0))
        return Problem{"dt", "must be greater than 0 s (got " + number(o.dt) + ")"};
    const double intervals = SimulationOptions::outputIntervals(t0, o.tEnd, o.dt);
    if (intervals > SimulationOptions::maxIntervals)
        return Problem{"dt", number(o.tEnd - t0) + " s in steps of " + number(o.dt) + " s gives " +
                                 number(intervals) + " output intervals, more than " +
                                 number(SimulationOptions::maxIntervals) +
                                 "; use a larger dt or a shorter t_end"};
    if (!(o.rtol >= SimulationOptions::minRtol && o.rtol <= 1))
        return Problem{"rtol", "must be between " + number(SimulationOptions::minRtol) +
                                   " (the limit of double precision) and 1 (got " + number(o.rtol) +
                                   ")"};
    if (!(o.atol > 0))
        return Problem{"atol", "must be greater than 0 (got " + number(o.atol) + ")"};
    if (!(o.baumgarteAlpha >= 0))
        return Problem{"baumgarte_alpha",
                       "must be at least 0 1/s (got " + number(o.baumgarteAlpha) + ")"};
    if (!(o.baumgarteBeta >= 0))
        return Problem{"baumgarte_beta",
                       "must be at least 0 1/s (got " + number(o.baumgarteBeta) + ")"};
    return std::nullopt;
}

} // namespace clab
