#pragma once

#include "view3d/ForceArrow.h"
#include "view3d/WorldLabel.h"
#include "view3d/geometry/SceneGeometry.h"

#include <Eigen/Dense>
#include <QString>

#include <vector>

class vtkRenderer;

namespace clab {

class CameraRig;
class TextPlacer;
class Trace;

/// \brief The impulse of each impact of a one-sided contact (docs/MATH.md §11), drawn as an
/// arrow at the body or point that was struck for a short while of the run's time after the
/// impact, then gone; labelled with its magnitude in N·s while the force magnitudes are
/// labelled. Of contacts struck at the same instant, the largest impulse shows.
///
/// An impulse has no common scale with the forces: the run's largest impulse is drawn 30 % of
/// the scene long, the others in proportion but never shorter than 12 % (then faint, as a
/// lengthened force arrow), so that the last small bounces of a ball still show an arrow. An
/// impulse below a thousandth of the largest draws none (a speck, or rounding at an event).
class ImpulseArrow {
public:
    /// How long (seconds of the run's time) an impact's arrow shows after it.
    static constexpr double kShownFor = 0.15;
    /// Its colour, and the legend's row when the run has impacts.
    static QColor color() { return QColor(0xCC, 0x79, 0xA7); }
    static QString legendLabel() { return QStringLiteral("impulse (impact)"); }

    /// Adds the arrow and its label to `overlay`, which must outlive them.
    explicit ImpulseArrow(vtkRenderer* overlay);

    /// The impacts of the run `trace` drawn by `geometry` (none without either).
    void rebuild(const SceneGeometry* geometry, const Trace* trace);
    /// Shows the latest impact at or before t if it is less than kShownFor before t.
    void setTime(double t);
    void setLabelVisible(bool visible);

    /// True while an impact's arrow is drawn.
    bool isShown() const { return shown_ >= 0 && arrow_.isDrawn(); }
    /// The shown impact's impulse (N·s) as a vector in space, zero when none shows.
    Eigen::Vector3d shownImpulse() const;
    /// The label's text while it shows, else empty.
    QString labelText() const;
    const ForceArrow& arrow() const { return arrow_; }
    const WorldLabel& label() const { return label_; }

    void addLegendEntry(std::vector<SceneGeometry::LegendEntry>& entries) const;
    /// Sizes the label `fontPoints` high and places it beyond the arrow's tip, clear of the
    /// texts `placer` holds (hidden when there is no room).
    void layoutLabel(const CameraRig& camera, vtkRenderer* overlay, int fontPoints,
                     TextPlacer& placer);
    /// The arrow on screen, for text to keep clear of.
    void addObstacle(const CameraRig& camera, TextPlacer& placer) const;

private:
    struct Impact {
        double t = 0.0;
        Eigen::Vector3d at = Eigen::Vector3d::Zero();      ///< the body where it was struck
        Eigen::Vector3d impulse = Eigen::Vector3d::Zero(); ///< N·s (or N·m·s), in space
    };
    void show();

    std::vector<Impact> impacts_;
    int shown_ = -1;
    double metresPerImpulse_ = 0.0;
    double shortest_ = 0.0; ///< scene units
    double radius_ = 0.0;   ///< the body's, where the arrow starts
    QString unit_;
    bool labelVisible_ = false;
    ForceArrow arrow_;
    WorldLabel label_;
};

} // namespace clab
