#pragma once

#include "ExpressionTape.h"
#include "scenes/SceneDefinition.h"
#include "SystemDescription.h"

#include <ginac/ginac.h>

#include <array>
#include <memory>
#include <string>
#include <vector>

namespace clab {

/// \brief A format-2 system parsed and derived: M, Q, A, b, the constraint functions and the
/// friction terms as expressions, and the tapes that evaluate them (docs/MATH.md §8).
///
/// Built once per description and shared, immutable, by every SymbolicSystem made from it (one
/// per run, with its own parameter values). Parameters stay symbols in the derivation, so a new
/// μ needs no new derivation: only the tapes' fixed part is recomputed.
class SymbolicModel : public std::enable_shared_from_this<SymbolicModel> {
public:
    /// Checks names, parses every expression, derives and compiles. Throws SystemError naming
    /// the key (e.g. "system.constraints[1].holonomic"), the column and the reason.
    /// `title` and `notes` go into the scene definition (describe, the GUI).
    static std::shared_ptr<const SymbolicModel> create(const SystemDescription& description,
                                                       const std::string& title = {},
                                                       const std::string& notes = {});

    const SystemDescription& description() const { return description_; }
    /// Name "system" unless a title is given, the file's parameters, a SymbolicSystem factory.
    const SceneDefinition& definition() const { return definition_; }

    int dof() const { return static_cast<int>(q_.size()); }
    int constraintCount() const { return static_cast<int>(A_.size()); }
    int holonomicCount() const { return holonomic_; }
    bool rheonomic() const { return rheonomic_; }

    /// One frictional contact after derivation.
    struct Contact {
        std::string name;
        int dimension = 1;
        bool coulomb = true;         ///< μ‖N‖; false: a drag of constant magnitude
        bool allConstraints = true;  ///< N is the whole ideal force Qᶜᵢ
        std::vector<int> normalRows; ///< rows of A whose force is N, when not all
    };
    const std::vector<Contact>& contacts() const { return contacts_; }
    bool hasNonIdeal() const { return hasNonIdeal_; }
    /// Names of the constraints in the order of A's rows (holonomic first), "" when unnamed.
    const std::vector<std::string>& rowNames() const { return rowNames_; }

    // --- The derivation, for `derive` and the derivation panel ---
    struct Derivation {
        GiNaC::matrix M;
        std::vector<GiNaC::ex> Q;          ///< total given force
        std::vector<GiNaC::ex> Qpotential; ///< −∂V/∂q
        std::vector<GiNaC::ex> Qforces;    ///< the "forces" entries
        std::vector<GiNaC::ex> Qinertial; ///< ∂T/∂q − d/dt(∂T/∂q̇) + M q̈ (velocity terms)
        std::vector<GiNaC::ex> constraint; ///< φ or ψ, in A's row order
        std::vector<std::vector<GiNaC::ex>> A;
        std::vector<GiNaC::ex> b;
        std::vector<std::vector<GiNaC::ex>> slip; ///< per contact, its slip velocity rows
        std::vector<GiNaC::ex> C;                 ///< the general non-ideal force
        GiNaC::ex T, V;
    };
    const Derivation& derivation() const { return derivation_; }
    /// Symbols of the derivation: q, q̇, t and the parameters (for printing and tests).
    const std::vector<GiNaC::ex>& coordinates() const { return q_; }
    const std::vector<GiNaC::ex>& velocities() const { return qd_; }
    const GiNaC::ex& time() const { return t_; }
    const std::vector<GiNaC::ex>& parameterSymbols() const { return p_; }

    // --- Compiled forms; varying inputs are (t, q) or (t, q, q̇) as named; matrices come
    // column by column (Eigen's order) ---
    struct Tapes {
        ExpressionTape mass;       ///< (t, q) → M
        ExpressionTape force;      ///< (t, q, q̇) → Q
        ExpressionTape constraint; ///< (t, q, q̇) → A, then b
        ExpressionTape position;   ///< (t, q) → φ (h), then J = ∂φ/∂q (h×n)
        ExpressionTape velocity;   ///< (t, q) → Av (m×n), then bv (m)
        ExpressionTape residual;   ///< (t, q, q̇) → φ, φ̇ per holonomic row, ψ per other row
        ExpressionTape energy; ///< (t, q, q̇) → ½q̇ᵀMq̇, V − T(q̇=0), non-conservative power
        ExpressionTape contact;  ///< (t, q, q̇) → per contact: G (k×n), γ (k), size, limit
        ExpressionTape nonideal; ///< (t, q, q̇, N per row) → C
        ExpressionTape columns;  ///< (t, q, q̇) → user columns, then the end function
        ExpressionTape initial;  ///< () → given initial values (see initialSlots)
        ExpressionTape view;     ///< (t, q) → x, y, z of each view point

        /// Every tape, for what is done to all of them (setting the parameters, sizing).
        std::array<ExpressionTape*, 12> all()
        {
            return {&mass,   &force,   &constraint, &position, &velocity, &residual,
                    &energy, &contact, &nonideal,   &columns,  &initial,  &view};
        }
    };
    const Tapes& tapes() const { return tapes_; }
    /// Which state entry each initial value sets: i < n a coordinate, n + i its velocity.
    const std::vector<int>& initialSlots() const { return initialSlots_; }
    /// Names and units of the extra trace columns (N_<constraint>, then the file's columns).
    const std::vector<std::string>& columnNames() const { return columnNames_; }
    const std::vector<std::string>& columnUnits() const { return columnUnits_; }
    int userColumnCount() const { return static_cast<int>(description_.columns.size()); }
    bool hasEnd() const { return !description_.end.empty(); }

    /// The derivation as text a student can check by hand: plain, LaTeX or JSON. Plain and
    /// LaTeX are the lines of DerivationSheet's blocks, which the derivation panel shows.
    enum class Format { Text, Latex, Json };
    std::string derivationText(Format format) const;

private:
    SymbolicModel() = default;
    void build(const SystemDescription& description, const std::string& title,
               const std::string& notes);
    std::string derivationJson() const;
    class Builder;

    SystemDescription description_;
    SceneDefinition definition_;
    std::vector<GiNaC::ex> q_, qd_, p_, n_;
    GiNaC::ex t_;
    int holonomic_ = 0;
    bool rheonomic_ = false;
    bool hasNonIdeal_ = false;
    std::vector<Contact> contacts_;
    std::vector<std::string> rowNames_;
    std::vector<std::vector<GiNaC::ex>> A_;
    Derivation derivation_;
    Tapes tapes_;
    std::vector<int> initialSlots_;
    std::vector<std::string> columnNames_, columnUnits_;
};

} // namespace clab
