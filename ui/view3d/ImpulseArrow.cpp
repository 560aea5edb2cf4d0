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
#include <limits>

namespace clab {

namespace {

struct Struck {
    Eigen::Vector3d at;
    Eigen::Vector3d impulse;
};

// Where the generalized impulse P acts: of the body and the geometry's other arrow points, the
// one whose motion P is the push of (smallest ‖Jᵢᵀ fᵢ − P‖, Jᵢ = ∂pᵢ/∂q and fᵢ the impulse
// there in space): the ladder's top when its top lands; the body when it is the only point.
Struck struckPoint(const SceneGeometry& geometry, const TraceSample& at, const Eigen::VectorXd& P)
{
    const auto position = [&](int i, const Eigen::VectorXd& q) {
        if (i < 0)
            return geometry.bodyPosition(q);
        TraceSample moved = at;
        moved.q = q;
        return geometry.extraArrowOrigin(i, moved);
    };
    TraceSample pushed = at;
    pushed.Q = P;
    Struck best{geometry.bodyPosition(at.q), geometry.forceVector(at.q, P)};
    double least = std::numeric_limits<double>::infinity();
    for (int i = -1; i < geometry.extraArrowPointCount(); ++i) {
        const Eigen::Vector3d f =
            i < 0 ? best.impulse : geometry.extraArrowVector(i, pushed, ForceKind::Given);
        Eigen::VectorXd pushOf(P.size());
        Eigen::VectorXd q = at.q;
        for (Eigen::Index k = 0; k < q.size() && k < P.size(); ++k) {
            const double h = 1e-6 * (1.0 + std::abs(q[k]));
            q[k] = at.q[k] + h;
            const Eigen::Vector3d plus = position(i, q);
            q[k] = at.q[k] - h;
            pushOf[k] = f.dot(plus - position(i, q)) / (2.0 * h);
            q[k] = at.q[k];
        }
        const double residual = (pushOf - P).norm();
        if (residual < least - 1e-6 * P.norm()) {
            least = residual;
            best = {position(i, at.q), f};
        }
    }
    return best;
}

} // namespace

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
            TraceSample at;
            at.t = e.t;
            at.q = ContactMarks::positionAt(*trace, e.t);
            const Struck struck = struckPoint(*geometry, at, e.impulse);
            // Several contacts struck at once (both ends of the ladder): the largest one's.
            if (!impacts_.empty() && impacts_.back().t == e.t) {
                if (struck.impulse.norm() > impacts_.back().impulse.norm())
                    impacts_.back() = {e.t, struck.at, struck.impulse};
            } else {
                impacts_.push_back({e.t, struck.at, struck.impulse});
            }
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
