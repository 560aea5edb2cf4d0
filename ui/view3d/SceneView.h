#pragma once

#include "plots/ForceKind.h"

#include <model/ParameterSpec.h>
#include <scenes/SceneDocument.h>
#include <study/Measurements.h>
#include <trace/Trace.h>

#include <Eigen/Dense>
#include <QColor>
#include <QImage>
#include <QStringList>
#include <QWidget>

#include <array>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace clab {

class ImpulseArrow;
class SceneViewContent;
class ViewDrag;
class VtkOpenGLWindow;

/// \brief The 3D view of a scene: its constraint geometry, the moving body, its trail and the
/// arrows of Q, Qᶜᵢ and Qᶜₙᵢ at the current time.
///
/// Owns the Qt 6 ↔ VTK bridge (a VtkOpenGLWindow driving a vtkGenericOpenGLRenderWindow, in a
/// window container).
class SceneView : public QWidget {
    Q_OBJECT
public:
    explicit SceneView(QWidget* parent = nullptr);
    ~SceneView() override;

    /// Builds the constraint geometry for a built-in scene type and frames the camera.
    void setScene(const std::string& sceneName, const ParameterValues& values);
    /// The document's scene: a built-in one or a system written as equations.
    void setScene(const SceneDocument& document);
    /// The trajectory to show; the view keeps its own copy.
    void setTrace(const Trace& trace);
    /// Moves body, trail and arrows to the sample nearest to (at or before) time t.
    void setTime(double t);
    double time() const;

    /// Measured values (the Fit dock's) as small markers where they put the body, coloured
    /// like their curves in the Plots dock (`colors` parallel to measured.columns); none
    /// without columns (SceneViewContent::setMeasured).
    void setMeasured(const Measurements& measured, const std::vector<QColor>& colors);
    /// The markers' positions in scene units (empty when hidden) and their colour.
    std::vector<Eigen::Vector3d> measuredMarkers() const;
    QColor measuredMarkerColor() const;
    /// The trail's marks of the one-sided contacts' events shown at the current time.
    std::vector<Eigen::Vector3d> shownContactMarks() const;
    /// The arrow of an impact's impulse, shown briefly after each impact.
    const ImpulseArrow& impulseArrow() const;

    void setForceVisible(ForceKind kind, bool visible);
    bool isForceVisible(ForceKind kind) const;
    /// The bodies the arrows and the trail can be put on (a chain's bobs, 1…count; 1 for a
    /// scene with one body), what one is called ("bob") and the one they are on.
    int bodyCount() const;
    QString bodyNoun() const;
    int chosenBody() const;
    /// Puts the arrows and the trail on `body` (0: the last, a chain's free end, the default).
    /// Kept through re-runs and parameter changes, clamped to the scene's bodies; another
    /// scene starts at its last body again.
    void setChosenBody(int body);
    /// Small arrows of each force at every k-th body (SceneViewContent::setArrowFieldVisible).
    void setArrowFieldVisible(bool visible);
    bool isArrowFieldVisible() const;
    /// Arrow length per newton, relative to the automatic scale (1 = automatic).
    void setArrowScale(double scale);
    double arrowScale() const;
    /// Text over the scene at this many times its normal height, on screen and in exports
    /// (Large Text, the presentation mode). Throws std::invalid_argument unless scale > 0.
    void setTextScale(double scale);
    double textScale() const;
    void setLegendVisible(bool visible);

    /// Faded trail of an earlier run, labelled (compare mode).
    void addGhost(const Trace& trace, const QString& label);
    /// Replaces every ghost by `ghosts` (trace, label), in order: compare mode relabels and drops
    /// runs as the set of runs changes.
    void setGhosts(const std::vector<std::pair<std::shared_ptr<const Trace>, QString>>& ghosts);
    void clearGhosts();
    int ghostCount() const;
    QStringList ghostLabels() const;

    void resetCamera();
    /// The camera: position, focal point and view up, in scene units (a lesson step keeps it).
    std::array<Eigen::Vector3d, 3> camera() const;
    /// Puts the camera there; kept through re-runs of the scene like a camera the user turned.
    void setCamera(const Eigen::Vector3d& position, const Eigen::Vector3d& focalPoint,
                   const Eigen::Vector3d& viewUp);

    /// Labels each drawn arrow with its true magnitude ("1.27 N").
    void setMagnitudesVisible(bool visible);
    bool areMagnitudesVisible() const;
    /// The magnitude label of `kind` as drawn (empty when hidden).
    QString magnitudeText(ForceKind kind) const;
    /// How many times longer than the common scale arrows of `kind` are drawn (1, 2, 5, …).
    double arrowBoost(ForceKind kind) const;
    /// True when the view marks the body "stuck" (a frictional contact sticks).
    bool isStuckShown() const;
    /// The scene's words for its forces at the current time (see SceneViewContent).
    QString forceUnit() const;
    QString forceDescription(ForceKind kind) const;
    double forceMagnitude(ForceKind kind) const;
    QStringList readouts() const;

    /// True when the arrow of `kind` is drawn at the current time (visible and above threshold).
    bool isArrowDrawn(ForceKind kind) const;
    /// Length of that arrow in scene units (0 when not drawn); proportional to the force.
    double arrowLength(ForceKind kind) const;

    /// Renders the current view off screen at the given size (for screenshots and tests).
    QImage renderImage(const QSize& size);

    /// Whether the clock is running: a grab then pulls the body with a spring while the run
    /// goes on, else it sets the start (ViewDrag).
    void setPlaying(bool playing);
    /// The hand on the bodies (hover, grab, drag, throw), for the window and tests.
    ViewDrag& hand() const;

    /// The native window the view renders into (tests, benchmarks).
    VtkOpenGLWindow* openGLWindow() const;
    /// What the window shows, down to its arrows' glyphs (tests).
    const SceneViewContent& content() const;

protected:
    void keyPressEvent(QKeyEvent* event) override;

signals:
    /// Emitted after each rendered frame (for benchmarks and tests).
    void frameRendered();
    /// A body was taken by the hand (`spring`: while the run goes on).
    void bodyGrabbed(bool spring);
    /// A drag ended: the state (q, q̇) at time t should become the start, as one undo step
    /// named `what`.
    void startDragged(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                      const QString& what);
    /// A body could not be dragged there: why.
    void dragFailed(const QString& message);

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace clab
