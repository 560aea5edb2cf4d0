#include "scenes/SlidingChain.h"

#include "model/ConstraintLabError.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

namespace clab {

namespace {

// Below this path speed the chain counts as at rest, and static friction holds it while it can.
constexpr double kRestBand = 1e-9; // m/s

int wholeLinks(const ParameterValues& values)
{
    const double v = parameterValue(values, "links");
    if (v != std::round(v))
        throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter,
                                 "parameter 'links' of the sliding chain must be a whole number, "
                                 "got " +
                                     ConstraintLabError::number(v));
    return static_cast<int>(v);
}

} // namespace

SlidingChain::SlidingChain(const ParameterValues& values)
    : PlanarBobs(wholeLinks(values), parameterValue(values, "mass") / wholeLinks(values),
                 parameterValue(values, "g")),
      ell_(parameterValue(values, "length") / bobs()), mu_(parameterValue(values, "mu")),
      radius_(parameterValue(values, "edge")), overhang_(parameterValue(values, "overhang")),
      speed0_(parameterValue(values, "v0"))
{
    const double length = parameterValue(values, "length");
    if (overhang_ > length)
        throw ConstraintLabError(
            ConstraintLabError::Kind::InvalidParameter,
            "the overhang of the sliding chain (" + ConstraintLabError::number(overhang_) +
                " m) is longer than the chain (" + ConstraintLabError::number(length) + " m)",
            "at most the whole chain can hang over the edge");
}

SceneDefinition SlidingChain::definition()
{
    SceneDefinition d;
    d.name = "sliding-chain";
    d.title = "Chain sliding off a table";
    d.description =
        "A chain lies on a table with part of it hanging over the rounded edge. The hanging part "
        "pulls the rest along against Coulomb friction on the table top: with too little overhang "
        "static friction holds it; with more it slides off ever faster. The chain follows the "
        "table top, the edge and the side like a chain in a smooth tube: every piece keeps its "
        "distance along that path. Without friction the overhang grows as x₀ cosh(√(g/L) t), "
        "the textbook result.";
    d.end = "the chain's last piece reaches the edge (the chain has left the table)";
    d.parameters = {
        {.name = "links",
         .unit = "",
         .description = "number of pieces N (a whole number), each a point mass at its centre",
         .defaultValue = {40.0},
         .min = 2.0,
         .max = 10000.0,
         .wholeNumber = true},
        ParameterSpec::positive("length", "m", "length of the whole chain", 2.0),
        ParameterSpec::positive("mass", "kg", "mass of the whole chain", 1.0),
        {.name = "mu",
         .unit = "",
         .description = "Coulomb friction coefficient of the table top (static and kinetic)",
         .defaultValue = {0.3},
         .min = 0.0,
         .max = 10.0},
        {.name = "overhang",
         .unit = "m",
         .description = "length of chain over the edge at the start (at most the whole chain)",
         .defaultValue = {0.5},
         .min = 0.0},
        {.name = "edge",
         .unit = "m",
         .description = "radius of the table's rounded edge",
         .defaultValue = {0.03},
         .min = 1e-6,
         .max = 100.0},
        {.name = "v0",
         .unit = "m/s",
         .description = "initial speed towards the edge",
         .defaultValue = {0.0},
         .min = 0.0,
         .max = 1000.0},
        {.name = "g",
         .unit = "m/s²",
         .description = "gravitational acceleration",
         .defaultValue = {9.81},
         .min = 0.0},
    };
    d.factory = [](const ParameterValues& v) -> std::unique_ptr<MechanicalSystem> {
        return std::make_unique<SlidingChain>(v);
    };
    d.keyParameters = {"mu", "overhang"};
    d.setLabels({{"links", "Pieces N"},
                 {"length", "Length L"},
                 {"mass", "Mass m"},
                 {"mu", "Table friction μ"},
                 {"overhang", "Overhang x₀"},
                 {"edge", "Edge radius R"},
                 {"v0", "Start speed v₀"},
                 {"g", "Gravity g"}});
    d.expected = {.moving = {{"links", {4}},
                             {"mu", {0.1}},
                             {"overhang", {1.0}},
                             {"edge", {0.6}},
                             {"v0", {1.0}}},
                  .holonomicCount = 7,
                  .coordinates = {"x1", "y1", "x2", "y2", "x3", "y3", "x4", "y4"},
                  .extraColumns = {"hanging", "speed"}};
    return d;
}

SlidingChain::Region SlidingChain::region(double x, double y) const
{
    if (x <= 0.0)
        return Region::Table;
    return y >= -radius_ ? Region::Edge : Region::Side;
}

SlidingChain::Region SlidingChain::regionOf(const Eigen::VectorXd& q, int bob) const
{
    return fixed_.empty() ? region(q[2 * bob], q[2 * bob + 1])
                          : fixed_[static_cast<std::size_t>(bob)];
}

double SlidingChain::marginIn(Region r, const Eigen::VectorXd& q, int bob) const
{
    const double x = q[2 * bob], y = q[2 * bob + 1];
    switch (r) {
    case Region::Table:
        return -x;
    case Region::Edge:
        return std::min(x, y + radius_);
    case Region::Side:
        break;
    }
    return -(y + radius_);
}

void SlidingChain::fixPieces(const Eigen::VectorXd& q, const Eigen::VectorXd&, double) const
{
    fixed_.resize(static_cast<std::size_t>(bobs()));
    for (int i = 0; i < bobs(); ++i)
        fixed_[static_cast<std::size_t>(i)] = region(q[2 * i], q[2 * i + 1]);
}

double SlidingChain::pieceMargin(const Eigen::VectorXd& q, const Eigen::VectorXd&, double) const
{
    if (fixed_.empty())
        return 1.0;
    double least = std::numeric_limits<double>::infinity();
    for (int i = 0; i < bobs(); ++i)
        least = std::min(least, marginIn(fixed_[static_cast<std::size_t>(i)], q, i));
    return least;
}

double SlidingChain::coordinateOf(const Eigen::VectorXd& q, int bob) const
{
    return coordinateIn(regionOf(q, bob), q[2 * bob], q[2 * bob + 1]);
}

double SlidingChain::coordinateIn(Region r, double x, double y) const
{
    switch (r) {
    case Region::Table:
        return x;
    case Region::Edge:
        return radius_ * std::atan2(x, y + radius_);
    case Region::Side:
        break;
    }
    return 0.5 * std::numbers::pi * radius_ - radius_ - y;
}

Eigen::Vector2d SlidingChain::pathPoint(double s) const
{
    const double quarter = 0.5 * std::numbers::pi * radius_;
    if (s <= 0.0)
        return {s, 0.0};
    if (s < quarter)
        return {radius_ * std::sin(s / radius_), radius_ * (std::cos(s / radius_) - 1.0)};
    return {radius_, -radius_ - (s - quarter)};
}

Eigen::Vector2d SlidingChain::pathTangent(double s) const
{
    if (s <= 0.0)
        return {1.0, 0.0};
    if (s < 0.5 * std::numbers::pi * radius_)
        return {std::cos(s / radius_), -std::sin(s / radius_)};
    return {0.0, -1.0};
}

double SlidingChain::pathCoordinate(const Eigen::Vector2d& p) const
{
    return coordinateIn(region(p.x(), p.y()), p.x(), p.y());
}

Eigen::Vector2d SlidingChain::pathRowGradient(const Eigen::VectorXd& q, int bob) const
{
    const double x = q[2 * bob], y = q[2 * bob + 1];
    switch (regionOf(q, bob)) {
    case Region::Table:
        return {0.0, 1.0};
    case Region::Edge:
        return Eigen::Vector2d(x, y + radius_) / radius_;
    case Region::Side:
        break;
    }
    return {1.0, 0.0};
}

Eigen::Vector2d SlidingChain::coordinateGradient(const Eigen::VectorXd& q, int bob) const
{
    const double x = q[2 * bob], y = q[2 * bob + 1];
    switch (regionOf(q, bob)) {
    case Region::Table:
        return {1.0, 0.0};
    case Region::Edge: {
        // s = R atan2(u, w), u = x, w = y + R: ∇s = R (w, −u) / r².
        const double u = x, w = y + radius_;
        return (radius_ / (u * u + w * w)) * Eigen::Vector2d(w, -u);
    }
    case Region::Side:
        break;
    }
    return {0.0, -1.0};
}

double SlidingChain::coordinateCurvatureTerm(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                             int bob) const
{
    const double x = q[2 * bob], y = q[2 * bob + 1];
    if (regionOf(q, bob) != Region::Edge)
        return 0.0;
    // ṗᵀ (∂²s/∂p²) ṗ for s = R atan2(u, w): R/r⁴ (−2uw u̇² + 2(u² − w²) u̇ẇ + 2uw ẇ²).
    const double u = x, w = y + radius_, du = qd[2 * bob], dw = qd[2 * bob + 1];
    const double r2 = u * u + w * w;
    return radius_ / (r2 * r2) *
           (-2.0 * u * w * du * du + 2.0 * (u * u - w * w) * du * dw + 2.0 * u * w * dw * dw);
}

template <typename Visit>
void SlidingChain::visitJacobian(const Eigen::VectorXd& q, Visit visit) const
{
    for (int i = 0; i < bobs(); ++i) {
        const Eigen::Vector2d g = pathRowGradient(q, i);
        visit(i, 2 * i, g.x());
        visit(i, 2 * i + 1, g.y());
    }
    // Link j joins bob j and bob j + 1: s_j − s_{j+1} − ℓ = 0.
    Eigen::Vector2d ahead = coordinateGradient(q, 0);
    for (int j = 0; j + 1 < bobs(); ++j) {
        const Eigen::Vector2d behind = coordinateGradient(q, j + 1);
        const int row = bobs() + j;
        visit(row, 2 * j, ahead.x());
        visit(row, 2 * j + 1, ahead.y());
        visit(row, 2 * j + 2, -behind.x());
        visit(row, 2 * j + 3, -behind.y());
        ahead = behind;
    }
}

void SlidingChain::jacobian(const Eigen::VectorXd& q, SparseMatrix& J) const
{
    const int n = dof(), m = constraintCount();
    if (J.rows() != m || J.cols() != n || J.nonZeros() != 2 * bobs() + 4 * (bobs() - 1)) {
        std::vector<Eigen::Triplet<double>> entries;
        visitJacobian(q, [&](int row, int col, double) { entries.emplace_back(row, col, 1.0); });
        J.resize(m, n);
        J.setFromTriplets(entries.begin(), entries.end());
        J.makeCompressed();
    }
    // At most three entries a column: the look-up is short.
    visitJacobian(q, [&](int row, int col, double value) { J.coeffRef(row, col) = value; });
}

void SlidingChain::positions(const Eigen::VectorXd& q, Eigen::Ref<Eigen::VectorXd> phi) const
{
    for (int i = 0; i < bobs(); ++i) {
        const double x = q[2 * i], y = q[2 * i + 1];
        switch (regionOf(q, i)) {
        case Region::Table:
            phi[i] = y;
            break;
        case Region::Edge: {
            const double w = y + radius_;
            phi[i] = (x * x + w * w - radius_ * radius_) / (2.0 * radius_);
            break;
        }
        case Region::Side:
            phi[i] = x - radius_;
            break;
        }
    }
    double ahead = coordinateOf(q, 0);
    for (int j = 0; j + 1 < bobs(); ++j) {
        const double behind = coordinateOf(q, j + 1);
        phi[bobs() + j] = ahead - behind - ell_;
        ahead = behind;
    }
}

void SlidingChain::velocityTerms(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                 Eigen::Ref<Eigen::VectorXd> b) const
{
    for (int i = 0; i < bobs(); ++i) {
        // On the edge ψ = (|p − c|² − R²)/(2R): ψ̈ = ∇ψ·p̈ + |ṗ|²/R.
        b[i] = regionOf(q, i) == Region::Edge
                   ? -(qd[2 * i] * qd[2 * i] + qd[2 * i + 1] * qd[2 * i + 1]) / radius_
                   : 0.0;
    }
    double ahead = coordinateCurvatureTerm(q, qd, 0);
    for (int j = 0; j + 1 < bobs(); ++j) {
        const double behind = coordinateCurvatureTerm(q, qd, j + 1);
        b[bobs() + j] = -(ahead - behind);
        ahead = behind;
    }
}

void SlidingChain::sparseConstraintMatrix(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                          double, SparseMatrix& A, Eigen::VectorXd& b) const
{
    jacobian(q, A);
    b.resize(constraintCount());
    velocityTerms(q, qd, b);
}

void SlidingChain::sparsePositionConstraints(const Eigen::VectorXd& q, double, Eigen::VectorXd& phi,
                                             SparseMatrix& J) const
{
    phi.resize(constraintCount());
    positions(q, phi);
    jacobian(q, J);
}

void SlidingChain::sparseVelocityConstraints(const Eigen::VectorXd& q, double, SparseMatrix& Av,
                                             Eigen::VectorXd& bv) const
{
    jacobian(q, Av);
    bv.setZero(constraintCount()); // scleronomic: φ̇ = J q̇
}

// The dense forms serve short chains on the dense path, filled by the same visitJacobian.

void SlidingChain::constraintMatrix(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double,
                                    Eigen::MatrixXd& A, Eigen::VectorXd& b) const
{
    A.setZero(constraintCount(), dof());
    visitJacobian(q, [&](int row, int col, double value) { A(row, col) = value; });
    b.resize(constraintCount());
    velocityTerms(q, qd, b);
}

void SlidingChain::positionConstraints(const Eigen::VectorXd& q, double,
                                       Eigen::Ref<Eigen::VectorXd> phi,
                                       Eigen::Ref<Eigen::MatrixXd> J) const
{
    positions(q, phi);
    J.setZero();
    visitJacobian(q, [&](int row, int col, double value) { J(row, col) = value; });
}

void SlidingChain::velocityConstraints(const Eigen::VectorXd& q, double,
                                       Eigen::Ref<Eigen::MatrixXd> Av,
                                       Eigen::Ref<Eigen::VectorXd> bv) const
{
    Av.setZero();
    visitJacobian(q, [&](int row, int col, double value) { Av(row, col) = value; });
    bv.setZero();
}

double SlidingChain::pathSpeed(const Eigen::VectorXd& q, const Eigen::VectorXd& qd) const
{
    double sum = 0.0;
    for (int i = 0; i < bobs(); ++i)
        sum += coordinateGradient(q, i).dot(qd.segment<2>(2 * i));
    return sum / bobs();
}

void SlidingChain::nonIdealForce(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double,
                                 const Eigen::VectorXd& Qci, Eigen::VectorXd& C) const
{
    C.setZero(dof());
    if (mu_ == 0.0)
        return;
    // A table bob's links pull along the table, so its ideal force's y part is its normal force.
    double normal = 0.0;
    for (int i = 0; i < bobs(); ++i)
        if (regionOf(q, i) == Region::Table)
            normal += std::abs(Qci[2 * i + 1]);
    const double reach = mu_ * normal;
    if (reach == 0.0)
        return;
    const double speed = pathSpeed(q, qd);
    double friction; // along +x on the table, shared by the table bobs by their normal forces
    if (std::abs(speed) > kRestBand) {
        friction = speed > 0.0 ? -reach : reach;
    } else {
        // At rest: static friction balances gravity's pull along the path while it can.
        double pull = 0.0;
        for (int i = 0; i < bobs(); ++i)
            pull -= bobMass() * gravity() * coordinateGradient(q, i).y();
        friction = -std::clamp(pull, -reach, reach);
    }
    for (int i = 0; i < bobs(); ++i)
        if (regionOf(q, i) == Region::Table)
            C[2 * i] = friction * std::abs(Qci[2 * i + 1]) / normal;
}

void SlidingChain::constraintResiduals(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double,
                                       Eigen::VectorXd& r) const
{
    const int m = constraintCount();
    r.resize(2 * m);
    positions(q, r.head(m));
    r.tail(m).setZero();
    visitJacobian(q, [&](int row, int col, double value) { r[m + row] += value * qd[col]; });
}

void SlidingChain::initialState(Eigen::VectorXd& q0, Eigen::VectorXd& qd0) const
{
    q0.resize(dof());
    qd0.resize(dof());
    // Bob i stands for the piece [s − ℓ/2, s + ℓ/2]: the first one ends the overhang.
    for (int i = 0; i < bobs(); ++i) {
        const double s = overhang_ - (i + 0.5) * ell_;
        q0.segment<2>(2 * i) = pathPoint(s);
        qd0.segment<2>(2 * i) = speed0_ * pathTangent(s);
    }
}

double SlidingChain::hangingLength(const Eigen::VectorXd& q) const
{
    double sum = 0.0;
    for (int i = 0; i < bobs(); ++i)
        sum += std::clamp(pathCoordinate(q.segment<2>(2 * i)) + 0.5 * ell_, 0.0, ell_);
    return sum;
}

double SlidingChain::endFunction(const Eigen::VectorXd& q, const Eigen::VectorXd&, double) const
{
    return -pathCoordinate(q.segment<2>(2 * bobs() - 2));
}

void SlidingChain::extraColumns(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double,
                                Eigen::VectorXd& values) const
{
    values.resize(2);
    values[0] = hangingLength(q);
    values[1] = pathSpeed(q, qd);
}

} // namespace clab
