#include "view3d/geometry/SceneGeometry.h"

#include "view3d/TextPlacer.h"

#include "view3d/geometry/AcatastaticParticleGeometry.h"
#include "view3d/geometry/BeadOnWireGeometry.h"
#include "view3d/geometry/ChainGeometry.h"
#include "view3d/geometry/NonholonomicParticleGeometry.h"
#include "view3d/geometry/RigidBodyQuaternionGeometry.h"
#include "view3d/geometry/RingWithFrictionGeometry.h"
#include "view3d/geometry/SlidingChainGeometry.h"
#include "view3d/geometry/SymbolicSystemGeometry.h"

#include <model/ConstraintLabError.h>
#include <scenes/SceneDefinition.h>

#include <functional>
#include <typeindex>
#include <unordered_map>
#include <utility>

#include <cmath>

#include <vtkActor.h>
#include <vtkCoordinate.h>
#include <vtkCubeSource.h>
#include <vtkLineSource.h>
#include <vtkNew.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProp.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkSphereSource.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>
#include <vtkTubeFilter.h>

namespace clab {

SceneGeometry::~SceneGeometry() = default;

namespace {

using GeometryFactory = std::function<std::unique_ptr<SceneGeometry>(const MechanicalSystem&)>;

/// `System` is drawn by `Geometry`, which is built from the typed system.
template <class System, class Geometry> std::pair<const std::type_index, GeometryFactory> drawnBy()
{
    return {typeid(System), [](const MechanicalSystem& system) -> std::unique_ptr<SceneGeometry> {
                return std::make_unique<Geometry>(static_cast<const System&>(system));
            }};
}

// The one place a built-in scene's core class meets its 3D geometry.
const std::unordered_map<std::type_index, GeometryFactory>& geometries()
{
    static const std::unordered_map<std::type_index, GeometryFactory> table = {
        drawnBy<BeadOnWire, BeadOnWireGeometry>(),
        drawnBy<RingWithFriction, RingWithFrictionGeometry>(),
        drawnBy<NonholonomicParticle, NonholonomicParticleGeometry>(),
        drawnBy<RigidBodyQuaternion, RigidBodyQuaternionGeometry>(),
        drawnBy<AcatastaticParticle, AcatastaticParticleGeometry>(),
        drawnBy<Chain, ChainGeometry>(),
        drawnBy<SlidingChain, SlidingChainGeometry>(),
    };
    return table;
}

} // namespace

std::unique_ptr<SceneGeometry> SceneGeometry::create(const MechanicalSystem& system)
{
    const auto it = geometries().find(typeid(system));
    if (it == geometries().end())
        throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter,
                                 std::string("SceneGeometry::create: the 3D view cannot draw a "
                                             "system of type ") +
                                     typeid(system).name() + " (no geometry is registered for it)");
    return it->second(system);
}

std::unique_ptr<SceneGeometry> SceneGeometry::create(const SceneDocument& document)
{
    if (document.system)
        return std::make_unique<SymbolicSystemGeometry>(document.system.model, document.parameters);
    const SceneDefinition* definition = document.definition();
    if (definition == nullptr)
        throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter,
                                 "SceneGeometry::create: the 3D view cannot draw scene '" +
                                     document.scene + "' (no such built-in scene)");
    // Straight from the factory, neither validated nor checked at its start: values the
    // editor is about to report (mu_s below mu, a start off the constraints) are still drawn.
    return create(*definition->factory(definition->complete(document.parameters)));
}

void SceneGeometry::addTo(vtkRenderer* renderer) const
{
    for (const auto& prop : props_) {
        renderer->AddViewProp(prop);
    }
}

void SceneGeometry::removeFrom(vtkRenderer* renderer) const
{
    for (const auto& prop : props_) {
        renderer->RemoveViewProp(prop);
    }
}

void SceneGeometry::layoutTexts(int fontPoints, vtkViewport* viewport, TextPlacer& placer) const
{
    // Each at its point when it is free, else moved the least (a body's axis numbers meet when
    // an axis points at the viewer).
    const Eigen::Vector2d room = Eigen::Vector2d::Constant(3.0);
    for (const auto& prop : props_) {
        auto* text = vtkTextActor::SafeDownCast(prop);
        if (text == nullptr || text->GetVisibility() == 0) {
            continue;
        }
        text->GetTextProperty()->SetFontSize(fontPoints);
        text->GetPositionCoordinate()->SetValue(0.0, 0.0);
        // With room to spare: centred on a point that moves with the body, such a text lands a
        // few pixels off its box once drawn.
        const TextPlacer::Box box = TextPlacer::boxOf(text, viewport);
        const Eigen::Vector2d size = box.sizes() + 2.0 * room;
        const Eigen::Vector2d corner = box.min() - room;
        const std::optional<TextPlacer::Place> place =
            placer.place(box.center(), size, corner, 0.5 * size.y());
        if (place) {
            text->GetPositionCoordinate()->SetValue(place->corner.x() - corner.x(),
                                                    place->corner.y() - corner.y());
        } else {
            placer.addFixedText(TextPlacer::Box(corner, corner + size));
        }
    }
}

void SceneGeometry::fitToTrace(const Trace& trace)
{
    (void)trace;
}

Eigen::Vector3d SceneGeometry::trailPoint(const Eigen::VectorXd& q) const
{
    return bodyPosition(q);
}

Eigen::Vector3d SceneGeometry::forceVector(const Eigen::VectorXd& q, const Eigen::VectorXd& F) const
{
    (void)q;
    Eigen::Vector3d v = Eigen::Vector3d::Zero();
    for (int i = 0; i < std::min<int>(3, static_cast<int>(F.size())); ++i) {
        v[i] = F[i];
    }
    return v;
}

const Eigen::VectorXd& SceneGeometry::generalizedForce(const TraceSample& sample, ForceKind kind)
{
    switch (kind) {
    case ForceKind::Given:
        return sample.Q;
    case ForceKind::IdealConstraint:
        return sample.Qci;
    case ForceKind::NonIdealConstraint:
        break;
    }
    return sample.Qcni;
}

Eigen::Vector3d SceneGeometry::arrowVector(const TraceSample& sample, ForceKind kind) const
{
    const Eigen::VectorXd& F = generalizedForce(sample, kind);
    return F.size() == 0 ? Eigen::Vector3d::Zero() : forceVector(sample.q, F);
}

Eigen::Vector3d SceneGeometry::arrowStart(const TraceSample& sample, ForceKind kind,
                                          const Eigen::Vector3d& drawn) const
{
    (void)sample, (void)kind;
    const double n = drawn.norm();
    return n > 0.0 && std::isfinite(n) ? Eigen::Vector3d(drawn / n) : Eigen::Vector3d::Zero();
}

QString SceneGeometry::forceLabel(ForceKind kind) const
{
    switch (kind) {
    case ForceKind::Given:
        return forceSymbol(kind) + QStringLiteral("  given force");
    case ForceKind::IdealConstraint:
        return forceSymbol(kind) + QStringLiteral("  ideal constraint force");
    case ForceKind::NonIdealConstraint:
        return forceSymbol(kind) + QStringLiteral("  non-ideal constraint force");
    }
    return {};
}

Eigen::AlignedBox3d SceneGeometry::frameBox() const
{
    Eigen::AlignedBox3d box;
    for (const auto& prop : props_) {
        if (!prop->GetVisibility()) {
            continue;
        }
        const double* b = prop->GetBounds();
        if (b == nullptr || b[0] > b[1]) {
            continue;
        }
        box.extend(Eigen::Vector3d(b[0], b[2], b[4]));
        box.extend(Eigen::Vector3d(b[1], b[3], b[5]));
    }
    return box;
}

Eigen::Vector3d SceneGeometry::viewDirection() const
{
    // Planar scenes: nearly face-on, a little from the right and above so the ground reads as
    // a floor.
    return Eigen::Vector3d(0.22, 0.30, 1.0).normalized();
}

QStringList SceneGeometry::readouts(const TraceSample& sample) const
{
    QStringList lines;
    for (Eigen::Index i = 0; i < sample.contacts.size(); ++i) {
        const QString state = sample.contacts[i] < 0.5 ? QStringLiteral("stuck (static friction)")
                                                       : QStringLiteral("sliding");
        lines << (sample.contacts.size() == 1
                      ? QStringLiteral("Contact: %1").arg(state)
                      : QStringLiteral("Contact %1: %2").arg(i + 1).arg(state));
    }
    return lines;
}

QString SceneGeometry::annotation(const TraceSample& sample) const
{
    (void)sample;
    return {};
}

void SceneGeometry::addProp(vtkProp* prop)
{
    props_.emplace_back(prop);
}

void SceneGeometry::clearProps()
{
    props_.clear();
}

vtkSmartPointer<vtkActor> SceneGeometry::surfaceActor(vtkPolyData* data, const QColor& color,
                                                      double specular)
{
    auto mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
    mapper->SetInputData(data);
    mapper->ScalarVisibilityOff();
    auto actor = vtkSmartPointer<vtkActor>::New();
    actor->SetMapper(mapper);
    vtkProperty* p = actor->GetProperty();
    p->SetColor(color.redF(), color.greenF(), color.blueF());
    p->SetOpacity(color.alphaF());
    p->SetInterpolationToPhong();
    p->SetAmbient(0.22);
    p->SetDiffuse(0.78);
    p->SetSpecular(specular);
    p->SetSpecularPower(40.0);
    return actor;
}

vtkSmartPointer<vtkActor> SceneGeometry::sphereActor(double radius, const QColor& color)
{
    vtkNew<vtkSphereSource> sphere;
    sphere->SetRadius(radius);
    sphere->SetThetaResolution(48);
    sphere->SetPhiResolution(32);
    sphere->Update();
    return surfaceActor(sphere->GetOutput(), color, 0.5);
}

vtkSmartPointer<vtkActor> SceneGeometry::rodActor(const Eigen::Vector3d& a,
                                                  const Eigen::Vector3d& b, double radius,
                                                  const QColor& color)
{
    vtkNew<vtkLineSource> line;
    line->SetPoint1(a.x(), a.y(), a.z());
    line->SetPoint2(b.x(), b.y(), b.z());
    vtkNew<vtkTubeFilter> tube;
    tube->SetInputConnection(line->GetOutputPort());
    tube->SetRadius(radius);
    tube->SetNumberOfSides(32);
    tube->CappingOn();
    tube->Update();
    return surfaceActor(tube->GetOutput(), color, 0.35);
}

vtkSmartPointer<vtkActor> SceneGeometry::boxActor(const Eigen::AlignedBox3d& box,
                                                  const QColor& color)
{
    vtkNew<vtkCubeSource> cube;
    cube->SetBounds(box.min().x(), box.max().x(), box.min().y(), box.max().y(), box.min().z(),
                    box.max().z());
    cube->Update();
    return surfaceActor(cube->GetOutput(), color, 0.05);
}

Eigen::AlignedBox3d SceneGeometry::motionBox(const Trace& trace) const
{
    Eigen::AlignedBox3d box;
    for (const TraceSample& s : trace.samples) {
        const Eigen::Vector3d p = bodyPosition(s.q);
        if (p.allFinite()) {
            box.extend(p);
        }
    }
    return box;
}

} // namespace clab
