#pragma once

#include "view3d/geometry/SceneGeometry.h"

#include <symbolic/SymbolicModel.h>
#include <symbolic/SymbolicView.h>

#include <algorithm>
#include <memory>

class vtkLineSource;

namespace clab {

/// \brief A system written as equations, drawn from its file's "view": a sphere per point,
/// a rod per link (to another point or the origin), a tube per curve (a wire, a ring).
///
/// Without points, coordinates taken in (x, y, z) triples (or (x, y) pairs) are drawn as
/// particles. The force arrows start at the last point: a generalized force F is drawn as the
/// force f at that point whose generalized force comes closest to F, f = (J Jᵀ)⁺ J F with
/// J = ∂p/∂q (the force itself when the point's position is three of the coordinates).
class SymbolicSystemGeometry : public SceneGeometry {
public:
    SymbolicSystemGeometry(std::shared_ptr<const SymbolicModel> model,
                           const ParameterValues& values);
    ~SymbolicSystemGeometry() override;

    void fitToTrace(const Trace& trace) override;
    void update(const TraceSample& sample) override;
    Eigen::Vector3d bodyPosition(const Eigen::VectorXd& q) const override;
    Eigen::Vector3d forceVector(const Eigen::VectorXd& q, const Eigen::VectorXd& F) const override;
    /// Every view point can be grabbed.
    int grabPointCount() const override { return pointCount(); }
    Eigen::Vector3d grabPoint(int i, const Eigen::VectorXd& q) const override
    {
        return pointPosition(i, q, t_);
    }
    /// Every point but the last (which is the body) carries arrows too.
    int extraArrowPointCount() const override { return std::max(0, pointCount() - 1); }
    Eigen::Vector3d extraArrowOrigin(int i, const TraceSample& sample) const override;
    Eigen::Vector3d extraArrowVector(int i, const TraceSample& sample,
                                     ForceKind kind) const override;
    double sceneSize() const override { return size_; }
    Eigen::AlignedBox3d frameBox() const override;
    /// The file's "up" axis; with z up, an oblique view from the front right and above.
    Eigen::Vector3d viewUp() const override;
    Eigen::Vector3d viewDirection() const override;

    int pointCount() const { return static_cast<int>(points_.size()); }
    /// Position of point i at (q, t); the origin for −1.
    Eigen::Vector3d pointPosition(int i, const Eigen::VectorXd& q, double t) const;

private:
    /// The force at point i whose generalized force comes closest to F: (J Jᵀ)⁺ J F.
    Eigen::Vector3d forceAt(int i, const Eigen::VectorXd& q, double t,
                            const Eigen::VectorXd& F) const;
    void addCurves();

    std::shared_ptr<const SymbolicModel> model_;
    SymbolicView view_;
    mutable Eigen::VectorXd xyz_;
    int n_ = 0;
    std::vector<vtkSmartPointer<vtkActor>> points_;
    struct Link {
        int a, b; ///< point indices, −1 for the origin
        vtkSmartPointer<vtkLineSource> line;
    };
    std::vector<Link> links_;
    double size_ = 1.0;
    /// Time of the sample shown: bodyPosition(q) has no t, and a point may move with t
    /// (the rim of a turning hoop).
    double t_ = 0.0;
    Eigen::AlignedBox3d fixedBox_; ///< curves and the origin when linked
    Eigen::AlignedBox3d motion_;   ///< every point over the last trace
};

} // namespace clab
