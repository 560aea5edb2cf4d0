// SymbolicModel::Builder's last step: the tapes compiled from the derived expressions, apart
// from the derivation so that each file stays about one subject.
#include "SymbolicModelBuilder.h"

#include "DerivationProgress.h"
#include "SparsePattern.h"
#include "SymbolicDerivation.h"
#include "SymbolicTapes.h"
#include "SystemStartCheck.h"

#include <stdexcept>

namespace clab {

ExpressionTape SymbolicModel::Builder::tape(const std::vector<GiNaC::ex>& varying,
                                            const std::vector<GiNaC::ex>& out,
                                            const std::string& key)
{
    // The tapes are the last 30 % of the work; a Cancel is noticed between two of them.
    DerivationProgress::reach(0.7 + 0.025 * tapesCompiled_++);
    try {
        return ExpressionTape(x_.p, varying, out);
    } catch (const std::invalid_argument& e) {
        fail(key, e.what());
    }
}

void SymbolicModel::Builder::compile()
{
    const int n = m_.dof();
    std::vector<GiNaC::ex> tq{x_.t};
    tq.insert(tq.end(), x_.q.begin(), x_.q.end());
    std::vector<GiNaC::ex> tqv = tq;
    tqv.insert(tqv.end(), x_.qd.begin(), x_.qd.end());
    Tapes& t = *m_.tapes_;

    // Matrices by their structural non-zeros only, column by column as Eigen stores them:
    // the tapes' work and outputs grow with the entries, not with n².
    const auto entries = [](std::vector<GiNaC::ex>& out, const SparsePattern& pattern,
                            const auto& at) {
        for (int k = 0; k < pattern.nonZeros(); ++k)
            out.push_back(at(pattern.row(k), pattern.col(k)));
    };
    t.massPattern = SparsePattern(n, n, massColumns_);
    t.constraintPattern = SparsePattern(m_.constraintCount(), n, constraintColumns_);
    t.positionPattern =
        SparsePattern(m_.holonomic_, n,
                      std::vector<std::vector<int>>(constraintColumns_.begin(),
                                                    constraintColumns_.begin() + m_.holonomic_));
    std::vector<GiNaC::ex> out;
    entries(out, t.massPattern,
            [&](int i, int j) { return x_.M(static_cast<unsigned>(i), static_cast<unsigned>(j)); });
    t.mass = tape(tq, out, "system.kinetic_energy");
    t.force = tape(tqv, x_.Q, "system.forces");

    const auto a = [&](int r, int j) {
        return x_.A[r][j];
    };
    out.clear();
    entries(out, t.constraintPattern, a);
    out.insert(out.end(), x_.b.begin(), x_.b.end());
    t.constraint = tape(tqv, out, "system.constraints");

    out = positionRows_;
    entries(out, t.positionPattern, a);
    t.position = tape(tq, out, "system.constraints");

    out.clear();
    entries(out, t.constraintPattern, a); // Av's rows are A's
    out.insert(out.end(), velocityRhs_.begin(), velocityRhs_.end());
    t.velocity = tape(tq, out, "system.constraints");

    out.clear();
    for (int r = 0; r < m_.holonomic_; ++r) {
        out.push_back(positionRows_[r]);
        out.push_back(rateRows_[r]);
    }
    for (int r = m_.holonomic_; r < m_.constraintCount(); ++r)
        out.push_back(rateRows_[r]);
    t.residual = tape(tqv, out, "system.constraints");

    t.energy = tape(tqv, {kinetic_, potential_, nonConservativePower_}, "system");
    t.contact = tape(tqv, contactOutputs_, "system.friction");
    std::vector<GiNaC::ex> withN = tqv;
    withN.insert(withN.end(), x_.n.begin(), x_.n.end());
    t.nonideal = tape(withN, x_.C.empty() ? std::vector<GiNaC::ex>(n, 0) : x_.C, "system.nonideal");
    t.columns = tape(tqv, columnOutputs_, "system.columns");
    std::vector<GiNaC::ex> initialOutputs = initialValues_; // then each restitution
    initialOutputs.insert(initialOutputs.end(), restitutions_.begin(), restitutions_.end());
    t.initial = tape({}, initialOutputs, "system.initial");
    t.view = tape(tq, viewOutputs_, "view.points");
    try {
        t.start = SystemStartCheck::compile(m_);
    } catch (const std::invalid_argument& e) {
        fail("system", e.what());
    }
}

} // namespace clab
