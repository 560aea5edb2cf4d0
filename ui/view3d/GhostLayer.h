#pragma once

#include "view3d/geometry/SceneGeometry.h"

#include <Eigen/Geometry>
#include <QString>

#include <memory>
#include <vector>

class vtkRenderer;

namespace clab {

class CameraRig;
class TextPlacer;
class Trace;

/// \brief The runs compared with the current one (compare mode): each a faded trail, a sphere
/// where its body is at the current time and a caption with its label, set beside the sphere
/// where it hides nothing else.
class GhostLayer {
public:
    /// Trails and spheres go on `scene`, captions and their leader lines on `overlay`; both
    /// must outlive the layer.
    GhostLayer(vtkRenderer* scene, vtkRenderer* overlay);
    ~GhostLayer();
    GhostLayer(const GhostLayer&) = delete;
    GhostLayer& operator=(const GhostLayer&) = delete;

    /// A run labelled `label`, drawn in the colour of compare run count() (runColor).
    void add(std::shared_ptr<const Trace> trace, const QString& label);
    void clear();
    int count() const { return static_cast<int>(ghosts_.size()); }
    bool empty() const { return ghosts_.empty(); }

    /// Every run's trail as `geometry` draws it.
    void rebuild(const SceneGeometry* geometry);
    /// Each run's body where it is at `time`.
    void show(const SceneGeometry& geometry, double time);
    /// Appends every run's samples to `samples` (the constraint must carry them all).
    void appendSamples(std::vector<TraceSample>& samples) const;
    /// Extends `box` by every run's trail.
    void extendBox(Eigen::AlignedBox3d& box) const;
    void addLegendEntries(std::vector<SceneGeometry::LegendEntry>& entries) const;

    /// The boxes on screen (pixels) of the shown bodies, `radius` pixels around each.
    void addBodyBoxes(double radius, std::vector<Eigen::AlignedBox2d>& boxes) const;
    /// Sizes the captions' text and places each caption beside its body, as near as `placer`
    /// finds room (with a leader line when further off than the first ring, hidden when there
    /// is none); the first ring starts `bodyRadius` pixels out.
    void layoutCaptions(int fontPoints, TextPlacer& placer, double bodyRadius);

private:
    struct Ghost;
    void placeCaption(Ghost& ghost, TextPlacer& placer, double bodyRadius);

    vtkRenderer* scene_;
    vtkRenderer* overlay_;
    std::vector<std::unique_ptr<Ghost>> ghosts_;
};

} // namespace clab
