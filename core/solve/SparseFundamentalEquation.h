#pragma once

#include "solve/ConstrainedAcceleration.h"

#include <Eigen/Dense>
#include <Eigen/SparseCore>

#include <memory>

namespace clab {

/// \brief The fundamental equation for large systems with sparse M and A (docs/MATH.md §10).
///
/// Gives the same q̈, Qᶜᵢ, Qᶜₙᵢ and minimum-norm λ as FundamentalEquation, in time linear in the
/// size for chains and trees: K = A M⁻¹ Aᵀ is formed sparse (entry by entry for a diagonal M,
/// otherwise through a sparse Cholesky factor of M) and factorized by a sparse LDLᵀ whose symbolic
/// analysis (fill-reducing ordering, elimination tree) is kept while the patterns of M and A do
/// not change. M must be positive definite (no auxiliary system here: the simulator keeps
/// systems with a singular M on the dense path).
///
/// Redundant constraints (a closed loop) make K singular. A pivot of the LDLᵀ that vanishes
/// against its diagonal entry marks its row as dependent on the rows before it; that row is set
/// aside (its row and column of K replaced by the identity, so the symbolic analysis still fits)
/// and K refactorized, until no pivot vanishes. The rows kept give one solution of K λ = r; the
/// d rows set aside give a basis N of the null space of K, and projecting that solution
/// orthogonally to N gives the minimum-norm λ = K⁺ r exactly, at the cost of d extra sparse
/// solves and a d×d system (lastMethod() says which was used).
class SparseFundamentalEquation {
public:
    using SparseMatrix = Eigen::SparseMatrix<double>;

    /// How the last solveIdeal solved K λ = r.
    enum class Method {
        Cholesky,          ///< K positive definite: one sparse LDLᵀ
        NullSpaceProjected ///< K singular: LDLᵀ of the independent rows, then λ projected to K⁺ r
    };

    SparseFundamentalEquation(int n, int m);
    ~SparseFundamentalEquation();

    int dof() const { return n_; }
    int constraintCount() const { return m_; }

    /// Relative tolerance of the rank decisions (pivots of M and K against their diagonal
    /// entries); b counts as inconsistent when the residual of K λ = b − A a exceeds √tol of the
    /// scale of its terms, as in FundamentalEquation. Throws InvalidParameter unless 0 < tol < 1.
    void setTolerance(double tol);
    double tolerance() const { return tol_; }
    /// As FundamentalEquation::setRightHandSideRounding.
    void setRightHandSideRounding(double rounding);

    /// Phase 1: q̈, Qᶜᵢ = Aᵀ λ and λ for ideal constraints; Qᶜₙᵢ is set to zero. Throws
    /// ConstraintLabError (NonFinite, SingularMass, InconsistentConstraints, or InvalidParameter
    /// for wrongly sized inputs).
    void solveIdeal(const SparseMatrix& M, const Eigen::VectorXd& Q, const SparseMatrix& A,
                    const Eigen::VectorXd& b, ConstrainedAcceleration& out);
    /// Phase 2: adds Qᶜₙᵢ = C − Aᵀ K⁺ A M⁻¹ C and its acceleration. Must follow solveIdeal.
    void addNonIdeal(const Eigen::VectorXd& C, ConstrainedAcceleration& out);
    /// Both phases with a C that does not depend on Qᶜᵢ.
    void solve(const SparseMatrix& M, const Eigen::VectorXd& Q, const SparseMatrix& A,
               const Eigen::VectorXd& b, const Eigen::VectorXd& C, ConstrainedAcceleration& out);

    Method lastMethod() const { return method_; }
    /// Number of constraint rows found redundant by the last solveIdeal (m − rank K).
    int redundantCount() const;
    /// How often the symbolic analysis of K was (re)done; it stays at 1 while the pattern holds.
    int symbolicAnalyses() const { return analyses_; }

    /// Whether a system of n coordinates is better served by this path than the dense one
    /// (measured with bench_SparseFundamentalEquation; docs/BENCHMARKS.md "Large systems").
    static bool pays(int n) { return n >= kSparseFrom; }
    static constexpr int kSparseFrom = 20;

private:
    // The steps of solveIdeal, in order.
    /// Sizes and finiteness of M, Q, A and b.
    void checkInputs(const SparseMatrix& M, const Eigen::VectorXd& Q, const SparseMatrix& A,
                     const Eigen::VectorXd& b) const;
    /// M's diagonal inverse, or its sparse LDLᵀ factor; throws SingularMass.
    void factorMass(const SparseMatrix& M);
    /// K = A M⁻¹ Aᵀ factored, rows whose pivot vanishes set aside with the null space of K.
    void factorK(const SparseMatrix& A);
    /// Throws InconsistentConstraints when K λ = b − A a leaves a residual (b not in range A).
    void requireConsistent(const Eigen::VectorXd& b);

    int n_, m_;
    double tol_ = 1e-10;
    double sqrtTol_ = 1e-5;
    double rhsRounding_ = 0.0;
    Method method_ = Method::Cholesky;
    int analyses_ = 0;
    bool idealSolved_ = false;
    struct Workspace;
    std::unique_ptr<Workspace> ws_;
};

} // namespace clab
