#pragma once

// Systems written as equations, built in code for the core tests (no JSON involved).

#include <symbolic/SystemDescription.h>

namespace clab::test {

/// The double pendulum in Cartesian coordinates, as scenes/systems/double-pendulum.json, with
/// the lower bob's mass `m2`; released from the horizontal.
inline SystemDescription doublePendulum(double m2 = 1.0)
{
    using Kind = SystemDescription::Constraint::Kind;
    using P = SystemDescription::Parameter;
    SystemDescription d;
    d.coordinates = {{"x1"}, {"y1"}, {"x2"}, {"y2"}};
    d.parameters = {P::plain("m1", 1.0), P::plain("m2", m2), P::plain("l1", 1.0),
                    P::plain("l2", 0.7), P::plain("g", 9.81)};
    d.kineticEnergy = "m1*(x1_dot^2 + y1_dot^2)/2 + m2*(x2_dot^2 + y2_dot^2)/2";
    d.potentialEnergy = "m1*g*y1 + m2*g*y2";
    d.constraints = {{"rod1", Kind::Holonomic, "x1^2 + y1^2 - l1^2"},
                     {"rod2", Kind::Holonomic, "(x2 - x1)^2 + (y2 - y1)^2 - l2^2"}};
    d.initial = {{"x1", "l1"}, {"y1", "0"}, {"x2", "l1 + l2"}, {"y2", "0"}};
    return d;
}

} // namespace clab::test
