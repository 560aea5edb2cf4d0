// libFuzzer harness for format-2 expressions and the derivation (issue 34): the input is one
// expression, placed by its first byte in one part of a two-coordinate system (T, a mass, the
// mass matrix, V, a force, a constraint, a slip velocity, μ), which is then derived and made
// into a system. Every input must load or be refused with a SystemError or ConstraintLabError,
// within the budget run.sh gives each input (-timeout, -rss_limit_mb): a derivation bomb shows
// as a timeout or an out-of-memory finding.
#include <model/ConstraintLabError.h>
#include <symbolic/SymbolicModel.h>
#include <symbolic/SystemError.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace {

clab::SystemDescription place(std::uint8_t where, const std::string& e)
{
    using Kind = clab::SystemDescription::Constraint::Kind;
    clab::SystemDescription d;
    d.coordinates = {{"x"}, {"y"}};
    d.parameters = {clab::SystemDescription::Parameter::plain("m", 1.5)};
    d.masses = {"m", "m"};
    d.initial = {{"x", "0.5"}, {"y", "0.25"}};
    switch (where % 8) {
    case 0:
        d.masses.clear();
        d.kineticEnergy = "(" + e + ")*x_dot^2/2 + m*y_dot^2/2";
        break;
    case 1:
        d.masses[0] = e;
        break;
    case 2:
        d.masses.clear();
        d.massMatrix = {{e, "0"}, {"0", "m"}};
        break;
    case 3:
        d.potentialEnergy = e;
        break;
    case 4:
        d.forces = {{"x", e}};
        break;
    case 5:
        d.constraints = {{"c", Kind::Holonomic, e}};
        d.initial.clear();
        break;
    case 6:
        d.constraints = {{"floor", Kind::Holonomic, "y - 0.25"}};
        d.friction = {{"slide", {e}, {}, "0.3", "", ""}};
        break;
    default:
        d.constraints = {{"floor", Kind::Holonomic, "y - 0.25"}};
        d.friction = {{"slide", {"x_dot"}, {}, e, "", ""}};
        break;
    }
    return d;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size < 1 || size > 4096)
        return 0; // one expression; longer inputs only slow the search down
    const std::string expression(reinterpret_cast<const char*>(data) + 1, size - 1);
    try {
        const auto model = clab::SymbolicModel::create(place(data[0], expression));
        model->definition().create({});
        model->derivationText(clab::SymbolicModel::Format::Json);
    } catch (const clab::SystemError&) {
    } catch (const clab::ConstraintLabError&) {
    }
    return 0;
}
