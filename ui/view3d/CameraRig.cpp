#include "view3d/CameraRig.h"

#include "render/ViewFonts.h"
#include "view3d/ViewStyle.h"

#include <vtkAxesActor.h>
#include <vtkCamera.h>
#include <vtkCaptionActor2D.h>
#include <vtkCoordinate.h>
#include <vtkNew.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace clab {

namespace {

constexpr double kViewAngle = 30.0;

} // namespace

CameraRig::CameraRig(vtkRenderer* scene)
    : scene_(scene), triadRenderer_(vtkSmartPointer<vtkRenderer>::New()),
      triad_(vtkSmartPointer<vtkAxesActor>::New())
{
    // Axes triad in the lower-left corner, on the top layer.
    triadRenderer_->SetLayer(2);
    triadRenderer_->InteractiveOff();
    triadRenderer_->SetViewport(0.0, 0.0, 0.2, 0.2);
    triad_->SetShaftTypeToCylinder();
    triad_->SetCylinderRadius(0.035);
    triad_->SetConeRadius(0.42);
    triad_->SetTotalLength(1.0, 1.0, 1.0);
    triad_->SetXAxisLabelText("x");
    triad_->SetYAxisLabelText("y");
    triad_->SetZAxisLabelText("z");
    for (vtkCaptionActor2D* caption :
         {triad_->GetXAxisCaptionActor2D(), triad_->GetYAxisCaptionActor2D(),
          triad_->GetZAxisCaptionActor2D()}) {
        vtkTextProperty* tp = caption->GetCaptionTextProperty();
        ViewFonts::apply(tp);
        tp->BoldOff();
        tp->ItalicOn();
        tp->ShadowOff();
        ViewStyle::setTextColor(tp, ViewStyle::textColor());
        // Fixed pixel size (set per frame) instead of scaling the text into the caption box.
        caption->GetTextActor()->SetTextScaleModeToNone();
        caption->BorderOff();
    }
    triadRenderer_->AddViewProp(triad_);
}

CameraRig::~CameraRig() = default;

void CameraRig::attachTo(vtkRenderWindow* window)
{
    window->AddRenderer(triadRenderer_);
}

void CameraRig::frame(const Eigen::AlignedBox3d& box, const Eigen::Vector3d& direction,
                      const Eigen::Vector3d& viewUp, double aspect,
                      const std::vector<Region>& regions)
{
    const Eigen::Vector3d center = box.center();
    const Eigen::Vector3d& d = direction;
    const Eigen::Vector3d up = (viewUp - viewUp.dot(d) * d).normalized();
    const Eigen::Vector3d right = (-d).cross(up);
    vtkCamera* camera = scene_->GetActiveCamera();
    camera->ParallelProjectionOff();
    camera->SetViewAngle(kViewAngle);
    const double tanV = std::tan(0.5 * kViewAngle * 3.14159265358979323846 / 180.0);
    // The scene fills this much of its region; the rest is breathing room.
    const double fill = 0.88;
    double distance = std::numeric_limits<double>::infinity();
    Region chosen = regions.front();
    for (Region region : regions) {
        region.width = std::clamp(region.width, 0.3, 1.0);
        region.height = std::clamp(region.height, 0.3, 1.0);
        const double tanH = tanV * aspect * region.width * fill;
        const double tanVr = tanV * region.height * fill;
        double needed = 0.0;
        for (int i = 0; i < 8; ++i) {
            const Eigen::Vector3d o =
                box.corner(static_cast<Eigen::AlignedBox3d::CornerType>(i)) - center;
            const double z = o.dot(d);
            needed = std::max(
                {needed, z + std::abs(o.dot(right)) / tanH, z + std::abs(o.dot(up)) / tanVr});
        }
        if (needed < distance) {
            distance = needed;
            chosen = region;
        }
    }
    // The projection centre is shifted into the chosen region (vtkCamera window centre, in
    // [-1, 1] viewport units).
    camera->SetWindowCenter(1.0 - chosen.width, 1.0 - chosen.height);
    distance = std::max(distance, 1e-3);
    const Eigen::Vector3d position = center + distance * d;
    camera->SetFocalPoint(center.x(), center.y(), center.z());
    camera->SetPosition(position.x(), position.y(), position.z());
    camera->SetViewUp(up.x(), up.y(), up.z());
    scene_->ResetCameraClippingRange();
}

Eigen::Vector2d CameraRig::toDisplay(const Eigen::Vector3d& point) const
{
    vtkNew<vtkCoordinate> coordinate;
    coordinate->SetCoordinateSystemToWorld();
    coordinate->SetValue(point.x(), point.y(), point.z());
    const double* d = coordinate->GetComputedDoubleDisplayValue(scene_);
    return {d[0], d[1]};
}

Eigen::Vector3d CameraRig::viewUp() const
{
    double up[3];
    scene_->GetActiveCamera()->GetViewUp(up);
    return {up[0], up[1], up[2]};
}

void CameraRig::fitClippingRange(vtkRenderer* overlay)
{
    double bounds[6];
    double overlayBounds[6];
    scene_->ComputeVisiblePropBounds(bounds);
    overlay->ComputeVisiblePropBounds(overlayBounds);
    if (overlayBounds[0] <= overlayBounds[1]) {
        if (bounds[0] > bounds[1]) {
            std::copy(overlayBounds, overlayBounds + 6, bounds);
        }
        for (int k = 0; k < 3; ++k) {
            bounds[2 * k] = std::min(bounds[2 * k], overlayBounds[2 * k]);
            bounds[2 * k + 1] = std::max(bounds[2 * k + 1], overlayBounds[2 * k + 1]);
        }
    }
    if (bounds[0] <= bounds[1]) {
        scene_->ResetCameraClippingRange(bounds);
    }
}

double CameraRig::triadSide(int width, int height)
{
    // A square in the lower-left corner, turned like the scene.
    return std::clamp(0.2 * std::min(width, height), 80.0, 220.0);
}

void CameraRig::updateTriad(int width, int height, int fontPoints)
{
    const double side = triadSide(width, height);
    for (vtkCaptionActor2D* caption :
         {triad_->GetXAxisCaptionActor2D(), triad_->GetYAxisCaptionActor2D(),
          triad_->GetZAxisCaptionActor2D()}) {
        caption->GetCaptionTextProperty()->SetFontSize(fontPoints);
    }
    triadRenderer_->SetViewport(0.0, 0.0, side / width, side / height);
    vtkCamera* main = scene_->GetActiveCamera();
    vtkCamera* cam = triadRenderer_->GetActiveCamera();
    double position[3];
    double focal[3];
    main->GetPosition(position);
    main->GetFocalPoint(focal);
    Eigen::Vector3d dir(position[0] - focal[0], position[1] - focal[1], position[2] - focal[2]);
    if (dir.norm() > 0.0) {
        dir.normalize();
    } else {
        dir = Eigen::Vector3d::UnitZ();
    }
    cam->SetFocalPoint(0.35, 0.35, 0.35);
    const Eigen::Vector3d eye = Eigen::Vector3d::Constant(0.35) + 4.2 * dir;
    cam->SetPosition(eye.x(), eye.y(), eye.z());
    cam->SetViewUp(main->GetViewUp());
    cam->SetViewAngle(30.0);
    triadRenderer_->ResetCameraClippingRange();
}

} // namespace clab
