#pragma once
// Deterministic random numbers that are the same with every standard library
// (std::uniform_real_distribution is not), for the randomly generated test systems.

#include <Eigen/Dense>

#include <cstdint>
#include <random>

namespace clab::testing {

class PortableRandom {
public:
    explicit PortableRandom(std::uint32_t seed) : gen_(seed) {}

    double uniform(double lo, double hi)
    {
        const double u = (static_cast<double>(gen_()) + 0.5) / 4294967296.0;
        return lo + (hi - lo) * u;
    }
    int integer(int lo, int hi) { return lo + static_cast<int>(gen_() % (hi - lo + 1)); }
    /// Entries uniform in [−1, 1], filled column by column.
    Eigen::MatrixXd matrix(int rows, int cols)
    {
        Eigen::MatrixXd X(rows, cols);
        for (int j = 0; j < cols; ++j) {
            for (int i = 0; i < rows; ++i) {
                X(i, j) = uniform(-1.0, 1.0);
            }
        }
        return X;
    }
    Eigen::VectorXd vector(int size) { return matrix(size, 1); }
    /// A symmetric positive definite matrix, RᵀR + 0.2 I.
    Eigen::MatrixXd spd(int n)
    {
        const Eigen::MatrixXd R = matrix(n, n);
        return R.transpose() * R + 0.2 * Eigen::MatrixXd::Identity(n, n);
    }

private:
    std::mt19937 gen_;
};

} // namespace clab::testing
