// SymbolicSystem's one-sided contacts (docs/MATH.md §11), apart from the rest of the class so
// that the file stays about one subject.
#include "symbolic/SymbolicSystem.h"

#include "model/ConstraintLabError.h"
#include "symbolic/SymbolicTapes.h"

#include <cmath>

namespace clab {

void SymbolicSystem::readRestitutions(const double* values)
{
    const auto& list = model_->unilaterals();
    for (std::size_t k = 0; k < list.size(); ++k) {
        const double e = values[k];
        if (!(e >= 0.0 && e <= 1.0))
            throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter,
                                     list[k].key +
                                         ".restitution: the coefficient of restitution "
                                         "must lie in [0, 1], not " +
                                         ConstraintLabError::number(e) + " for these parameters");
        restitution_.push_back(e);
    }
}

void SymbolicSystem::checkUnilateralStart()
{
    const double scale = 1.0 + q0_.lpNorm<Eigen::Infinity>();
    for (std::size_t k = 0; k < open_.size(); ++k) {
        const double phi = unilateralGap(static_cast<int>(k), q0_, 0.0);
        if (!(phi >= -1e-9 * scale))
            throw ConstraintLabError(ConstraintLabError::Kind::InvalidInitialState,
                                     "system.initial: the start lies inside the one-sided "
                                     "constraint '" +
                                         model_->unilaterals()[k].name + "' (" +
                                         model_->unilaterals()[k].key +
                                         ".unilateral = " + ConstraintLabError::number(phi) +
                                         " < 0); a body must start on or outside its surface");
        open_[k] = phi > 1e-9 * scale ? 1 : 0;
    }
}

void SymbolicSystem::zeroOpenRows(Eigen::Ref<Eigen::MatrixXd> rows,
                                  Eigen::Ref<Eigen::VectorXd> rhs) const
{
    for (std::size_t k = 0; k < open_.size(); ++k)
        if (open_[k]) {
            const int row = model_->unilaterals()[k].row;
            rows.row(row).setZero();
            rhs[row] = 0.0;
        }
}

void SymbolicSystem::zeroOpenRows(SparseMatrix& rows, Eigen::VectorXd& rhs) const
{
    if (open_.empty())
        return;
    std::vector<char> zeroed(static_cast<std::size_t>(rows.rows()), 0);
    for (std::size_t k = 0; k < open_.size(); ++k)
        if (open_[k]) {
            const int row = model_->unilaterals()[k].row;
            zeroed[static_cast<std::size_t>(row)] = 1;
            rhs[row] = 0.0;
        }
    // Zeroed in place, not pruned: the pattern stays the one the tapes fill.
    for (Eigen::Index j = 0; j < rows.outerSize(); ++j)
        for (SparseMatrix::InnerIterator it(rows, j); it; ++it)
            if (zeroed[static_cast<std::size_t>(it.row())])
                it.valueRef() = 0.0;
}

int SymbolicSystem::unilateralRow(int contact) const
{
    return model_->unilaterals()[static_cast<std::size_t>(contact)].row;
}

std::string SymbolicSystem::unilateralName(int contact) const
{
    return model_->unilaterals()[static_cast<std::size_t>(contact)].name;
}

double SymbolicSystem::restitution(int contact) const
{
    return restitution_[static_cast<std::size_t>(contact)];
}

void SymbolicSystem::setUnilateralOpen(int contact, bool open) const
{
    open_[static_cast<std::size_t>(contact)] = open ? 1 : 0;
}

bool SymbolicSystem::unilateralOpen(int contact) const
{
    return open_[static_cast<std::size_t>(contact)] != 0;
}

double SymbolicSystem::unilateralGap(int contact, const Eigen::VectorXd& q, double t) const
{
    tapes_->position.evaluate(inputs(t, q), out_.data());
    return out_[static_cast<std::size_t>(unilateralRow(contact))];
}

} // namespace clab
