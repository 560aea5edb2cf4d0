#include "symbolic/SystemDifference.h"

#include <algorithm>
#include <cstdio>
#include <optional>

namespace clab {

namespace {

std::string join(const std::vector<std::string>& items)
{
    std::string out;
    for (const std::string& item : items)
        out += (out.empty() ? "" : ", ") + item;
    return out;
}

std::string number(const std::optional<double>& v)
{
    if (!v)
        return {};
    char text[32];
    std::snprintf(text, sizeof text, "%.15g", *v);
    return text;
}

std::string parameterText(const SystemDescription::Parameter& p)
{
    std::string out = number(p.value);
    if (!p.unit.empty())
        out += " " + p.unit;
    if (p.min || p.max)
        out += " in [" + number(p.min) + ", " + number(p.max) + "]";
    return out;
}

std::string coordinatesText(const SystemDescription& d)
{
    std::vector<std::string> names;
    for (const auto& c : d.coordinates)
        names.push_back(c.name + (c.unit.empty() ? "" : " (" + c.unit + ")"));
    return join(names);
}

std::string massMatrixText(const SystemDescription& d)
{
    std::vector<std::string> rows;
    for (const auto& row : d.massMatrix)
        rows.push_back("[" + join(row) + "]");
    return join(rows);
}

std::string constraintText(const SystemDescription::Constraint& c)
{
    const char* kind = c.kind == SystemDescription::Constraint::Kind::Holonomic ? "φ" : "ψ";
    return (c.name.empty() ? "" : c.name + ": ") + kind + " = " + c.expression;
}

std::string frictionText(const SystemDescription::Friction& f)
{
    return f.name + ": slip " + join(f.slip) + "; normal " + join(f.normal) + "; μ " + f.mu +
           "; μs " + f.muStatic + "; drag " + f.magnitude;
}

std::string pointText(const SystemDescription::ViewPoint& p)
{
    return p.name + " at (" + join(p.at) + ")" +
           (p.radius > 0.0 ? ", radius " + number(p.radius) : std::string());
}

std::string curveText(const SystemDescription::ViewCurve& c)
{
    return "(" + c.x + ", " + c.y + ", " + c.z + "), " + c.parameter + " from " + number(c.from) +
           " to " + number(c.to);
}

/// Collects the changes, one compare at a time.
struct Collector {
    std::vector<SystemDifference::Change> changes;

    void compare(const std::string& key, const std::string& shown, const std::string& typed)
    {
        if (shown != typed)
            changes.push_back({key, shown, typed});
    }

    /// Named entries (forces, initial values, ...) by name: "prefix.NAME".
    void named(const std::string& prefix, const std::vector<SystemDescription::Named>& shown,
               const std::vector<SystemDescription::Named>& typed)
    {
        std::vector<std::string> names;
        for (const auto* list : {&shown, &typed})
            for (const auto& e : *list)
                if (std::find(names.begin(), names.end(), e.name) == names.end())
                    names.push_back(e.name);
        auto find = [](const std::vector<SystemDescription::Named>& list, const std::string& n) {
            const auto it =
                std::find_if(list.begin(), list.end(), [&](const auto& e) { return e.name == n; });
            return it == list.end() ? std::string() : it->expression;
        };
        for (const std::string& name : names)
            compare(prefix + "." + name, find(shown, name), find(typed, name));
    }

    /// Lists compared by index: "prefix[i]", with what `text` makes of an entry.
    template <typename T, typename Text>
    void indexed(const std::string& prefix, const std::vector<T>& shown,
                 const std::vector<T>& typed, Text text)
    {
        for (std::size_t i = 0; i < std::max(shown.size(), typed.size()); ++i)
            compare(prefix + "[" + std::to_string(i) + "]",
                    i < shown.size() ? text(shown[i]) : std::string(),
                    i < typed.size() ? text(typed[i]) : std::string());
    }

    void parameters(const SystemDescription& shown, const SystemDescription& typed)
    {
        std::vector<std::string> names;
        for (const auto* d : {&shown, &typed})
            for (const auto& p : d->parameters)
                if (std::find(names.begin(), names.end(), p.name) == names.end())
                    names.push_back(p.name);
        auto find = [](const SystemDescription& d, const std::string& n) {
            const auto it = std::find_if(d.parameters.begin(), d.parameters.end(),
                                         [&](const auto& p) { return p.name == n; });
            return it == d.parameters.end() ? std::string() : parameterText(*it);
        };
        for (const std::string& name : names)
            compare("system.parameters." + name, find(shown, name), find(typed, name));
    }
};

} // namespace

std::vector<SystemDifference::Change> SystemDifference::between(const SystemDescription& shown,
                                                                const SystemDescription& typed)
{
    Collector c;
    c.compare("system.coordinates", coordinatesText(shown), coordinatesText(typed));
    c.parameters(shown, typed);
    c.compare("system.kinetic_energy", shown.kineticEnergy, typed.kineticEnergy);
    c.compare("system.mass_matrix", massMatrixText(shown), massMatrixText(typed));
    c.compare("system.masses", join(shown.masses), join(typed.masses));
    c.compare("system.potential_energy", shown.potentialEnergy, typed.potentialEnergy);
    c.named("system.forces", shown.forces, typed.forces);
    c.indexed("system.constraints", shown.constraints, typed.constraints, constraintText);
    c.indexed("system.friction", shown.friction, typed.friction, frictionText);
    c.named("system.nonideal", shown.nonideal, typed.nonideal);
    c.named("system.initial", shown.initial, typed.initial);
    c.indexed("system.columns", shown.columns, typed.columns,
              [](const SystemDescription::Column& col) {
                  return col.name + " = " + col.expression + " " + col.unit;
              });
    c.compare("system.end", shown.end, typed.end);
    c.compare("system.end_description", shown.endDescription, typed.endDescription);
    c.indexed("view.points", shown.points, typed.points, pointText);
    c.indexed(
        "view.links", shown.links, typed.links,
        [](const std::pair<std::string, std::string>& l) { return l.first + " – " + l.second; });
    c.indexed("view.curves", shown.curves, typed.curves, curveText);
    c.compare("view.up", std::string(1, shown.up), std::string(1, typed.up));
    return c.changes;
}

} // namespace clab
