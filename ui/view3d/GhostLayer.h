#pragma once

#include "view3d/geometry/SceneGeometry.h"

#include <Eigen/Geometry>
#include <QString>

#include <memory>
#include <vector>

class vtkRenderer;

namespace clab {

class CameraRig;
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

    /// A run labelled `label`, its caption's text `fontPixels` high until the next layout.
    void add(std::shared_ptr<const Trace> trace, const QString& label, int fontPixels);
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
    /// Sizes the captions' text and places each caption beside its body, clear of `taken` and
    /// of the captions placed before it; the first ring starts `bodyRadius` pixels out.
    void layoutCaptions(int fontPoints, std::vector<Eigen::AlignedBox2d> taken, double bodyRadius);

private:
    struct Ghost;
    /// Where the caption of a box of `size` with its anchor at `anchor` goes: the nearest
    /// place clear of `taken` in the view; `ring` says how far out it was found (-1: nowhere,
    /// then it is moved up until clear).
    Eigen::Vector2d findPlace(const Eigen::Vector2d& anchor, const Eigen::Vector2d& size,
                              const std::vector<Eigen::AlignedBox2d>& taken, double first,
                              int& ring) const;
    void placeCaption(Ghost& ghost, std::vector<Eigen::AlignedBox2d>& taken, double bodyRadius);

    vtkRenderer* scene_;
    vtkRenderer* overlay_;
    std::vector<std::unique_ptr<Ghost>> ghosts_;
};

} // namespace clab
