#pragma once

#include <Eigen/Dense>

namespace clab {

/// \brief The discrete state (mode) of one frictional contact during a run.
///
/// A sliding contact rubs with its kinetic friction against `direction`, the unit slip
/// direction fixed at the start of the current integrator step (for a 1-D contact simply ±1).
/// Fixing it keeps the right-hand side smooth when the slip velocity passes through zero inside
/// a step, so that the zero crossing can be located as an event instead of making the
/// integrator chatter. A stuck contact is one more ideal constraint: its slip velocity stays
/// zero and the force it needs is static friction.
struct ContactState {
    bool stuck = false;
    Eigen::VectorXd direction; ///< unit vector of the contact's slip dimension (sliding only)
};

} // namespace clab
