#include "Notation.h"

#include <algorithm>
#include <cctype>

namespace clab {

const std::array<Notation::Function, 16>& Notation::functions()
{
    static constexpr std::array<Function, 16> kFunctions{{{"sin", 1},
                                                          {"cos", 1},
                                                          {"tan", 1},
                                                          {"asin", 1},
                                                          {"acos", 1},
                                                          {"atan", 1},
                                                          {"atan2", 2},
                                                          {"sinh", 1},
                                                          {"cosh", 1},
                                                          {"tanh", 1},
                                                          {"exp", 1},
                                                          {"log", 1},
                                                          {"sqrt", 1},
                                                          {"abs", 1},
                                                          {"sign", 1},
                                                          {"pi", 0}}};
    return kFunctions;
}

std::vector<std::string> Notation::functionNames()
{
    std::vector<std::string> names;
    for (const Function& f : functions())
        names.emplace_back(f.name);
    return names;
}

bool Notation::isReserved(const std::string& name)
{
    if (name == "t")
        return true; // time
    for (const Function& f : functions())
        if (name == f.name)
            return true;
    return false;
}

bool Notation::isIdentifier(const std::string& name)
{
    if (name.empty() || !(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_'))
        return false;
    return std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    });
}

} // namespace clab
