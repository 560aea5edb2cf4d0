#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace clab {

/// \brief A constrained system as its author wrote it: names and expressions, not yet parsed.
///
/// This is the "system" (and "view") part of a format-2 scene file (formats/SceneFile reads and
/// writes it; docs/FORMATS.md "Format 2"). Every expression is a string in ordinary notation over
/// the coordinates, their velocities NAME_dot, t and the parameters; SymbolicModel parses and
/// derives from it. Plain data: documents holding one compare by value.
struct SystemDescription {
    struct Coordinate {
        std::string name;
        std::string unit = "m";
        friend bool operator==(const Coordinate&, const Coordinate&) = default;
    };
    struct Parameter {
        std::string name;
        double value = 0.0;
        std::string unit;
        std::string description;
        std::optional<double> min, max; ///< a range makes a slider in the Scene dock

        /// A parameter with a name and a value only (no unit, range or description).
        static Parameter plain(std::string name, double value)
        {
            Parameter p;
            p.name = std::move(name);
            p.value = value;
            return p;
        }
        friend bool operator==(const Parameter&, const Parameter&) = default;
    };
    /// A named expression: a force on one coordinate, an initial value, a CSV column, ...
    struct Named {
        std::string name;
        std::string expression;
        friend bool operator==(const Named&, const Named&) = default;
    };
    struct Constraint {
        enum class Kind { Holonomic, Velocity };
        std::string name; ///< may be empty; named constraints get an N_<name> trace column
        Kind kind = Kind::Holonomic;
        std::string expression; ///< φ(q, t) = 0 or ψ(q, q̇, t) = 0, linear in q̇
        /// One-sided (holonomic only): φ(q, t) ≥ 0, the force only pushes (docs/MATH.md §11).
        bool unilateral = false;
        std::string restitution = {}; ///< Newton's e of a one-sided constraint; empty: 0
        friend bool operator==(const Constraint&, const Constraint&) = default;
    };
    /// Coulomb friction (mu, mu_s, normal) or a drag of constant size (magnitude).
    struct Friction {
        std::string name;
        std::vector<std::string> slip;   ///< slip velocity components, linear in q̇
        std::vector<std::string> normal; ///< constraints whose ideal force presses the contact
        std::string mu, muStatic;        ///< Coulomb; muStatic empty: equal to mu
        std::string magnitude;           ///< constant-size drag instead of Coulomb friction
        friend bool operator==(const Friction&, const Friction&) = default;
    };
    struct Column {
        std::string name;
        std::string expression;
        std::string unit;
        friend bool operator==(const Column&, const Column&) = default;
    };
    struct ViewPoint {
        std::string name;
        std::vector<std::string> at; ///< x, y, z expressions
        double radius = 0.0;         ///< 0: the view's default size
        friend bool operator==(const ViewPoint&, const ViewPoint&) = default;
    };
    struct ViewCurve {
        std::string x, y, z = "0";
        std::string parameter = "s";
        double from = 0.0, to = 1.0;
        friend bool operator==(const ViewCurve&, const ViewCurve&) = default;
    };

    std::vector<Coordinate> coordinates;
    std::vector<Parameter> parameters;
    /// Names of parameters shown as presentation mode's sliders, in order (SceneDefinition).
    std::vector<std::string> keyParameters;
    /// One of the three mass descriptions: T(q, q̇, t), quadratic in q̇; an n×n matrix; or
    /// one mass per coordinate (diagonal M). The empty ones are unused.
    std::string kineticEnergy;
    std::vector<std::vector<std::string>> massMatrix;
    std::vector<std::string> masses;
    std::string potentialEnergy;
    std::vector<Named> forces; ///< non-conservative generalized forces, by coordinate
    std::vector<Constraint> constraints;
    std::vector<Friction> friction;
    std::vector<Named> nonideal; ///< a general non-ideal force C, by coordinate
    std::vector<Named> initial;  ///< coordinates and NAME_dot velocities; others are completed
    std::vector<Column> columns; ///< extra trace columns
    std::string end;             ///< positive while the motion may go on (stop_at_end)
    std::string endDescription;  ///< in words, e.g. "the bead reaches the foot of the wire"

    std::vector<ViewPoint> points;
    std::vector<std::pair<std::string, std::string>> links; ///< point names or "origin"
    std::vector<ViewCurve> curves;
    char up = 'y'; ///< the axis the view shows upwards: 'x', 'y' or 'z' (z for gravity along −z)

    friend bool operator==(const SystemDescription&, const SystemDescription&) = default;
};

} // namespace clab
