#pragma once

#include "trace/Trace.h"

#include <memory>
#include <string>

namespace clab {

/// \brief One run among several (a parameter sweep, compare mode): its trace and a label that
/// tells it apart, e.g. "mu=0.2".
struct LabelledTrace {
    std::string label;
    std::shared_ptr<const Trace> trace;
};

} // namespace clab
