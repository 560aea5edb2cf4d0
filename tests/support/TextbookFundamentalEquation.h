#pragma once

#include "solve/ConstrainedAcceleration.h"

#include <Eigen/Dense>

namespace clab::testing {

/// \brief The fundamental equation exactly as printed (docs/MATH.md §2): matrix square roots of M
/// and the Moore–Penrose inverse of B = A M^(−1/2). Slow and plain on purpose: it is the
/// independent reference for FundamentalEquation in tests and benchmarks. Needs M > 0.
///
/// Like FundamentalEquation it works in two phases, because Coulomb friction C depends on the
/// ideal force: solveIdeal keeps M^(±1/2), B and B⁺ for addNonIdeal.
class TextbookFundamentalEquation {
public:
    /// Moore–Penrose inverse by SVD; singular values ≤ tol · σ_max count as zero.
    static Eigen::MatrixXd pseudoInverse(const Eigen::MatrixXd& X, double tol)
    {
        if (X.size() == 0) {
            return Eigen::MatrixXd::Zero(X.cols(), X.rows());
        }
        Eigen::JacobiSVD<Eigen::MatrixXd> svd(X, Eigen::ComputeFullU | Eigen::ComputeFullV);
        const Eigen::VectorXd& s = svd.singularValues();
        const double cutoff = s.size() > 0 ? tol * s(0) : 0.0;
        Eigen::MatrixXd sigmaPlus = Eigen::MatrixXd::Zero(X.cols(), X.rows());
        for (Eigen::Index i = 0; i < s.size(); ++i) {
            if (s(i) > cutoff) {
                sigmaPlus(i, i) = 1.0 / s(i);
            }
        }
        return svd.matrixV() * sigmaPlus * svd.matrixU().transpose();
    }

    /// Phase 1: q̈ and Qᶜᵢ = M^(1/2) B⁺ (b − A a) for ideal constraints, λ = K⁺(b − A a) =
    /// (B⁺)ᵀ B⁺ (b − A a), Qᶜₙᵢ = 0.
    void solveIdeal(const Eigen::MatrixXd& M, const Eigen::VectorXd& Q, const Eigen::MatrixXd& A,
                    const Eigen::VectorXd& b, ConstrainedAcceleration& out, double tol = 1e-10)
    {
        Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(M);
        const Eigen::MatrixXd& V = eig.eigenvectors();
        const Eigen::VectorXd& d = eig.eigenvalues();
        Mhalf_ = V * d.cwiseSqrt().asDiagonal() * V.transpose();
        Mminushalf_ = V * d.cwiseSqrt().cwiseInverse().asDiagonal() * V.transpose();

        const Eigen::VectorXd a = Mminushalf_ * (Mminushalf_ * Q);
        B_ = A * Mminushalf_;
        Bplus_ = pseudoInverse(B_, tol);
        const Eigen::VectorXd r = b - A * a;

        out.Qci = Mhalf_ * Bplus_ * r;
        out.Qcni = Eigen::VectorXd::Zero(M.rows());
        out.qdd = a + Mminushalf_ * Bplus_ * r;
        out.lambda = Bplus_.transpose() * (Bplus_ * r);
    }

    /// Phase 2: adds Qᶜₙᵢ = M^(1/2) (I − B⁺B) M^(−1/2) C and its acceleration
    /// M^(−1/2) (I − B⁺B) M^(−1/2) C; follows solveIdeal.
    void addNonIdeal(const Eigen::VectorXd& C, ConstrainedAcceleration& out) const
    {
        const Eigen::MatrixXd I = Eigen::MatrixXd::Identity(Mhalf_.rows(), Mhalf_.cols());
        const Eigen::VectorXd projected = (I - Bplus_ * B_) * (Mminushalf_ * C);
        out.Qcni += Mhalf_ * projected;
        out.qdd += Mminushalf_ * projected;
    }

    /// Both phases with a C that does not depend on Qᶜᵢ, for M > 0.
    static ConstrainedAcceleration solve(const Eigen::MatrixXd& M, const Eigen::VectorXd& Q,
                                         const Eigen::MatrixXd& A, const Eigen::VectorXd& b,
                                         const Eigen::VectorXd& C, double tol = 1e-10)
    {
        TextbookFundamentalEquation textbook;
        ConstrainedAcceleration out;
        textbook.solveIdeal(M, Q, A, b, out, tol);
        textbook.addNonIdeal(C, out);
        return out;
    }

private:
    Eigen::MatrixXd Mhalf_, Mminushalf_, B_, Bplus_;
};

} // namespace clab::testing
