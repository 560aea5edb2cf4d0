#pragma once

#include "ExpressionTape.h"
#include "SparsePattern.h"
#include "SymbolicModel.h"

#include <array>
#include <vector>

namespace clab {

/// \brief A SymbolicModel's compiled forms; varying inputs are (t, q) or (t, q, q̇) as named;
/// matrices come column by column (Eigen's order).
///
/// A private header of core/symbolic: ExpressionTape is compiled from GiNaC expressions.
struct SymbolicModel::Tapes {
    ExpressionTape mass;       ///< (t, q) → M's entries (massPattern)
    ExpressionTape force;      ///< (t, q, q̇) → Q
    ExpressionTape constraint; ///< (t, q, q̇) → A's entries (constraintPattern), then b
    ExpressionTape position; ///< (t, q) → φ (h), then J = ∂φ/∂q's entries (positionPattern)
    ExpressionTape velocity; ///< (t, q) → Av's entries (constraintPattern), then bv (m)
    ExpressionTape residual; ///< (t, q, q̇) → φ, φ̇ per holonomic row, ψ per other row
    ExpressionTape energy; ///< (t, q, q̇) → ½q̇ᵀMq̇, V − T(q̇=0), non-conservative power
    ExpressionTape contact;  ///< (t, q, q̇) → per contact: G (k×n), γ (k), size, limit
    ExpressionTape nonideal; ///< (t, q, q̇, N per row) → C
    ExpressionTape columns;  ///< (t, q, q̇) → user columns, then the end function
    ExpressionTape initial;  ///< () → given initial values (see initialSlots)
    ExpressionTape view;     ///< (t, q) → x, y, z of each view point
    ExpressionTape start;    ///< (t, q, q̇) → each expression as written (SystemStartCheck)
    std::vector<ExpressionTape> curves; ///< per view curve: its parameter → x, y, z
    /// The structural non-zeros the matrix tapes compute (Av has A's pattern, J its first h rows).
    SparsePattern massPattern, constraintPattern, positionPattern;

    /// Every tape, for what is done to all of them (setting the parameters, sizing).
    std::array<ExpressionTape*, 13> all()
    {
        return {&mass,    &force,    &constraint, &position, &velocity, &residual, &energy,
                &contact, &nonideal, &columns,    &initial,  &view,     &start};
    }
};

} // namespace clab
