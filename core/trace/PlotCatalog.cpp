#include "trace/PlotCatalog.h"

namespace clab {

std::vector<PlotSpec> PlotCatalog::presets(const Trace& trace)
{
    std::vector<PlotSpec> result;
    const bool quaternion = trace.columnIndex("quat_norm") >= 0;

    PlotSpec energy{"energy", "Energy audit", "t", {"T", "V", "E", "W_nonideal"}};
    // With rheonomic constraints the ideal force works too; show it beside the others.
    if (trace.hasIdealWork())
        energy.y.emplace_back("W_ideal");
    // One-sided contacts: the kinetic energy their impacts took, its own term of the audit.
    if (trace.hasImpactWork())
        energy.y.emplace_back("W_impact");
    energy.y.emplace_back("E_balance");
    result.push_back(energy);

    if (!trace.coordinateNames().empty())
        result.push_back({"forces", "Force magnitudes", "t", {"|Q|", "|Qci|", "|Qcni|"}});
    result.push_back({"residual", "Constraint residual", "t", {"residual_max"}, true});

    if (quaternion) {
        result.push_back({"omega", "Angular velocity ω", "t", {"w1", "w2", "w3"}});
        result.push_back({"quat-norm", "Quaternion norm ‖u‖ − 1", "t", {"quat_norm_error"}});
        result.push_back({"rigid-energy", "Energy", "t", {"T", "V", "E"}});
        return result;
    }

    // A particle's path: its second position coordinate against its first.
    std::vector<std::string> positions;
    for (std::size_t i = 0; i < trace.coordinateNames().size(); ++i)
        if (trace.coordinateUnits()[i] == "m")
            positions.push_back(trace.coordinateNames()[i]);
    if (positions.size() >= 2)
        result.push_back({"path", "Path", positions[0], {positions[1]}});
    return result;
}

const std::vector<std::string>& PlotCatalog::ids()
{
    static const std::vector<std::string> all{"energy",    "forces",       "residual", "omega",
                                              "quat-norm", "rigid-energy", "path"};
    return all;
}

const PlotSpec* PlotCatalog::find(const std::vector<PlotSpec>& presets, const std::string& id)
{
    for (const PlotSpec& spec : presets)
        if (spec.id == id)
            return &spec;
    return nullptr;
}

} // namespace clab
