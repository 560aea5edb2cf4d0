#include "symbolic/SymbolicSystem.h"

#include "model/ConstraintLabError.h"
#include "symbolic/SymbolicTapes.h"
#include "symbolic/SystemStartCheck.h"

#include <Eigen/SparseCholesky>

#include <cmath>
#include <sstream>

namespace clab {

namespace {

std::string number(double value)
{
    return ConstraintLabError::number(value);
}

[[noreturn]] void invalidStart(const std::string& message)
{
    throw ConstraintLabError(ConstraintLabError::Kind::InvalidInitialState, message);
}

} // namespace

SymbolicSystem::SymbolicSystem(std::shared_ptr<const SymbolicModel> model,
                               const ParameterValues& values)
    : model_(std::move(model))
{
    if (!model_)
        throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter,
                                 "the system's description is no longer loaded");
    const SymbolicModel& m = *model_;
    tapes_ = std::make_unique<SymbolicModel::Tapes>(m.tapes());
    n_ = m.dof();
    m_ = m.constraintCount();
    h_ = m.holonomicCount();

    const std::vector<double> p = m.parameterVector(values);
    for (ExpressionTape* tape : tapes_->all())
        tape->setFixed(p.data());

    int offset = 0;
    for (const SymbolicModel::Contact& c : m.contacts()) {
        contactOffsets_.push_back(offset);
        offset += c.dimension * n_ + c.dimension + 2;
    }
    std::size_t largest = 0;
    for (const ExpressionTape* tape : tapes_->all())
        largest = std::max(largest, static_cast<std::size_t>(tape->outputCount()));
    out_.assign(largest, 0.0);
    in_.assign(static_cast<std::size_t>(1 + 2 * n_ + m_), 0.0);
    b_.resize(m_);
    lambda_.resize(m_);
    rowForce_.resize(m_);
    nInputs_.resize(m_);
    Q_.resize(n_);
    idealOut_.resize(n_, m_);
    // One-sided contacts are solved on the dense path (their complementarity problem is dense).
    sparse_ = m.unilaterals().empty() && constantDefiniteMass();

    // Initial state: the given values, then the rest from the constraints.
    q0_ = Eigen::VectorXd::Zero(n_);
    qd0_ = Eigen::VectorXd::Zero(n_);
    std::vector<bool> given(static_cast<std::size_t>(2 * n_), false);
    tapes_->initial.evaluate(nullptr, out_.data());
    const std::vector<int>& slots = m.initialSlots();
    for (std::size_t i = 0; i < slots.size(); ++i) {
        const int slot = slots[i];
        if (!std::isfinite(out_[i]))
            invalidStart("system.initial." + m.description().initial[i].name +
                         ": the value is not finite for these parameters");
        (slot < n_ ? q0_[slot] : qd0_[slot - n_]) = out_[i];
        given[static_cast<std::size_t>(slot)] = true;
    }
    readRestitutions(out_.data() + slots.size());
    // One-sided contacts do not take part in completing the start: a body may start off them.
    open_.assign(m.unilaterals().size(), 1);
    completeInitialState(given);
    Eigen::MatrixXd M0(n_, n_);
    massMatrix(q0_, 0.0, M0);
    SystemStartCheck::check(m, p, q0_, qd0_, M0);
    checkUnilateralStart();
}

SymbolicSystem::~SymbolicSystem() = default;

namespace {

/// Which of the n coordinates (offset 0) or velocities (offset n) the file left out.
std::vector<int> leftOut(const std::vector<bool>& given, int n, int offset)
{
    std::vector<int> out;
    for (int i = 0; i < n; ++i)
        if (!given[static_cast<std::size_t>(offset + i)])
            out.push_back(i);
    return out;
}

/// The columns `columns` of M.
Eigen::MatrixXd columnsOf(const Eigen::MatrixXd& M, const std::vector<int>& columns)
{
    Eigen::MatrixXd out(M.rows(), static_cast<Eigen::Index>(columns.size()));
    for (std::size_t k = 0; k < columns.size(); ++k)
        out.col(static_cast<Eigen::Index>(k)) = M.col(columns[k]);
    return out;
}

} // namespace

bool SymbolicSystem::constantDefiniteMass() const
{
    if (tapes_->mass.instructionCount() > 0)
        return false;
    SparseMatrix M;
    sparseMassMatrix(Eigen::VectorXd::Zero(n_), 0.0, M);
    Eigen::SimplicialLDLT<SparseMatrix> ldlt(M);
    return ldlt.info() == Eigen::Success && (ldlt.vectorD().array() > 0.0).all();
}

std::string SymbolicSystem::constraintLabel(int row) const
{
    const std::string& name = model_->rowNames()[static_cast<std::size_t>(row)];
    return name.empty() ? "constraint " + std::to_string(row + 1) : "'" + name + "'";
}

std::string SymbolicSystem::leftOutNames(const std::vector<bool>& given, bool velocities) const
{
    std::string out;
    for (int i : leftOut(given, n_, velocities ? n_ : 0))
        out += (out.empty() ? "" : ", ") +
               model_->description().coordinates[static_cast<std::size_t>(i)].name +
               (velocities ? "_dot" : "");
    return out.empty() ? std::string("none") : out;
}

void SymbolicSystem::completeInitialState(const std::vector<bool>& given)
{
    if (h_ > 0)
        completePositions(given);
    if (m_ > 0)
        completeVelocities(given);
    // Report what the constraints determined (values left out and still 0 were not needed).
    const auto& names = model_->description().coordinates;
    for (int i = 0; i < 2 * n_; ++i) {
        const bool velocity = i >= n_;
        const int c = velocity ? i - n_ : i;
        const double value = velocity ? qd0_[c] : q0_[c];
        const bool computed = velocity ? m_ > 0 : h_ > 0;
        if (computed && !given[static_cast<std::size_t>(i)] && value != 0.0)
            notes_.push_back(names[static_cast<std::size_t>(c)].name + (velocity ? "_dot" : "") +
                             " = " + number(value) + " (from the constraints)");
    }
}

void SymbolicSystem::completePositions(const std::vector<bool>& given)
{
    // Newton's method on φ(q, 0) = 0 over the coordinates left out, minimum-norm steps.
    const std::vector<int> free = leftOut(given, n_, 0);
    Eigen::VectorXd phi(h_);
    SparseMatrix sparseJ;
    const double scale = 1.0 + q0_.lpNorm<Eigen::Infinity>();
    // φ alone first (sparse): a start that holds already needs no dense n-column Jacobian.
    sparsePositionConstraints(q0_, 0.0, phi, sparseJ);
    const bool holds = phi.allFinite() && phi.lpNorm<Eigen::Infinity>() <= 1e-14 * scale;
    Eigen::MatrixXd J(holds || free.empty() ? 0 : h_, holds || free.empty() ? 0 : n_);
    bool nudged = false;
    for (int iteration = 0; iteration < 60 && J.size() > 0; ++iteration) {
        positionConstraints(q0_, 0.0, phi, J);
        if (!phi.allFinite())
            invalidStart("the constraints are not finite at the initial values");
        if (phi.lpNorm<Eigen::Infinity>() <= 1e-14 * scale || free.empty())
            break;
        const Eigen::MatrixXd Jf = columnsOf(J, free);
        if (Jf.lpNorm<Eigen::Infinity>() == 0.0 && !nudged) {
            // Flat at 0 (x² + y² = l² at y = 0): start just below, for the hanging root.
            for (int i : free)
                q0_[i] -= 1e-3 * scale;
            nudged = true;
            continue;
        }
        const Eigen::VectorXd step = Jf.completeOrthogonalDecomposition().solve(phi);
        for (std::size_t k = 0; k < free.size(); ++k)
            q0_[free[k]] -= step[static_cast<Eigen::Index>(k)];
    }
    sparsePositionConstraints(q0_, 0.0, phi, sparseJ);
    if (!phi.allFinite())
        invalidStart("the constraints are not finite at the initial values");
    for (int r = 0; r < h_; ++r)
        if (!(std::abs(phi[r]) <= 1e-9 * scale)) {
            std::ostringstream message;
            message << "system.initial: the initial values violate " << constraintLabel(r)
                    << " (its value is " << number(phi[r]) << ", not 0); the coordinates "
                    << "left out (" << leftOutNames(given, false) << ") cannot make up for it. "
                    << "Leave out a coordinate this constraint determines, or correct the values";
            invalidStart(message.str());
        }
}

void SymbolicSystem::completeVelocities(const std::vector<bool>& given)
{
    // The smallest change of the velocities left out that satisfies Av q̇ = bv.
    const std::vector<int> free = leftOut(given, n_, n_);
    SparseMatrix Av;
    Eigen::VectorXd bv(m_);
    sparseVelocityConstraints(q0_, 0.0, Av, bv);
    Eigen::VectorXd r = Av * qd0_ - bv;
    // Already satisfied (at rest under scleronomic constraints): the smallest change is none,
    // and a large chain is spared a dense factorization.
    if (!free.empty() && !r.isZero(0.0)) {
        const Eigen::VectorXd step =
            columnsOf(Eigen::MatrixXd(Av), free).completeOrthogonalDecomposition().solve(r);
        for (std::size_t k = 0; k < free.size(); ++k)
            qd0_[free[k]] -= step[static_cast<Eigen::Index>(k)];
        r = Av * qd0_ - bv;
    }
    const double largest = Av.nonZeros() > 0 ? Av.coeffs().cwiseAbs().maxCoeff() : 0.0;
    const double scale =
        (1.0 + qd0_.lpNorm<Eigen::Infinity>()) * (1.0 + largest + bv.lpNorm<Eigen::Infinity>());
    for (int row = 0; row < m_; ++row)
        if (!(std::abs(r[row]) <= 1e-9 * scale)) {
            std::ostringstream message;
            message << "system.initial: the initial velocities violate " << constraintLabel(row)
                    << " (its rate is " << number(r[row]) << ", not 0); the velocities "
                    << "left out (" << leftOutNames(given, true) << ") cannot make up for it";
            invalidStart(message.str());
        }
}

std::vector<std::string> SymbolicSystem::coordinateNames() const
{
    std::vector<std::string> out;
    for (const auto& c : model_->description().coordinates)
        out.push_back(c.name);
    return out;
}

std::string SymbolicSystem::coordinateUnit(int i) const
{
    return model_->description().coordinates[static_cast<std::size_t>(i)].unit;
}

const double* SymbolicSystem::inputs(double t, const Eigen::VectorXd& q) const
{
    in_[0] = t;
    for (int i = 0; i < n_; ++i)
        in_[static_cast<std::size_t>(1 + i)] = q[i];
    return in_.data();
}

const double* SymbolicSystem::inputs(double t, const Eigen::VectorXd& q,
                                     const Eigen::VectorXd& qd) const
{
    inputs(t, q);
    for (int i = 0; i < n_; ++i)
        in_[static_cast<std::size_t>(1 + n_ + i)] = qd[i];
    return in_.data();
}

void SymbolicSystem::massMatrix(const Eigen::VectorXd& q, double t, Eigen::MatrixXd& M) const
{
    M.resize(n_, n_);
    tapes_->mass.evaluate(inputs(t, q), out_.data());
    tapes_->massPattern.scatter(out_.data(), M);
}

void SymbolicSystem::sparseMassMatrix(const Eigen::VectorXd& q, double t, SparseMatrix& M) const
{
    tapes_->mass.evaluate(inputs(t, q), out_.data());
    tapes_->massPattern.fill(out_.data(), M);
}

void SymbolicSystem::givenForce(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                                Eigen::VectorXd& Q) const
{
    Q.resize(n_);
    tapes_->force.evaluate(inputs(t, q, qd), Q.data());
}

void SymbolicSystem::constraintMatrix(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                                      Eigen::MatrixXd& A, Eigen::VectorXd& b) const
{
    A.resize(m_, n_);
    b.resize(m_);
    tapes_->constraint.evaluate(inputs(t, q, qd), out_.data());
    tapes_->constraintPattern.scatter(out_.data(), A);
    const int size = tapes_->constraintPattern.nonZeros();
    std::copy(out_.begin() + size, out_.begin() + size + m_, b.data());
    zeroOpenRows(A, b);
}

void SymbolicSystem::sparseConstraintMatrix(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                            double t, SparseMatrix& A, Eigen::VectorXd& b) const
{
    b.resize(m_);
    tapes_->constraint.evaluate(inputs(t, q, qd), out_.data());
    tapes_->constraintPattern.fill(out_.data(), A);
    const int size = tapes_->constraintPattern.nonZeros();
    std::copy(out_.begin() + size, out_.begin() + size + m_, b.data());
    zeroOpenRows(A, b);
}

void SymbolicSystem::rowForces(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                               const Eigen::VectorXd& Qci) const
{
    if (At_.rows() != n_) {
        At_.resize(n_, m_);
        cod_ = Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd>(n_, m_);
    }
    constraintMatrix(q, qd, t, A_, b_);
    At_ = A_.transpose();
    cod_.compute(At_);
    lambda_ = cod_.solve(Qci);
    for (int r = 0; r < m_; ++r)
        rowForce_[r] = std::abs(lambda_[r]) * A_.row(r).norm();
}

void SymbolicSystem::nonIdealForce(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                                   const Eigen::VectorXd& Qci, Eigen::VectorXd& C) const
{
    C.resize(n_);
    if (!model_->hasNonIdeal()) {
        C.setZero();
        return;
    }
    if (m_ > 0)
        rowForces(q, qd, t, Qci);
    inputs(t, q, qd);
    for (int r = 0; r < m_; ++r)
        in_[static_cast<std::size_t>(1 + 2 * n_ + r)] = rowForce_[r];
    tapes_->nonideal.evaluate(in_.data(), C.data());
}

void SymbolicSystem::constraintResiduals(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                         double t, Eigen::VectorXd& r) const
{
    r.resize(residualCount());
    tapes_->residual.evaluate(inputs(t, q, qd), r.data());
    for (std::size_t k = 0; k < open_.size(); ++k)
        if (open_[k])
            r.segment(2 * model_->unilaterals()[k].row, 2).setZero(); // φ and φ̇ of that row
}

double SymbolicSystem::kineticEnergy(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                     double t) const
{
    tapes_->energy.evaluate(inputs(t, q, qd), out_.data());
    return out_[0];
}

double SymbolicSystem::potentialEnergy(const Eigen::VectorXd& q, double t) const
{
    inputs(t, q);
    std::fill(in_.begin() + 1 + n_, in_.begin() + 1 + 2 * n_, 0.0);
    tapes_->energy.evaluate(in_.data(), out_.data());
    return out_[1];
}

double SymbolicSystem::nonConservativePower(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                            double t) const
{
    tapes_->energy.evaluate(inputs(t, q, qd), out_.data());
    return out_[2];
}

void SymbolicSystem::initialState(Eigen::VectorXd& q0, Eigen::VectorXd& qd0) const
{
    q0 = q0_;
    qd0 = qd0_;
}

void SymbolicSystem::positionConstraints(const Eigen::VectorXd& q, double t,
                                         Eigen::Ref<Eigen::VectorXd> phi,
                                         Eigen::Ref<Eigen::MatrixXd> J) const
{
    tapes_->position.evaluate(inputs(t, q), out_.data());
    for (int r = 0; r < h_; ++r)
        phi[r] = out_[static_cast<std::size_t>(r)];
    tapes_->positionPattern.scatter(out_.data() + h_, J);
    zeroOpenRows(J, phi);
}

void SymbolicSystem::sparsePositionConstraints(const Eigen::VectorXd& q, double t,
                                               Eigen::VectorXd& phi, SparseMatrix& J) const
{
    phi.resize(h_);
    tapes_->position.evaluate(inputs(t, q), out_.data());
    std::copy(out_.begin(), out_.begin() + h_, phi.data());
    tapes_->positionPattern.fill(out_.data() + h_, J);
    zeroOpenRows(J, phi);
}

void SymbolicSystem::velocityConstraints(const Eigen::VectorXd& q, double t,
                                         Eigen::Ref<Eigen::MatrixXd> Av,
                                         Eigen::Ref<Eigen::VectorXd> bv) const
{
    tapes_->velocity.evaluate(inputs(t, q), out_.data());
    tapes_->constraintPattern.scatter(out_.data(), Av);
    const int size = tapes_->constraintPattern.nonZeros();
    for (int r = 0; r < m_; ++r)
        bv[r] = out_[static_cast<std::size_t>(size + r)];
    zeroOpenRows(Av, bv);
}

void SymbolicSystem::sparseVelocityConstraints(const Eigen::VectorXd& q, double t, SparseMatrix& Av,
                                               Eigen::VectorXd& bv) const
{
    bv.resize(m_);
    tapes_->velocity.evaluate(inputs(t, q), out_.data());
    tapes_->constraintPattern.fill(out_.data(), Av);
    const int size = tapes_->constraintPattern.nonZeros();
    std::copy(out_.begin() + size, out_.begin() + size + m_, bv.data());
    zeroOpenRows(Av, bv);
}

std::string SymbolicSystem::contactName(int contact) const
{
    return model_->contacts()[static_cast<std::size_t>(contact)].name;
}

int SymbolicSystem::slipDimension(int contact) const
{
    return model_->contacts()[static_cast<std::size_t>(contact)].dimension;
}

void SymbolicSystem::slipJacobian(int contact, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                  double t, Eigen::Ref<Eigen::MatrixXd> G,
                                  Eigen::Ref<Eigen::VectorXd> gamma) const
{
    tapes_->contact.evaluate(inputs(t, q, qd), out_.data());
    const int k = slipDimension(contact);
    const double* o = out_.data() + contactOffset(contact);
    for (int j = 0; j < n_; ++j)
        for (int r = 0; r < k; ++r)
            G(r, j) = o[j * k + r];
    for (int r = 0; r < k; ++r)
        gamma[r] = o[k * n_ + r];
    if (k > 1) {
        // Orthonormal rows with the same span and orientation: G ← L⁻¹G for G Gᵀ = L Lᵀ; γ is
        // transformed alike (exact while the contact is stuck, where G q̇ = 0).
        gram_.compute(G * G.transpose());
        gram_.matrixL().solveInPlace(G);
        gram_.matrixL().solveInPlace(gamma);
    }
}

double SymbolicSystem::frictionSize(int contact, const Eigen::VectorXd& q,
                                    const Eigen::VectorXd& qd, double t, const Eigen::VectorXd& Qci,
                                    bool limit) const
{
    const SymbolicModel::Contact& c = model_->contacts()[static_cast<std::size_t>(contact)];
    tapes_->contact.evaluate(inputs(t, q, qd), out_.data());
    const int k = c.dimension;
    const double coefficient =
        out_[static_cast<std::size_t>(contactOffset(contact) + k * n_ + k + (limit ? 1 : 0))];
    if (!c.coulomb)
        return coefficient;
    double normal = 0.0;
    if (c.allConstraints) {
        normal = Qci.norm();
    } else {
        // Only some constraints press this contact: their part of Qᶜᵢ = Aᵀλ.
        rowForces(q, qd, t, Qci);
        Q_.setZero();
        for (int r : c.normalRows)
            Q_ += lambda_[r] * A_.row(r).transpose();
        normal = Q_.norm();
    }
    return coefficient * normal;
}

double SymbolicSystem::kineticFrictionForce(int contact, const Eigen::VectorXd& q,
                                            const Eigen::VectorXd& qd, double t,
                                            const Eigen::VectorXd& Qci) const
{
    return frictionSize(contact, q, qd, t, Qci, false);
}

double SymbolicSystem::stickForceLimit(int contact, const Eigen::VectorXd& q,
                                       const Eigen::VectorXd& qd, double t,
                                       const Eigen::VectorXd& Qci) const
{
    return frictionSize(contact, q, qd, t, Qci, true);
}

double SymbolicSystem::endFunction(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                   double t) const
{
    tapes_->columns.evaluate(inputs(t, q, qd), out_.data());
    return out_[static_cast<std::size_t>(model_->userColumnCount())];
}

std::string SymbolicSystem::extraColumnUnit(int i) const
{
    return model_->columnUnits()[static_cast<std::size_t>(i)];
}

void SymbolicSystem::extraColumns(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                                  Eigen::VectorXd& values) const
{
    const int named = static_cast<int>(model_->columnNames().size()) - model_->userColumnCount();
    values.resize(static_cast<int>(model_->columnNames().size()));
    if (named > 0) {
        // N_<name>: the size of each named constraint's ideal force, from the ideal solve.
        idealSolve(q, qd, t);
        int column = 0;
        for (int r = 0; r < m_; ++r)
            if (!model_->rowNames()[static_cast<std::size_t>(r)].empty())
                values[column++] = std::abs(idealOut_.lambda[r]) * rowNorms_[r];
    }
    tapes_->columns.evaluate(inputs(t, q, qd), out_.data());
    for (int i = 0; i < model_->userColumnCount(); ++i)
        values[named + i] = out_[static_cast<std::size_t>(i)];
}

void SymbolicSystem::idealSolve(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t) const
{
    givenForce(q, qd, t, Q_);
    rowNorms_.resize(m_);
    if (sparse_ && SparseFundamentalEquation::pays(n_)) {
        // As the simulator's sparse path: no n×n work for a large system.
        if (!sparseIdeal_)
            sparseIdeal_ = std::make_unique<SparseFundamentalEquation>(n_, m_);
        sparseMassMatrix(q, t, sparseM_);
        sparseConstraintMatrix(q, qd, t, sparseA_, b_);
        sparseIdeal_->solveIdeal(sparseM_, Q_, sparseA_, b_, idealOut_);
        rowNorms_.setZero();
        for (int j = 0; j < sparseA_.outerSize(); ++j)
            for (SparseMatrix::InnerIterator it(sparseA_, j); it; ++it)
                rowNorms_[it.row()] += it.value() * it.value();
        rowNorms_ = rowNorms_.cwiseSqrt();
        return;
    }
    if (!ideal_)
        ideal_ = std::make_unique<FundamentalEquation>(n_, m_);
    massMatrix(q, t, M_);
    constraintMatrix(q, qd, t, A_, b_);
    ideal_->solveIdeal(M_, Q_, A_, b_, idealOut_);
    rowNorms_ = A_.rowwise().norm();
}

} // namespace clab
