#include "view3d/MarkerLayer.h"

#include "view3d/SphereGlyphs.h"
#include "view3d/TextPlacer.h"

#include <study/ParameterFit.h>
#include <trace/Trace.h>

#include <vtkActor.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkSphereSource.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace clab {

namespace {

// The point of a path (positions p at the run's times) where a quantity k along it takes
// `value`: on the stretch nearest in time to t that crosses it, or, when none does, continued
// along the first or last stretch over which k changes (exact for a straight wire).
std::optional<Eigen::Vector3d> pathPointAt(const std::vector<double>& times,
                                           const std::vector<double>& k,
                                           const std::vector<Eigen::Vector3d>& p, double value,
                                           double t)
{
    std::optional<std::size_t> best;
    double bestGap = std::numeric_limits<double>::infinity();
    for (std::size_t j = 0; j + 1 < k.size(); ++j) {
        if (k[j] == k[j + 1] || (k[j] - value) * (k[j + 1] - value) > 0.0)
            continue;
        const double gap = std::abs(0.5 * (times[j] + times[j + 1]) - t);
        if (gap < bestGap) {
            bestGap = gap;
            best = j;
        }
    }
    if (!best) {
        // Beyond the run's range: from the end whose value is nearer.
        std::optional<std::size_t> first, last;
        for (std::size_t j = 0; j + 1 < k.size(); ++j)
            if (k[j] != k[j + 1]) {
                if (!first)
                    first = j;
                last = j;
            }
        if (!first)
            return std::nullopt; // k never changes: nothing tells where the value is
        best = std::abs(k[*first] - value) <= std::abs(k[*last + 1] - value) ? first : last;
    }
    const std::size_t j = *best;
    const double f = (value - k[j]) / (k[j + 1] - k[j]);
    return p[j] + f * (p[j + 1] - p[j]);
}

} // namespace

MarkerLayer::MarkerLayer(vtkRenderer* overlay)
    : points_(vtkSmartPointer<vtkPolyData>::New()), glyph_(vtkSmartPointer<vtkSphereSource>::New()),
      actor_(vtkSmartPointer<vtkActor>::New()), overlay_(overlay)
{
    SphereGlyphs::build(points_, glyph_, actor_, overlay);

    stuckLabel_.styleAsOverlay(QColor(0xA0, 0x30, 0x00));
    overlay->AddViewProp(stuckLabel_.actor());
    stuckLabel_.setText("stuck");
    // Placed by its lower-left corner (layoutStuck).
    stuckLabel_.textProperty()->SetJustificationToLeft();
    stuckLabel_.textProperty()->SetVerticalJustificationToBottom();
}

MarkerLayer::~MarkerLayer() = default;

void MarkerLayer::setMeasured(const Measurements& measured, const std::vector<QColor>& colors)
{
    measured_ = measured;
    colors_ = colors;
}

void MarkerLayer::rebuild(const SceneGeometry* geometry, const Trace* trace)
{
    positions_.clear();
    color_ = QColor();
    label_.clear();
    if (geometry && trace && trace->samples.size() > 1 && !measured_.times.empty()) {
        const std::vector<std::string>& coordinates = trace->coordinateNames();
        // (measured column, coordinate index) of the measured coordinates.
        std::vector<std::pair<std::size_t, std::size_t>> measuredCoordinates;
        for (std::size_t c = 0; c < measured_.columns.size(); ++c) {
            const auto at =
                std::find(coordinates.begin(), coordinates.end(), measured_.columns[c].quantity);
            if (at != coordinates.end())
                measuredCoordinates.emplace_back(
                    c, static_cast<std::size_t>(at - coordinates.begin()));
        }
        std::optional<std::size_t> colourOf;
        try {
            if (!measuredCoordinates.empty()) {
                placeByCoordinates(*geometry, *trace, measuredCoordinates);
                colourOf = measuredCoordinates.front().first;
            } else {
                colourOf = placeByQuantity(*geometry, *trace);
            }
        } catch (const std::exception&) {
            // Times the run cannot be sampled at: the Fit dock says why; no markers.
            positions_.clear();
        }
        if (colourOf && *colourOf < colors_.size())
            color_ = colors_[*colourOf];
        if (colourOf)
            label_ = QStringLiteral("measured %1")
                         .arg(QString::fromStdString(measured_.columns[*colourOf].name()));
    }
    if (!color_.isValid())
        color_ = QColor(0xD5, 0x5E, 0x00);
    upload(geometry);
}

void MarkerLayer::placeByCoordinates(
    const SceneGeometry& geometry, const Trace& trace,
    const std::vector<std::pair<std::size_t, std::size_t>>& measuredCoordinates)
{
    // The run's coordinates at the measured times, the measured ones replaced.
    const std::size_t n = measured_.times.size();
    const std::vector<std::string>& coordinates = trace.coordinateNames();
    Measurements at;
    at.times = measured_.times;
    for (const std::string& name : coordinates)
        at.columns.push_back({name, std::vector<double>(n, 0.0), 0.0, name});
    const std::vector<double> simulated = ParameterFit::simulatedAt(trace, at);
    Eigen::VectorXd q(static_cast<Eigen::Index>(coordinates.size()));
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t k = 0; k < coordinates.size(); ++k)
            q[static_cast<Eigen::Index>(k)] = simulated[k * n + i];
        for (const auto& [c, k] : measuredCoordinates)
            q[static_cast<Eigen::Index>(k)] = measured_.columns[c].values[i];
        positions_.push_back(geometry.bodyPosition(q));
    }
}

std::optional<std::size_t> MarkerLayer::placeByQuantity(const SceneGeometry& geometry,
                                                        const Trace& trace)
{
    // The first measured quantity the run has a column of (a bead's s, a ring's φ).
    for (std::size_t c = 0; c < measured_.columns.size(); ++c) {
        const int index = trace.columnIndex(measured_.columns[c].quantity);
        if (index < 0)
            continue;
        const std::vector<double> k = trace.column(index);
        std::vector<double> times;
        std::vector<Eigen::Vector3d> path;
        for (const TraceSample& sample : trace.samples) {
            times.push_back(sample.t);
            path.push_back(geometry.bodyPosition(sample.q));
        }
        for (std::size_t i = 0; i < measured_.times.size(); ++i)
            if (const std::optional<Eigen::Vector3d> point =
                    pathPointAt(times, k, path, measured_.columns[c].values[i], measured_.times[i]))
                positions_.push_back(*point);
        return c;
    }
    return std::nullopt;
}

void MarkerLayer::upload(const SceneGeometry* geometry)
{
    vtkPoints* points = points_->GetPoints();
    points->SetNumberOfPoints(static_cast<vtkIdType>(positions_.size()));
    for (std::size_t i = 0; i < positions_.size(); ++i)
        points->SetPoint(static_cast<vtkIdType>(i), positions_[i].data());
    points->Modified();
    points_->Modified();
    if (geometry)
        glyph_->SetRadius(0.25 * geometry->bodyRadius());
    actor_->GetProperty()->SetColor(color_.redF(), color_.greenF(), color_.blueF());
    actor_->SetVisibility(!positions_.empty());
}

void MarkerLayer::addLegendEntry(std::vector<SceneGeometry::LegendEntry>& entries) const
{
    if (!positions_.empty()) {
        entries.push_back({label_, color_, SceneGeometry::LegendEntry::Symbol::Patch});
    }
}

void MarkerLayer::showEvents(const TraceSample& sample, const Eigen::Vector3d& origin)
{
    // A stuck contact is the other half of a friction lesson: say so beside the body.
    bool stuck = false;
    for (Eigen::Index i = 0; i < sample.contacts.size(); ++i) {
        stuck = stuck || sample.contacts[i] < 0.5;
    }
    stuckLabel_.setPosition(origin);
    stuckLabel_.actor()->SetVisibility(stuck ? 1 : 0);
}

void MarkerLayer::hideEvents()
{
    stuckLabel_.actor()->VisibilityOff();
}

bool MarkerLayer::isStuckShown() const
{
    return stuckLabel_.actor()->GetVisibility() != 0;
}

void MarkerLayer::layoutStuck(int fontPoints, double offset, TextPlacer& placer)
{
    stuckLabel_.textProperty()->SetFontSize(fontPoints);
    if (!isStuckShown())
        return;
    double box[4];
    stuckLabel_.actor()->GetBoundingBox(overlay_, box);
    const Eigen::Vector2d size(box[1] - box[0], box[3] - box[2]);
    const Eigen::Vector2d body = stuckLabel_.anchorOnScreen(overlay_);
    const std::optional<TextPlacer::Place> place = placer.place(
        body, size, Eigen::Vector2d(body - Eigen::Vector2d::Constant(offset) - size), offset);
    if (!place) {
        stuckLabel_.actor()->VisibilityOff();
        return;
    }
    stuckLabel_.setPixelOffset(place->corner.x() - body.x(), place->corner.y() - body.y());
}

} // namespace clab
