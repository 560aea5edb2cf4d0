#pragma once

#include "plots/ForceKind.h"

#include <model/MechanicalSystem.h>
#include <model/ParameterSpec.h>
#include <scenes/SceneDocument.h>
#include <trace/Trace.h>
#include <trace/TraceSample.h>

#include <Eigen/Dense>
#include <QColor>
#include <QString>
#include <QStringList>

#include <vtkSmartPointer.h>

#include <memory>
#include <string>
#include <vector>

class vtkActor;
class vtkPolyData;
class vtkProp;
class vtkRenderer;
class vtkViewport;

namespace clab {

class TextPlacer;

/// \brief What a scene draws of itself in the 3D view: its constraint, its body and how its
/// coordinates and generalized forces map to points and arrows in space.
///
/// One subclass per built-in scene. The view (SceneViewContent) owns the trail, the force
/// arrows, the legend and the camera; the geometry owns everything scene-specific.
class SceneGeometry {
public:
    /// An extra entry for the legend (a scene's own arrows, e.g. ω and L of the rigid body).
    struct LegendEntry {
        enum class Symbol { Arrow, Line, Patch };
        QString label;
        QColor color;
        Symbol symbol = Symbol::Arrow;
    };

    virtual ~SceneGeometry();

    /// The geometry of a built-in scene's system, chosen by the system's type (the one table in
    /// SceneGeometry.cpp). Throws ConstraintLabError(InvalidParameter) for a type without one.
    static std::unique_ptr<SceneGeometry> create(const MechanicalSystem& system);
    /// The geometry of a document's scene: a built-in scene's, built from its system, or a
    /// system's from its "view". Throws ConstraintLabError(InvalidParameter) for an unknown
    /// scene or for values its system cannot be built from.
    static std::unique_ptr<SceneGeometry> create(const SceneDocument& document);

    void addTo(vtkRenderer* renderer) const;
    void removeFrom(vtkRenderer* renderer) const;
    /// Sizes the geometry's own text (an angle's "30°", a body's axis numbers) `fontPoints`
    /// high; other text keeps clear of it where it is pinned.
    void layoutTexts(int fontPoints, vtkViewport* viewport, TextPlacer& placer) const;

    /// Adapts geometry that depends on the whole motion (wire length, patch grid, arrow scales).
    virtual void fitToTrace(const Trace& trace);
    /// Poses the body and any time-dependent geometry for one sample.
    virtual void update(const TraceSample& sample) = 0;
    /// Called before each frame of `renderer`: sizes drawn in pixels follow its camera and
    /// size. Nothing by default.
    virtual void beforeRender(vtkRenderer* renderer) { (void)renderer; }

    /// Where the body is: the origin of the force arrows.
    virtual Eigen::Vector3d bodyPosition(const Eigen::VectorXd& q) const = 0;
    /// The point whose path is drawn as the trail; the body position by default.
    virtual Eigen::Vector3d trailPoint(const Eigen::VectorXd& q) const;
    /// A generalized force as a vector in space (per unit of force); identity on the first
    /// three coordinates by default.
    virtual Eigen::Vector3d forceVector(const Eigen::VectorXd& q, const Eigen::VectorXd& F) const;
    /// The force of `kind` a sample holds (Q, Qᶜᵢ or Qᶜₙᵢ).
    static const Eigen::VectorXd& generalizedForce(const TraceSample& sample, ForceKind kind);
    /// The arrow of `kind` for one sample, per unit of force: forceVector() of that force by
    /// default.
    virtual Eigen::Vector3d arrowVector(const TraceSample& sample, ForceKind kind) const;
    /// Which way from the body's centre the arrow of `kind`, drawn along `drawn`, starts (a unit
    /// vector): along the arrow by default, so that the body does not swallow a short one. A
    /// track that runs along an arrow (the ring under its friction) has it start beside the
    /// track instead, so that the arrow is not drawn over it.
    virtual Eigen::Vector3d arrowStart(const TraceSample& sample, ForceKind kind,
                                       const Eigen::Vector3d& drawn) const;
    /// Bodies the force arrows and the trail can be put on (a chain's bobs, numbered 1…count);
    /// 1 for a scene with one body.
    virtual int bodyCount() const { return 1; }
    /// Puts the arrows and the trail (bodyPosition, forceVector) on `body`, clamped to
    /// 1…bodyCount(); nothing to choose by default.
    virtual void chooseBody(int body) { (void)body; }
    virtual int chosenBody() const { return 1; }
    /// What one body is called ("bob" for a chain): the legend and the Forces dock say it.
    virtual QString bodyNoun() const { return QStringLiteral("body"); }
    /// Where `body` (1…bodyCount()) is, and a generalized force on it as a vector in space (per
    /// unit of force): the chosen body's bodyPosition and forceVector by default.
    virtual Eigen::Vector3d bodyPositionOf(int body, const Eigen::VectorXd& q) const
    {
        (void)body;
        return bodyPosition(q);
    }
    virtual Eigen::Vector3d forceVectorOf(int body, const Eigen::VectorXd& q,
                                          const Eigen::VectorXd& F) const
    {
        (void)body;
        return forceVector(q, F);
    }
    /// The points a hand can grab in the view (BodyGrab): each body by default (a chain's bobs);
    /// every view point of a system written as equations. `i` runs from 0 to grabPointCount().
    virtual int grabPointCount() const { return bodyCount(); }
    virtual Eigen::Vector3d grabPoint(int i, const Eigen::VectorXd& q) const
    {
        return bodyPositionOf(i + 1, q);
    }
    /// Points besides the body that carry force arrows of their own (the other bodies of a
    /// system written as equations); none by default.
    virtual int extraArrowPointCount() const { return 0; }
    /// Where extra point i is for one sample, and the arrow of `kind` there (per unit of force).
    virtual Eigen::Vector3d extraArrowOrigin(int i, const TraceSample& sample) const
    {
        (void)i;
        return bodyPosition(sample.q);
    }
    virtual Eigen::Vector3d extraArrowVector(int i, const TraceSample& sample, ForceKind kind) const
    {
        (void)i, (void)sample, (void)kind;
        return Eigen::Vector3d::Zero();
    }
    /// Legend text of a force arrow.
    virtual QString forceLabel(ForceKind kind) const;
    /// Unit of the arrows' magnitudes: what forceVector() returns per unit of force.
    virtual QString forceUnit() const { return QStringLiteral("N"); }
    /// What an arrow kind stands for in this scene, for the Forces dock.
    virtual QString forceDescription(ForceKind kind) const { return clab::forceDescription(kind); }
    /// Lines the Forces dock shows for one sample besides the force magnitudes: the state of
    /// each frictional contact ("Contact: stuck") by default.
    virtual QStringList readouts(const TraceSample& sample) const;

    /// Characteristic length of the scene (arrow lengths and thicknesses follow it).
    virtual double sceneSize() const = 0;
    /// Box the camera frames (the constraint and the motion); the union of the props' bounds by
    /// default.
    virtual Eigen::AlignedBox3d frameBox() const;
    /// Direction from the focal point towards the camera, and the camera's up direction.
    virtual Eigen::Vector3d viewDirection() const;
    virtual Eigen::Vector3d viewUp() const { return Eigen::Vector3d::UnitY(); }

    virtual std::vector<LegendEntry> extraLegendEntries() const { return {}; }
    /// Whether the scene has see-through parts by design (patches, a glass box): only then may
    /// it make VTK run its translucency pass, which costs a frame dearly under llvmpipe.
    virtual bool seeThrough() const { return false; }
    /// Text shown beside the view for one sample (empty: none).
    virtual QString annotation(const TraceSample& sample) const;

    /// Radius of the body sphere (arrows start at its centre).
    double bodyRadius() const { return 0.03 * sceneSize(); }

    /// Colours shared by all scenes (constraint, body, ground).
    static QColor constraintColor() { return QColor(0xAE, 0xB8, 0xC4); }
    static QColor bodyColor() { return QColor(0x2A, 0x2F, 0x38); }
    static QColor groundColor() { return QColor(0xE2, 0xE0, 0xDA); }

protected:
    void addProp(vtkProp* prop);
    void clearProps();

    /// Shaded actor for a surface, with the view's standard material.
    static vtkSmartPointer<vtkActor> surfaceActor(vtkPolyData* data, const QColor& color,
                                                  double specular = 0.3);
    static vtkSmartPointer<vtkActor> sphereActor(double radius, const QColor& color);
    /// A solid cylinder from a to b.
    static vtkSmartPointer<vtkActor> rodActor(const Eigen::Vector3d& a, const Eigen::Vector3d& b,
                                              double radius, const QColor& color);
    /// An axis-aligned slab (ground, floor).
    static vtkSmartPointer<vtkActor> boxActor(const Eigen::AlignedBox3d& box, const QColor& color);
    /// Bounds of all positions a trace's body takes, mapped by bodyPosition.
    Eigen::AlignedBox3d motionBox(const Trace& trace) const;

private:
    std::vector<vtkSmartPointer<vtkProp>> props_;
};

} // namespace clab
