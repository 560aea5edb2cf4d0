#include "SystemStartCheck.h"

#include "DerivationBudget.h"
#include "ExpressionParser.h"
#include "ExpressionTape.h"
#include "SymbolicDerivation.h"
#include "SymbolicModel.h"
#include "SymbolicTapes.h"
#include "model/ConstraintLabError.h"

#include <Eigen/Eigenvalues>

#include <cmath>
#include <cstdlib>

namespace clab {

namespace {

/// One expression as the author wrote it, and what its value at the start must be.
struct Entry {
    enum class Rule { Finite, NotNegative };
    std::string key, text;
    Rule rule = Rule::Finite;
    std::string what; ///< for NotNegative: "a mass", "a friction coefficient", ...
};

std::string indexed(const std::string& key, std::size_t i)
{
    return key + "[" + std::to_string(i) + "]";
}

std::vector<Entry> entries(const SystemDescription& d)
{
    using Rule = Entry::Rule;
    std::vector<Entry> out;
    if (!d.kineticEnergy.empty())
        out.push_back({"system.kinetic_energy", d.kineticEnergy});
    for (std::size_t i = 0; i < d.masses.size(); ++i)
        out.push_back({indexed("system.masses", i), d.masses[i], Rule::NotNegative, "a mass"});
    for (std::size_t i = 0; i < d.massMatrix.size(); ++i)
        for (std::size_t j = 0; j < d.massMatrix[i].size(); ++j)
            out.push_back({indexed(indexed("system.mass_matrix", i), j), d.massMatrix[i][j]});
    if (!d.potentialEnergy.empty())
        out.push_back({"system.potential_energy", d.potentialEnergy});
    for (const SystemDescription::Named& f : d.forces)
        out.push_back({"system.forces." + f.name, f.expression});
    for (std::size_t i = 0; i < d.constraints.size(); ++i) {
        const bool holonomic =
            d.constraints[i].kind == SystemDescription::Constraint::Kind::Holonomic;
        out.push_back({indexed("system.constraints", i) + (holonomic ? ".holonomic" : ".velocity"),
                       d.constraints[i].expression});
    }
    for (std::size_t i = 0; i < d.friction.size(); ++i) {
        const SystemDescription::Friction& f = d.friction[i];
        const std::string key = indexed("system.friction", i);
        for (std::size_t k = 0; k < f.slip.size(); ++k)
            out.push_back({indexed(key + ".slip", k), f.slip[k]});
        if (!f.mu.empty())
            out.push_back({key + ".mu", f.mu, Rule::NotNegative, "a friction coefficient"});
        if (!f.muStatic.empty())
            out.push_back({key + ".mu_s", f.muStatic, Rule::NotNegative, "a friction coefficient"});
        if (!f.magnitude.empty())
            out.push_back(
                {key + ".magnitude", f.magnitude, Rule::NotNegative, "the size of a drag"});
    }
    return out;
}

std::string number(double x)
{
    return std::isnan(x) ? "not a number (0/0 or the like)" : ConstraintLabError::number(x);
}

/// "m1 - 2 is -1" for an expression, "-1" for a number (which would only repeat itself).
std::string valueOf(const std::string& text, double value)
{
    char* end = nullptr;
    const double literal = std::strtod(text.c_str(), &end);
    if (end && *end == '\0' && literal == value)
        return DerivationBudget::shortened(text, 60);
    return DerivationBudget::shortened(text, 60) + " is " + number(value) + " at the start";
}

[[noreturn]] void refuse(const std::string& key, const std::string& reason)
{
    throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter, key + ": " + reason);
}

/// "t = 0, x = 0, y = 1": where the motion starts, as the message's reader can check it.
std::string start(const SystemDescription& d, const Eigen::VectorXd& q)
{
    std::string out = "t = 0";
    for (std::size_t i = 0; i < d.coordinates.size() && i < 6; ++i)
        out += ", " + d.coordinates[i].name + " = " + number(q[static_cast<Eigen::Index>(i)]);
    return out + (d.coordinates.size() > 6 ? ", …" : "");
}

void checkMassMatrix(const SystemDescription& d, const Eigen::MatrixXd& M, const std::string& where)
{
    if (!d.masses.empty() || M.rows() > 200)
        return; // the masses are checked one by one; a large M is left to the run
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(M, Eigen::EigenvaluesOnly);
    if (eigen.info() != Eigen::Success)
        return;
    const double lowest = eigen.eigenvalues().minCoeff();
    const double scale = eigen.eigenvalues().cwiseAbs().maxCoeff();
    if (!(lowest < -1e-12 * scale))
        return;
    if (!d.kineticEnergy.empty())
        refuse("system.kinetic_energy",
               "T = " + DerivationBudget::shortened(d.kineticEnergy, 60) +
                   " is negative for some velocities at the start (" + where +
                   "): its mass matrix ∂²T/∂q̇² has the eigenvalue " + number(lowest) +
                   "; kinetic energy must not be negative");
    refuse("system.mass_matrix", "is not positive semidefinite at the start (" + where +
                                     "): it has the eigenvalue " + number(lowest) +
                                     "; kinetic energy ½q̇ᵀMq̇ must not be negative");
}

} // namespace

ExpressionTape SystemStartCheck::compile(const SymbolicModel& model)
{
    const SystemDescription& d = model.description();
    const SymbolicDerivation& x = model.derivation();
    ExpressionParser::SymbolTable table;
    std::vector<GiNaC::ex> varying{x.t};
    table["t"] = x.t;
    for (std::size_t i = 0; i < x.q.size(); ++i) {
        table[d.coordinates[i].name] = x.q[i];
        varying.push_back(x.q[i]);
    }
    for (std::size_t i = 0; i < x.qd.size(); ++i) {
        table[d.coordinates[i].name + "_dot"] = x.qd[i];
        varying.push_back(x.qd[i]);
    }
    for (std::size_t i = 0; i < x.p.size(); ++i)
        table[d.parameters[i].name] = x.p[i];
    std::vector<GiNaC::ex> outputs;
    for (const Entry& e : entries(d))
        outputs.push_back(ExpressionParser::parse(e.text, table, e.key));
    return ExpressionTape(x.p, varying, outputs);
}

void SystemStartCheck::check(const SymbolicModel& model, const std::vector<double>& parameters,
                             const Eigen::VectorXd& q0, const Eigen::VectorXd& qd0,
                             const Eigen::MatrixXd& M)
{
    const SystemDescription& d = model.description();
    const std::vector<Entry> list = entries(d);
    ExpressionTape tape = model.tapes().start; // a copy: the model's is shared by threads
    tape.setFixed(parameters.data());
    std::vector<double> in{0.0}, out(list.size());
    in.insert(in.end(), q0.data(), q0.data() + q0.size());
    in.insert(in.end(), qd0.data(), qd0.data() + qd0.size());
    tape.evaluate(in.data(), out.data());

    const std::string where = start(d, q0);
    for (std::size_t k = 0; k < list.size(); ++k) {
        const Entry& e = list[k];
        if (!std::isfinite(out[k]))
            refuse(e.key, valueOf(e.text, out[k]) + " (" + where +
                              "); every expression must be finite where the motion starts");
        if (e.rule == Entry::Rule::NotNegative && out[k] < 0)
            refuse(e.key,
                   e.what + " cannot be negative: " + valueOf(e.text, out[k]) + " (" + where + ")");
    }
    checkMassMatrix(d, M, where);
}

} // namespace clab
