#pragma once

#include "plots/ForceKind.h"
#include "view3d/ArrowField.h"
#include "view3d/ForceArrow.h"
#include "view3d/WorldLabel.h"
#include "view3d/geometry/SceneGeometry.h"

#include <Eigen/Geometry>
#include <QString>

#include <array>
#include <memory>
#include <span>
#include <vector>

class vtkRenderer;

namespace clab {

class CameraRig;
class TextPlacer;

/// \brief The force arrows of the 3D view: the three large arrows at the chosen body, those at
/// the geometry's other points, the field of small arrows at every k-th body, and each large
/// arrow's magnitude label.
///
/// One scale for the run: the largest force (spikes left out) is 40 % of the scene, a kind far
/// smaller is drawn 2, 5, 10, … times longer (its boost), and a spike is cut to its kind's
/// longest arrow and marked so.
class ArrowLayer {
public:
    /// The field draws at most this many arrows of each kind.
    static constexpr int kMaxFieldArrows = 48;
    /// The bodies a field of `count` bodies is drawn at: count, count − k, count − 2k, … ≥ 1.
    static std::vector<int> fieldBodiesFor(int count);

    /// Adds the arrows, the field and the labels to `overlay`, which must outlive the layer.
    explicit ArrowLayer(vtkRenderer* overlay);
    ~ArrowLayer();
    ArrowLayer(const ArrowLayer&) = delete;
    ArrowLayer& operator=(const ArrowLayer&) = delete;

    /// The field's bodies for a scene of `bodyCount` bodies (none for one body).
    void setBodyCount(int bodyCount);
    /// One set of arrows per other point of `geometry` (SceneGeometry::extraArrowPointCount).
    void matchPoints(const SceneGeometry* geometry);
    /// Scales every arrow for the forces of `samples` (the run, or the initial sample).
    void fitScale(const SceneGeometry* geometry, std::span<const TraceSample> samples);
    /// Draws the forces of `sample` as `geometry` puts them.
    void show(const SceneGeometry& geometry, const TraceSample& sample);
    void clear();

    void setForceVisible(ForceKind kind, bool visible);
    bool isForceVisible(ForceKind kind) const { return arrows_[index(kind)].isEnabled(); }
    /// Arrow length per unit of force relative to the automatic scale; call fitScale after.
    void setScale(double scale);
    double scale() const { return scale_; }
    double automaticScale() const { return autoScale_; }
    double boost(ForceKind kind) const { return boost_[index(kind)]; }
    /// True when the run has a force of `kind` worth an arrow (not round-off).
    bool hasForce(ForceKind kind) const { return maxForceOfKind_[index(kind)] != 0.0; }

    void setFieldVisible(bool visible) { fieldVisible_ = visible; }
    bool isFieldVisible() const { return fieldVisible_; }
    /// The bodies the field is drawn at now (empty when hidden or a single body).
    std::vector<int> shownFieldBodies() const;
    bool isFieldShown() const { return fieldVisible_ && !fieldBodies_.empty(); }
    const ArrowField& field(ForceKind kind) const { return field_[index(kind)]; }
    double fieldShrink() const { return fieldShrink_; }
    /// The field's legend row ("small arrows: every 21st bob, drawn ×0.05").
    QString fieldLegend(const QString& bodyNoun) const;

    void setMagnitudesVisible(bool visible) { magnitudesVisible_ = visible; }
    bool areMagnitudesVisible() const { return magnitudesVisible_; }
    QString magnitudeText(ForceKind kind) const;

    const ForceArrow& arrow(ForceKind kind) const { return arrows_[index(kind)]; }

    /// The legend's rows of the forces this run shows, and what they may say while the
    /// parameters are tuned (every force, drawn longer).
    void addLegendEntries(const SceneGeometry& geometry,
                          std::vector<SceneGeometry::LegendEntry>& entries) const;
    /// The field's row, while it shows.
    void addFieldLegendEntry(const QString& bodyNoun,
                             std::vector<SceneGeometry::LegendEntry>& entries) const;
    static void addLegendReserve(const SceneGeometry& geometry, std::vector<QString>& reserve);

    /// Sizes the labels' text and puts each beyond its arrow's tip on screen, or as near it as
    /// `placer` finds room (hidden when there is none).
    void layoutLabels(const CameraRig& camera, vtkRenderer* overlay, int fontPoints,
                      TextPlacer& placer);
    /// Puts `label` (lower-left justified, pinned at the tip of the drawn `arrow`) beyond the
    /// tip along the arrow on screen, or as near it as `placer` finds room (hidden when none).
    static void placeBeyondTip(WorldLabel& label, const ForceArrow& arrow, const CameraRig& camera,
                               vtkRenderer* overlay, TextPlacer& placer);
    /// The shortest a drawn large arrow is on screen, for text `fontPixels` high.
    static double minimumPixels(int fontPixels) { return 1.5 * fontPixels; }
    /// Draws every large arrow whose force is not zero but whose arrow would be shorter on
    /// screen than `pixels` at that length instead, faint and labelled with its magnitude (a
    /// friction near a turning point would be a speck); the others to scale.
    void keepVisible(const CameraRig& camera, double pixels);
    /// True when the arrow of `kind` is drawn longer than its force (keepVisible).
    bool isLengthened(ForceKind kind) const { return arrows_[index(kind)].isLengthened(); }
    /// The large arrows on screen, base to tip, for text to keep clear of.
    void addObstacles(const CameraRig& camera, TextPlacer& placer) const;

private:
    static int index(ForceKind kind) { return static_cast<int>(kind); }
    /// Every arrow's force magnitudes over the run, from which fitScale scales them.
    struct Series {
        /// Per kind, one series per arrow: the body's, each extra point's, each field body's.
        /// A spike is judged against the arrow's own history, not against the other bodies'.
        std::array<std::vector<std::vector<double>>, 3> series;
        /// Per kind, every field body's non-zero force at every sample.
        std::array<std::vector<double>, 3> fieldForces;
        double largestGeneralized = 0.0; ///< the largest generalized force of any kind
    };
    Series collect(const SceneGeometry& geometry, std::span<const TraceSample> samples) const;
    void fitKinds(Series& collected);
    void styleArrows(double sceneSize);
    /// The field's shrink from every field body's forces over the run (reordered in place),
    /// once the large arrows' scale is known.
    void fitField(const SceneGeometry* geometry, const TraceSample* first,
                  std::array<std::vector<double>, 3>& fieldForces);
    /// A force of `kind` as an arrow vector: scaled (times `shrink`, the field's), and cut to
    /// the kind's longest arrow (`cut`, when given, says whether it was).
    Eigen::Vector3d drawnArrow(ForceKind kind, const Eigen::Vector3d& force, double shrink = 1.0,
                               bool* cut = nullptr) const;
    /// Draws `force` (of `kind`, at a body of `radius` centred at `at`) with `arrow`, from the
    /// body's surface where geometry.arrowStart puts it, marked when cut.
    void placeArrow(ForceArrow& arrow, ForceKind kind, const Eigen::Vector3d& at, double radius,
                    const Eigen::Vector3d& force, const SceneGeometry& geometry,
                    const TraceSample& sample) const;
    void showBodyArrows(const SceneGeometry& geometry, const TraceSample& sample);
    void showPointArrows(const SceneGeometry& geometry, const TraceSample& sample);
    void showField(const SceneGeometry& geometry, const TraceSample& sample);

    vtkRenderer* overlay_;
    std::array<ForceArrow, 3> arrows_;
    /// Each large arrow's vector to scale, as show() placed it (keepVisible may draw it longer).
    std::array<Eigen::Vector3d, 3> toScale_;
    /// Arrows at the geometry's other points, drawn and scaled like the body's; heap-held so
    /// that their actors keep their place.
    std::vector<std::unique_ptr<std::array<ForceArrow, 3>>> pointArrows_;
    double maxForce_ = 0.0;
    /// Each kind's largest force of the run, spikes left out (what its longest arrow shows).
    std::array<double, 3> maxForceOfKind_ = {0.0, 0.0, 0.0};
    /// Whether a kind has spikes left out of its scale (their arrows are cut; the legend says).
    std::array<bool, 3> spiked_ = {false, false, false};
    std::array<double, 3> boost_ = {1.0, 1.0, 1.0};
    double autoScale_ = 1.0;
    double scale_ = 1.0;
    bool fieldVisible_ = false;
    std::vector<int> fieldBodies_;    ///< every k-th body, whether the field shows or not
    std::array<ArrowField, 3> field_; ///< on the overlay
    double fieldShrink_ = 1.0;
    std::array<WorldLabel, 3> magnitudeLabels_;
    bool magnitudesVisible_ = false;
};

} // namespace clab
