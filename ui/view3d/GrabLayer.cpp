#include "view3d/GrabLayer.h"

#include <vtkActor.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkSphereSource.h>

namespace clab {

namespace {

vtkSmartPointer<vtkActor> actorOf(vtkSphereSource* shape, const QColor& color)
{
    auto mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
    mapper->SetInputConnection(shape->GetOutputPort());
    auto actor = vtkSmartPointer<vtkActor>::New();
    actor->SetMapper(mapper);
    actor->GetProperty()->SetColor(color.redF(), color.greenF(), color.blueF());
    actor->PickableOff();
    actor->VisibilityOff();
    return actor;
}

} // namespace

GrabLayer::GrabLayer()
    : ringShape_(vtkSmartPointer<vtkSphereSource>::New()),
      handShape_(vtkSmartPointer<vtkSphereSource>::New())
{
    // A wire cage around the body rather than a see-through shell: no translucency pass.
    ringShape_->SetThetaResolution(18);
    ringShape_->SetPhiResolution(9);
    ring_ = actorOf(ringShape_, hoverColor());
    ring_->GetProperty()->SetRepresentationToWireframe();
    ring_->GetProperty()->SetLineWidth(2.0);
    ring_->GetProperty()->LightingOff();
    handShape_->SetThetaResolution(16);
    handShape_->SetPhiResolution(8);
    hand_ = actorOf(handShape_, springColor());
    spring_.setColor(springColor());
    spring_.clear();
}

void GrabLayer::addTo(vtkRenderer* renderer) const
{
    renderer->AddActor(ring_);
    renderer->AddActor(hand_);
    spring_.addTo(renderer);
}

void GrabLayer::removeFrom(vtkRenderer* renderer) const
{
    renderer->RemoveActor(ring_);
    renderer->RemoveActor(hand_);
    spring_.removeFrom(renderer);
}

void GrabLayer::highlight(const Eigen::Vector3d& point, double radius, bool held)
{
    ringShape_->SetCenter(point.data());
    ringShape_->SetRadius(radius);
    const QColor color = held ? springColor() : hoverColor();
    ring_->GetProperty()->SetColor(color.redF(), color.greenF(), color.blueF());
    ring_->VisibilityOn();
}

void GrabLayer::clearHighlight()
{
    ring_->VisibilityOff();
}

bool GrabLayer::isHighlighted() const
{
    return ring_->GetVisibility() != 0;
}

void GrabLayer::showHand(const Eigen::Vector3d& target, const Eigen::Vector3d& point,
                         const Eigen::Vector3d& arrow, double size)
{
    handShape_->SetCenter(target.data());
    handShape_->SetRadius(0.35 * size);
    hand_->VisibilityOn();
    spring_.setDimensions(0.12 * size, 0.3 * size, 0.8 * size);
    spring_.setMinimumLength(0.5 * size);
    if (arrow.norm() > 0.0)
        spring_.set(point, arrow);
    else
        spring_.clear();
}

void GrabLayer::clearHand()
{
    hand_->VisibilityOff();
    spring_.clear();
}

} // namespace clab
