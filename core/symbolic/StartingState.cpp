#include "symbolic/StartingState.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <stdexcept>
#include <string>

namespace clab {

namespace {

// The shortest text that reads back as the same double.
std::string exactText(double value)
{
    std::array<char, 32> buffer{};
    const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
    return std::string(buffer.data(), result.ptr);
}

void setInitial(std::vector<SystemDescription::Named>& initial, const std::string& name,
                double value)
{
    const auto it = std::find_if(initial.begin(), initial.end(),
                                 [&](const SystemDescription::Named& n) { return n.name == name; });
    if (it != initial.end())
        it->expression = exactText(value);
    else
        initial.push_back({name, exactText(value)});
}

} // namespace

SystemDescription withStartingState(const SystemDescription& description, const Eigen::VectorXd& q,
                                    const Eigen::VectorXd& qd)
{
    const auto n = static_cast<Eigen::Index>(description.coordinates.size());
    if (q.size() != n || qd.size() != n)
        throw std::invalid_argument("a starting state needs one position and one velocity per "
                                    "coordinate (" +
                                    std::to_string(n) + ")");
    SystemDescription start = description;
    for (Eigen::Index i = 0; i < n; ++i) {
        const std::string& name = description.coordinates[static_cast<std::size_t>(i)].name;
        setInitial(start.initial, name, q[i]);
        setInitial(start.initial, name + "_dot", qd[i]);
    }
    return start;
}

} // namespace clab
