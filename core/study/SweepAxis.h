#pragma once

#include <string>
#include <vector>

namespace clab {

/// \brief One parameter of a grid sweep and its values (ParameterSweep::runGrid).
struct SweepAxis {
    std::string parameter;
    std::vector<double> values;
};

} // namespace clab
