#pragma once

#include "scenes/SceneDefinition.h"
#include "scenes/PlanarBobs.h"

#include <Eigen/Dense>

#include <vector>

namespace clab {

/// \brief A chain lying on a table slides over the table's rounded edge and down its side, with
/// Coulomb friction on the table top (docs/MATH.md §5, §10).
///
/// N point masses m/N (bob i stands for the i-th of N equal pieces of a chain of length L, at the
/// piece's centre), bob 1 leading. The table top is y = 0 for x ≤ 0; the edge a quarter circle of
/// radius R about (0, −R); the side x = R below y = −R. Each bob is held on that path (one row
/// each) and neighbours keep their distance ℓ = L/N along it (one row per link): the chain moves
/// like a chain drawn through a smooth tube, one degree of freedom, the path coordinate s of the
/// bobs. Friction on the table top: μ times each table bob's normal force against the slip,
/// and, while the chain is at rest (|ṡ| below a band of 1e-9 m/s), static friction up to the same
/// μ that holds it while gravity's pull along the path is within reach. Every matrix is supplied
/// sparse with a fixed pattern, so long chains take the sparse path.
class SlidingChain : public PlanarBobs {
public:
    /// From complete, validated values; throws InvalidParameter when `links` is not a whole
    /// number or the overhang is longer than the chain.
    explicit SlidingChain(const ParameterValues& values);

    static SceneDefinition definition();

    int links() const { return bobs(); }
    double linkLength() const { return ell_; }
    double edgeRadius() const { return radius_; }
    double friction() const { return mu_; }

    /// The point of the path at path coordinate s (0 at the top of the edge, negative on the
    /// table, past Rπ/2 down the side).
    Eigen::Vector2d pathPoint(double s) const;
    /// Path coordinate of a point on (or next to) the path: s(x, y) by the region it lies in.
    double pathCoordinate(const Eigen::Vector2d& p) const;
    /// Unit tangent ∂p/∂s of the path at s (also ∇s of the point there).
    Eigen::Vector2d pathTangent(double s) const;
    /// Length of chain over the edge (s > 0), from the bobs' path coordinates: each bob stands
    /// for a piece ℓ long about it.
    double hangingLength(const Eigen::VectorXd& q) const;
    /// Speed along the path, the mean of the bobs' velocities along their tangents.
    double pathSpeed(const Eigen::VectorXd& q, const Eigen::VectorXd& qd) const;

    int constraintCount() const override { return 2 * bobs() - 1; }

    void constraintMatrix(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                          Eigen::MatrixXd& A, Eigen::VectorXd& b) const override;
    void nonIdealForce(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                       const Eigen::VectorXd& Qci, Eigen::VectorXd& C) const override;

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

    /// The run ends when the last bob reaches the top of the edge: the chain has left the table.
    bool hasEnd() const override { return true; }
    double endFunction(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                       double t) const override;

    /// The table top, the edge and the side are the pieces of the path (docs/MATH.md §6).
    bool hasPieces() const override { return true; }
    void fixPieces(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t) const override;
    void releasePieces() const override { fixed_.clear(); }
    /// The least distance of a bob to the end of its fixed piece (x on the table; x or y + R on
    /// the edge; y + R on the side).
    double pieceMargin(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                       double t) const override;

    /// "hanging" (m, the length over the edge) and "speed" (m/s, along the path).
    std::vector<std::string> extraColumnNames() const override { return {"hanging", "speed"}; }
    std::string extraColumnUnit(int i) const override { return i == 0 ? "m" : "m/s"; }
    void extraColumns(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                      Eigen::VectorXd& values) const override;

private:
    /// Where on the path a point lies.
    enum class Region { Table, Edge, Side };
    Region region(double x, double y) const;
    /// Bob i's piece: the fixed one during a run, else by where it is.
    Region regionOf(const Eigen::VectorXd& q, int bob) const;
    /// How far bob i is from leaving piece r (negative once past its border).
    double marginIn(Region r, const Eigen::VectorXd& q, int bob) const;
    /// s of bob i by its piece's formula (carried on past the piece's ends).
    double coordinateOf(const Eigen::VectorXd& q, int bob) const;
    /// s of the point (x, y) by the formula of piece r.
    double coordinateIn(Region r, double x, double y) const;

    /// Calls visit(row, column, value) for every entry of J = ∂φ/∂q (also A and A_v), the
    /// same entries in the same order at every state (zeros included), so that the sparse
    /// pattern never changes: rows 0…N−1 hold bob i on the path, rows N…2N−2 link i's length
    /// along the path.
    template <typename Visit> void visitJacobian(const Eigen::VectorXd& q, Visit visit) const;
    /// J into its fixed pattern, built on the first call.
    void jacobian(const Eigen::VectorXd& q, SparseMatrix& J) const;
    void positions(const Eigen::VectorXd& q, Eigen::Ref<Eigen::VectorXd> phi) const;
    /// b of A q̈ = b: minus the velocity terms of φ̈ (curvature of the edge).
    void velocityTerms(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                       Eigen::Ref<Eigen::VectorXd> b) const;
    /// Gradient ∇ψ of bob i's path row, and ∇s of its path coordinate.
    Eigen::Vector2d pathRowGradient(const Eigen::VectorXd& q, int bob) const;
    Eigen::Vector2d coordinateGradient(const Eigen::VectorXd& q, int bob) const;
    /// q̇ᵀ (∂²s/∂p²) q̇ of bob i (zero off the edge).
    double coordinateCurvatureTerm(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                   int bob) const;

    double ell_;
    double mu_;
    double radius_;
    double overhang_;
    double speed0_;
    /// Pieces fixed by the run (empty: by position); MechanicalSystem::fixPieces says why.
    mutable std::vector<Region> fixed_;
};

} // namespace clab
