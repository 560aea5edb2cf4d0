#pragma once

#include "scenes/SceneDefinition.h"
#include "scenes/PlanarBobs.h"

namespace clab {

/// \brief A chain of N rigid massless links with a point mass at the end of each, in a vertical
/// plane under gravity (docs/MATH.md §5, §10).
///
/// Bob i (1…N) is q = (xᵢ, yᵢ); link i joins bob i − 1 to bob i, bob 0 being the fixed pivot at
/// the origin. φᵢ = (|dᵢ|² − ℓ²) / (2ℓ) with dᵢ = pᵢ − pᵢ₋₁, so a row of A is ±dᵢ/ℓ on the two
/// bobs it joins and bᵢ = −|ḋᵢ|²/ℓ. With `pinned` = 2 the last bob is held at (span, 0) too
/// (two more rows). M = (mass / N) I. Every matrix is supplied sparse with a fixed pattern, so
/// large chains take the sparse path of the simulator.
///
/// Initial state: with one pinned end the chain lies straight along +x (released from horizontal),
/// turning rigidly at `omega0` about the pivot; with two, at rest,, it hangs as a symmetric V
/// between (0, 0) and (span, 0), span = length/2 (for odd N the middle link is horizontal).
class Chain : public PlanarBobs {
public:
    /// From complete, validated values; throws InvalidParameter when `links` is not a whole
    /// number or a chain pinned at both ends has fewer than 2 links.
    explicit Chain(const ParameterValues& values);

    static SceneDefinition definition();

    int links() const { return bobs(); }
    double linkLength() const { return ell_; }
    int pinnedEnds() const { return pinned_; }
    /// Where the second pivot is (pinned = 2).
    double span() const { return span_; }

    int constraintCount() const override { return bobs() + (pinned_ == 2 ? 2 : 0); }

    void constraintMatrix(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                          Eigen::MatrixXd& A, Eigen::VectorXd& b) const override;

    int residualCount() const override { return 2 * constraintCount(); }
    void constraintResiduals(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                             Eigen::VectorXd& r) const override;

    void initialState(Eigen::VectorXd& q0, Eigen::VectorXd& qd0) const override;

    int holonomicCount() const override { return constraintCount(); }
    bool providesConstraintFunctions() const override { return true; }
    void positionConstraints(const Eigen::VectorXd& q, double t, Eigen::Ref<Eigen::VectorXd> phi,
                             Eigen::Ref<Eigen::MatrixXd> J) const override;
    void velocityConstraints(const Eigen::VectorXd& q, double t, Eigen::Ref<Eigen::MatrixXd> Av,
                             Eigen::Ref<Eigen::VectorXd> bv) const override;

    bool providesSparseMatrices() const override { return true; }
    void sparseConstraintMatrix(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                                SparseMatrix& A, Eigen::VectorXd& b) const override;
    void sparsePositionConstraints(const Eigen::VectorXd& q, double t, Eigen::VectorXd& phi,
                                   SparseMatrix& J) const override;
    void sparseVelocityConstraints(const Eigen::VectorXd& q, double t, SparseMatrix& Av,
                                   Eigen::VectorXd& bv) const override;

private:
    /// J = ∂φ/∂q (also A and A_v): values written into J's pattern, which is built on the first
    /// call, so that later calls neither allocate nor change the pattern.
    void jacobian(const Eigen::VectorXd& q, SparseMatrix& J) const;
    /// φ (m values).
    void positions(const Eigen::VectorXd& q, Eigen::Ref<Eigen::VectorXd> phi) const;
    /// Calls visit(row, column, value) for every entry of J = ∂φ/∂q (also A and A_v): link i
    /// has ±dᵢ/ℓ on bob i and bob i − 1, a pin row a 1 on the last bob.
    template <typename Visit> void visitJacobian(const Eigen::VectorXd& q, Visit visit) const
    {
        for (int i = 0; i < bobs(); ++i)
            for (int k = 0; k < 2; ++k) {
                const double value = difference(q, i, k) / ell_;
                if (i > 0)
                    visit(i, 2 * (i - 1) + k, -value);
                visit(i, 2 * i + k, value);
            }
        for (int k = 0; k < constraintCount() - bobs(); ++k)
            visit(bobs() + k, 2 * (bobs() - 1) + k, 1.0);
    }
    /// dᵢ = pᵢ − pᵢ₋₁ of q (or of q̇, for ḋᵢ), component k.
    double difference(const Eigen::VectorXd& x, int link, int k) const;

    int pinned_;
    double ell_;
    double omega0_;
    double span_;
};

} // namespace clab
