#pragma once

#include "DerivationSheet.h"
#include "SystemDescription.h"
#include "scenes/SceneDefinition.h"

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace clab {

struct SymbolicDerivation;

/// \brief A format-2 system parsed and derived: M, Q, A, b, the constraint functions and the
/// friction terms as expressions, and the tapes that evaluate them (docs/MATH.md §8).
///
/// Built once per description and shared, immutable, by every SymbolicSystem made from it (one
/// per run, with its own parameter values). Parameters stay symbols in the derivation, so a new
/// μ needs no new derivation: only the tapes' fixed part is recomputed.
///
/// GiNaC stays inside core/symbolic: the expressions (SymbolicDerivation) and the tapes
/// (SymbolicModel::Tapes) are defined in its private headers; the rest of the program gets
/// printed text, a DerivationSheet and a SymbolicView.
class SymbolicModel : public std::enable_shared_from_this<SymbolicModel> {
public:
    /// Checks names, parses every expression, derives and compiles. Throws SystemError naming
    /// the key (e.g. "system.constraints[1].holonomic"), the column and the reason.
    /// `title` and `notes` go into the scene definition (describe, the GUI).
    static std::shared_ptr<const SymbolicModel> create(const SystemDescription& description,
                                                       const std::string& title = {},
                                                       const std::string& notes = {});
    ~SymbolicModel();

    /// GiNaC is not thread-safe (its shared numbers are counted without atomics), so every use
    /// of it that can be reached from outside core/symbolic holds this lock: a derivation, the
    /// derivation's text, a view's curves, and destroying a model. A file that loads on a worker
    /// thread then cannot race the GUI thread's printing or dropping of the previous system.
    static std::recursive_mutex& ginacMutex();

    const SystemDescription& description() const { return description_; }
    /// Name "system" unless a title is given, the file's parameters, a SymbolicSystem factory.
    const SceneDefinition& definition() const { return definition_; }

    int dof() const { return static_cast<int>(description_.coordinates.size()); }
    int constraintCount() const { return static_cast<int>(rowNames_.size()); }
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
    /// One one-sided constraint φ ≥ 0 (docs/MATH.md §11); its restitution is evaluated by the
    /// initial tape, after the given initial values.
    struct Unilateral {
        std::string name; ///< the constraint's name, or contact1, contact2, ... when unnamed
        int row = 0;      ///< its row of A (a holonomic row)
        std::string key;  ///< system.constraints[i], for messages
    };
    const std::vector<Unilateral>& unilaterals() const { return unilaterals_; }
    bool hasNonIdeal() const { return hasNonIdeal_; }
    /// Names of the constraints in the order of A's rows (holonomic first), "" when unnamed.
    const std::vector<std::string>& rowNames() const { return rowNames_; }

    /// The symbols and expressions of the derivation (symbolic/SymbolicDerivation.h, inside
    /// core/symbolic and its tests).
    const SymbolicDerivation& derivation() const { return *derivation_; }
    /// The compiled forms (symbolic/SymbolicTapes.h, inside core/symbolic).
    struct Tapes;
    const Tapes& tapes() const { return *tapes_; }
    /// Which state entry each initial value sets: i < n a coordinate, n + i its velocity.
    const std::vector<int>& initialSlots() const { return initialSlots_; }
    /// The description's parameters taken from `values`, in the order of the tapes' fixed
    /// inputs.
    std::vector<double> parameterVector(const ParameterValues& values) const;
    /// Names and units of the extra trace columns (N_<constraint>, then the file's columns).
    const std::vector<std::string>& columnNames() const { return columnNames_; }
    const std::vector<std::string>& columnUnits() const { return columnUnits_; }
    int userColumnCount() const { return static_cast<int>(description_.columns.size()); }
    bool hasEnd() const { return !description_.end.empty(); }

    /// The derivation as text a student can check by hand: plain, LaTeX or JSON. Plain and
    /// LaTeX are the lines of DerivationSheet's blocks, which the derivation panel shows.
    enum class Format { Text, Latex, Json };
    std::string derivationText(Format format) const;
    /// The derivation's blocks, for the derivation panel.
    DerivationSheet derivationSheet() const;
    /// M's entries printed as the parser reads them back, row by row.
    std::vector<std::vector<std::string>> massMatrixText() const;

private:
    SymbolicModel();
    void build(const SystemDescription& description, const std::string& title,
               const std::string& notes);
    std::string derivationJson() const;
    class Builder;

    SystemDescription description_;
    SceneDefinition definition_;
    int holonomic_ = 0;
    bool rheonomic_ = false;
    bool hasNonIdeal_ = false;
    std::vector<Contact> contacts_;
    std::vector<Unilateral> unilaterals_;
    std::vector<std::string> rowNames_;
    std::unique_ptr<SymbolicDerivation> derivation_;
    std::unique_ptr<Tapes> tapes_;
    std::vector<int> initialSlots_;
    std::vector<std::string> columnNames_, columnUnits_;
};

} // namespace clab
