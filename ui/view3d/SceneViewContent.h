#pragma once

#include "plots/ForceKind.h"

#include <model/ParameterSpec.h>
#include <scenes/SceneDocument.h>
#include <study/Measurements.h>
#include <trace/Trace.h>

#include <Eigen/Dense>
#include <QColor>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

class vtkObject;
class vtkRenderWindow;
class vtkRenderer;

namespace clab {

class ArrowField;
class ContactMarks;
class TextPlacer;
class SceneGeometry;

/// \brief Everything the 3D view draws: the scene's geometry, its body and trail, and the
/// layers over them (ArrowLayer, GhostLayer, MarkerLayer, LegendOverlay, TitleOverlay), framed
/// by a CameraRig.
///
/// The coordinator: it keeps the scene, the run and the time, hands each layer what it draws,
/// and lays the layers' text out before each frame. Knows nothing about windows or OpenGL
/// contexts, so the same content can be shown in the widget and rendered off screen (SceneView
/// keeps one of each, fed the same state).
class SceneViewContent {
public:
    SceneViewContent();
    ~SceneViewContent();
    SceneViewContent(const SceneViewContent&) = delete;
    SceneViewContent& operator=(const SceneViewContent&) = delete;

    /// Adds the content's renderers (scene; arrows and the axes triad on layers above) to a
    /// window.
    void attachTo(vtkRenderWindow* window);
    vtkRenderer* renderer() const;
    /// The layer drawn over the scene: force arrows and the captions of compare runs.
    vtkRenderer* overlayRenderer() const;

    /// Builds a built-in scene from complete parameter values; throws ConstraintLabError for an
    /// unknown scene. Drops the trace; keeps the ghosts when the scene name is unchanged.
    void setScene(const std::string& sceneName, const ParameterValues& values);
    /// The document's scene (built in or a system) with its parameters, which must be complete.
    void setScene(const SceneDocument& document);
    bool hasScene() const { return geometry_ != nullptr; }
    void setTrace(std::shared_ptr<const Trace> trace);
    void setTime(double t)
    {
        time_ = t;
        showSample();
    }
    double time() const { return time_; }

    void setForceVisible(ForceKind kind, bool visible);
    bool isForceVisible(ForceKind kind) const;
    void setArrowScale(double scale);
    double arrowScale() const;
    void setLegendVisible(bool visible);
    bool isLegendVisible() const;
    /// Every text drawn over the scene (title, clock, legend, captions, labels) is this many
    /// times its normal height: Large Text and the presentation mode enlarge it. Must be > 0.
    void setTextScale(double scale);
    double textScale() const { return textScale_; }

    /// Measured values (the Fit dock's) as small markers where they put the body, one colour
    /// per column (`colors`, parallel to measured.columns). Measured coordinates replace the
    /// run's coordinates at the measured times (x, y, z columns: that point); any other quantity
    /// (a bead's s, a ring's φ) puts the marker where the run's path takes that value, on the
    /// stretch nearest in time, continued along its first or last stretch beyond the run's
    /// range. Needs a trace; hidden without markers.
    void setMeasured(const Measurements& measured, const std::vector<QColor>& colors);
    /// Where the markers are drawn (empty when hidden) and their colour.
    const std::vector<Eigen::Vector3d>& measuredMarkers() const;
    QColor measuredMarkerColor() const;

    void addGhost(std::shared_ptr<const Trace> trace, const QString& label);
    void clearGhosts();
    int ghostCount() const;

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
    bool isArrowFieldVisible() const;
    static constexpr int kMaxFieldArrows = 48;
    /// The bodies a field of `count` bodies is drawn at: count, count − k, count − 2k, … ≥ 1.
    static std::vector<int> fieldBodiesFor(int count);
    /// The bodies the field is drawn at now (empty when hidden or a single body).
    std::vector<int> arrowFieldBodies() const;
    /// The field of `kind` as drawn (its glyph points and vectors).
    const ArrowField& arrowField(ForceKind kind) const;
    /// How much shorter than the large arrows' (at the same force) the field's arrows are drawn,
    /// so that they fit between the bodies they sit on (1, 1/2, 1/5, 1/10, …).
    double arrowFieldShrink() const;
    /// The field's legend row: which bodies, how much shorter ("small arrows: every 21st bob,
    /// drawn ×0.05").
    QString arrowFieldLegend() const;
    /// The legend's rows, as shown.
    QStringList legendLabels() const;
    /// The legend's text height in pixels at the last frame (a narrow view wraps its rows
    /// rather than set them below 16 px).
    int legendFontPixels() const;
    /// Where the arrow of `kind` starts and its vector (scene units), as last placed.
    Eigen::Vector3d arrowBase(ForceKind kind) const;
    Eigen::Vector3d arrowVector(ForceKind kind) const;
    /// The trail's points (the chosen body's path over the whole run).
    const std::vector<Eigen::Vector3d>& trailPath() const;
    /// The marks on the trail where one-sided contacts left, touched or were struck.
    const ContactMarks& contactMarks() const;

    /// True when the arrow of `kind` is on screen (enabled, and the force above threshold).
    bool isArrowDrawn(ForceKind kind) const;
    /// True when the arrow of `kind` is drawn longer than its force, faint and labelled: a
    /// force not zero but too small to read at its scale is drawn ArrowLayer::minimumPixels
    /// long on screen (set at each frame).
    bool isArrowLengthened(ForceKind kind) const;
    /// True when the arrow of `kind` is drawn cut (shorter than its force) and so marked.
    bool isArrowMarkedCut(ForceKind kind) const;
    /// Length in scene units the arrow of `kind` has at the current time (0 when not drawn).
    double arrowLength(ForceKind kind) const;
    /// The scene's characteristic length (wire length, ring diameter), 0 without a scene.
    double sceneSize() const;
    /// Scene units per unit of force at arrowScale() = 1.
    double automaticArrowScale() const;
    /// How many times longer than the common scale the arrows of `kind` are drawn (1, 2, 5,
    /// 10, …): a force far smaller than the largest one (friction beside gravity) would be a
    /// wedge beside the body. The legend says so.
    double arrowBoost(ForceKind kind) const;
    /// Each drawn arrow labelled with its true magnitude at its tip ("1.27 N").
    void setMagnitudesVisible(bool visible);
    bool areMagnitudesVisible() const;
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
    /// Shows `sample` instead of the run's (a body held by the hand, BodyGrab) until
    /// releaseSample().
    void holdSample(const TraceSample& sample);
    void releaseSample()
    {
        heldSample_.reset();
        showSample();
    }
    /// A legend row with an arrow for what the hand adds (the drag spring, a given force of
    /// its own); none when `label` is empty.
    void setHandLegend(const QString& label, const QColor& color);
    /// The scene's geometry (nullptr before any scene).
    const SceneGeometry* geometry() const { return geometry_.get(); }

    /// Text size in pixels for a view of width × height pixels: legible from the back of a
    /// classroom at full screen, not crowding a small window.
    /// The text height in pixels for a view of this size, times textScale().
    int fontPixelsFor(int width, int height) const;

private:
    /// The renderers and the layers: VTK stays out of this header.
    struct Layers;

    /// The samples the arrows are scaled for: the run's, or the initial sample before a run.
    std::span<const TraceSample> runSamples() const;
    /// Fits the constraint geometry to the current run and the ghosts.
    void fitGeometry();
    void rebuildTrail();
    void rebuildMarkers();
    void updateArrowStyle();
    /// Applies chosenRequest_ to the geometry and the arrows' field.
    void applyBodyChoice();
    void updateLegend();
    void updateCaptions();
    void showSample();
    /// Lays every 2D text out for the frame: the title, the legend, the arrows' labels, the
    /// "stuck" mark and the ghosts' captions (clear of the bodies, the arrows and the legend).
    void layoutText(int width, int height, double dpi);
    /// What text keeps clear of when it can: the body, the ghosts' bodies, the arrows. Returns
    /// the radius in pixels of a ghost's body on screen.
    double addObstacles(TextPlacer& placer) const;
    void onStartRender(vtkObject* caller, unsigned long eventId, void* callData);

    std::unique_ptr<Layers> layers_;
    std::unique_ptr<SceneGeometry> geometry_;
    std::string sceneName_;
    SystemRef system_;
    QString sceneTitle_;
    std::shared_ptr<const Trace> trace_;
    std::optional<TraceSample> initialSample_;
    std::optional<TraceSample> heldSample_;
    QString handLegend_;
    QColor handColor_;
    std::size_t index_ = 0;
    double time_ = 0.0;
    int chosenRequest_ = 0; ///< 0: the last body
    int fontPixels_ = 16;
    double textScale_ = 1.0;
    int legendTop_ = 0; ///< how far below its usual place the legend sits (pixels)
};

} // namespace clab
