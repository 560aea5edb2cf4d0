#pragma once

#include "view3d/WorldLabel.h"
#include "view3d/geometry/SceneGeometry.h"

#include <study/Measurements.h>

#include <Eigen/Dense>
#include <QColor>
#include <QString>
#include <vtkSmartPointer.h>

#include <optional>
#include <utility>
#include <vector>

class vtkActor;
class vtkPolyData;
class vtkRenderer;
class vtkSphereSource;

namespace clab {

class TextPlacer;
class Trace;

/// \brief Marks on the moving scene: the measured values (the Fit dock's) as instanced spheres
/// where they put the body, and events at the body ("stuck" while a frictional contact sticks).
///
/// Both sit on the overlay layer, so that a wire or a ring never hides them.
class MarkerLayer {
public:
    /// Adds the markers and the event label to `overlay`, which must outlive the layer.
    explicit MarkerLayer(vtkRenderer* overlay);
    ~MarkerLayer();
    MarkerLayer(const MarkerLayer&) = delete;
    MarkerLayer& operator=(const MarkerLayer&) = delete;

    /// The measured values and one colour per column (parallel to measured.columns); call
    /// rebuild to place them.
    void setMeasured(const Measurements& measured, const std::vector<QColor>& colors);
    /// Places the markers on the run `trace` drawn by `geometry` (none without either).
    void rebuild(const SceneGeometry* geometry, const Trace* trace);
    const std::vector<Eigen::Vector3d>& positions() const { return positions_; }
    QColor color() const { return color_; }
    /// The legend's row of the markers ("measured pos_cm"), when they show.
    void addLegendEntry(std::vector<SceneGeometry::LegendEntry>& entries) const;

    /// Says "stuck" beside the body at `origin` while a contact of `sample` sticks.
    void showEvents(const TraceSample& sample, const Eigen::Vector3d& origin);
    void hideEvents();
    bool isStuckShown() const;
    /// Sizes "stuck" and places it `offset` pixels down and left of the body, or as near as
    /// `placer` finds room (hidden when there is none).
    void layoutStuck(int fontPoints, double offset, TextPlacer& placer);

private:
    void placeByCoordinates(const SceneGeometry& geometry, const Trace& trace,
                            const std::vector<std::pair<std::size_t, std::size_t>>& coordinates);
    std::optional<std::size_t> placeByQuantity(const SceneGeometry& geometry, const Trace& trace);
    void upload(const SceneGeometry* geometry);

    Measurements measured_;
    std::vector<QColor> colors_;
    std::vector<Eigen::Vector3d> positions_;
    QColor color_;
    QString label_; ///< legend entry: "measured pos_cm"
    vtkSmartPointer<vtkPolyData> points_;
    vtkSmartPointer<vtkSphereSource> glyph_;
    vtkSmartPointer<vtkActor> actor_;
    vtkRenderer* overlay_;
    WorldLabel stuckLabel_;
};

} // namespace clab
