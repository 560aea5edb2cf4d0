#include "scenes/PlanarBobs.h"

#include <algorithm>

namespace clab {

PlanarBobs::PlanarBobs(int bobs, double bobMass, double g) : bobs_(bobs), bobMass_(bobMass), g_(g)
{
}

std::vector<std::string> PlanarBobs::coordinateNames() const
{
    std::vector<std::string> names;
    names.reserve(static_cast<std::size_t>(dof()));
    for (int i = 1; i <= bobs_; ++i) {
        names.push_back("x" + std::to_string(i));
        names.push_back("y" + std::to_string(i));
    }
    return names;
}

void PlanarBobs::massMatrix(const Eigen::VectorXd&, double, Eigen::MatrixXd& M) const
{
    M.setZero(dof(), dof());
    M.diagonal().setConstant(bobMass_);
}

void PlanarBobs::sparseMassMatrix(const Eigen::VectorXd&, double, SparseMatrix& M) const
{
    // The pattern is built once; later calls only write the values (no allocation).
    const int n = dof();
    if (M.rows() != n || M.cols() != n || M.nonZeros() != n || !M.isCompressed()) {
        M.resize(n, n);
        M.reserve(Eigen::VectorXi::Constant(n, 1));
        for (int i = 0; i < n; ++i)
            M.insert(i, i) = 0.0;
        M.makeCompressed();
    }
    std::fill(M.valuePtr(), M.valuePtr() + n, bobMass_);
}

void PlanarBobs::givenForce(const Eigen::VectorXd&, const Eigen::VectorXd&, double,
                            Eigen::VectorXd& Q) const
{
    Q.resize(dof());
    for (int i = 0; i < bobs_; ++i) {
        Q[2 * i] = 0.0;
        Q[2 * i + 1] = -bobMass_ * g_;
    }
}

double PlanarBobs::kineticEnergy(const Eigen::VectorXd&, const Eigen::VectorXd& qd, double) const
{
    return 0.5 * bobMass_ * qd.squaredNorm();
}

double PlanarBobs::potentialEnergy(const Eigen::VectorXd& q, double) const
{
    double sum = 0.0;
    for (int i = 0; i < bobs_; ++i)
        sum += q[2 * i + 1];
    return bobMass_ * g_ * sum;
}

} // namespace clab
