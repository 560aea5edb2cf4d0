#include "scenes/Chain.h"

#include "model/ConstraintLabError.h"
#include "solve/SparseFundamentalEquation.h"

#include <cmath>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

namespace clab {

namespace {

int wholeNumber(const ParameterValues& values, const std::string& name)
{
    const double v = parameterValue(values, name);
    if (v != std::round(v))
        throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter,
                                 "parameter '" + name +
                                     "' of the chain must be a whole number, got " +
                                     ConstraintLabError::number(v));
    return static_cast<int>(v);
}

/// Direction of link j (1…N) in the starting shape: straight along +x with one pinned end; a
/// symmetric V (down at angle θ, an odd chain's middle link flat, then up) with two.
Eigen::Vector2d startDirection(int j, int links, int pinned)
{
    if (pinned == 1)
        return {1.0, 0.0};
    const int side = links / 2;
    // Even N: cos θ = ½, so span = length / 2; odd N: ℓ + 2 side ℓ cos θ = length / 2.
    const double c = links % 2 == 0 ? 0.5 : (0.5 * links - 1.0) / (links - 1.0);
    const double s = std::sqrt(1.0 - c * c);
    if (j <= side)
        return {c, -s};
    if (links % 2 == 1 && j == side + 1)
        return {1.0, 0.0};
    return {c, s};
}

} // namespace

Chain::Chain(const ParameterValues& values)
    : PlanarBobs(wholeNumber(values, "links"),
                 parameterValue(values, "mass") / wholeNumber(values, "links"),
                 parameterValue(values, "g")),
      pinned_(wholeNumber(values, "pinned")), ell_(parameterValue(values, "length") / bobs()),
      omega0_(parameterValue(values, "omega0")), span_(0.0)
{
    if (pinned_ == 2 && bobs() < 2)
        throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter,
                                 "a chain pinned at both ends needs at least 2 links, got " +
                                     std::to_string(bobs()),
                                 "with one link the bob would be held by both pivots");
    if (pinned_ == 2) {
        for (int j = 1; j <= bobs(); ++j)
            span_ += ell_ * startDirection(j, bobs(), pinned_)[0];
    }
}

SceneDefinition Chain::definition()
{
    SceneDefinition d;
    d.name = "chain";
    d.title = "Hanging chain of many links";
    d.description =
        "A chain of rigid links with a point mass at the end of each swings under gravity in a "
        "vertical plane, pinned at one end (released from horizontal, it falls and whips) or at "
        "both (it swings about its hanging shape). Each link is one constraint; with hundreds or "
        "thousands of links the fundamental equation is solved with sparse matrices in time "
        "proportional to the number of links.";
    d.parameters = {
        {.name = "links",
         .unit = "",
         .description = "number of links N (a whole number), one point mass at the end of each",
         .defaultValue = {20.0},
         .min = 1.0,
         .max = 10000.0,
         .wholeNumber = true},
        ParameterSpec::positive("length", "m", "length of the whole chain", 2.0),
        ParameterSpec::positive("mass", "kg", "mass of the whole chain, shared by the bobs", 1.0),
        {.name = "pinned",
         .unit = "",
         .description = "ends held: 1 (at the origin) or 2 (also the far end, at half the "
                        "chain's length along x)",
         .defaultValue = {1.0},
         .min = 1.0,
         .max = 2.0,
         .wholeNumber = true},
        {.name = "g",
         .unit = "m/s²",
         .description = "gravitational acceleration",
         .defaultValue = {9.81},
         .min = 0.0},
        {.name = "omega0",
         .unit = "rad/s",
         .description = "initial angular velocity about the pivot, counter-clockwise; with "
                        "both ends pinned, the part of that rotation the second pivot allows",
         .defaultValue = {0.0},
         .min = -1000.0,
         .max = 1000.0},
    };
    d.factory = [](const ParameterValues& v) -> std::unique_ptr<MechanicalSystem> {
        return std::make_unique<Chain>(v);
    };
    d.keyParameters = {"omega0", "g"};
    d.setLabels({{"links", "Links N"},
                 {"length", "Length L"},
                 {"mass", "Mass m"},
                 {"pinned", "Pinned ends"},
                 {"g", "Gravity g"},
                 {"omega0", "Start spin ω₀"}});
    d.expected = {.moving = {{"omega0", {1.5}}, {"links", {7}}},
                  .holonomicCount = 7,
                  .coordinates = {"x1", "y1", "x2", "y2", "x3", "y3", "x4", "y4", "x5", "y5", "x6",
                                  "y6", "x7", "y7"},
                  .extraColumns = {}};
    return d;
}

double Chain::difference(const Eigen::VectorXd& x, int link, int k) const
{
    const double from = link == 0 ? 0.0 : x[2 * (link - 1) + k];
    return x[2 * link + k] - from;
}

void Chain::jacobian(const Eigen::VectorXd& q, SparseMatrix& J) const
{
    const int n = dof(), m = constraintCount();
    if (J.rows() != m || J.cols() != n || J.nonZeros() != 4 * bobs() - 2 + (m - bobs())) {
        std::vector<Eigen::Triplet<double>> entries;
        visitJacobian(q, [&](int row, int col, double) { entries.emplace_back(row, col, 0.0); });
        J.resize(m, n);
        J.setFromTriplets(entries.begin(), entries.end());
        J.makeCompressed();
    }
    // At most three entries a column: the look-up is short.
    visitJacobian(q, [&](int row, int col, double value) { J.coeffRef(row, col) = value; });
}

void Chain::positions(const Eigen::VectorXd& q, Eigen::Ref<Eigen::VectorXd> phi) const
{
    for (int i = 0; i < bobs(); ++i) {
        const double dx = difference(q, i, 0), dy = difference(q, i, 1);
        phi[i] = (dx * dx + dy * dy - ell_ * ell_) / (2.0 * ell_);
    }
    if (pinned_ == 2) {
        phi[bobs()] = q[2 * bobs() - 2] - span_;
        phi[bobs() + 1] = q[2 * bobs() - 1];
    }
}

void Chain::sparseConstraintMatrix(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double,
                                   SparseMatrix& A, Eigen::VectorXd& b) const
{
    jacobian(q, A);
    b.setZero(constraintCount());
    for (int i = 0; i < bobs(); ++i) {
        const double vx = difference(qd, i, 0), vy = difference(qd, i, 1);
        b[i] = -(vx * vx + vy * vy) / ell_;
    }
}

void Chain::sparsePositionConstraints(const Eigen::VectorXd& q, double, Eigen::VectorXd& phi,
                                      SparseMatrix& J) const
{
    phi.resize(constraintCount());
    positions(q, phi);
    jacobian(q, J);
}

void Chain::sparseVelocityConstraints(const Eigen::VectorXd& q, double, SparseMatrix& Av,
                                      Eigen::VectorXd& bv) const
{
    jacobian(q, Av);
    bv.setZero(constraintCount()); // scleronomic: φ̇ = J q̇
}

// The dense forms serve small chains on the dense path; like the sparse ones they are filled by
// visitJacobian, without allocating.

void Chain::constraintMatrix(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double,
                             Eigen::MatrixXd& A, Eigen::VectorXd& b) const
{
    A.setZero(constraintCount(), dof());
    visitJacobian(q, [&](int row, int col, double value) { A(row, col) = value; });
    b.setZero(constraintCount());
    for (int i = 0; i < bobs(); ++i) {
        const double vx = difference(qd, i, 0), vy = difference(qd, i, 1);
        b[i] = -(vx * vx + vy * vy) / ell_;
    }
}

void Chain::positionConstraints(const Eigen::VectorXd& q, double, Eigen::Ref<Eigen::VectorXd> phi,
                                Eigen::Ref<Eigen::MatrixXd> J) const
{
    positions(q, phi);
    J.setZero();
    visitJacobian(q, [&](int row, int col, double value) { J(row, col) = value; });
}

void Chain::velocityConstraints(const Eigen::VectorXd& q, double, Eigen::Ref<Eigen::MatrixXd> Av,
                                Eigen::Ref<Eigen::VectorXd> bv) const
{
    Av.setZero();
    visitJacobian(q, [&](int row, int col, double value) { Av(row, col) = value; });
    bv.setZero();
}

void Chain::constraintResiduals(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double,
                                Eigen::VectorXd& r) const
{
    const int m = constraintCount();
    r.resize(2 * m);
    positions(q, r.head(m));
    // φ̇ᵢ = dᵢ·ḋᵢ / ℓ for the links, the velocity of the last bob for the pin.
    for (int i = 0; i < bobs(); ++i)
        r[m + i] = (difference(q, i, 0) * difference(qd, i, 0) +
                    difference(q, i, 1) * difference(qd, i, 1)) /
                   ell_;
    if (pinned_ == 2) {
        r[m + bobs()] = qd[2 * bobs() - 2];
        r[m + bobs() + 1] = qd[2 * bobs() - 1];
    }
}

void Chain::initialState(Eigen::VectorXd& q0, Eigen::VectorXd& qd0) const
{
    q0.setZero(dof());
    qd0.setZero(dof());
    Eigen::Vector2d at = Eigen::Vector2d::Zero();
    for (int j = 1; j <= bobs(); ++j) {
        at += ell_ * startDirection(j, bobs(), pinned_);
        q0.segment<2>(2 * (j - 1)) = at;
        // A rigid rotation keeps every link's length: v = ω × p.
        qd0.segment<2>(2 * (j - 1)) = omega0_ * Eigen::Vector2d(-at.y(), at.x());
    }
    if (pinned_ == 2 && omega0_ != 0.0) {
        // The rotation moves the second pivot: keep the nearest velocity (in the kinetic-energy
        // norm) that leaves it in place, q̇ ← q̇ − M⁻¹Jᵀ(J M⁻¹ Jᵀ)⁺ J q̇ (docs/MATH.md §6).
        SparseMatrix M, J;
        Eigen::VectorXd bv, zero = Eigen::VectorXd::Zero(dof());
        sparseMassMatrix(q0, 0.0, M);
        sparseVelocityConstraints(q0, 0.0, J, bv);
        const Eigen::VectorXd residual = bv - J * qd0;
        SparseFundamentalEquation step(dof(), constraintCount());
        ConstrainedAcceleration correction;
        step.solveIdeal(M, zero, J, residual, correction);
        qd0 += correction.qdd;
    }
}

} // namespace clab
