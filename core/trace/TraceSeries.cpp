#include "trace/TraceSeries.h"

#include "model/ConstraintLabError.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>

namespace clab {

namespace {

// Where a quantity comes from: a column of the trace, or one of the derived quantities.
enum class Source { Column, NormQ, NormQci, NormQcni, EnergyBalance, QuatNormError };

struct Quantity {
    Source source = Source::Column;
    int column = -1;
};

// Derived quantities in the order names() lists them.
struct Derived {
    const char* name;
    Source source;
};
constexpr Derived kDerived[] = {
    {"|Q|", Source::NormQ},
    {"|Qci|", Source::NormQci},
    {"|Qcni|", Source::NormQcni},
    {"E_balance", Source::EnergyBalance},
    {"quat_norm_error", Source::QuatNormError},
};

bool derivedAvailable(const Trace& trace, Source source)
{
    switch (source) {
    case Source::NormQ:
    case Source::NormQci:
    case Source::NormQcni:
        return !trace.coordinateNames().empty();
    case Source::EnergyBalance:
        return true;
    case Source::QuatNormError:
        return trace.columnIndex("quat_norm") >= 0;
    case Source::Column:
        break;
    }
    return false;
}

std::string joined(const std::vector<std::string>& names)
{
    std::string text;
    for (const std::string& name : names) {
        if (!text.empty())
            text += ", ";
        text += name;
    }
    return text;
}

Quantity lookup(const Trace& trace, const std::string& name)
{
    const int column = trace.columnIndex(name);
    if (column >= 0)
        return {Source::Column, column};
    for (const Derived& d : kDerived)
        if (name == d.name && derivedAvailable(trace, d.source))
            return {d.source, -1};
    throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter,
                             "unknown quantity '" + name +
                                 "'; this trace has: " + joined(TraceSeries::names(trace)));
}

// Units of a coordinate's derivatives and of its generalized force.
std::string perSecond(const std::string& unit, const char* seconds)
{
    return (unit.empty() ? std::string("1") : unit) + "/" + seconds;
}

std::string forceUnit(const std::string& coordinateUnit)
{
    if (coordinateUnit == "m")
        return "N";
    if (coordinateUnit.empty())
        return "N·m"; // work per unit of a dimensionless coordinate: a torque-like quantity
    return "J/" + coordinateUnit;
}

// The unit every generalized force shares, or "" when the coordinates mix units.
std::string commonForceUnit(const Trace& trace)
{
    const std::vector<std::string>& units = trace.coordinateUnits();
    if (units.empty())
        return "";
    for (const std::string& u : units)
        if (u != units.front())
            return "";
    return forceUnit(units.front());
}

// "u0" → "u₀": trailing digits as Unicode subscripts. Returns the stem and the subscript
// separately so that a combining dot can go on the letter, not on the subscript.
std::pair<std::string, std::string> splitSubscript(const std::string& name)
{
    static const char* const kSubscripts[] = {"₀", "₁", "₂", "₃", "₄", "₅", "₆", "₇", "₈", "₉"};
    std::size_t end = name.size();
    while (end > 1 && name[end - 1] >= '0' && name[end - 1] <= '9')
        --end;
    std::string subscript;
    for (std::size_t i = end; i < name.size(); ++i)
        subscript += kSubscripts[name[i] - '0'];
    return {name.substr(0, end), subscript};
}

std::string symbol(const std::string& name)
{
    const auto [stem, subscript] = splitSubscript(name);
    return stem + subscript;
}

// ẋ, ẍ with combining dots (U+0307, U+0308) on a one-letter stem; d/dt notation otherwise.
std::string derivative(const std::string& name, int order)
{
    const auto [stem, subscript] = splitSubscript(name);
    if (stem.size() == 1)
        return stem + (order == 1 ? "\u0307" : "\u0308") + subscript;
    return (order == 1 ? "d" : "d²") + (stem + subscript) + (order == 1 ? "/dt" : "/dt²");
}

// Label and unit of one column, by what kind of column it is.
struct Described {
    std::string label;
    std::string unit;
};

std::optional<Described> describeCoordinateColumn(const Trace& trace, const std::string& name)
{
    const std::vector<std::string>& coordinates = trace.coordinateNames();
    for (std::size_t i = 0; i < coordinates.size(); ++i) {
        const std::string& c = coordinates[i];
        const std::string& u = trace.coordinateUnits()[i];
        if (name == c)
            return Described{symbol(c), u};
        if (name == c + "_dot")
            return Described{derivative(c, 1), perSecond(u, "s")};
        if (name == c + "_ddot")
            return Described{derivative(c, 2), perSecond(u, "s²")};
        if (name == "Q_" + c)
            return Described{"Q_" + symbol(c), forceUnit(u)};
        if (name == "Qci_" + c)
            return Described{"Qᶜᵢ_" + symbol(c), forceUnit(u)};
        if (name == "Qcni_" + c)
            return Described{"Qᶜₙᵢ_" + symbol(c), forceUnit(u)};
    }
    return std::nullopt;
}

Described describe(const Trace& trace, const std::string& name)
{
    const Quantity quantity = lookup(trace, name); // throws for unknown names
    switch (quantity.source) {
    case Source::NormQ:
        return {"‖Q‖", commonForceUnit(trace)};
    case Source::NormQci:
        return {"‖Qᶜᵢ‖", commonForceUnit(trace)};
    case Source::NormQcni:
        return {"‖Qᶜₙᵢ‖", commonForceUnit(trace)};
    case Source::EnergyBalance: {
        // Every work term the run has, so that the audit line is zero up to the tolerance
        // (the acatastatic constraint's ideal force does work; a given drag does too).
        std::string label = "E − E₀ − W_nonideal";
        if (trace.hasIdealWork())
            label += " − W_ideal";
        if (std::any_of(trace.samples.begin(), trace.samples.end(),
                        [](const TraceSample& s) { return s.W_given_nc != 0.0; }))
            label += " − W_given_nc";
        if (trace.hasImpactWork())
            label += " − W_impact";
        return {label, "J"};
    }
    case Source::QuatNormError:
        return {"‖u‖ − 1", ""};
    case Source::Column:
        break;
    }
    if (name == "t")
        return {"t", "s"};
    if (const auto described = describeCoordinateColumn(trace, name))
        return *described;
    if (name == "T" || name == "V" || name == "E" || name == "W_nonideal" || name == "W_ideal" ||
        name == "W_impact" || name == "E_error")
        return {name, "J"};
    if (name == "residual_max")
        return {"max |residual|", ""};
    if (name == "contact")
        return {"contact mode (1 sliding)", ""};
    for (const std::string& contact : trace.contactNames())
        if (name == "contact_" + contact)
            return {contact + " mode (1 sliding)", ""};
    const std::vector<std::string>& extras = trace.extraNames();
    for (std::size_t i = 0; i < extras.size(); ++i) {
        if (name != extras[i])
            continue;
        std::string label = name;
        if (name == "w1" || name == "w2" || name == "w3")
            label = "ω" + splitSubscript(name).second;
        else if (name == "quat_norm")
            label = "‖u‖";
        return {label, trace.extraUnits()[i]};
    }
    // A column that is none of the above (cannot happen with Trace's layout).
    return {name, ""};
}

} // namespace

std::vector<std::string> TraceSeries::names(const Trace& trace)
{
    std::vector<std::string> result = trace.columnNames();
    for (const Derived& d : kDerived)
        if (derivedAvailable(trace, d.source))
            result.emplace_back(d.name);
    return result;
}

bool TraceSeries::contains(const Trace& trace, const std::string& name)
{
    if (trace.columnIndex(name) >= 0)
        return true;
    for (const Derived& d : kDerived)
        if (name == d.name)
            return derivedAvailable(trace, d.source);
    return false;
}

std::vector<double> TraceSeries::values(const Trace& trace, const std::string& name)
{
    const Quantity quantity = lookup(trace, name);
    if (quantity.source == Source::Column)
        return trace.column(quantity.column);
    if (quantity.source == Source::QuatNormError) {
        std::vector<double> values = trace.column(trace.columnIndex("quat_norm"));
        for (double& v : values)
            v -= 1.0;
        return values;
    }
    std::vector<double> values;
    values.reserve(trace.samples.size());
    const double E0 = trace.samples.empty() ? 0.0 : trace.samples.front().E;
    for (const TraceSample& s : trace.samples) {
        switch (quantity.source) {
        case Source::NormQ:
            values.push_back(s.Q.norm());
            break;
        case Source::NormQci:
            values.push_back(s.Qci.norm());
            break;
        case Source::NormQcni:
            values.push_back(s.Qcni.norm());
            break;
        case Source::EnergyBalance:
            // Same terms in the same order as the simulator's E_error, so that the two agree
            // to the bit.
            values.push_back(s.E - E0 - s.W_nonideal - s.W_given_nc - s.W_ideal - s.W_impact);
            break;
        case Source::Column:
        case Source::QuatNormError:
            break;
        }
    }
    return values;
}

std::string TraceSeries::unit(const Trace& trace, const std::string& name)
{
    return describe(trace, name).unit;
}

std::string TraceSeries::label(const Trace& trace, const std::string& name)
{
    return describe(trace, name).label;
}

} // namespace clab
