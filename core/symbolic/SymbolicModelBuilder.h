#pragma once

#include "ExpressionParser.h"
#include "ExpressionTape.h"
#include "SparseDerivative.h"
#include "SymbolicModel.h"

#include <ginac/ginac.h>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace clab {

/// \brief The derivation, step by step; one member function per part of the description.
///
/// A private header of core/symbolic: the steps work on GiNaC expressions. The last step, the
/// compiled tapes, is in SymbolicModelBuilderTapes.cpp.
class SymbolicModel::Builder {
public:
    Builder(SymbolicModel& model, const SystemDescription& d);
    void run();

private:
    using Table = ExpressionParser::SymbolTable;

    void derive();
    [[noreturn]] static void fail(const std::string& key, const std::string& reason);
    GiNaC::ex parse(const std::string& text, const std::string& key, const Table& table);
    int coordinateIndex(const std::string& name) const;
    void checkName(const std::string& name, const std::string& key, const char* what);
    void names();
    void symbols();
    static constexpr int kTime = 0;
    int qAt() const { return 1; }
    int qdAt() const { return 1 + m_.dof(); }
    std::string velocityNames() const;
    void mass();
    void hessian(const GiNaC::ex& T, GiNaC::matrix& M);
    std::vector<std::vector<int>> nonZeroColumns(const GiNaC::matrix& M, bool everyEntry) const;
    void inertialForces(const GiNaC::ex& T);
    GiNaC::ex derivativesInVelocities(const GiNaC::ex& e) const;
    GiNaC::exmap zeroVelocities() const;
    static const GiNaC::symbol& sym(const GiNaC::ex& e) { return GiNaC::ex_to<GiNaC::symbol>(e); }
    std::vector<GiNaC::ex> perCoordinate(const std::vector<SystemDescription::Named>& entries,
                                         const std::string& key, const Table& table);
    void forces();
    void constraints();
    void unilateral(const SystemDescription::Constraint& c, std::size_t i, const std::string& key,
                    const GiNaC::ex& e);
    int rowOf(const std::string& name) const;
    std::vector<std::vector<GiNaC::ex>> slipRows(const SystemDescription::Friction& f,
                                                 const std::string& key);
    void friction();
    void nonideal();
    void initial();
    void columns();
    void traceColumns() const;
    std::string keyNaming(const std::string& name) const;
    void view();
    ExpressionTape tape(const std::vector<GiNaC::ex>& varying, const std::vector<GiNaC::ex>& out,
                        const std::string& key);
    void compile();

    SymbolicModel& m_;
    int tapesCompiled_ = 0;
    std::string key_;       ///< of the expression parsed last, for the budget's messages
    SymbolicDerivation& x_; ///< the model's expressions, filled here
    std::unique_ptr<SparseDerivative> sparse_;
    mutable std::map<std::string, int> coordinateIndices_; ///< filled by coordinateIndex
    SparseDerivative::Gradient momenta_;                   ///< ∂T/∂q̇ᵢ that are not zero
    std::vector<std::vector<int>> massColumns_;            ///< M's non-zeros, row by row
    std::vector<std::vector<int>> constraintColumns_;      ///< A's non-zeros, row by row
    const SystemDescription& d_;
    std::set<std::string> taken_;
    Table params_, positions_, states_;
    GiNaC::ex kinetic_, potential_, restEnergy_, nonConservativePower_;
    std::vector<GiNaC::ex> positionRows_, rateRows_, velocityRhs_;
    std::vector<std::string> rowKeys_;
    std::vector<GiNaC::ex> contactOutputs_, initialValues_, columnOutputs_, viewOutputs_;
    std::vector<GiNaC::ex> restitutions_;
};

} // namespace clab
