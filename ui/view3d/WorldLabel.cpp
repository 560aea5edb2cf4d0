#include "view3d/WorldLabel.h"

#include "render/ViewFonts.h"
#include "view3d/ViewStyle.h"

#include <vtkCoordinate.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>

namespace clab {

WorldLabel::WorldLabel()
    : anchor_(vtkSmartPointer<vtkCoordinate>::New()), actor_(vtkSmartPointer<vtkTextActor>::New())
{
    anchor_->SetCoordinateSystemToWorld();
    // The actor's position: a pixel offset from the anchor's place on screen.
    vtkCoordinate* position = actor_->GetPositionCoordinate();
    position->SetCoordinateSystemToDisplay();
    position->SetReferenceCoordinate(anchor_);
    position->SetValue(0.0, 0.0);
    actor_->SetTextScaleModeToNone();
    actor_->PickableOff();
}

vtkTextActor* WorldLabel::actor() const
{
    return actor_;
}

vtkTextProperty* WorldLabel::textProperty() const
{
    return actor_->GetTextProperty();
}

void WorldLabel::styleAsOverlay(const QColor& color)
{
    vtkTextProperty* tp = textProperty();
    ViewFonts::apply(tp);
    ViewStyle::setTextColor(tp, color);
    tp->SetBold(true);
    tp->SetBackgroundColor(1.0, 1.0, 1.0);
    tp->SetBackgroundOpacity(0.75);
    actor_->VisibilityOff();
}

void WorldLabel::setText(const std::string& text)
{
    actor_->SetInput(text.c_str());
}

void WorldLabel::setPosition(const Eigen::Vector3d& point)
{
    anchor_->SetValue(point.x(), point.y(), point.z());
    actor_->Modified();
}

void WorldLabel::setPixelOffset(double dx, double dy)
{
    actor_->GetPositionCoordinate()->SetValue(dx, dy);
}

Eigen::Vector2d WorldLabel::anchorOnScreen(vtkViewport* viewport) const
{
    const double* d = anchor_->GetComputedDoubleDisplayValue(viewport);
    return {d[0], d[1]};
}

} // namespace clab
