#include "view3d/GhostLayer.h"

#include "plots/RunColors.h"
#include "render/ViewFonts.h"
#include "view3d/TextPlacer.h"
#include "view3d/TrailActor.h"
#include "view3d/ViewStyle.h"
#include "view3d/WorldLabel.h"

#include <trace/Trace.h>

#include <vtkActor.h>
#include <vtkActor2D.h>
#include <vtkCellArray.h>
#include <vtkNew.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkPolyDataMapper2D.h>
#include <vtkProperty.h>
#include <vtkProperty2D.h>
#include <vtkRenderer.h>
#include <vtkSphereSource.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>

#include <algorithm>
#include <cmath>

namespace clab {

namespace {

QColor blend(const QColor& a, const QColor& b, double t)
{
    return QColor::fromRgbF(static_cast<float>(a.redF() + (b.redF() - a.redF()) * t),
                            static_cast<float>(a.greenF() + (b.greenF() - a.greenF()) * t),
                            static_cast<float>(a.blueF() + (b.blueF() - a.blueF()) * t));
}

vtkSmartPointer<vtkActor> makeMarker(const QColor& color)
{
    vtkNew<vtkSphereSource> sphere;
    sphere->SetRadius(1.0);
    sphere->SetThetaResolution(32);
    sphere->SetPhiResolution(20);
    auto mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
    mapper->SetInputConnection(sphere->GetOutputPort());
    auto marker = vtkSmartPointer<vtkActor>::New();
    marker->SetMapper(mapper);
    vtkProperty* p = marker->GetProperty();
    p->SetColor(color.redF(), color.greenF(), color.blueF());
    // Opaque (the colour is already faded): a translucent prop would make VTK run its
    // order-independent translucency pass, half a frame under a software renderer.
    p->SetAmbient(0.3);
    p->SetDiffuse(0.7);
    marker->VisibilityOff();
    return marker;
}

vtkSmartPointer<vtkActor2D> makeLeader(vtkPoints* ends, const QColor& ink)
{
    ends->SetNumberOfPoints(2);
    vtkNew<vtkCellArray> segment;
    segment->InsertNextCell(2);
    segment->InsertCellPoint(0);
    segment->InsertCellPoint(1);
    vtkNew<vtkPolyData> line;
    line->SetPoints(ends);
    line->SetLines(segment);
    vtkNew<vtkPolyDataMapper2D> leaderMapper;
    leaderMapper->SetInputData(line);
    auto leader = vtkSmartPointer<vtkActor2D>::New();
    leader->SetMapper(leaderMapper);
    leader->GetProperty()->SetColor(ink.redF(), ink.greenF(), ink.blueF());
    leader->GetProperty()->SetLineWidth(1.5f);
    leader->VisibilityOff();
    return leader;
}

} // namespace

struct GhostLayer::Ghost {
    std::shared_ptr<const Trace> trace;
    QString label;
    QColor color;
    TrailActor trail;
    vtkSmartPointer<vtkActor> marker;
    WorldLabel caption;
    /// A thin line from the ghost to its caption when the caption had to go further away.
    vtkSmartPointer<vtkActor2D> leader;
    vtkSmartPointer<vtkPoints> leaderEnds;
};

GhostLayer::GhostLayer(vtkRenderer* scene, vtkRenderer* overlay) : scene_(scene), overlay_(overlay)
{
}

GhostLayer::~GhostLayer() = default;

void GhostLayer::add(std::shared_ptr<const Trace> trace, const QString& label)
{
    auto ghost = std::make_unique<Ghost>();
    ghost->trace = std::move(trace);
    ghost->label = label;
    const QColor base = runColor(ghosts_.size());
    // Faded: part of the way to the background, the whole run drawn at uniform strength.
    ghost->color = blend(base, ViewStyle::backgroundMid(), 0.3);
    ghost->trail.setColors(ghost->color, ViewStyle::backgroundMid(), 1.0);
    ghost->trail.setLineWidth(2.5);
    ghost->marker = makeMarker(ghost->color);

    ghost->caption.setText(label.toStdString());
    vtkTextProperty* tp = ghost->caption.textProperty();
    ViewFonts::apply(tp);
    ViewStyle::setTextColor(tp, base.darker(135));
    tp->SetJustificationToLeft();
    tp->SetVerticalJustificationToBottom();
    // A light backing keeps the caption legible where it crosses the body or an arrow.
    tp->SetBackgroundColor(1.0, 1.0, 1.0);
    tp->SetBackgroundOpacity(0.7);
    ghost->caption.setPixelOffset(8, 8);
    ghost->caption.actor()->VisibilityOff();

    ghost->leaderEnds = vtkSmartPointer<vtkPoints>::New();
    ghost->leader = makeLeader(ghost->leaderEnds, base.darker(135));

    scene_->AddViewProp(ghost->trail.actor());
    scene_->AddViewProp(ghost->marker);
    // On the overlay: a caption must not disappear behind the current body's arrows.
    overlay_->AddViewProp(ghost->caption.actor());
    overlay_->AddViewProp(ghost->leader);
    ghosts_.push_back(std::move(ghost));
}

void GhostLayer::clear()
{
    for (auto& ghost : ghosts_) {
        scene_->RemoveViewProp(ghost->trail.actor());
        scene_->RemoveViewProp(ghost->marker);
        overlay_->RemoveViewProp(ghost->caption.actor());
        overlay_->RemoveViewProp(ghost->leader);
    }
    ghosts_.clear();
}

void GhostLayer::rebuild(const SceneGeometry* geometry)
{
    for (auto& ghost : ghosts_) {
        std::vector<Eigen::Vector3d> points;
        if (geometry) {
            points.reserve(ghost->trace->samples.size());
            for (const TraceSample& s : ghost->trace->samples) {
                points.push_back(geometry->trailPoint(s.q));
            }
        }
        ghost->trail.setPath(points);
        ghost->trail.setHead(points.size());
        if (geometry) {
            ghost->marker->SetScale(0.8 * geometry->bodyRadius());
        }
    }
}

void GhostLayer::show(const SceneGeometry& geometry, double time)
{
    for (auto& ghost : ghosts_) {
        const auto& samples = ghost->trace->samples;
        if (samples.empty()) {
            continue;
        }
        const TraceSample& g = samples[ghost->trace->sampleIndexAt(time)];
        const Eigen::Vector3d p = geometry.trailPoint(g.q);
        ghost->marker->SetPosition(p.x(), p.y(), p.z());
        ghost->caption.setPosition(p);
        ghost->marker->SetVisibility(1);
        ghost->caption.actor()->SetVisibility(1);
    }
}

void GhostLayer::appendSamples(std::vector<TraceSample>& samples) const
{
    for (const auto& ghost : ghosts_) {
        samples.insert(samples.end(), ghost->trace->samples.begin(), ghost->trace->samples.end());
    }
}

void GhostLayer::extendBox(Eigen::AlignedBox3d& box) const
{
    for (const auto& ghost : ghosts_) {
        box.extend(ghost->trail.bounds());
    }
}

void GhostLayer::addLegendEntries(std::vector<SceneGeometry::LegendEntry>& entries) const
{
    for (const auto& ghost : ghosts_) {
        entries.push_back({ghost->label, ghost->color, SceneGeometry::LegendEntry::Symbol::Line});
    }
}

void GhostLayer::addBodyBoxes(double radius, std::vector<Eigen::AlignedBox2d>& boxes) const
{
    for (const auto& ghost : ghosts_) {
        if (ghost->marker->GetVisibility() == 0) {
            continue;
        }
        const Eigen::Vector2d g = ghost->caption.anchorOnScreen(scene_);
        if (g.allFinite()) {
            boxes.emplace_back(g - Eigen::Vector2d(radius, radius),
                               g + Eigen::Vector2d(radius, radius));
        }
    }
}

void GhostLayer::layoutCaptions(int fontPoints, TextPlacer& placer, double bodyRadius)
{
    for (auto& ghost : ghosts_) {
        ghost->caption.textProperty()->SetFontSize(fontPoints);
    }
    for (auto& ghost : ghosts_) {
        placeCaption(*ghost, placer, bodyRadius);
    }
}

void GhostLayer::placeCaption(Ghost& ghost, TextPlacer& placer, double bodyRadius)
{
    vtkTextActor* actor = ghost.caption.actor();
    ghost.leader->SetVisibility(0);
    if (actor->GetVisibility() == 0) {
        return;
    }
    const int* view = scene_->GetSize();
    double box[4];
    actor->GetBoundingBox(scene_, box);
    const Eigen::Vector2d size(box[1] - box[0], box[3] - box[2]);
    const Eigen::Vector2d anchor = ghost.caption.anchorOnScreen(scene_);
    // A point far off screen (near the camera's eye plane) has no caption.
    if (!anchor.allFinite() || std::abs(anchor.x()) > 10.0 * view[0] ||
        std::abs(anchor.y()) > 10.0 * view[1]) {
        actor->VisibilityOff();
        return;
    }
    // The first ring clears the ghost's own marker.
    const std::optional<TextPlacer::Place> place =
        placer.place(anchor, size, std::nullopt, std::max(8.0, bodyRadius + 3.0));
    if (!place) {
        actor->VisibilityOff();
        return;
    }
    const Eigen::Vector2d corner = place->corner;
    ghost.caption.setPixelOffset(corner.x() - anchor.x(), corner.y() - anchor.y());
    // A caption further off than the first ring points at its ghost with a leader line to the
    // nearest point of its box.
    const Eigen::Vector2d nearest = anchor.cwiseMax(corner).cwiseMin(corner + size);
    ghost.leaderEnds->SetPoint(0, anchor.x(), anchor.y(), 0.0);
    ghost.leaderEnds->SetPoint(1, nearest.x(), nearest.y(), 0.0);
    ghost.leaderEnds->Modified();
    ghost.leader->SetVisibility(place->beside ? 0 : 1);
}

} // namespace clab
