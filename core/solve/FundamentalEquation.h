#pragma once

#include "solve/ConstrainedAcceleration.h"
#include "solve/FixedSizeFundamentalEquation.h"

#include <Eigen/Dense>

#include <memory>
#include <optional>

namespace clab {

/// \brief Settings of the auxiliary system used when M is singular (docs/MATH.md §4).
struct AuxiliarySettings {
    double alpha = 1.0;               ///< α ≠ 0
    std::optional<Eigen::MatrixXd> G; ///< m×m positive definite; identity when empty
    std::optional<Eigen::VectorXd> z; ///< m-vector; α² b when empty
};

/// \brief Solves the Udwadia–Kalaba fundamental equation with the square-root-free form.
///
/// Holds the workspace for one problem size so that repeated solves do not allocate.
/// Solving happens in two phases because Coulomb friction C depends on the ideal force:
/// `solveIdeal` factorizes M and finds q̈ and Qᶜᵢ for ideal constraints, then
/// `addNonIdeal` adds the non-ideal part for a given C, reusing the factorization.
///
/// A diagonal M (detected by its zero off-diagonal entries) is inverted entry by entry, and a
/// single constraint (m = 1) makes K a scalar, so point-mass scenes need no factorization.
/// A q̈ that misses A q̈ = b although M passed its pivot test (a semi-definite M whose rounding
/// looks like a pivot, or an inconsistent b hidden by rounding in K) is recomputed with the
/// auxiliary system, which then succeeds or reports the error.
///
/// Sizes n ≤ 6, 1 ≤ m ≤ 3 first try FixedSizeFundamentalEquation, the same algorithm unrolled
/// for the size; whatever it does not cover (a failed pivot test, a singular or ill-conditioned
/// K, missed constraints) is decided here as before.
///
/// When M is singular (detected, declared with setSingularMass, or forced by setAuxiliary)
/// the auxiliary system M + α² Aᵀ G A of docs/MATH.md §4 is solved; the reported Qᶜᵢ and Qᶜₙᵢ are
/// then those of the true system (M q̈ − Q split into its ideal and non-ideal parts) and λ
/// holds the auxiliary multipliers.
class FundamentalEquation {
public:
    FundamentalEquation(int n, int m);

    int dof() const { return n_; }
    int constraintCount() const { return m_; }

    /// Forces the auxiliary system of docs/MATH.md §4 even when M is positive definite.
    /// Throws ConstraintLabError(InvalidParameter) when α is zero or non-finite, G is not an
    /// m×m symmetric positive definite matrix, or z is not a finite m-vector.
    void setAuxiliary(const AuxiliarySettings& settings);
    const AuxiliarySettings& auxiliary() const { return aux_; }

    /// Declares M singular by construction (MechanicalSystem::massMatrixIsSingular), so the
    /// auxiliary system is used without first trying to factorize M.
    void setSingularMass(bool singular) { singularMass_ = singular; }
    bool singularMass() const { return singularMass_; }

    /// Relative tolerance for rank decisions (pivots of K and of the Cholesky factors of M and
    /// of M + α² Aᵀ G A, which is positive definite exactly when rank [M; A] = n); b counts as
    /// inconsistent when the residual of K λ = b − A a exceeds √tol of the scale of its terms.
    /// Throws InvalidParameter unless 0 < tol < 1.
    void setTolerance(double tol);
    double tolerance() const { return tol_; }

    /// The absolute rounding already in b (a projection's b = −φ(q) is evaluated to a few ulps
    /// of the terms of φ): a part of b outside the range of A no larger than this is rounding,
    /// not a contradiction, when redundant constraints make K singular. 0 (the default) for
    /// the equations of motion. Throws InvalidParameter unless finite and ≥ 0.
    void setRightHandSideRounding(double rounding);

    /// Phase 1: q̈, Qᶜᵢ and λ for ideal constraints; Qᶜₙᵢ is set to zero.
    /// Throws ConstraintLabError (NonFinite, SingularMass, InconsistentConstraints, or
    /// InvalidParameter for wrongly sized inputs).
    void solveIdeal(const Eigen::MatrixXd& M, const Eigen::VectorXd& Q, const Eigen::MatrixXd& A,
                    const Eigen::VectorXd& b, ConstrainedAcceleration& out);

    /// Phase 2: adds Qᶜₙᵢ = C − Aᵀ K⁺ A M⁻¹ C (true-system value when M is singular) and its
    /// acceleration to `out`. Must follow solveIdeal with the same M and A.
    void addNonIdeal(const Eigen::VectorXd& C, ConstrainedAcceleration& out);

    /// Both phases with a C that does not depend on Qᶜᵢ.
    void solve(const Eigen::MatrixXd& M, const Eigen::VectorXd& Q, const Eigen::MatrixXd& A,
               const Eigen::VectorXd& b, const Eigen::VectorXd& C, ConstrainedAcceleration& out);

    /// True when the last solveIdeal used the auxiliary system.
    bool usedAuxiliary() const { return usedAux_; }

    /// Whether sizes up to FixedSizeFundamentalEquation's (n ≤ 6, 1 ≤ m ≤ 3) take its fast path
    /// (on by default; off only to compare the two paths).
    void setFixedSizePath(bool enabled) { useFixed_ = enabled; }
    /// True when the last successful solveIdeal was the fixed-size fast path's.
    bool usedFixedSizePath() const { return idealSolved_ && fixedSolved_; }

private:
    void checkIdealInputs(const Eigen::MatrixXd& M, const Eigen::VectorXd& Q,
                          const Eigen::MatrixXd& A, const Eigen::VectorXd& b,
                          const char* where) const;
    void solveAuxiliary(const Eigen::MatrixXd& M, const Eigen::VectorXd& Q,
                        const Eigen::MatrixXd& A, const Eigen::VectorXd& b, bool massRegular,
                        ConstrainedAcceleration& out, const char* where);
    void formAuxiliary(const Eigen::MatrixXd& M, const Eigen::VectorXd& Q, const Eigen::MatrixXd& A,
                       const Eigen::VectorXd& b);
    void idealPhase(const Eigen::VectorXd& Qeff, const Eigen::MatrixXd& A, const Eigen::VectorXd& b,
                    ConstrainedAcceleration& out);
    bool constraintsHold(const Eigen::MatrixXd& M, const Eigen::VectorXd& Q,
                         const Eigen::MatrixXd& A, const Eigen::VectorXd& b,
                         const Eigen::VectorXd& qdd) const;

    int n_;
    int m_;
    double tol_ = 1e-10;
    double sqrtTol_ = 1e-5; // √tol_, the consistency threshold
    double rhsRounding_ = 0.0;
    bool forceAux_ = false;
    bool singularMass_ = false;
    bool usedAux_ = false;
    bool idealSolved_ = false;
    bool useFixed_ = true;
    bool fixedSolved_ = false;
    AuxiliarySettings aux_;
    std::unique_ptr<FixedSizeFundamentalEquation> fixed_; // null outside its sizes
    // Implementation-owned workspace (factorizations, M, A copies); see the .cpp.
    struct Workspace;
    struct WorkspaceDeleter {
        void operator()(Workspace* w) const;
    };
    std::unique_ptr<Workspace, WorkspaceDeleter> ws_;
};

} // namespace clab
