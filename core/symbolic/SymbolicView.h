#pragma once

#include "model/ParameterSpec.h"
#include "symbolic/SymbolicModel.h"

#include <Eigen/Core>

#include <memory>
#include <vector>

namespace clab {

/// \brief The "view" of a SymbolicModel with one set of parameter values: where its points are
/// at (q, t) and where its curves run, for the 3D view.
///
/// Evaluated from tapes (the model's view tape, a tape per curve), so that the view needs no
/// GiNaC. Like a tape, one view must not be evaluated from two threads at once.
class SymbolicView {
public:
    SymbolicView(std::shared_ptr<const SymbolicModel> model, const ParameterValues& values);
    ~SymbolicView();
    SymbolicView(SymbolicView&&) noexcept;
    SymbolicView& operator=(SymbolicView&&) noexcept;

    /// x, y, z of every view point at (q, t), three values per point.
    void points(const Eigen::VectorXd& q, double t, Eigen::VectorXd& xyz) const;
    /// Curve c of the view at `samples` evenly spaced values of its parameter, from its `from`
    /// to its `to`, as computed (a non-finite value stays). Throws SystemError for an
    /// expression the parser refuses.
    std::vector<Eigen::Vector3d> curve(int c, int samples) const;

private:
    struct Tapes;

    std::shared_ptr<const SymbolicModel> model_;
    std::unique_ptr<Tapes> tapes_;
};

} // namespace clab
