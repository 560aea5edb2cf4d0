#include "SymbolicModelBuilder.h"

#include "DerivationBudget.h"
#include "DerivationProgress.h"
#include "ExpressionPrinter.h"
#include "Notation.h"
#include "SymbolicDerivation.h"
#include "SymbolicTapes.h"
#include "SystemError.h"
#include "trace/Trace.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace clab {

namespace {

// Made once, with the symbol: GiNaC's LaTeX output shows it.
std::string texName(const std::string& name)
{
    return ExpressionPrinter::symbolName(name, ExpressionPrinter::Style::Latex);
}

// Printed the same way in every run (GiNaC's own order changes from run to run).
std::string str(const GiNaC::ex& e)
{
    return ExpressionPrinter(ExpressionPrinter::Style::Text).print(e);
}

bool hasAny(const GiNaC::ex& e, const std::vector<GiNaC::ex>& symbols)
{
    return std::any_of(symbols.begin(), symbols.end(),
                       [&](const GiNaC::ex& s) { return e.has(s); });
}

bool isZero(const GiNaC::ex& e)
{
    return DerivationBudget::isZero(e);
}

std::string indexed(const std::string& key, std::size_t i)
{
    return key + "[" + std::to_string(i) + "]";
}

} // namespace

SymbolicModel::Builder::Builder(SymbolicModel& model, const SystemDescription& d)
    : m_(model), x_(*model.derivation_), d_(d)
{
}

void SymbolicModel::Builder::run()
{
    try {
        derive();
    } catch (const DerivationBudget::TooLarge& e) {
        fail(key_, e.what()); // the expression parsed last is the one being derived
    } catch (const std::domain_error&) {
        // GiNaC's pole_error: a derivative met log(0), as that of 0^x does (0^100^x in T).
        fail(key_, "cannot be derived: a derivative of it divides by zero (as that of 0^x "
                   "does, which has log(0) in it)");
    }
}

void SymbolicModel::Builder::derive()
{
    // Shares of the time each stage takes for a large chain (the mass matrix and the
    // compiled tapes dominate), for a loader's progress bar; reach() may cancel.
    names();
    symbols();
    DerivationProgress::reach(0.05);
    mass();
    DerivationProgress::reach(0.45);
    forces();
    DerivationProgress::reach(0.55);
    constraints();
    DerivationProgress::reach(0.65);
    friction();
    nonideal();
    initial();
    columns();
    traceColumns();
    view();
    DerivationProgress::reach(0.7);
    compile();
    DerivationProgress::reach(1.0);
}

void SymbolicModel::Builder::fail(const std::string& key, const std::string& reason)
{
    throw SystemError(key, reason);
}

GiNaC::ex SymbolicModel::Builder::parse(const std::string& text, const std::string& key,
                                        const Table& table)
{
    key_ = key;
    const GiNaC::ex e = ExpressionParser::parse(text, table, key);
    DerivationBudget::checkDerivable(e);
    return e;
}

// A look-up, not a scan: one per initial value and force, n of them in a large file.
int SymbolicModel::Builder::coordinateIndex(const std::string& name) const
{
    if (coordinateIndices_.empty())
        for (std::size_t i = 0; i < d_.coordinates.size(); ++i)
            coordinateIndices_.emplace(d_.coordinates[i].name, static_cast<int>(i));
    const auto it = coordinateIndices_.find(name);
    return it == coordinateIndices_.end() ? -1 : it->second;
}

void SymbolicModel::Builder::checkName(const std::string& name, const std::string& key,
                                       const char* what)
{
    if (!Notation::isIdentifier(name))
        fail(key, std::string("the ") + what + " name \"" + name +
                      "\" must start with a letter and hold only letters, digits and _");
    if (Notation::isReserved(name))
        fail(key, std::string("the ") + what + " name '" + name +
                      "' is taken by the notation (a function, pi or the time t)");
    if (!taken_.insert(name).second)
        fail(key, "the name '" + name + "' is used twice");
}

void SymbolicModel::Builder::names()
{
    if (d_.coordinates.empty())
        fail("system.coordinates", "a system needs at least one coordinate");
    for (std::size_t i = 0; i < d_.coordinates.size(); ++i)
        checkName(d_.coordinates[i].name, indexed("system.coordinates", i), "coordinate");
    for (std::size_t i = 0; i < d_.coordinates.size(); ++i)
        if (!taken_.insert(d_.coordinates[i].name + "_dot").second)
            fail(indexed("system.coordinates", i),
                 "'" + d_.coordinates[i].name + "_dot' is the velocity of '" +
                     d_.coordinates[i].name + "' and cannot also be a coordinate");
    for (const SystemDescription::Parameter& p : d_.parameters) {
        const std::string key = "system.parameters." + p.name;
        checkName(p.name, key, "parameter");
        if (!std::isfinite(p.value))
            fail(key, "the value must be a finite number");
        if ((p.min && !std::isfinite(*p.min)) || (p.max && !std::isfinite(*p.max)) ||
            (p.min && p.max && *p.min > *p.max))
            fail(key, "the range must be finite with min ≤ max");
        if ((p.min && p.value < *p.min) || (p.max && p.value > *p.max))
            fail(key, "the value lies outside its range");
    }
    std::set<std::string> constraintNames;
    for (std::size_t i = 0; i < d_.constraints.size(); ++i) {
        const std::string& name = d_.constraints[i].name;
        if (name.empty())
            continue;
        const std::string key = indexed("system.constraints", i) + ".name";
        if (!Notation::isIdentifier(name))
            fail(key, "the constraint name \"" + name +
                          "\" must start with a letter and hold only letters, digits and _");
        if (!constraintNames.insert(name).second)
            fail(key, "two constraints are named '" + name + "'");
        if (taken_.count("N_" + name))
            fail(key, "'N_" + name + "' (the size of this constraint's force) is already a name");
    }
    std::set<std::string> frictionNames;
    for (std::size_t i = 0; i < d_.friction.size(); ++i)
        if (!frictionNames.insert(d_.friction[i].name).second)
            fail(indexed("system.friction", i) + ".name",
                 "two friction contacts are named '" + d_.friction[i].name + "'");
}

void SymbolicModel::Builder::symbols()
{
    x_.t = GiNaC::realsymbol("t");
    for (const SystemDescription::Coordinate& c : d_.coordinates) {
        x_.q.push_back(GiNaC::realsymbol(c.name, texName(c.name)));
        x_.qd.push_back(GiNaC::realsymbol(c.name + "_dot", texName(c.name + "_dot")));
    }
    for (const SystemDescription::Parameter& p : d_.parameters)
        x_.p.push_back(GiNaC::realsymbol(p.name, texName(p.name)));
    // Tables: what each kind of expression may use.
    for (std::size_t i = 0; i < x_.p.size(); ++i)
        params_[d_.parameters[i].name] = x_.p[i];
    positions_ = params_;
    positions_["t"] = x_.t;
    for (std::size_t i = 0; i < x_.q.size(); ++i)
        positions_[d_.coordinates[i].name] = x_.q[i];
    states_ = positions_;
    for (std::size_t i = 0; i < x_.qd.size(); ++i)
        states_[d_.coordinates[i].name + "_dot"] = x_.qd[i];
    // Indexed as t, q, q̇ (qAt, qdAt), then the parameters.
    std::vector<GiNaC::ex> all{x_.t};
    all.insert(all.end(), x_.q.begin(), x_.q.end());
    all.insert(all.end(), x_.qd.begin(), x_.qd.end());
    all.insert(all.end(), x_.p.begin(), x_.p.end());
    sparse_ = std::make_unique<SparseDerivative>(std::move(all));
}

std::string SymbolicModel::Builder::velocityNames() const
{
    std::string out;
    for (const auto& c : d_.coordinates)
        out += (out.empty() ? "" : ", ") + c.name + "_dot";
    return out;
}

void SymbolicModel::Builder::mass()
{
    const int n = m_.dof();
    const int given = !d_.kineticEnergy.empty() + !d_.massMatrix.empty() + !d_.masses.empty();
    if (given == 0)
        fail("system", "give the kinetic energy (kinetic_energy), a mass matrix (mass_matrix) "
                       "or one mass per coordinate (masses)");
    if (given > 1)
        fail("system", "give only one of kinetic_energy, mass_matrix and masses");
    // Filled in place: a copy of n² entries would cost more than the derivation.
    GiNaC::matrix& M = x_.M = GiNaC::matrix(static_cast<unsigned>(n), static_cast<unsigned>(n));
    GiNaC::ex T;
    if (!d_.kineticEnergy.empty()) {
        T = parse(d_.kineticEnergy, "system.kinetic_energy", states_);
        hessian(T, M);
    } else if (!d_.massMatrix.empty()) {
        const std::string key = "system.mass_matrix";
        if (static_cast<int>(d_.massMatrix.size()) != n)
            fail(key, "must have " + std::to_string(n) + " rows (one per coordinate), has " +
                          std::to_string(d_.massMatrix.size()));
        for (int i = 0; i < n; ++i) {
            const auto& row = d_.massMatrix[static_cast<std::size_t>(i)];
            if (static_cast<int>(row.size()) != n)
                fail(indexed(key, i), "must have " + std::to_string(n) + " entries, has " +
                                          std::to_string(row.size()));
            for (int j = 0; j < n; ++j)
                M(i, j) = parse(row[static_cast<std::size_t>(j)], indexed(indexed(key, i), j),
                                positions_);
        }
        key_ = key; // the budget's message, if the comparison is too large, names the matrix
        for (int i = 0; i < n; ++i)
            for (int j = i + 1; j < n; ++j)
                if (!isZero(M(i, j) - M(j, i)))
                    fail(key, "the mass matrix must be symmetric: entry [" + std::to_string(i) +
                                  "][" + std::to_string(j) + "] is " + str(M(i, j)) + " but [" +
                                  std::to_string(j) + "][" + std::to_string(i) + "] is " +
                                  str(M(j, i)));
    } else {
        const std::string key = "system.masses";
        if (static_cast<int>(d_.masses.size()) != n)
            fail(key, "must have " + std::to_string(n) + " entries (one per coordinate), has " +
                          std::to_string(d_.masses.size()));
        for (int i = 0; i < n; ++i)
            M(i, i) = parse(d_.masses[static_cast<std::size_t>(i)], indexed(key, i), positions_);
    }
    if (d_.kineticEnergy.empty())
        massColumns_ = nonZeroColumns(M, !d_.massMatrix.empty());
    for (auto& row : massColumns_)
        std::sort(row.begin(), row.end());
    // Energy function h = ½q̇ᵀMq̇ − T(q̇ = 0) + V, whose rate is the power of the forces
    // that V does not hold, minus ∂L/∂t (docs/MATH.md §8).
    GiNaC::exvector quadratic;
    for (int i = 0; i < n; ++i)
        for (int j : massColumns_[static_cast<std::size_t>(i)])
            quadratic.push_back(GiNaC::numeric(1, 2) * x_.qd[i] * M(i, j) * x_.qd[j]);
    kinetic_ = GiNaC::add(quadratic);
    if (d_.kineticEnergy.empty()) {
        T = kinetic_;
        momenta_ = sparse_->gradient(T, qdAt(), n);
    }
    x_.T = T;
    inertialForces(T);
    restEnergy_ = T.subs(zeroVelocities(), GiNaC::subs_options::no_pattern);
}

/// M = ∂²T/∂q̇², checked to be free of velocities; only the velocities each term holds:
/// ∂T/∂q̇ᵢ once (momenta_), then its own derivatives (massColumns_ records the entries).
void SymbolicModel::Builder::hessian(const GiNaC::ex& T, GiNaC::matrix& M)
{
    const int n = m_.dof();
    momenta_ = sparse_->gradient(T, qdAt(), n);
    massColumns_.resize(static_cast<std::size_t>(n));
    std::size_t done = 0;
    for (const auto& [i, p] : momenta_) {
        DerivationProgress::reach(0.1 + 0.3 * static_cast<double>(done++) /
                                            static_cast<double>(momenta_.size()));
        for (const auto& [j, mij] : sparse_->gradient(p, qdAt(), n)) {
            if (j < i)
                continue;
            if (sparse_->containsAny(mij, qdAt(), n) && !isZero(derivativesInVelocities(mij)))
                fail("system.kinetic_energy", "T must be quadratic in the velocities (" +
                                                  velocityNames() + "): ∂²T/∂" + str(x_.qd[i]) +
                                                  "∂" + str(x_.qd[j]) + " = " + str(mij) +
                                                  " still depends on them");
            M(i, j) = M(j, i) = mij;
            massColumns_[static_cast<std::size_t>(i)].push_back(j);
            if (j != i)
                massColumns_[static_cast<std::size_t>(j)].push_back(i);
        }
    }
}

/// The non-zero columns of each row of a given M: every entry when the file wrote the
/// matrix, else the diagonal (masses).
std::vector<std::vector<int>> SymbolicModel::Builder::nonZeroColumns(const GiNaC::matrix& M,
                                                                     bool everyEntry) const
{
    const int n = m_.dof();
    std::vector<std::vector<int>> columns(static_cast<std::size_t>(n));
    const auto add = [&](int i, int j) {
        if (!M(i, j).is_zero())
            columns[static_cast<std::size_t>(i)].push_back(j);
    };
    if (everyEntry) {
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j)
                add(i, j);
        return columns;
    }
    for (int i = 0; i < n; ++i)
        add(i, i);
    return columns;
}

// Lagrange's equations with M q̈ moved to the left: the rest of
// d/dt(∂T/∂q̇) − ∂T/∂q is a velocity-dependent force on the right. Each pᵢ = ∂T/∂q̇ᵢ is
// differentiated by the coordinates it holds only.
void SymbolicModel::Builder::inertialForces(const GiNaC::ex& T)
{
    const int n = m_.dof();
    std::vector<GiNaC::exvector> f(static_cast<std::size_t>(n));
    for (const auto& [i, d] : sparse_->gradient(T, qAt(), n))
        f[static_cast<std::size_t>(i)].push_back(d);
    for (const auto& [i, p] : momenta_) {
        f[static_cast<std::size_t>(i)].push_back(-sparse_->diff(p, kTime));
        for (const auto& [k, d] : sparse_->gradient(p, qAt(), n))
            f[static_cast<std::size_t>(i)].push_back(-d * x_.qd[k]);
    }
    for (const GiNaC::exvector& terms : f)
        x_.Qinertial.push_back(DerivationBudget::expand(GiNaC::add(terms)));
}

GiNaC::ex SymbolicModel::Builder::derivativesInVelocities(const GiNaC::ex& e) const
{
    GiNaC::exvector sum;
    for (const auto& [k, d] : sparse_->gradient(e, qdAt(), m_.dof()))
        sum.push_back(GiNaC::pow(d, 2));
    return GiNaC::add(sum);
}

// Used with subs_options::no_pattern: a look-up per node, not a match against each of the
// n velocities (O(n) per node, O(n²) for a chain's T).
GiNaC::exmap SymbolicModel::Builder::zeroVelocities() const
{
    GiNaC::exmap zero;
    for (const GiNaC::ex& v : x_.qd)
        zero[v] = 0;
    return zero;
}

/// Entries of a coordinate-keyed map ("forces", "nonideal") as one expression per coordinate.
std::vector<GiNaC::ex>
SymbolicModel::Builder::perCoordinate(const std::vector<SystemDescription::Named>& entries,
                                      const std::string& key, const Table& table)
{
    std::vector<GiNaC::ex> out(static_cast<std::size_t>(m_.dof()), GiNaC::ex(0));
    std::set<std::string> seen;
    for (const SystemDescription::Named& e : entries) {
        const std::string k = key + "." + e.name;
        const int i = coordinateIndex(e.name);
        if (i < 0) {
            Table coords;
            for (std::size_t j = 0; j < x_.q.size(); ++j)
                coords[d_.coordinates[j].name] = x_.q[j];
            const std::string near = ExpressionParser::suggestions(e.name, coords);
            fail(k, "there is no coordinate '" + e.name + "'" +
                        (near.empty() ? "" : " (did you mean " + near + "?)"));
        }
        if (!seen.insert(e.name).second)
            fail(k, "given twice");
        out[static_cast<std::size_t>(i)] = parse(e.expression, k, table);
    }
    return out;
}

void SymbolicModel::Builder::forces()
{
    const int n = m_.dof();
    GiNaC::ex V;
    if (!d_.potentialEnergy.empty()) {
        V = parse(d_.potentialEnergy, "system.potential_energy", states_);
        if (sparse_->containsAny(V, qdAt(), n))
            fail("system.potential_energy",
                 "V may depend on the coordinates, t and the parameters, not on velocities "
                 "(put velocity-dependent forces under \"forces\")");
    }
    x_.V = V;
    x_.Qforces = perCoordinate(d_.forces, "system.forces", states_);
    std::vector<GiNaC::ex> dV(static_cast<std::size_t>(n), GiNaC::ex(0));
    for (const auto& [i, d] : sparse_->gradient(V, qAt(), n))
        dV[static_cast<std::size_t>(i)] = d;
    GiNaC::exvector power;
    for (int i = 0; i < n; ++i) {
        x_.Qpotential.push_back(-dV[static_cast<std::size_t>(i)]);
        x_.Q.push_back(x_.Qpotential.back() + x_.Qforces[i] + x_.Qinertial[i]);
        if (!x_.Qforces[i].is_zero())
            power.push_back(x_.Qforces[i] * x_.qd[i]);
    }
    power.push_back(sparse_->diff(V, kTime) - sparse_->diff(x_.T, kTime));
    nonConservativePower_ = GiNaC::add(power);
    potential_ = V - restEnergy_;
}

void SymbolicModel::Builder::constraints()
{
    const int n = m_.dof();
    // Holonomic constraints first: the interface wants them as the first rows of A.
    std::vector<std::size_t> order;
    for (int pass = 0; pass < 2; ++pass)
        for (std::size_t i = 0; i < d_.constraints.size(); ++i)
            if ((d_.constraints[i].kind == SystemDescription::Constraint::Kind::Holonomic) ==
                (pass == 0))
                order.push_back(i);
    std::size_t done = 0;
    for (std::size_t i : order) {
        DerivationProgress::reach(0.55 + 0.1 * static_cast<double>(done++) /
                                             static_cast<double>(order.size()));
        const SystemDescription::Constraint& c = d_.constraints[i];
        const bool holonomic = c.kind == SystemDescription::Constraint::Kind::Holonomic;
        const std::string key = indexed("system.constraints", i) + (c.unilateral ? ".unilateral"
                                                                    : holonomic  ? ".holonomic"
                                                                                 : ".velocity");
        const GiNaC::ex e = parse(c.expression, key, states_);
        if (c.unilateral)
            unilateral(c, i, key, e);
        std::vector<GiNaC::ex> row(static_cast<std::size_t>(n));
        GiNaC::ex rate; // φ̇ or ψ, whose time derivative gives the acceleration row
        std::vector<int>& columns = constraintColumns_.emplace_back();
        if (holonomic) {
            if (sparse_->containsAny(e, qdAt(), n))
                fail(key, "a holonomic constraint φ(q, t) = 0 cannot depend on velocities; "
                          "write it under \"velocity\" instead");
            if (!sparse_->containsAny(e, qAt(), n))
                fail(key, "does not depend on any coordinate, so it constrains nothing");
            GiNaC::exvector terms{sparse_->diff(e, kTime)};
            for (const auto& [k, d] : sparse_->gradient(e, qAt(), n)) {
                row[k] = d;
                columns.push_back(k);
                terms.push_back(d * x_.qd[k]);
            }
            rate = GiNaC::add(terms);
            ++m_.holonomic_;
            velocityRhs_.push_back(-sparse_->diff(e, kTime));
            positionRows_.push_back(e);
            rateRows_.push_back(rate);
        } else {
            bool anyVelocity = false;
            for (const auto& [k, d] : sparse_->gradient(e, qdAt(), n)) {
                row[k] = d;
                columns.push_back(k);
                if (sparse_->containsAny(d, qdAt(), n) && !isZero(derivativesInVelocities(d)))
                    fail(key, "a velocity constraint must be linear in the velocities (" +
                                  velocityNames() + "): ∂ψ/∂" + str(x_.qd[k]) + " = " + str(d) +
                                  " still depends on them");
                anyVelocity = anyVelocity || !isZero(d);
            }
            if (!anyVelocity)
                fail(key, "does not depend on any velocity; a condition on the coordinates "
                          "alone is a holonomic constraint");
            rate = e;
            velocityRhs_.push_back(-e.subs(zeroVelocities(), GiNaC::subs_options::no_pattern));
            rateRows_.push_back(e);
        }
        if (e.has(x_.t))
            m_.rheonomic_ = true;
        GiNaC::exvector b{-sparse_->diff(rate, kTime)};
        for (const auto& [k, d] : sparse_->gradient(rate, qAt(), n))
            b.push_back(-d * x_.qd[k]);
        x_.A.push_back(std::move(row)); // also the rows of Av
        x_.b.push_back(DerivationBudget::expand(GiNaC::add(b)));
        x_.constraint.push_back(e);
        m_.rowNames_.push_back(c.name);
        rowKeys_.push_back(key);
    }
}

// A one-sided constraint: its row (the next one), name and restitution (docs/MATH.md §11).
void SymbolicModel::Builder::unilateral(const SystemDescription::Constraint& c, std::size_t i,
                                        const std::string& key, const GiNaC::ex& e)
{
    if (hasAny(e, x_.qd))
        fail(key, "a one-sided constraint φ(q, t) ≥ 0 cannot depend on velocities: a "
                  "velocity constraint cannot be one-sided");
    const std::string name =
        c.name.empty() ? "contact" + std::to_string(m_.unilaterals_.size() + 1) : c.name;
    m_.unilaterals_.push_back(
        {name, static_cast<int>(m_.rowNames_.size()), indexed("system.constraints", i)});
    const std::string e0 = c.restitution.empty() ? "0" : c.restitution;
    restitutions_.push_back(parse(e0, indexed("system.constraints", i) + ".restitution", params_));
}

int SymbolicModel::Builder::rowOf(const std::string& name) const
{
    for (std::size_t r = 0; r < m_.rowNames_.size(); ++r)
        if (m_.rowNames_[r] == name)
            return static_cast<int>(r);
    return -1;
}

/// Each slip velocity's row of G = ∂v/∂q̇ (checked: linear, zero at rest); the slip
/// velocities go into the derivation.
std::vector<std::vector<GiNaC::ex>>
SymbolicModel::Builder::slipRows(const SystemDescription::Friction& f, const std::string& key)
{
    const int n = m_.dof();
    std::vector<std::vector<GiNaC::ex>> G;
    std::vector<GiNaC::ex> slips;
    for (std::size_t k = 0; k < f.slip.size(); ++k) {
        const std::string sk = indexed(key + ".slip", k);
        const GiNaC::ex s = parse(f.slip[k], sk, states_);
        std::vector<GiNaC::ex> row(static_cast<std::size_t>(n));
        for (int j = 0; j < n; ++j) {
            row[j] = s.diff(sym(x_.qd[j]));
            if (hasAny(row[j], x_.qd) && !isZero(derivativesInVelocities(row[j])))
                fail(sk, "the slip velocity must be linear in the velocities (" + velocityNames() +
                             ")");
        }
        if (!isZero(s.subs(zeroVelocities(), GiNaC::subs_options::no_pattern)))
            fail(sk, "the slip velocity must be zero when every velocity is zero (it is " +
                         str(s.subs(zeroVelocities(), GiNaC::subs_options::no_pattern)) + ")");
        if (std::all_of(row.begin(), row.end(), [](const GiNaC::ex& x) { return isZero(x); }))
            fail(sk, "does not depend on any velocity");
        G.push_back(row);
        slips.push_back(s);
    }
    x_.slip.push_back(slips);
    return G;
}

void SymbolicModel::Builder::friction()
{
    const int n = m_.dof();
    for (std::size_t i = 0; i < d_.friction.size(); ++i) {
        const SystemDescription::Friction& f = d_.friction[i];
        const std::string key = indexed("system.friction", i);
        Contact contact;
        contact.name = f.name.empty() ? "contact" + std::to_string(i + 1) : f.name;
        if (f.slip.empty())
            fail(key + ".slip", "give the slip velocity: one or more expressions in the "
                                "velocities");
        contact.dimension = static_cast<int>(f.slip.size());
        const bool coulomb = !f.mu.empty();
        if (coulomb == !f.magnitude.empty())
            fail(key, "give either \"mu\" (Coulomb friction) or \"magnitude\" (a drag of "
                      "constant size)");
        contact.coulomb = coulomb;
        if (m_.constraintCount() == 0 && coulomb)
            fail(key, "Coulomb friction needs a constraint whose force presses the contact");
        std::vector<std::vector<GiNaC::ex>> G = slipRows(f, key);
        // One slip direction is normalized here, exactly; several are made orthonormal
        // numerically by the system (γ is exact while the contact is stuck, v = 0).
        if (contact.dimension == 1) {
            GiNaC::ex norm2;
            for (const GiNaC::ex& g : G[0])
                norm2 += g * g;
            const GiNaC::ex norm = GiNaC::sqrt(norm2);
            for (GiNaC::ex& g : G[0])
                g = g / norm;
        }
        std::vector<GiNaC::ex> gamma;
        for (const auto& row : G) {
            GiNaC::ex v;
            for (int j = 0; j < n; ++j)
                v += row[j] * x_.qd[j];
            GiNaC::ex g = v.diff(sym(x_.t));
            for (int j = 0; j < n; ++j)
                g += v.diff(sym(x_.q[j])) * x_.qd[j];
            gamma.push_back(g);
        }
        for (int j = 0; j < n; ++j)
            for (const auto& row : G)
                contactOutputs_.push_back(row[j]);
        contactOutputs_.insert(contactOutputs_.end(), gamma.begin(), gamma.end());
        if (coulomb) {
            const GiNaC::ex mu = parse(f.mu, key + ".mu", states_);
            const GiNaC::ex muS =
                f.muStatic.empty() ? mu : parse(f.muStatic, key + ".mu_s", states_);
            contactOutputs_.push_back(mu);
            contactOutputs_.push_back(muS);
            for (std::size_t k = 0; k < f.normal.size(); ++k) {
                const int r = rowOf(f.normal[k]);
                if (r < 0)
                    fail(indexed(key + ".normal", k),
                         "there is no constraint named '" + f.normal[k] + "'");
                contact.normalRows.push_back(r);
            }
            std::sort(contact.normalRows.begin(), contact.normalRows.end());
            contact.normalRows.erase(
                std::unique(contact.normalRows.begin(), contact.normalRows.end()),
                contact.normalRows.end());
            contact.allConstraints =
                contact.normalRows.empty() ||
                static_cast<int>(contact.normalRows.size()) == m_.constraintCount();
        } else {
            const GiNaC::ex size = parse(f.magnitude, key + ".magnitude", states_);
            contactOutputs_.push_back(size);
            contactOutputs_.push_back(size);
        }
        m_.contacts_.push_back(contact);
    }
}

void SymbolicModel::Builder::nonideal()
{
    if (d_.nonideal.empty())
        return;
    if (!d_.friction.empty())
        fail("system.nonideal", "a general non-ideal force cannot be combined with friction "
                                "contacts; describe the friction under \"friction\" only");
    Table table = states_;
    for (const std::string& name : m_.rowNames_)
        if (!name.empty()) {
            x_.n.push_back(GiNaC::realsymbol("N_" + name, "N_{\\mathrm{" + name + "}}"));
            table["N_" + name] = x_.n.back();
        } else {
            x_.n.push_back(GiNaC::realsymbol("N_unnamed"));
        }
    x_.C = perCoordinate(d_.nonideal, "system.nonideal", table);
    m_.hasNonIdeal_ = true;
}

void SymbolicModel::Builder::initial()
{
    const int n = m_.dof();
    std::set<int> seen;
    for (const SystemDescription::Named& e : d_.initial) {
        const std::string key = "system.initial." + e.name;
        int slot = coordinateIndex(e.name);
        if (slot < 0 && e.name.size() > 4 && e.name.ends_with("_dot")) {
            const int i = coordinateIndex(e.name.substr(0, e.name.size() - 4));
            slot = i < 0 ? -1 : n + i;
        }
        if (slot < 0) {
            Table state;
            for (const auto& [name, s] : states_)
                if (!params_.count(name) && name != "t")
                    state[name] = s;
            const std::string near = ExpressionParser::suggestions(e.name, state);
            fail(key, "there is no coordinate or velocity '" + e.name + "'" +
                          (near.empty() ? "" : " (did you mean " + near + "?)"));
        }
        if (!seen.insert(slot).second)
            fail(key, "given twice");
        initialValues_.push_back(parse(e.expression, key, params_));
        m_.initialSlots_.push_back(slot);
    }
}

void SymbolicModel::Builder::columns()
{
    for (std::size_t r = 0; r < m_.rowNames_.size(); ++r)
        if (!m_.rowNames_[r].empty()) {
            m_.columnNames_.push_back("N_" + m_.rowNames_[r]);
            m_.columnUnits_.push_back("N");
        }
    std::set<std::string> names(m_.columnNames_.begin(), m_.columnNames_.end());
    for (const SystemDescription::Column& c : d_.columns) {
        const std::string key = "system.columns." + c.name;
        if (!Notation::isIdentifier(c.name))
            fail(key, "a column name must start with a letter and hold only letters, "
                      "digits and _");
        if (!names.insert(c.name).second)
            fail(key, "the column name '" + c.name + "' is already a trace column");
        columnOutputs_.push_back(parse(c.expression, key, states_));
        m_.columnNames_.push_back(c.name);
        m_.columnUnits_.push_back(c.unit);
    }
    columnOutputs_.push_back(d_.end.empty() ? GiNaC::ex(1) : parse(d_.end, "system.end", states_));
}

// Every header of the trace appears once: its list is Trace::columnNames (there is no
// second one), which the coordinates, columns, constraint and contact names feed. A
// coordinate named E or a column named t would repeat a header, and `--columns E` would
// pick one of them. W_ideal counts whether or not the constraints depend on time.
void SymbolicModel::Builder::traceColumns() const
{
    std::vector<std::string> coordinates, contacts;
    for (const SystemDescription::Coordinate& c : d_.coordinates)
        coordinates.push_back(c.name);
    for (const SystemDescription::Friction& f : d_.friction)
        contacts.push_back(f.name);
    const Trace shape(coordinates, m_.columnNames_, true, contacts);
    std::set<std::string> seen;
    for (const std::string& name : shape.columnNames())
        if (!seen.insert(name).second)
            fail(keyNaming(name), "'" + name +
                                      "' is already a trace column (a header of the CSV and "
                                      "a quantity of the plots); choose another name");
}

// The key of the name that made a trace column `name`: a column before a coordinate of that
// name (the column is the one to rename), a coordinate before the trace's own names.
std::string SymbolicModel::Builder::keyNaming(const std::string& name) const
{
    for (const SystemDescription::Column& c : d_.columns)
        if (c.name == name)
            return "system.columns." + c.name;
    if (const int i = coordinateIndex(name); i >= 0)
        return indexed("system.coordinates", static_cast<std::size_t>(i));
    for (std::size_t i = 0; i < d_.constraints.size(); ++i)
        if ("N_" + d_.constraints[i].name == name)
            return indexed("system.constraints", i) + ".name";
    for (std::size_t i = 0; i < d_.friction.size(); ++i)
        if ("contact_" + d_.friction[i].name == name)
            return indexed("system.friction", i) + ".name";
    return "system.coordinates";
}

void SymbolicModel::Builder::view()
{
    std::set<std::string> points{"origin"};
    for (std::size_t i = 0; i < d_.points.size(); ++i) {
        const auto& p = d_.points[i];
        const std::string key = indexed("view.points", i);
        if (p.name.empty() || !points.insert(p.name).second)
            fail(key + ".name",
                 p.name.empty() ? "a point needs a name" : "two points are named '" + p.name + "'");
        if (p.at.size() < 2 || p.at.size() > 3)
            fail(key + ".at", "give 2 or 3 expressions (x, y[, z])");
        for (std::size_t k = 0; k < 3; ++k)
            viewOutputs_.push_back(k < p.at.size()
                                       ? parse(p.at[k], indexed(key + ".at", k), positions_)
                                       : GiNaC::ex(0));
    }
    for (std::size_t i = 0; i < d_.links.size(); ++i)
        for (const std::string& end : {d_.links[i].first, d_.links[i].second})
            if (!points.count(end))
                fail(indexed("view.links", i),
                     "there is no point named '" + end + "' (use a point's name or origin)");
    for (std::size_t i = 0; i < d_.curves.size(); ++i) {
        const auto& c = d_.curves[i];
        const std::string key = indexed("view.curves", i);
        if (!Notation::isIdentifier(c.parameter) || params_.count(c.parameter))
            fail(key + ".s", "the curve parameter needs a name of its own");
        if (!(std::isfinite(c.from) && std::isfinite(c.to) && c.from < c.to))
            fail(key + "." + c.parameter, "the range must be two finite numbers, low to high");
        Table table = params_;
        const GiNaC::realsymbol u(c.parameter);
        table[c.parameter] = u;
        // Compiled here, with the model: drawing a curve then needs no GiNaC (and no lock).
        m_.tapes_->curves.push_back(
            tape({u},
                 {parse(c.x, key + ".x", table), parse(c.y, key + ".y", table),
                  parse(c.z, key + ".z", table)},
                 key));
    }
}

} // namespace clab
