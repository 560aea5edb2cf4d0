#pragma once

#include "solve/ConstrainedAcceleration.h"
#include "solve/FundamentalEquation.h"
#include "model/MechanicalSystem.h"

#include <Eigen/Dense>

namespace clab::test {

/// Given force, non-ideal force C and the solution of the fundamental equation at one state.
struct SceneForces {
    Eigen::VectorXd Q, C;
    ConstrainedAcceleration acc;
};

/// The scene's M, Q, A, b and C through the fundamental equation, as the simulator uses them
/// (C is formed from the ideal force, as Coulomb friction needs).
inline SceneForces solveScene(const MechanicalSystem& s, const Eigen::VectorXd& q,
                              const Eigen::VectorXd& qd, double t, FundamentalEquation& eq)
{
    const int n = s.dof(), m = s.constraintCount();
    Eigen::MatrixXd M(n, n), A(m, n);
    Eigen::VectorXd b(m);
    SceneForces f;
    f.Q.resize(n);
    f.C.resize(n);
    f.acc.resize(n, m);
    s.massMatrix(q, t, M);
    s.givenForce(q, qd, t, f.Q);
    s.constraintMatrix(q, qd, t, A, b);
    eq.solveIdeal(M, f.Q, A, b, f.acc);
    s.nonIdealForce(q, qd, t, f.acc.Qci, f.C);
    eq.addNonIdeal(f.C, f.acc);
    return f;
}

/// Same with a fresh equation (singular-mass path when the scene says so).
inline SceneForces solveScene(const MechanicalSystem& s, const Eigen::VectorXd& q,
                              const Eigen::VectorXd& qd, double t)
{
    FundamentalEquation eq(s.dof(), s.constraintCount());
    eq.setSingularMass(s.massMatrixIsSingular());
    return solveScene(s, q, qd, t, eq);
}

} // namespace clab::test
