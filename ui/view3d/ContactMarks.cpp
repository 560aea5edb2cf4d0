#include "view3d/ContactMarks.h"

#include "view3d/SphereGlyphs.h"

#include <trace/Trace.h>

#include <vtkActor.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkProperty.h>
#include <vtkSphereSource.h>

#include <algorithm>
#include <cmath>

namespace clab {

namespace {

// The plots' event lines are this orange too (PlotChart::addEventLines).
const QColor kColor(0xE6, 0x9F, 0x00);

} // namespace

Eigen::VectorXd ContactMarks::positionAt(const Trace& trace, double t)
{
    const std::vector<TraceSample>& s = trace.samples;
    const auto after = std::upper_bound(s.begin(), s.end(), t,
                                        [](double v, const TraceSample& a) { return v < a.t; });
    const TraceSample& before = after == s.begin() ? s.front() : *(after - 1);
    const double h = t - before.t;
    if (h <= 0.0 || before.qd.size() != before.q.size() || before.qdd.size() != before.q.size())
        return before.q;
    return before.q + h * before.qd + 0.5 * h * h * before.qdd;
}

ContactMarks::ContactMarks(vtkRenderer* overlay)
    : points_(vtkSmartPointer<vtkPolyData>::New()), glyph_(vtkSmartPointer<vtkSphereSource>::New()),
      actor_(vtkSmartPointer<vtkActor>::New()), impulse_(overlay)
{
    SphereGlyphs::build(points_, glyph_, actor_, overlay);
    actor_->GetProperty()->SetColor(kColor.redF(), kColor.greenF(), kColor.blueF());
}

ContactMarks::~ContactMarks() = default;

void ContactMarks::rebuild(const SceneGeometry* geometry, const Trace* trace)
{
    positions_.clear();
    times_.clear();
    if (geometry && trace && !trace->samples.empty()) {
        for (const ContactEvent& e : trace->events) {
            if (!ContactEvent::oneSided(e.kind) || (!times_.empty() && times_.back() == e.t))
                continue;
            times_.push_back(e.t);
            positions_.push_back(geometry->trailPoint(positionAt(*trace, e.t)));
        }
        glyph_->SetRadius(0.45 * geometry->bodyRadius());
    }
    shown_ = 0;
    upload();
    impulse_.rebuild(geometry, trace);
}

void ContactMarks::setTime(double t)
{
    impulse_.setTime(t);
    const auto shown = static_cast<int>(
        std::upper_bound(times_.begin(), times_.end(), t + 1e-12 * (1.0 + std::abs(t))) -
        times_.begin());
    if (shown != shown_) {
        shown_ = shown;
        upload();
    }
}

void ContactMarks::addLegendEntry(std::vector<SceneGeometry::LegendEntry>& entries) const
{
    if (!positions_.empty())
        entries.push_back({QStringLiteral("contact lets go, touches or is struck"), kColor,
                           SceneGeometry::LegendEntry::Symbol::Patch});
    impulse_.addLegendEntry(entries);
}

void ContactMarks::upload()
{
    vtkPoints* points = points_->GetPoints();
    points->SetNumberOfPoints(shown_);
    for (int i = 0; i < shown_; ++i)
        points->SetPoint(i, positions_[static_cast<std::size_t>(i)].data());
    points->Modified();
    points_->Modified();
    actor_->SetVisibility(shown_ > 0);
}

} // namespace clab
