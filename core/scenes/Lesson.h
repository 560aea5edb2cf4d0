#pragma once

#include "scenes/LessonStep.h"

#include <string>
#include <vector>

namespace clab {

/// \brief A teacher's sequence of states, stepped through in presentation mode.
struct Lesson {
    std::string title;
    std::vector<LessonStep> steps;

    friend bool operator==(const Lesson&, const Lesson&) = default;
};

} // namespace clab
