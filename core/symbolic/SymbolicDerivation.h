#pragma once

#include <ginac/ginac.h>

#include <vector>

namespace clab {

/// \brief A SymbolicModel's symbols and derived expressions, as GiNaC holds them.
///
/// A private header of core/symbolic (CLAB_CORE_PRIVATE_HEADERS): what GiNaC computes stays
/// behind SymbolicModel, which hands out printed text, sheets and tapes instead.
struct SymbolicDerivation {
    // The symbols: q, q̇, t, the parameters and, with a non-ideal force, the size N of each
    // constraint's force.
    std::vector<GiNaC::ex> q, qd, p, n;
    GiNaC::ex t;

    GiNaC::matrix M;
    std::vector<GiNaC::ex> Q;          ///< total given force
    std::vector<GiNaC::ex> Qpotential; ///< −∂V/∂q
    std::vector<GiNaC::ex> Qforces;    ///< the "forces" entries
    std::vector<GiNaC::ex> Qinertial;  ///< ∂T/∂q − d/dt(∂T/∂q̇) + M q̈ (velocity terms)
    std::vector<GiNaC::ex> constraint; ///< φ or ψ, in A's row order
    std::vector<std::vector<GiNaC::ex>> A;
    std::vector<GiNaC::ex> b;
    std::vector<std::vector<GiNaC::ex>> slip; ///< per contact, its slip velocity rows
    std::vector<GiNaC::ex> C;                 ///< the general non-ideal force
    GiNaC::ex T, V;
};

} // namespace clab
