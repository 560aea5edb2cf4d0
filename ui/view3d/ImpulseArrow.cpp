#include "view3d/ImpulseArrow.h"

#include "view3d/ArrowLayer.h"
#include "view3d/CameraRig.h"
#include "view3d/ContactMarks.h"
#include "view3d/TextPlacer.h"

#include <trace/Trace.h>

#include <vtkRenderer.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>

#include <algorithm>
#include <cmath>

namespace clab {

ImpulseArrow::ImpulseArrow(vtkRenderer* overlay)
{
    arrow_.setColor(color());
    arrow_.addTo(overlay);
    label_.styleAsOverlay(color().darker(150));
    // Placed by its lower-left corner (ArrowLayer::placeBeyondTip).
    label_.textProperty()->SetVerticalJustificationToBottom();
    label_.textProperty()->SetJustificationToLeft();
    overlay->AddViewProp(label_.actor());
    arrow_.clear();
}

void ImpulseArrow::rebuild(const SceneGeometry* geometry, const Trace* trace)
{
    impacts_.clear();
    shown_ = -1;
    if (geometry && trace && !trace->samples.empty()) {
        double largest = 0.0;
        for (const ContactEvent& e : trace->events) {
            if (e.kind != ContactEvent::Kind::Impact || e.impulse.size() == 0)
                continue;
            const Eigen::VectorXd q = ContactMarks::positionAt(*trace, e.t);
            const Eigen::Vector3d p = geometry->forceVector(q, e.impulse);
            // Several contacts struck at once: one arrow of their sum at that instant.
            if (!impacts_.empty() && impacts_.back().t == e.t)
                impacts_.back().impulse += p;
            else
                impacts_.push_back({e.t, geometry->bodyPosition(q), p});
            largest = std::max(largest, impacts_.back().impulse.norm());
        }
        // An impulse below a thousandth of the largest is rounding at a contact's event (or the
        // last of a ball's bounces): a speck, as the force arrows leave out (ArrowLayer).
        std::erase_if(impacts_,
                      [&](const Impact& i) { return !(i.impulse.norm() >= 1e-3 * largest); });
        const double size = geometry->sceneSize();
        metresPerImpulse_ = largest > 0.0 ? 0.3 * size / largest : 0.0;
        shortest_ = 0.12 * size; // the head is 0.09 long: some shaft shows
        radius_ = geometry->bodyRadius();
        arrow_.setDimensions(0.018 * size, 0.045 * size, 0.09 * size);
        unit_ = geometry->forceUnit() + QStringLiteral("\u00B7s");
    }
    show();
}

void ImpulseArrow::setTime(double t)
{
    const double slack = 1e-12 * (1.0 + std::abs(t));
    const auto after = std::upper_bound(impacts_.begin(), impacts_.end(), t + slack,
                                        [](double v, const Impact& i) { return v < i.t; });
    int shown = -1;
    if (after != impacts_.begin() && t - (after - 1)->t < kShownFor)
        shown = static_cast<int>(after - impacts_.begin()) - 1;
    if (shown != shown_) {
        shown_ = shown;
        show();
    }
}

void ImpulseArrow::setLabelVisible(bool visible)
{
    labelVisible_ = visible;
    show();
}

Eigen::Vector3d ImpulseArrow::shownImpulse() const
{
    return shown_ >= 0 ? impacts_[static_cast<std::size_t>(shown_)].impulse
                       : Eigen::Vector3d::Zero();
}

QString ImpulseArrow::labelText() const
{
    return label_.actor()->GetVisibility() ? QString::fromUtf8(label_.actor()->GetInput())
                                           : QString();
}

void ImpulseArrow::addLegendEntry(std::vector<SceneGeometry::LegendEntry>& entries) const
{
    if (!impacts_.empty())
        entries.push_back({legendLabel(), color(), SceneGeometry::LegendEntry::Symbol::Arrow});
}

void ImpulseArrow::layoutLabel(const CameraRig& camera, vtkRenderer* overlay, int fontPoints,
                               TextPlacer& placer)
{
    label_.textProperty()->SetFontSize(fontPoints);
    if (label_.actor()->GetVisibility() && arrow_.isDrawn())
        ArrowLayer::placeBeyondTip(label_, arrow_, camera, overlay, placer);
}

void ImpulseArrow::addObstacle(const CameraRig& camera, TextPlacer& placer) const
{
    if (isShown())
        placer.addObstacle(camera.toDisplay(arrow_.tip() - arrow_.vector()),
                           camera.toDisplay(arrow_.tip()), 4.0);
}

void ImpulseArrow::show()
{
    if (shown_ < 0 || metresPerImpulse_ <= 0.0) {
        arrow_.clear();
        label_.actor()->VisibilityOff();
        return;
    }
    const Impact& impact = impacts_[static_cast<std::size_t>(shown_)];
    const double magnitude = impact.impulse.norm();
    const Eigen::Vector3d direction = impact.impulse / magnitude;
    const double length = std::max(metresPerImpulse_ * magnitude, shortest_);
    // From the body's surface, as the force arrows start.
    arrow_.set(impact.at + radius_ * direction, length * direction);
    // Drawn longer than its scale says: faint, as a lengthened force arrow.
    arrow_.setLengthened(length > metresPerImpulse_ * magnitude);
    label_.setText(QStringLiteral("%1 %2").arg(magnitude, 0, 'g', 3).arg(unit_).toStdString());
    label_.setPosition(arrow_.tip());
    label_.actor()->SetVisibility(labelVisible_ && arrow_.isDrawn() ? 1 : 0);
}

} // namespace clab
