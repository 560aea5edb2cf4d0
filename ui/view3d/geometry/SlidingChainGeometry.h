#pragma once

#include "view3d/geometry/ChainGeometry.h"

#include <scenes/SlidingChain.h>

namespace clab {

/// \brief Chain sliding off a table: the chain of ChainGeometry without a pivot, on a table
/// whose cross-section is the scene's path (top, rounded edge, side) drawn a bob's radius below
/// the bobs' centres, so that the bobs rest on it. The Forces dock reads the hanging length and
/// the speed along the path.
class SlidingChainGeometry : public ChainGeometry {
public:
    explicit SlidingChainGeometry(const SlidingChain& system);

    /// The table top the chain lies on, the edge and the side it falls down.
    Eigen::AlignedBox3d frameBox() const override;
    QStringList readouts(const TraceSample& sample) const override;
    /// From the front, above and to the right: the table top and the side the chain falls down.
    Eigen::Vector3d viewDirection() const override { return Eigen::Vector3d(0.5, 0.5, 1.0); }

    /// The outline of the table's cross-section in the plane z = 0, counter-clockwise.
    const std::vector<Eigen::Vector2d>& tableOutline() const { return outline_; }

private:
    double radius_;
    std::vector<Eigen::Vector2d> outline_;
};

} // namespace clab
