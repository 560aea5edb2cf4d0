#pragma once

#include "view3d/geometry/SceneGeometry.h"

#include <scenes/Chain.h>

class vtkPoints;
class vtkPolyData;
class vtkRegularPolygonSource;

namespace clab {

/// \brief Chain of many links: every bob a point of one actor, shaded as a sphere, and the links
/// one polyline, so that a thousand links are two actors, not two thousand; the pivot(s) as
/// small blocks. The force arrows and the trail are on one chosen bob, circled, the free end
/// (the last bob) unless chooseBody() picks another.
///
/// Drawing and the chosen bob depend only on the number of bobs N and the coordinate layout
/// xᵢ = q[2(i − 1)], yᵢ = q[2(i − 1) + 1], not on Chain: a scene with the same layout (a chain
/// lying free on a table) derives from this class through the protected constructor.
class ChainGeometry : public SceneGeometry {
public:
    explicit ChainGeometry(const Chain& system);

    void update(const TraceSample& sample) override;
    /// Sizes the bob sprites to a sphere of bobRadius() at the chain's depth.
    void beforeRender(vtkRenderer* renderer) override;
    /// The chosen bob.
    Eigen::Vector3d bodyPosition(const Eigen::VectorXd& q) const override;
    /// The chosen bob's generalized force components, as a vector in the plane.
    Eigen::Vector3d forceVector(const Eigen::VectorXd& q, const Eigen::VectorXd& F) const override;
    double sceneSize() const override { return 2.2 * length_; }
    /// The chain can reach a circle of its length about the pivot (a subclass without one frames
    /// its own).
    Eigen::AlignedBox3d frameBox() const override;
    Eigen::Vector3d viewDirection() const override { return Eigen::Vector3d::UnitZ(); }

    int bodyCount() const override { return links_; }
    void chooseBody(int body) override;
    int chosenBody() const override { return chosen_; }
    QString bodyNoun() const override { return QStringLiteral("bob"); }
    /// Bob `body`'s (xᵢ, yᵢ); zero for a q too short to hold it.
    Eigen::Vector3d bodyPositionOf(int body, const Eigen::VectorXd& q) const override;
    /// Bob `body`'s components (F[2(i − 1)], F[2(i − 1) + 1]); zero for an F too short.
    Eigen::Vector3d forceVectorOf(int body, const Eigen::VectorXd& q,
                                  const Eigen::VectorXd& F) const override;

    int bobCount() const { return links_; }
    /// Where bob i (1…N) is drawn now; i = 0 is the pivot of an anchored chain.
    Eigen::Vector3d drawnBob(int i) const;
    /// Where the circle around the chosen bob is drawn now.
    Eigen::Vector3d circledBob() const;
    double circleRadius() const;
    /// Radius of the bob spheres.
    double bobRadius() const { return bobRadius_; }
    /// Diameter of a bob on screen, in pixels, as the last beforeRender() set it.
    double bobPixels() const { return bobPixels_; }
    /// Number of actors the chain is drawn with (independent of the number of links).
    std::size_t actorCount() const { return actors_; }

protected:
    /// N = `links` bobs and the polyline through them, of total length `length`. Anchored: the
    /// polyline starts at a pivot at the origin (drawn by the caller); free: at bob 1.
    ChainGeometry(int links, double length, bool anchored);
    /// Adds a prop of the subclass's own (pivots, a table) and counts it as an actor.
    void addChainProp(vtkProp* prop);
    double chainLength() const { return length_; }

private:
    int links_;
    double length_;
    int first_;  ///< index of bob 1 among the points: 1 after a pivot, 0 for a free chain
    int chosen_; ///< the bob carrying the arrows and the trail (1…N)
    double bobRadius_;
    std::size_t actors_ = 0;
    vtkSmartPointer<vtkPoints> bobs_;      // the pivot (if anchored) and bob positions
    vtkSmartPointer<vtkPolyData> chain_;   // points + one polyline through them
    vtkSmartPointer<vtkPolyData> centres_; // one vertex per bob (no pivot)
    vtkSmartPointer<vtkActor> bobActor_;   // the bobs, as sprites shaded as spheres
    double bobPixels_ = 6.0;
    vtkSmartPointer<vtkRegularPolygonSource> ring_; // the circle around the chosen bob
};

} // namespace clab
