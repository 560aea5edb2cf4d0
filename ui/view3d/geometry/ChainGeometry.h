#pragma once

#include "view3d/geometry/SceneGeometry.h"

#include <scenes/Chain.h>

class vtkPoints;
class vtkPolyData;

namespace clab {

/// \brief Chain of many links: every bob a sphere glyph of one vtkGlyph3DMapper and the links
/// one polyline, so that a thousand links are two actors, not two thousand; the pivot(s) as
/// small blocks. The body whose force arrows and trail are drawn is the free end (the last bob).
class ChainGeometry : public SceneGeometry {
public:
    explicit ChainGeometry(const Chain& system);

    void update(const TraceSample& sample) override;
    Eigen::Vector3d bodyPosition(const Eigen::VectorXd& q) const override;
    /// The last bob's generalized force components, as a vector in the plane.
    Eigen::Vector3d forceVector(const Eigen::VectorXd& q, const Eigen::VectorXd& F) const override;
    double sceneSize() const override { return 2.2 * length_; }
    /// The chain can reach a circle of its length about the pivot.
    Eigen::AlignedBox3d frameBox() const override;
    Eigen::Vector3d viewDirection() const override { return Eigen::Vector3d::UnitZ(); }

    int bobCount() const { return links_; }
    /// Where bob i (1…N; 0 is the pivot) is drawn now.
    Eigen::Vector3d drawnBob(int i) const;
    /// Number of actors the chain is drawn with (independent of the number of links).
    std::size_t actorCount() const { return actors_; }

private:
    int links_;
    double length_;
    std::size_t actors_ = 0;
    vtkSmartPointer<vtkPoints> bobs_;      // the bob positions the glyphs and the line share
    vtkSmartPointer<vtkPolyData> chain_;   // points + one polyline through the pivot and bobs
    vtkSmartPointer<vtkPolyData> centres_; // points only, the glyph mapper's input
};

} // namespace clab
