#include "panels/SystemCoordinates.h"

#include <algorithm>

namespace clab {

namespace {

/// A name not yet in `taken`: stem1, stem2, ...
std::string freshName(const std::string& stem,
                      const std::vector<SystemDescription::Coordinate>& taken)
{
    for (int i = 1;; ++i) {
        const std::string name = stem + std::to_string(i);
        if (std::none_of(taken.begin(), taken.end(), [&](const auto& c) { return c.name == name; }))
            return name;
    }
}

} // namespace

SystemCoordinates::Values SystemCoordinates::values(int i) const
{
    const auto held = held_.find(i);
    return held != held_.end() ? held->second : valuesOf(draft_.coordinates[i].name);
}

// A coordinate's force and initial values are stored by its name. While a new name is typed it
// may pass through another coordinate's name ("q1" → "x" → "xc" beside "x"): its values are
// then held aside, so that neither coordinate takes the other's.
int SystemCoordinates::ownerOf(const std::string& name, int except) const
{
    for (int j = 0; j < static_cast<int>(draft_.coordinates.size()); ++j)
        if (j != except && draft_.coordinates[j].name == name && !held_.count(j))
            return j;
    return -1;
}

SystemCoordinates::Values SystemCoordinates::valuesOf(const std::string& name) const
{
    auto find = [](const std::vector<SystemDescription::Named>& list, const std::string& key) {
        const auto it =
            std::find_if(list.begin(), list.end(), [&](const auto& e) { return e.name == key; });
        return it == list.end() ? std::string() : it->expression;
    };
    return {find(draft_.forces, name), find(draft_.initial, name),
            find(draft_.initial, name + "_dot")};
}

SystemCoordinates::Values SystemCoordinates::takeValues(const std::string& name)
{
    const Values values = valuesOf(name);
    putValues(name, {});
    return values;
}

void SystemCoordinates::putValues(const std::string& name, const Values& values)
{
    setNamed(draft_.forces, name, values.force);
    setNamed(draft_.initial, name, values.start);
    setNamed(draft_.initial, name + "_dot", values.velocity);
}

void SystemCoordinates::releaseHeld()
{
    for (auto it = held_.begin(); it != held_.end();) {
        const std::string& name = draft_.coordinates[it->first].name;
        if (ownerOf(name, it->first) >= 0) {
            ++it;
            continue;
        }
        const Values values = it->second;
        it = held_.erase(it);
        putValues(name, values);
    }
}

void SystemCoordinates::setValue(int i, std::string Values::*which, const std::string& expression)
{
    if (const auto it = held_.find(i); it != held_.end()) {
        it->second.*which = expression;
        return;
    }
    const std::string& name = draft_.coordinates[i].name;
    if (which == &Values::force)
        setNamed(draft_.forces, name, expression);
    else
        setNamed(draft_.initial, which == &Values::start ? name : name + "_dot", expression);
}

void SystemCoordinates::rename(int i, const std::string& name)
{
    const std::string old = draft_.coordinates[i].name;
    const auto held = held_.find(i);
    const bool wasHeld = held != held_.end();
    draft_.coordinates[i].name = name;
    if (ownerOf(name, i) >= 0) {
        if (!wasHeld)
            held_[i] = takeValues(old);
    } else if (wasHeld) {
        const Values values = held->second;
        held_.erase(held);
        putValues(name, values);
    } else {
        // In place, so that the lists keep their order.
        for (SystemDescription::Named& f : draft_.forces)
            if (f.name == old)
                f.name = name;
        for (SystemDescription::Named& v : draft_.initial)
            if (v.name == old || v.name == old + "_dot")
                v.name = name + v.name.substr(old.size());
    }
    releaseHeld();
}

void SystemCoordinates::remove(int i)
{
    const std::string name = draft_.coordinates[i].name;
    if (!held_.erase(i))
        takeValues(name);
    draft_.coordinates.erase(draft_.coordinates.begin() + i);
    std::map<int, Values> shifted;
    for (auto& [row, values] : held_)
        shifted[row > i ? row - 1 : row] = values;
    held_ = std::move(shifted);
    releaseHeld();
    if (i < static_cast<int>(draft_.masses.size()))
        draft_.masses.erase(draft_.masses.begin() + i);
    if (i < static_cast<int>(draft_.massMatrix.size())) {
        draft_.massMatrix.erase(draft_.massMatrix.begin() + i);
        for (auto& row : draft_.massMatrix)
            if (i < static_cast<int>(row.size()))
                row.erase(row.begin() + i);
    }
}

void SystemCoordinates::swap(int i, int j)
{
    // The values are the names' and go with them; what is stored by row moves with its row.
    std::swap(draft_.coordinates[i], draft_.coordinates[j]);
    const auto a = held_.extract(i), b = held_.extract(j);
    if (a)
        held_[j] = a.mapped();
    if (b)
        held_[i] = b.mapped();
    if (std::max(i, j) < static_cast<int>(draft_.masses.size()))
        std::swap(draft_.masses[i], draft_.masses[j]);
    if (std::max(i, j) < static_cast<int>(draft_.massMatrix.size())) {
        std::swap(draft_.massMatrix[i], draft_.massMatrix[j]);
        for (auto& row : draft_.massMatrix)
            std::swap(row[i], row[j]);
    }
}

void SystemCoordinates::add()
{
    draft_.coordinates.push_back({freshName("q", draft_.coordinates), "m"});
    if (!draft_.masses.empty())
        draft_.masses.push_back("1");
    if (!draft_.massMatrix.empty()) {
        for (auto& row : draft_.massMatrix)
            row.push_back("0");
        draft_.massMatrix.emplace_back(draft_.coordinates.size(), "0");
        draft_.massMatrix.back().back() = "1";
    }
}

void SystemCoordinates::setNamed(std::vector<SystemDescription::Named>& list,
                                 const std::string& name, const std::string& expression)
{
    const auto it =
        std::find_if(list.begin(), list.end(), [&](const auto& e) { return e.name == name; });
    if (expression.empty()) {
        if (it != list.end())
            list.erase(it);
    } else if (it != list.end()) {
        it->expression = expression;
    } else {
        list.push_back({name, expression});
    }
}

} // namespace clab
