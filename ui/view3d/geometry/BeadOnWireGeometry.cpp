#include "view3d/geometry/BeadOnWireGeometry.h"

#include "view3d/WorldLabel.h"

#include <vtkActor.h>
#include <vtkCellArray.h>
#include <vtkLineSource.h>
#include <vtkNew.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkProperty.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>
#include <vtkTubeFilter.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>

namespace clab {

BeadOnWireGeometry::BeadOnWireGeometry(const BeadOnWire& system)
    : angle_(system.angle()), s0_(system.initialArcLength()), v0_(system.initialSpeed()),
      g_(system.gravity())
{
    const double half = 0.5 * std::max(1.0, std::abs(s0_));
    build(s0_ - half, s0_ + half, false);
}

Eigen::Vector3d BeadOnWireGeometry::bodyPosition(const Eigen::VectorXd& q) const
{
    return {q[0], q[1], 0.0};
}

Eigen::Vector3d BeadOnWireGeometry::trailPoint(const Eigen::VectorXd& q) const
{
    return bodyPosition(q) + 1.4 * wireRadius_ * viewDirection();
}

void BeadOnWireGeometry::fitToTrace(const Trace& trace)
{
    const Eigen::Vector2d dir(std::cos(angle_), std::sin(angle_));
    // The wire covers where a frictionless bead would go in the same time: friction only
    // shortens the way, so the wire keeps its length while μ is tuned. s(t) = s0 + v0 t −
    // ½ g sin θ t² from the start to the end of the run; the run itself is added in case.
    double sMin = s0_;
    double sMax = s0_;
    if (!trace.samples.empty()) {
        const double duration = trace.samples.back().t - trace.samples.front().t;
        const double a = g_ * std::sin(angle_);
        const auto frictionless = [&](double t) {
            return s0_ + v0_ * t - 0.5 * a * t * t;
        };
        for (double t : {duration, a != 0.0 ? v0_ / a : 0.0}) {
            if (t >= 0.0 && t <= duration && std::isfinite(frictionless(t))) {
                sMin = std::min(sMin, frictionless(t));
                sMax = std::max(sMax, frictionless(t));
            }
        }
    }
    for (const TraceSample& s : trace.samples) {
        const double arc = dir.dot(s.q.head<2>());
        if (std::isfinite(arc)) {
            sMin = std::min(sMin, arc);
            sMax = std::max(sMax, arc);
        }
    }
    // A run that stops at the foot (s = 0) shows the wire ending there, so the wire does not
    // depend on μ either: friction only changes when the bead arrives.
    const bool foot = trace.stopAtEnd && s0_ > 0.0;
    if (foot)
        sMin = 0.0;
    // Some wire beyond the motion on both sides (above only, at a foot), and never a stub.
    const double span = sMax - sMin;
    const double margin = std::max(0.12 * span, 0.5 * std::max(0.0, 1.0 - span));
    build(foot ? sMin : sMin - margin, sMax + margin, foot);
}

// The angle of the wire, marked where it would meet the ground (textbook style), for a wire
// from a to b over a ground at groundY.
void BeadOnWireGeometry::addAngleMark(double groundY, const Eigen::Vector3d& a,
                                      const Eigen::Vector3d& b)
{
    const Eigen::Vector3d dir(std::cos(angle_), std::sin(angle_), 0.0);
    if (!(std::abs(angle_) > 0.05 && std::abs(angle_) < 0.5 * std::numbers::pi - 0.05))
        return;
    const double t = (groundY - 0.0) / std::sin(angle_);
    const Eigen::Vector3d apex = t * dir;
    const double r = 0.2 * length_;
    const double sign = (apex - a).norm() < (apex - b).norm() ? 1.0 : -1.0;
    vtkNew<vtkPoints> points;
    const int n = 40;
    for (int i = 0; i <= n; ++i) {
        const double phi = angle_ * i / n;
        const double start = sign > 0 ? 0.0 : std::numbers::pi;
        const double th = sign > 0 ? phi : start + phi;
        points->InsertNextPoint(apex.x() + r * std::cos(th), apex.y() + r * std::sin(th), 0.0);
    }
    vtkNew<vtkPolyData> arc;
    arc->SetPoints(points);
    vtkNew<vtkCellArray> line;
    line->InsertNextCell(n + 1);
    for (int i = 0; i <= n; ++i) {
        line->InsertCellPoint(i);
    }
    arc->SetLines(line);
    auto arcActor = surfaceActor(arc, constraintColor());
    arcActor->GetProperty()->SetLineWidth(2.0f);
    arcActor->GetProperty()->LightingOff();
    addProp(arcActor);

    WorldLabel label;
    const double mid = sign > 0 ? 0.5 * angle_ : std::numbers::pi + 0.5 * angle_;
    label.setPosition(Eigen::Vector3d(apex.x() + 1.35 * r * std::cos(mid),
                                      apex.y() + 1.35 * r * std::sin(mid), 0.0));
    char text[64];
    std::snprintf(text, sizeof text, "%.0f\xC2\xB0", std::abs(angle_) * 180.0 / std::numbers::pi);
    label.setText(text);
    vtkTextProperty* tp = label.textProperty();
    tp->SetFontSize(16);
    // Darker than the wire: light grey text on the ground would not read from afar.
    const QColor ink = constraintColor().darker(170);
    tp->SetColor(ink.redF(), ink.greenF(), ink.blueF());
    tp->SetJustificationToCentered();
    tp->SetVerticalJustificationToCentered();
    addProp(label.actor());
}

void BeadOnWireGeometry::build(double sMin, double sMax, bool foot)
{
    clearProps();
    length_ = sMax - sMin;
    const Eigen::Vector3d dir(std::cos(angle_), std::sin(angle_), 0.0);
    const double beadRadius = bodyRadius();
    // At a foot the bead comes to rest against a collar: its centre stops at sMin.
    const double collar = 0.4 * beadRadius;
    const Eigen::Vector3d a = (foot ? sMin - beadRadius - collar : sMin) * dir;
    const Eigen::Vector3d b = sMax * dir;
    const double wireRadius = 0.0075 * length_;
    wireRadius_ = wireRadius;
    addProp(rodActor(a, b, wireRadius, constraintColor()));
    if (foot)
        addProp(rodActor(a, (sMin - beadRadius) * dir, 0.75 * beadRadius,
                         constraintColor().darker(130)));

    // Ground at the lowest point of the wire shown, a bead radius below it; both ends rest on
    // thin posts.
    const double groundY =
        std::min(a.y(), b.y()) - 1.2 * beadRadius - (std::abs(angle_) < 0.05 ? 0.2 * length_ : 0.0);
    const QColor post = constraintColor().lighter(125);
    for (const Eigen::Vector3d& end : {a, b}) {
        if (end.y() - groundY > 1e-9 * length_) {
            addProp(
                rodActor(end, Eigen::Vector3d(end.x(), groundY, end.z()), 0.6 * wireRadius, post));
        }
    }
    const double xMin = std::min(a.x(), b.x()) - 0.12 * length_;
    const double xMax = std::max(a.x(), b.x()) + 0.12 * length_;
    const double depth = 0.28 * length_;
    addProp(boxActor(Eigen::AlignedBox3d(Eigen::Vector3d(xMin, groundY - 0.02 * length_, -depth),
                                         Eigen::Vector3d(xMax, groundY, depth)),
                     groundColor()));

    addAngleMark(groundY, a, b);

    if (!bead_) {
        bead_ = sphereActor(1.0, bodyColor());
    }
    bead_->SetScale(beadRadius);
    addProp(bead_);
}

void BeadOnWireGeometry::update(const TraceSample& sample)
{
    const Eigen::Vector3d p = bodyPosition(sample.q);
    bead_->SetPosition(p.x(), p.y(), p.z());
}

} // namespace clab
