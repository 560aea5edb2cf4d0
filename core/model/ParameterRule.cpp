#include "model/ParameterRule.h"

#include <charconv>
#include <cmath>

namespace clab {

namespace {

std::string withUnit(const ParameterSpec& spec)
{
    return spec.unit.empty() ? std::string() : " " + spec.unit;
}

// A component's violation, if any: not finite, out of range or not whole, the first of these.
std::optional<ParameterRule::Violation> componentViolation(const ParameterSpec& spec, double v,
                                                           int component)
{
    using Kind = ParameterRule::Kind;
    const std::string shown = "= " + ParameterRule::number(v);
    ParameterRule::Violation violation;
    violation.key = spec.name;
    violation.component = component;
    violation.value = v;
    if (!std::isfinite(v)) {
        violation.kind = Kind::NotFinite;
        violation.reason = shown + " is not finite; allowed: " + ParameterRule::rangeText(spec);
    } else if (!spec.admits(v)) {
        violation.kind = Kind::OutOfRange;
        violation.reason =
            shown + withUnit(spec) + " is out of range; allowed: " + ParameterRule::rangeText(spec);
    } else if (spec.wholeNumber && v != std::round(v)) {
        violation.kind = Kind::NotWhole;
        violation.reason = shown + " must be a whole number (" + spec.description + ")";
    } else {
        return std::nullopt;
    }
    return violation;
}

} // namespace

std::string ParameterRule::number(double v)
{
    char buf[64];
    const auto res = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, res.ptr);
}

std::string ParameterRule::valueText(const std::vector<double>& value)
{
    if (value.size() == 1)
        return number(value[0]);
    std::string s = "(";
    for (std::size_t i = 0; i < value.size(); ++i)
        s += (i ? ", " : "") + number(value[i]);
    return s + ")";
}

std::string ParameterRule::rangeText(const ParameterSpec& spec)
{
    return (spec.lowestIncluded() ? "in [" : "in (") + number(spec.lowest()) + ", " +
           number(spec.highest()) + "]" + withUnit(spec);
}

std::vector<ParameterRule::Violation> ParameterRule::check(const ParameterSpec& spec,
                                                           const std::vector<double>& value)
{
    if (static_cast<int>(value.size()) != spec.size()) {
        const std::string reason = "needs " + std::to_string(spec.size()) + " component" +
                                   (spec.size() == 1 ? "" : "s") + ", got " +
                                   std::to_string(value.size()) +
                                   (value.empty() ? "" : " (" + valueText(value) + ")");
        return {Violation{.key = spec.name,
                          .reason = reason,
                          .kind = Kind::ComponentCount,
                          .value = static_cast<double>(value.size())}};
    }
    std::vector<Violation> violations;
    bool allZero = true;
    for (std::size_t i = 0; i < value.size(); ++i) {
        if (auto violation = componentViolation(spec, value[i], static_cast<int>(i)))
            violations.push_back(std::move(*violation));
        allZero = allZero && value[i] == 0.0;
    }
    if (spec.nonZero && allZero)
        violations.push_back(Violation{.key = spec.name,
                                       .reason = "= " + valueText(value) + " must not be all zero",
                                       .kind = Kind::AllZero});
    return violations;
}

std::optional<ParameterRule::Violation> ParameterRule::checkFloor(const ParameterSpec& spec,
                                                                  const std::vector<double>& value,
                                                                  const ParameterValues& values)
{
    if (spec.notBelow.empty())
        return std::nullopt;
    const auto other = values.find(spec.notBelow);
    if (other == values.end() || other->second.size() != value.size())
        return std::nullopt;
    for (std::size_t i = 0; i < value.size(); ++i)
        if (value[i] < other->second[i])
            return Violation{.key = spec.name,
                             .reason = "= " + number(value[i]) + " is below '" + spec.notBelow +
                                       "' = " + number(other->second[i]) +
                                       "; it must be at least " + spec.notBelow + " (" +
                                       spec.description + ")",
                             .kind = Kind::Below,
                             .value = value[i],
                             .floor = other->second[i]};
    return std::nullopt;
}

} // namespace clab
