#include "solve/EquationBreakdown.h"

#include "solve/ConstrainedAcceleration.h"
#include "solve/FundamentalEquation.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace clab {

namespace {

using Kind = ConstraintLabError::Kind;

constexpr const char* kOverflowHint =
    "a value overflowed or is not a number: the parameters or the state are probably of "
    "extreme size";

void requireSize(Eigen::Index size, Eigen::Index expected, const std::string& what)
{
    if (size != expected)
        throw ConstraintLabError(Kind::InvalidParameter,
                                 "the sample does not belong to this system: its " + what +
                                     " has " + std::to_string(size) + " entries, expected " +
                                     std::to_string(expected));
}

template <typename Derived>
void requireShape(const Eigen::DenseBase<Derived>& x, Eigen::Index rows, Eigen::Index cols,
                  const std::string& what)
{
    if (x.rows() != rows || x.cols() != cols)
        throw ConstraintLabError(Kind::InvalidParameter,
                                 "the system's " + what + " is " + std::to_string(x.rows()) + "×" +
                                     std::to_string(x.cols()) + ", expected " +
                                     std::to_string(rows) + "×" + std::to_string(cols));
}

template <typename Derived> void requireFinite(const Eigen::DenseBase<Derived>& x, const char* what)
{
    if (!x.allFinite())
        throw ConstraintLabError(Kind::NonFinite, std::string(what) + " is not finite",
                                 kOverflowHint);
}

double maxAbs(const Eigen::VectorXd& x)
{
    return x.size() > 0 ? x.lpNorm<Eigen::Infinity>() : 0.0;
}

} // namespace

EquationBreakdown::EquationBreakdown(const MechanicalSystem& system, const TraceSample& sample)
{
    // Recorded, not thrown: the panel shows the message next to what was formed before it.
    try {
        evaluate(system, sample);
    } catch (const ConstraintLabError& e) {
        error_ = e;
    }
}

void EquationBreakdown::readSample(const MechanicalSystem& system, const TraceSample& sample)
{
    const int n = system.dof();
    const int contacts = system.contactCount();
    t_ = sample.t;

    // The system's functions index q and q̇ without checks: sizes first.
    requireSize(sample.q.size(), n, "q");
    requireSize(sample.qd.size(), n, "q̇");
    requireSize(sample.qdd.size(), n, "q̈");
    requireSize(sample.Qci.size(), n, "Qᶜᵢ");
    requireSize(sample.Qcni.size(), n, "Qᶜₙᵢ");
    requireSize(sample.contacts.size(), contacts, "list of contact modes");
    if (!std::isfinite(sample.t))
        throw ConstraintLabError(Kind::NonFinite, "the sample's time t is not finite",
                                 kOverflowHint);
    requireFinite(sample.q, "the sample's q");
    requireFinite(sample.qd, "the sample's q̇");
    q_ = sample.q;
    qd_ = sample.qd;
    qdd_ = sample.qdd;
    Qcni_ = sample.Qcni;
    for (int c = 0; c < contacts; ++c)
        contacts_.push_back({system.contactName(c), sample.contacts[c] != 0.0});
}

void EquationBreakdown::evaluate(const MechanicalSystem& system, const TraceSample& sample)
{
    readSample(system, sample);
    const int n = system.dof();
    const int m = system.constraintCount();

    // Sized as the simulator sizes them: some systems write entries only.
    M_.setZero(n, n);
    Q_.setZero(n);
    A_.setZero(m, n);
    b_.setZero(m);
    system.massMatrix(q_, t_, M_);
    system.givenForce(q_, qd_, t_, Q_);
    system.constraintMatrix(q_, qd_, t_, A_, b_);
    requireShape(M_, n, n, "mass matrix M");
    requireShape(Q_, n, 1, "given force Q");
    requireShape(A_, m, n, "constraint matrix A");
    requireShape(b_, m, 1, "constraint right-hand side b");

    // The simulator's solver, set up as the simulator sets it up, so that λ and Qᶜᵢ are its own.
    FundamentalEquation equation(n, m);
    equation.setSingularMass(system.massMatrixIsSingular());
    ConstrainedAcceleration ideal;
    std::optional<ConstraintLabError> solveError;
    try {
        equation.solveIdeal(M_, Q_, A_, b_, ideal);
    } catch (const ConstraintLabError& e) {
        // Bad input (sizes, NaN) leaves nothing to explain; a solver verdict does (below).
        if (e.kind() == Kind::NonFinite || e.kind() == Kind::InvalidParameter)
            throw;
        solveError = e;
    }

    // Singular as the solver decided; after a failed solve, as far as M itself tells.
    Eigen::LLT<Eigen::MatrixXd> llt(M_);
    massSingular_ = solveError ? system.massMatrixIsSingular() || llt.info() != Eigen::Success
                               : equation.usedAuxiliary();
    if (!massSingular_ && llt.info() == Eigen::Success) {
        // K = Wᵀ W with W = L⁻¹ Aᵀ is symmetric by construction, as in the solver.
        a_ = llt.solve(Q_);
        violation_ = b_ - A_ * a_;
        const Eigen::MatrixXd W = llt.matrixL().solve(A_.transpose());
        K_ = W.transpose() * W;
        requireFinite(a_, "the unconstrained acceleration a = M⁻¹ Q");
        requireFinite(K_, "K = A M⁻¹ Aᵀ");
    }
    // Shown with a and K, which often say why (b − A a outside the range of K).
    if (solveError)
        throw *solveError;

    lambda_ = ideal.lambda;
    Qci_ = ideal.Qci;
    requireFinite(lambda_, "the multipliers λ");
    requireFinite(Qci_, "the ideal constraint force Qᶜᵢ");
    if (!sample.Qci.allFinite() || !qdd_.allFinite() || !Qcni_.allFinite())
        throw ConstraintLabError(Kind::NonFinite, "the sample's q̈, Qᶜᵢ or Qᶜₙᵢ is not finite",
                                 kOverflowHint);
    sampleQciDifference_ = maxAbs(Qci_ - sample.Qci);
    balance();
}

void EquationBreakdown::balance()
{
    const Eigen::VectorXd inertia = M_ * qdd_;
    const Eigen::VectorXd residual = inertia - Q_ - Qci_ - Qcni_;
    requireFinite(residual, "the balance M q̈ − Q − Qᶜᵢ − Qᶜₙᵢ");
    residual_ = residual;
    residualMax_ = maxAbs(residual_);
    // Against the largest term: where forces cancel (a body at rest on its constraint) the
    // residual is rounding of those terms, not of their zero sum.
    const double scale = std::max({maxAbs(inertia), maxAbs(Q_), maxAbs(Qci_), maxAbs(Qcni_)});
    residualRelative_ = scale > 0.0 ? residualMax_ / scale : 0.0;
}

} // namespace clab
