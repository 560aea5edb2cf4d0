#pragma once

#include "symbolic/SystemDescription.h"

#include <Eigen/Core>

namespace clab {

/// `description` starting in the state (q, q̇): every coordinate's and every velocity's
/// (NAME_dot) initial value replaced by its number, written so that it reads back exactly (a
/// drag in the 3D view sets a system's start this way). The other entries stay as written.
/// Throws std::invalid_argument when q or q̇ do not have one value per coordinate.
SystemDescription withStartingState(const SystemDescription& description, const Eigen::VectorXd& q,
                                    const Eigen::VectorXd& qd);

} // namespace clab
