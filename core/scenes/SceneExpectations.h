#pragma once

#include "model/ParameterSpec.h"

#include <string>
#include <vector>

namespace clab {

/// \brief What the generic tests of every built-in scene expect of it, stated by the scene's
/// own definition so that those tests loop over SceneRegistry instead of naming scenes.
struct SceneExpectations {
    /// Values (over the defaults) that start the scene moving and away from equilibrium.
    ParameterValues moving;
    /// holonomicCount() of the system built from `moving`.
    int holonomicCount = 0;
    /// False where b of A q̈ = b has no velocity terms (constraints linear in q, fixed in time).
    bool velocityTermsInB = true;
    /// The CSV of a run from `moving`: its coordinates (each gives six columns), whether the
    /// constraints depend on time (W_ideal), and the scene's extra columns.
    std::vector<std::string> coordinates;
    bool rheonomic = false;
    std::vector<std::string> extraColumns;
};

} // namespace clab
