#include "view3d/geometry/ChainGeometry.h"

#include <model/ConstraintLabError.h>

#include <vtkActor.h>
#include <vtkCamera.h>
#include <vtkCellArray.h>
#include <vtkNew.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRegularPolygonSource.h>
#include <vtkRenderer.h>

#include <algorithm>
#include <cmath>

namespace clab {

namespace {

/// Bob `body`'s pair (v[2(i − 1)], v[2(i − 1) + 1]) in the plane z = 0; zero when v is too short.
Eigen::Vector3d bobComponents(int body, const Eigen::VectorXd& v)
{
    const Eigen::Index at = 2 * (static_cast<Eigen::Index>(body) - 1);
    if (body < 1 || v.size() < at + 2)
        return Eigen::Vector3d::Zero();
    return {v[at], v[at + 1], 0.0};
}

} // namespace

ChainGeometry::ChainGeometry(const Chain& system)
    : ChainGeometry(system.links(), system.links() * system.linkLength(), true)
{
    // The pivot(s): blocks the chain hangs from.
    const double block = 0.04 * length_;
    const auto pivot = [&](double x) {
        return boxActor(Eigen::AlignedBox3d(Eigen::Vector3d(x - block, 0.0, -block),
                                            Eigen::Vector3d(x + block, 1.5 * block, block)),
                        groundColor().darker(130));
    };
    addChainProp(pivot(0.0));
    if (system.pinnedEnds() == 2)
        addChainProp(pivot(system.span()));
}

ChainGeometry::ChainGeometry(int links, double length, bool anchored)
    : links_(links), length_(length), first_(anchored ? 1 : 0), chosen_(links),
      bobRadius_(std::min(bodyRadius(), 0.35 * length / std::max(links, 1)))
{
    if (links_ < 1 || !(length_ > 0.0))
        throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter,
                                 "ChainGeometry: need at least one link and a positive "
                                 "length, got " +
                                     std::to_string(links_) + " links of total length " +
                                     std::to_string(length_));
    const double ell = length_ / links_;
    // Point 0 is the pivot of an anchored chain; bob i is point i - 1 + first_. Straight along
    // x until the first sample arrives.
    const int points = links_ + first_;
    bobs_ = vtkSmartPointer<vtkPoints>::New();
    bobs_->SetNumberOfPoints(points);
    for (int i = 0; i < points; ++i)
        bobs_->SetPoint(i, (i + 1 - first_) * ell, 0.0, 0.0);

    chain_ = vtkSmartPointer<vtkPolyData>::New();
    chain_->SetPoints(bobs_);
    vtkNew<vtkCellArray> line;
    line->InsertNextCell(points);
    for (int i = 0; i < points; ++i)
        line->InsertCellPoint(i);
    chain_->SetLines(line);
    vtkSmartPointer<vtkActor> linkActor = surfaceActor(chain_, constraintColor().darker(140), 0.0);
    linkActor->GetProperty()->SetLineWidth(2.0f);
    linkActor->GetProperty()->LightingOff();
    addChainProp(linkActor);

    // One point per bob, shaded as a sphere: a thousand bobs are a thousand sprites rather
    // than 64 000 glyph triangles, which under llvmpipe made up a third of the frame.
    // Sprites are sized in pixels; beforeRender() keeps them at the bob's radius.
    vtkNew<vtkCellArray> bobCells;
    for (int i = first_; i < points; ++i) {
        bobCells->InsertNextCell(1);
        bobCells->InsertCellPoint(i);
    }
    centres_ = vtkSmartPointer<vtkPolyData>::New();
    centres_->SetPoints(bobs_);
    centres_->SetVerts(bobCells);
    vtkNew<vtkPolyDataMapper> bobMapper;
    bobMapper->SetInputData(centres_);
    bobMapper->ScalarVisibilityOff();
    bobActor_ = vtkSmartPointer<vtkActor>::New();
    bobActor_->SetMapper(bobMapper);
    vtkProperty* bob = bobActor_->GetProperty();
    bob->SetColor(bodyColor().redF(), bodyColor().greenF(), bodyColor().blueF());
    bob->SetRenderPointsAsSpheres(true);
    bob->SetPointSize(static_cast<float>(bobPixels_));
    addChainProp(bobActor_);

    // The chosen bob is circled: a bob of a long chain is a speck, and its arrows start on the
    // circle as other scenes' start on their body's surface.
    ring_ = vtkSmartPointer<vtkRegularPolygonSource>::New();
    ring_->SetNumberOfSides(48);
    ring_->SetRadius(bodyRadius());
    ring_->GeneratePolygonOff();
    ring_->SetCenter(bobs_->GetPoint(chosen_ - 1 + first_));
    auto ringMapper = vtkSmartPointer<vtkPolyDataMapper>::New();
    ringMapper->SetInputConnection(ring_->GetOutputPort());
    auto ringActor = vtkSmartPointer<vtkActor>::New();
    ringActor->SetMapper(ringMapper);
    ringActor->GetProperty()->SetColor(bodyColor().redF(), bodyColor().greenF(),
                                       bodyColor().blueF());
    ringActor->GetProperty()->SetLineWidth(2.0f);
    ringActor->GetProperty()->LightingOff();
    ringActor->PickableOff();
    addChainProp(ringActor);
}

void ChainGeometry::addChainProp(vtkProp* prop)
{
    addProp(prop);
    ++actors_;
}

void ChainGeometry::update(const TraceSample& sample)
{
    const int bobs = std::min<int>(links_, static_cast<int>(sample.q.size() / 2));
    for (int i = 0; i < bobs; ++i)
        bobs_->SetPoint(i + first_, sample.q[2 * i], sample.q[2 * i + 1], 0.0);
    bobs_->Modified();
    chain_->Modified();
    centres_->Modified();
    ring_->SetCenter(bobs_->GetPoint(chosen_ - 1 + first_));
    // Here, not only in the constructor, where a subclass's sceneSize() is not called yet.
    ring_->SetRadius(bodyRadius());
}

void ChainGeometry::beforeRender(vtkRenderer* renderer)
{
    vtkCamera* camera = renderer->GetActiveCamera();
    const int* size = renderer->GetSize();
    if (!camera || size[0] <= 0 || size[1] <= 0)
        return;
    // The world length one pixel spans at the chain's depth, across the height the view angle
    // (or the parallel scale) refers to.
    double worldSpan = 2.0 * camera->GetParallelScale();
    int pixelSpan = size[1];
    if (!camera->GetParallelProjection()) {
        double centre[3];
        double eye[3];
        double direction[3];
        centres_->GetCenter(centre);
        camera->GetPosition(eye);
        camera->GetDirectionOfProjection(direction);
        double depth = 0.0;
        for (int k = 0; k < 3; ++k)
            depth += (centre[k] - eye[k]) * direction[k];
        depth = std::max(depth, 1e-6 * length_);
        worldSpan = 2.0 * depth * std::tan(0.5 * camera->GetViewAngle() * M_PI / 180.0);
        if (camera->GetUseHorizontalViewAngle())
            pixelSpan = size[0];
    }
    if (!(worldSpan > 0.0))
        return;
    // At least two pixels, so that ten thousand bobs zoomed out still show.
    bobPixels_ = std::max(2.0, 2.0 * bobRadius_ * pixelSpan / worldSpan);
    bobActor_->GetProperty()->SetPointSize(static_cast<float>(bobPixels_));
}

void ChainGeometry::chooseBody(int body)
{
    chosen_ = std::clamp(body, 1, links_);
    ring_->SetCenter(bobs_->GetPoint(chosen_ - 1 + first_));
}

Eigen::Vector3d ChainGeometry::drawnBob(int i) const
{
    double p[3];
    bobs_->GetPoint(i - 1 + first_, p);
    return {p[0], p[1], p[2]};
}

Eigen::Vector3d ChainGeometry::circledBob() const
{
    const double* c = ring_->GetCenter();
    return {c[0], c[1], c[2]};
}

double ChainGeometry::circleRadius() const
{
    return ring_->GetRadius();
}

Eigen::Vector3d ChainGeometry::bodyPosition(const Eigen::VectorXd& q) const
{
    return bodyPositionOf(chosen_, q);
}

Eigen::Vector3d ChainGeometry::forceVector(const Eigen::VectorXd& q, const Eigen::VectorXd& F) const
{
    return forceVectorOf(chosen_, q, F);
}

Eigen::Vector3d ChainGeometry::bodyPositionOf(int body, const Eigen::VectorXd& q) const
{
    return bobComponents(body, q);
}

Eigen::Vector3d ChainGeometry::forceVectorOf(int body, const Eigen::VectorXd& q,
                                             const Eigen::VectorXd& F) const
{
    (void)q;
    return bobComponents(body, F);
}

Eigen::AlignedBox3d ChainGeometry::frameBox() const
{
    return Eigen::AlignedBox3d(Eigen::Vector3d(-length_, -length_, -0.1 * length_),
                               Eigen::Vector3d(length_, 0.2 * length_, 0.1 * length_));
}

} // namespace clab
