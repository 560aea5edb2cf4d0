#pragma once

#include "plots/ForceKind.h"
#include "view3d/ArrowField.h"
#include "view3d/ForceArrow.h"
#include "view3d/LegendOverlay.h"
#include "view3d/TrailActor.h"
#include "view3d/WorldLabel.h"
#include "view3d/geometry/SceneGeometry.h"

#include <study/Measurements.h>
#include <model/ParameterSpec.h>
#include <scenes/SceneDocument.h>
#include <trace/Trace.h>

#include <QColor>
#include <QString>
#include <QStringList>

#include <vtkSmartPointer.h>

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

class vtkActor;
class vtkAxesActor;
class vtkObject;
class vtkPolyData;
class vtkSphereSource;
class vtkRenderWindow;
class vtkRenderer;
class vtkTextActor;

namespace clab {

/// \brief Everything the 3D view draws, in one vtkRenderer: scene geometry, body, trail,
/// force arrows, ghosts, legend, captions, axes triad, background and camera framing.
///
/// Knows nothing about windows or OpenGL contexts, so the same content can be shown in the
/// widget and rendered off screen (SceneView keeps one of each, fed the same state).
class SceneViewContent {
public:
    SceneViewContent();
    ~SceneViewContent();
    SceneViewContent(const SceneViewContent&) = delete;
    SceneViewContent& operator=(const SceneViewContent&) = delete;

    /// Adds the content's renderers (scene; arrows and the axes triad on layers above) to a
    /// window.
    void attachTo(vtkRenderWindow* window);
    vtkRenderer* renderer() const { return renderer_; }
    /// The layer drawn over the scene: force arrows and the captions of compare runs.
    vtkRenderer* overlayRenderer() const { return arrowRenderer_; }

    /// Builds a built-in scene from complete parameter values; throws ConstraintLabError for an
    /// unknown scene. Drops the trace; keeps the ghosts when the scene name is unchanged.
    void setScene(const std::string& sceneName, const ParameterValues& values);
    /// The document's scene (built in or a system) with its parameters, which must be complete.
    void setScene(const SceneDocument& document);
    bool hasScene() const { return geometry_ != nullptr; }
    void setTrace(std::shared_ptr<const Trace> trace);
    void setTime(double t);
    double time() const { return time_; }

    void setForceVisible(ForceKind kind, bool visible);
    bool isForceVisible(ForceKind kind) const;
    void setArrowScale(double scale);
    double arrowScale() const { return arrowScale_; }
    void setLegendVisible(bool visible);
    bool isLegendVisible() const { return legend_.isVisible(); }

    /// Measured values (the Fit dock's) as small markers where they put the body, one colour
    /// per column (`colors`, parallel to measured.columns). Measured coordinates replace the
    /// run's coordinates at the measured times (x, y, z columns: that point); any other quantity
    /// (a bead's s, a ring's φ) puts the marker where the run's path takes that value, on the
    /// stretch nearest in time, continued along its first or last stretch beyond the run's
    /// range. Needs a trace; hidden without markers.
    void setMeasured(const Measurements& measured, const std::vector<QColor>& colors);
    /// Where the markers are drawn (empty when hidden) and their colour.
    const std::vector<Eigen::Vector3d>& measuredMarkers() const { return markerPositions_; }
    QColor measuredMarkerColor() const { return markerColor_; }

    void addGhost(std::shared_ptr<const Trace> trace, const QString& label);
    void clearGhosts();
    int ghostCount() const { return static_cast<int>(ghosts_.size()); }

    /// Points the camera at the scene from its preset direction so that the constraint and the
    /// motion fill a view of width × height pixels (the renderer's current size when not given).
    void frameCamera(int width = 0, int height = 0);

    /// Bodies the arrows and the trail can be put on (a chain's bobs, 1…count; 1 for a scene
    /// with one body), and the one they are on.
    int bodyCount() const;
    int chosenBody() const;
    QString bodyNoun() const;
    /// Puts the force arrows and the trail on `body`, clamped to 1…bodyCount(); 0 (the default)
    /// is the last body, a chain's free end. The choice is kept when a scene is replaced, and
    /// clamped to the new scene's bodies.
    void setChosenBody(int body);
    /// A field of small arrows: each kind at every k-th body (the last, the k-th before it, …),
    /// k the smallest that draws at most kMaxFieldArrows per kind, each kind one glyph mapper.
    /// Only scenes with several bodies have one.
    void setArrowFieldVisible(bool visible);
    bool isArrowFieldVisible() const { return fieldVisible_; }
    static constexpr int kMaxFieldArrows = 48;
    /// The bodies a field of `count` bodies is drawn at: count, count − k, count − 2k, … ≥ 1.
    static std::vector<int> fieldBodiesFor(int count);
    /// The bodies the field is drawn at now (empty when hidden or a single body).
    std::vector<int> arrowFieldBodies() const;
    /// The field of `kind` as drawn (its glyph points and vectors).
    const ArrowField& arrowField(ForceKind kind) const { return field_[static_cast<int>(kind)]; }
    /// How much shorter than the large arrows' (at the same force) the field's arrows are drawn,
    /// so that they fit between the bodies they sit on (1, 1/2, 1/5, 1/10, …).
    double arrowFieldShrink() const { return fieldShrink_; }
    /// The field's legend row: which bodies, how much shorter ("small arrows: every 21st bob,
    /// drawn ×0.05").
    QString arrowFieldLegend() const;
    /// The legend's rows, as shown.
    QStringList legendLabels() const;
    /// Where the arrow of `kind` starts and its vector (scene units), as last placed.
    Eigen::Vector3d arrowBase(ForceKind kind) const;
    Eigen::Vector3d arrowVector(ForceKind kind) const;
    /// The trail's points (the chosen body's path over the whole run).
    const std::vector<Eigen::Vector3d>& trailPath() const { return trail_.path(); }

    /// True when the arrow of `kind` is on screen (enabled, and the force above threshold).
    bool isArrowDrawn(ForceKind kind) const;
    /// True when the arrow of `kind` is drawn cut (shorter than its force) and so marked.
    bool isArrowMarkedCut(ForceKind kind) const;
    /// Length in scene units the arrow of `kind` has at the current time (0 when not drawn).
    double arrowLength(ForceKind kind) const;
    /// The scene's characteristic length (wire length, ring diameter), 0 without a scene.
    double sceneSize() const;
    /// Scene units per unit of force at arrowScale() = 1.
    double automaticArrowScale() const { return autoScale_; }
    /// How many times longer than the common scale the arrows of `kind` are drawn (1, 2, 5,
    /// 10, …): a force far smaller than the largest one (friction beside gravity) would be a
    /// wedge beside the body. The legend says so.
    double arrowBoost(ForceKind kind) const { return boost_[static_cast<int>(kind)]; }
    /// Each drawn arrow labelled with its true magnitude at its tip ("1.27 N").
    void setMagnitudesVisible(bool visible);
    bool areMagnitudesVisible() const { return magnitudesVisible_; }
    /// The magnitude label of `kind` as drawn (empty when hidden).
    QString magnitudeText(ForceKind kind) const;
    /// True when the "stuck" mark beside the body shows (a frictional contact sticks).
    bool isStuckShown() const;
    /// The scene's words for its forces (Forces dock): unit, description, magnitude of the
    /// force as drawn (a torque for the rigid body) at the current time, other readouts.
    QString forceUnit() const;
    QString forceDescription(ForceKind kind) const;
    double forceMagnitude(ForceKind kind) const;
    QStringList readouts() const;
    /// The sample shown (nullptr before any scene).
    const TraceSample* currentSample() const;

    /// Text size in pixels for a view of width × height pixels: legible from the back of a
    /// classroom at full screen, not crowding a small window.
    static int fontPixelsFor(int width, int height);

private:
    struct Ghost;

    /// Fits the constraint geometry to the current run and the ghosts.
    void fitGeometry();
    void rebuildTrail();
    void rebuildMarkers();
    void rebuildGhost(Ghost& ghost);
    /// Every arrow's force magnitudes over the run, from which updateArrowStyle scales them.
    struct ArrowSeries {
        /// Per kind, one series per arrow: the body's, each extra point's, each field body's.
        /// A spike is judged against the arrow's own history, not against the other bodies'.
        std::array<std::vector<std::vector<double>>, 3> series;
        /// Per kind, every field body's non-zero force at every sample.
        std::array<std::vector<double>, 3> fieldForces;
        double largestGeneralized = 0.0; ///< the largest generalized force of any kind
    };
    ArrowSeries collectArrowSeries() const;
    void updateArrowStyle();
    /// The field's shrink and smallest arrow from every field body's forces over the run
    /// (reordered in place), once the large arrows' scale is known.
    void fitArrowField(std::array<std::vector<double>, 3>& fieldForces);
    void updateLegend();
    void updateCaptions();
    void showSample();
    /// Lays the legend out for the view; returns how far below its usual place it went (pixels).
    int layoutLegend(int width, int height, int font, double dpi);
    void placeGhostCaptions();
    void placeMagnitudeLabels();
    /// Where a scene point is in the view, in display pixels.
    Eigen::Vector2d toDisplay(const Eigen::Vector3d& point) const;
    void onStartRender(vtkObject* caller, unsigned long eventId, void* callData);

    vtkSmartPointer<vtkRenderer> renderer_;
    /// Force arrows on a layer above the scene, same camera: never hidden by ground or ring.
    vtkSmartPointer<vtkRenderer> arrowRenderer_;
    vtkSmartPointer<vtkRenderer> triadRenderer_;
    vtkSmartPointer<vtkAxesActor> triad_;
    std::unique_ptr<SceneGeometry> geometry_;
    std::string sceneName_;
    SystemRef system_;
    QString sceneTitle_;
    std::shared_ptr<const Trace> trace_;
    std::optional<TraceSample> initialSample_;
    std::size_t index_ = 0;
    double time_ = 0.0;

    TrailActor trail_;
    std::array<ForceArrow, 3> arrows_;
    /// Arrows at the geometry's other points (SceneGeometry::extraArrowPointCount), drawn and
    /// scaled like the body's; heap-held so that their actors keep their place.
    std::vector<std::unique_ptr<std::array<ForceArrow, 3>>> pointArrows_;
    void rebuildPointArrows();
    /// A force of `kind` as an arrow vector: scaled (times `shrink`, the field's), and cut to
    /// the kind's longest arrow (`cut`, when given, says whether it was).
    Eigen::Vector3d drawnArrow(ForceKind kind, const Eigen::Vector3d& force, double shrink = 1.0,
                               bool* cut = nullptr) const;
    /// Draws `force` (of `kind`, at a body centred at `at`) with `arrow`, from the body's surface,
    /// marked when cut.
    void placeArrow(ForceArrow& arrow, ForceKind kind, const Eigen::Vector3d& at,
                    const Eigen::Vector3d& force) const;
    double maxForce_ = 0.0;
    /// Each kind's largest force of the run, spikes left out (what its longest arrow shows).
    std::array<double, 3> maxForceOfKind_ = {0.0, 0.0, 0.0};
    /// Whether a kind has spikes left out of its scale (their arrows are cut; the legend says).
    std::array<bool, 3> spiked_ = {false, false, false};
    std::array<double, 3> boost_ = {1.0, 1.0, 1.0};
    /// Applies chosenRequest_ to the geometry and picks the field's bodies.
    void applyBodyChoice();
    void showArrowField(const TraceSample& sample);
    int chosenRequest_ = 0; ///< 0: the last body
    bool fieldVisible_ = false;
    std::vector<int> fieldBodies_;    ///< every k-th body, whether the field shows or not
    std::array<ArrowField, 3> field_; ///< on the arrows' layer
    double fieldShrink_ = 1.0;
    std::array<WorldLabel, 3> magnitudeLabels_;
    bool magnitudesVisible_ = false;
    WorldLabel stuckLabel_;
    double autoScale_ = 1.0;
    double arrowScale_ = 1.0;

    Measurements measured_;
    std::vector<QColor> measuredColors_;
    std::vector<Eigen::Vector3d> markerPositions_;
    QColor markerColor_;
    QString markerLabel_; ///< legend entry: "measured pos_cm"
    vtkSmartPointer<vtkPolyData> markerPoints_;
    vtkSmartPointer<vtkSphereSource> markerGlyph_;
    vtkSmartPointer<vtkActor> markers_;

    std::vector<std::unique_ptr<Ghost>> ghosts_;
    LegendOverlay legend_;
    vtkSmartPointer<vtkTextActor> title_;
    vtkSmartPointer<vtkTextActor> clock_;
    vtkSmartPointer<vtkTextActor> annotation_;
    int fontPixels_ = 16;
    int legendTop_ = 0; ///< how far below its usual place the legend sits (pixels)
};

} // namespace clab
