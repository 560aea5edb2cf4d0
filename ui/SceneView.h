#pragma once

#include "ForceKind.h"

#include <ParameterSpec.h>
#include <Trace.h>

#include <QImage>
#include <QWidget>

#include <memory>
#include <string>

namespace clab {

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
    /// The trajectory to show; the view keeps its own copy.
    void setTrace(const Trace& trace);
    /// Moves body, trail and arrows to the sample nearest to (at or before) time t.
    void setTime(double t);
    double time() const;

    void setForceVisible(ForceKind kind, bool visible);
    bool isForceVisible(ForceKind kind) const;
    /// Arrow length per newton, relative to the automatic scale (1 = automatic).
    void setArrowScale(double scale);
    double arrowScale() const;
    void setLegendVisible(bool visible);

    /// Faded trail of an earlier run, labelled (compare mode).
    void addGhost(const Trace& trace, const QString& label);
    void clearGhosts();
    int ghostCount() const;

    void resetCamera();

    /// True when the arrow of `kind` is drawn at the current time (visible and above threshold).
    bool isArrowDrawn(ForceKind kind) const;
    /// Length of that arrow in scene units (0 when not drawn); proportional to the force.
    double arrowLength(ForceKind kind) const;

    /// Renders the current view off screen at the given size (for screenshots and tests).
    QImage renderImage(const QSize& size);

    /// The native window the view renders into (tests, benchmarks).
    VtkOpenGLWindow* openGLWindow() const;

protected:
    void keyPressEvent(QKeyEvent* event) override;

signals:
    /// Emitted after each rendered frame (for benchmarks and tests).
    void frameRendered();

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace clab
