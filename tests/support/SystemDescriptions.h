#pragma once

// Systems written as equations, built in code for the core tests (no JSON involved).

#include <symbolic/SystemDescription.h>

#include <string>

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

/// A pendulum chain of `rods` rods in Cartesian coordinates, as tools/format2-chain.py writes
/// it: the built-in chain's motion (rods of length/rods, bobs of mass/rods, released straight
/// along +x). Bob i is (xi, yi); rod i holds it at l from bob i − 1, the first from the pivot.
inline SystemDescription pendulumChain(int rods, double length = 2.0, double mass = 1.0)
{
    using Kind = SystemDescription::Constraint::Kind;
    using P = SystemDescription::Parameter;
    SystemDescription d;
    d.parameters = {P::plain("m", mass / rods), P::plain("l", length / rods), P::plain("g", 9.81)};
    for (int i = 1; i <= rods; ++i) {
        const std::string x = "x" + std::to_string(i), y = "y" + std::to_string(i);
        const std::string px = i > 1 ? "x" + std::to_string(i - 1) : "0";
        const std::string py = i > 1 ? "y" + std::to_string(i - 1) : "0";
        d.coordinates.push_back({x});
        d.coordinates.push_back({y});
        d.kineticEnergy += (i > 1 ? " + m*(" : "m*(") + x + "_dot^2 + " + y + "_dot^2)/2";
        d.potentialEnergy += (i > 1 ? " + m*g*" : "m*g*") + y;
        d.constraints.push_back({"rod" + std::to_string(i), Kind::Holonomic,
                                 "(" + x + " - " + px + ")^2 + (" + y + " - " + py + ")^2 - l^2"});
        d.initial.push_back({x, "l*" + std::to_string(i)});
        d.initial.push_back({y, "0"});
    }
    return d;
}

} // namespace clab::test
