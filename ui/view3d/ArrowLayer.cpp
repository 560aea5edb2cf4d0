#include "view3d/ArrowLayer.h"

#include "view3d/CameraRig.h"
#include "view3d/TextPlacer.h"

#include <vtkRenderer.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>

#include <algorithm>
#include <cmath>

namespace clab {

namespace {

// The field's legend row stands for arrows of every colour: neutral grey.
const QColor kFieldLegendColor(0x70, 0x76, 0x80);

// The shortest a kind's longest arrow may be, as a share of the longest arrow of the run.
constexpr double kMinimumShare = 0.3;

// An arrow whose largest force over the run is more than this many times its 95th percentile
// has spikes (a bob rounding a sharp edge, the crack of a whip): its kind is scaled by this many
// times the percentile, and the spikes are cut to that length (their labels keep the magnitude).
constexpr double kSpikeRatio = 3.0;

constexpr ForceKind kKinds[3] = {ForceKind::Given, ForceKind::IdealConstraint,
                                 ForceKind::NonIdealConstraint};

const Eigen::VectorXd& force(const TraceSample& s, ForceKind kind)
{
    return SceneGeometry::generalizedForce(s, kind);
}

/// The smallest of 1, 2, 5, 10, 20, … that is at least x (x ≥ 1).
double niceAtLeast(double x)
{
    double decade = 1.0;
    for (;;) {
        for (double step : {1.0, 2.0, 5.0}) {
            if (step * decade >= x) {
                return step * decade;
            }
        }
        decade *= 10.0;
    }
}

/// The largest of one arrow's magnitudes over the run, or kSpikeRatio times the 95th
/// percentile of those that are not zero (round-off included) when the largest is more than
/// that (a spike: `spiked` is set); 0 for none.
double spikeFreeLargest(std::vector<double> values, bool& spiked)
{
    if (values.empty())
        return 0.0;
    const double largest = *std::max_element(values.begin(), values.end());
    // A force that is off most of the time (a contact only made now and then) is scaled by
    // the times it is on.
    std::erase_if(values, [largest](double f) { return !(f > 1e-9 * largest); });
    if (values.empty())
        return largest;
    const auto at95 = values.begin() + static_cast<std::ptrdiff_t>(0.95 * (values.size() - 1));
    std::nth_element(values.begin(), at95, values.end());
    if (largest <= kSpikeRatio * *at95)
        return largest;
    spiked = true;
    return kSpikeRatio * *at95;
}

/// The one of 1, 2, 5, 10, 20, … nearest to x (x ≥ 1) on a logarithmic scale.
double niceNearest(double x)
{
    double best = 1.0;
    for (double decade = 1.0; decade <= 10.0 * x; decade *= 10.0)
        for (double step : {1.0, 2.0, 5.0})
            if (std::abs(std::log(step * decade / x)) < std::abs(std::log(best / x)))
                best = step * decade;
    return best;
}

/// "every bob", "every 2nd bob", "every 21st bob", "every 12th bob".
QString everyKth(int k, const QString& noun)
{
    if (k <= 1)
        return QStringLiteral("every %1").arg(noun);
    const int tens = k % 100;
    const char* suffix = tens >= 11 && tens <= 13 ? "th"
                         : k % 10 == 1            ? "st"
                         : k % 10 == 2            ? "nd"
                         : k % 10 == 3            ? "rd"
                                                  : "th";
    return QStringLiteral("every %1%2 %3").arg(k).arg(QLatin1String(suffix)).arg(noun);
}

} // namespace

std::vector<int> ArrowLayer::fieldBodiesFor(int count)
{
    const int k = std::max(1, (count + kMaxFieldArrows - 1) / kMaxFieldArrows);
    std::vector<int> bodies;
    for (int body = count; body >= 1; body -= k)
        bodies.push_back(body);
    return bodies;
}

ArrowLayer::ArrowLayer(vtkRenderer* overlay) : overlay_(overlay)
{
    for (ForceKind kind : kKinds) {
        ForceArrow& arrow = arrows_[index(kind)];
        arrow.setColor(forceColor(kind));
        arrow.addTo(overlay_);
        ArrowField& field = field_[index(kind)];
        field.setColor(forceColor(kind));
        overlay_->AddViewProp(field.actor());
        WorldLabel& label = magnitudeLabels_[index(kind)];
        label.styleAsOverlay(forceColor(kind).darker(130));
        overlay_->AddViewProp(label.actor());
        // Placed by its lower-left corner (layoutLabels).
        label.textProperty()->SetVerticalJustificationToBottom();
        label.textProperty()->SetJustificationToLeft();
    }
}

ArrowLayer::~ArrowLayer() = default;

void ArrowLayer::setBodyCount(int bodyCount)
{
    fieldBodies_ = bodyCount > 1 ? fieldBodiesFor(bodyCount) : std::vector<int>();
}

void ArrowLayer::matchPoints(const SceneGeometry* geometry)
{
    const int wanted = geometry ? geometry->extraArrowPointCount() : 0;
    while (static_cast<int>(pointArrows_.size()) > wanted) {
        for (ForceArrow& arrow : *pointArrows_.back())
            arrow.removeFrom(overlay_);
        pointArrows_.pop_back();
    }
    while (static_cast<int>(pointArrows_.size()) < wanted) {
        auto set = std::make_unique<std::array<ForceArrow, 3>>();
        for (ForceKind kind : kKinds) {
            ForceArrow& arrow = (*set)[static_cast<std::size_t>(kind)];
            arrow.setColor(forceColor(kind));
            arrow.setEnabled(arrows_[static_cast<std::size_t>(kind)].isEnabled());
            arrow.addTo(overlay_);
        }
        pointArrows_.push_back(std::move(set));
    }
}

ArrowLayer::Series ArrowLayer::collect(const SceneGeometry& geometry,
                                       std::span<const TraceSample> samples) const
{
    Series out;
    const std::size_t extra = geometry.extraArrowPointCount();
    for (auto& kindSeries : out.series)
        kindSeries.resize(1 + extra + fieldBodies_.size());
    for (const TraceSample& s : samples) {
        for (ForceKind kind : kKinds) {
            const Eigen::VectorXd& F = force(s, kind);
            if (F.size() == 0) {
                continue;
            }
            if (std::isfinite(F.norm())) {
                out.largestGeneralized = std::max(out.largestGeneralized, F.norm());
            }
            std::vector<std::vector<double>>& kindSeries = out.series[index(kind)];
            const auto add = [&kindSeries](std::size_t arrow, double f) {
                if (std::isfinite(f))
                    kindSeries[arrow].push_back(f);
            };
            add(0, geometry.arrowVector(s, kind).norm());
            for (std::size_t i = 0; i < extra; ++i)
                add(1 + i, geometry.extraArrowVector(static_cast<int>(i), s, kind).norm());
            // The field's bodies count whether the field shows or not, so that turning it
            // on does not rescale the large arrows.
            for (std::size_t b = 0; b < fieldBodies_.size(); ++b) {
                const double f = geometry.forceVectorOf(fieldBodies_[b], s.q, F).norm();
                if (std::isfinite(f) && f > 0.0) {
                    out.fieldForces[index(kind)].push_back(f);
                    add(1 + extra + b, f);
                }
            }
        }
    }
    return out;
}

void ArrowLayer::fitScale(const SceneGeometry* geometry, std::span<const TraceSample> samples)
{
    Series collected;
    if (geometry)
        collected = collect(*geometry, samples);
    fitKinds(collected);
    styleArrows(geometry ? geometry->sceneSize() : 1.0);
    fitField(geometry, samples.empty() ? nullptr : &samples.front(), collected.fieldForces);
}

void ArrowLayer::fitKinds(Series& collected)
{
    maxForceOfKind_ = {0.0, 0.0, 0.0};
    boost_ = {1.0, 1.0, 1.0};
    auto& series = collected.series;
    for (std::size_t k = 0; k < series.size(); ++k) {
        spiked_[k] = false;
        for (std::vector<double>& arrow : series[k]) {
            bool spiked = false;
            const double largest = spikeFreeLargest(std::move(arrow), spiked);
            maxForceOfKind_[k] = std::max(maxForceOfKind_[k], largest);
            spiked_[k] = spiked_[k] || spiked;
        }
    }
    // A force whose arrow is a billionth of the largest generalized force is round-off: the
    // rigid body's given force has no torque although its quaternion components are not zero.
    maxForce_ = 0.0;
    for (double& kindMax : maxForceOfKind_) {
        if (kindMax <= 1e-9 * collected.largestGeneralized) {
            kindMax = 0.0;
        }
        maxForce_ = std::max(maxForce_, kindMax);
    }
    // Forces of one run can differ tenfold (friction beside gravity): a kind whose largest
    // force would be drawn shorter than a third of the longest arrow is drawn 2, 5, 10, …
    // times longer, and the legend says so.
    for (std::size_t k = 0; k < boost_.size(); ++k) {
        if (maxForceOfKind_[k] > 0.0 && maxForceOfKind_[k] < kMinimumShare * maxForce_) {
            boost_[k] = niceAtLeast(kMinimumShare * maxForce_ / maxForceOfKind_[k]);
        }
    }
}

void ArrowLayer::styleArrows(double size)
{
    // The largest force of the whole run (spikes left out) is 40 % of the scene: long enough to
    // read, short enough to stay in the frame.
    autoScale_ = maxForce_ > 0.0 ? 0.4 * size / maxForce_ : 1.0;
    const auto style = [&](ForceArrow& arrow) {
        arrow.setDimensions(0.014 * size, 0.034 * size, 0.08 * size);
        // Below a thousandth of the largest force an arrow would be a speck: draw none.
        arrow.setMinimumLength(maxForce_ > 0.0 ? 1e-3 * maxForce_ * autoScale_ * scale_ : 1e300);
    };
    for (ForceArrow& arrow : arrows_)
        style(arrow);
    for (auto& set : pointArrows_)
        for (ForceArrow& arrow : *set)
            style(arrow);
}

void ArrowLayer::fitField(const SceneGeometry* geometry, const TraceSample* first,
                          std::array<std::vector<double>, 3>& fieldForces)
{
    // The field's arrows: the large arrows' scale (boosts included) times one shrink, so that
    // all but the longest twentieth of the run's are at most one and a half times the distance
    // between the bodies they sit on. Not the longest: a chain's whip makes a few forces a
    // hundred times the usual, and the rest would be specks.
    fieldShrink_ = 1.0;
    std::vector<double> lengths;
    for (std::size_t k = 0; k < boost_.size(); ++k)
        if (maxForceOfKind_[k] > 0.0)
            for (double f : fieldForces[k])
                lengths.push_back(boost_[k] * f);
    double largestField = 0.0;
    if (!lengths.empty()) {
        const auto at = lengths.begin() + static_cast<std::ptrdiff_t>(0.95 * (lengths.size() - 1));
        std::nth_element(lengths.begin(), at, lengths.end());
        largestField = *at;
    }
    if (geometry && first != nullptr && fieldBodies_.size() > 1 && largestField > 0.0) {
        double spacing = 0.0;
        for (std::size_t j = 0; j + 1 < fieldBodies_.size(); ++j)
            spacing += (geometry->bodyPositionOf(fieldBodies_[j], first->q) -
                        geometry->bodyPositionOf(fieldBodies_[j + 1], first->q))
                           .norm();
        spacing /= static_cast<double>(fieldBodies_.size() - 1);
        const double fit = 1.5 * spacing / (autoScale_ * largestField);
        if (fit > 0.0 && fit < 1.0 && std::isfinite(fit))
            fieldShrink_ = 1.0 / niceNearest(1.0 / fit);
    }
    for (ArrowField& field : field_)
        field.setMinimumLength(
            maxForce_ > 0.0 ? 1e-3 * maxForce_ * autoScale_ * scale_ * fieldShrink_ : 1e300);
}

Eigen::Vector3d ArrowLayer::drawnArrow(ForceKind kind, const Eigen::Vector3d& force, double shrink,
                                       bool* cut) const
{
    const int k = index(kind);
    const double scale = autoScale_ * scale_ * boost_[k] * shrink;
    const Eigen::Vector3d v = scale * force;
    // A spike is drawn as long as the kind's largest force without spikes. Only a kind with
    // spikes is cut: the run's largest force of any other kind is its longest arrow, which
    // round-off (|s·F| against s·|F|) must not mark as cut.
    const double longest = scale * maxForceOfKind_[k];
    const double n = v.norm();
    const bool cutting = spiked_[k] && n > longest * (1.0 + 1e-9) && std::isfinite(n);
    if (cut != nullptr)
        *cut = cutting;
    return cutting ? Eigen::Vector3d(v * (longest / n)) : v;
}

void ArrowLayer::placeArrow(ForceArrow& arrow, ForceKind kind, const Eigen::Vector3d& at,
                            double radius, const Eigen::Vector3d& force,
                            const SceneGeometry& geometry, const TraceSample& sample) const
{
    bool cut = false;
    const Eigen::Vector3d v = drawnArrow(kind, force, 1.0, &cut);
    // Arrows start on the body's surface: a short force (friction) is not swallowed by it.
    arrow.set(at + radius * geometry.arrowStart(sample, kind, v), v);
    arrow.setCut(cut);
}

void ArrowLayer::show(const SceneGeometry& geometry, const TraceSample& sample)
{
    showBodyArrows(geometry, sample);
    showPointArrows(geometry, sample);
    showField(geometry, sample);
}

void ArrowLayer::showBodyArrows(const SceneGeometry& geometry, const TraceSample& sample)
{
    const Eigen::Vector3d origin = geometry.bodyPosition(sample.q);
    for (ForceKind kind : kKinds) {
        const int k = index(kind);
        const Eigen::VectorXd& F = force(sample, kind);
        ForceArrow& arrow = arrows_[k];
        WorldLabel& label = magnitudeLabels_[k];
        if (F.size() == 0 || maxForceOfKind_[k] == 0.0) {
            arrow.clear();
            label.actor()->VisibilityOff();
            continue;
        }
        const Eigen::Vector3d f = geometry.arrowVector(sample, kind);
        placeArrow(arrow, kind, origin, geometry.bodyRadius(), f, geometry, sample);
        toScale_[k] = arrow.vector();
        arrow.setLengthened(false);
        // The true magnitude, whatever length the arrow is drawn with.
        label.setText(QStringLiteral("%1 %2")
                          .arg(f.norm(), 0, 'g', 3)
                          .arg(geometry.forceUnit())
                          .toStdString());
        label.setPosition(arrow.tip());
        label.actor()->SetVisibility(magnitudesVisible_ && arrow.isDrawn() ? 1 : 0);
    }
}

void ArrowLayer::showPointArrows(const SceneGeometry& geometry, const TraceSample& sample)
{
    // The other points' arrows, scaled like the body's, from their surfaces.
    for (std::size_t i = 0; i < pointArrows_.size(); ++i)
        for (ForceKind kind : kKinds) {
            const int k = index(kind);
            ForceArrow& arrow = (*pointArrows_[i])[static_cast<std::size_t>(k)];
            if (maxForceOfKind_[k] == 0.0) {
                arrow.clear();
                continue;
            }
            const int point = static_cast<int>(i);
            placeArrow(arrow, kind, geometry.extraArrowOrigin(point, sample), geometry.bodyRadius(),
                       geometry.extraArrowVector(point, sample, kind), geometry, sample);
        }
}

void ArrowLayer::showField(const SceneGeometry& geometry, const TraceSample& sample)
{
    for (ForceKind kind : kKinds) {
        const int k = index(kind);
        ArrowField& field = field_[k];
        const Eigen::VectorXd& F = force(sample, kind);
        if (!fieldVisible_ || fieldBodies_.empty() || F.size() == 0 || maxForceOfKind_[k] == 0.0) {
            field.clear();
            continue;
        }
        std::vector<Eigen::Vector3d> origins, vectors;
        origins.reserve(fieldBodies_.size());
        vectors.reserve(fieldBodies_.size());
        for (int body : fieldBodies_) {
            origins.push_back(geometry.bodyPositionOf(body, sample.q));
            vectors.push_back(
                drawnArrow(kind, geometry.forceVectorOf(body, sample.q, F), fieldShrink_));
        }
        field.set(origins, vectors);
    }
}

void ArrowLayer::clear()
{
    for (ForceArrow& arrow : arrows_) {
        arrow.clear();
    }
    for (auto& set : pointArrows_)
        for (ForceArrow& arrow : *set)
            arrow.clear();
    for (ArrowField& field : field_)
        field.clear();
    for (WorldLabel& label : magnitudeLabels_) {
        label.actor()->VisibilityOff();
    }
}

void ArrowLayer::setForceVisible(ForceKind kind, bool visible)
{
    arrows_[index(kind)].setEnabled(visible);
    field_[index(kind)].setEnabled(visible);
    for (auto& set : pointArrows_)
        (*set)[static_cast<std::size_t>(kind)].setEnabled(visible);
}

void ArrowLayer::setScale(double scale)
{
    scale_ = scale;
}

std::vector<int> ArrowLayer::shownFieldBodies() const
{
    return fieldVisible_ ? fieldBodies_ : std::vector<int>();
}

QString ArrowLayer::fieldLegend(const QString& bodyNoun) const
{
    const int k = fieldBodies_.size() > 1 ? fieldBodies_[0] - fieldBodies_[1] : 1;
    return QStringLiteral("small arrows: %1, drawn \u00D7%2")
        .arg(everyKth(k, bodyNoun))
        .arg(fieldShrink_);
}

QString ArrowLayer::magnitudeText(ForceKind kind) const
{
    const WorldLabel& label = magnitudeLabels_[index(kind)];
    return label.actor()->GetVisibility() ? QString::fromUtf8(label.actor()->GetInput())
                                          : QString();
}

void ArrowLayer::addLegendEntries(const SceneGeometry& geometry,
                                  std::vector<SceneGeometry::LegendEntry>& entries) const
{
    for (ForceKind kind : kKinds) {
        // A force that never shows an arrow in this run (friction with μ = 0, the ideal
        // torque of the rigid body) would only be noise in the legend.
        const int k = index(kind);
        const bool everDrawn = maxForceOfKind_[k] > 1e-3 * maxForce_ && maxForce_ > 0.0;
        if (arrows_[k].isEnabled() && everDrawn) {
            QString label = geometry.forceLabel(kind);
            if (boost_[k] > 1.0) {
                label += QStringLiteral("  (drawn \u00D7%1)").arg(boost_[k]);
            }
            // Cut arrows are not to scale: say so where the scale is read.
            if (spiked_[k]) {
                label += QStringLiteral("  (peaks cut)");
            }
            entries.push_back({label, forceColor(kind), SceneGeometry::LegendEntry::Symbol::Arrow});
        }
    }
}

void ArrowLayer::addFieldLegendEntry(const QString& bodyNoun,
                                     std::vector<SceneGeometry::LegendEntry>& entries) const
{
    if (isFieldShown())
        entries.push_back(
            {fieldLegend(bodyNoun), kFieldLegendColor, SceneGeometry::LegendEntry::Symbol::Arrow});
}

void ArrowLayer::addLegendReserve(const SceneGeometry& geometry, std::vector<QString>& reserve)
{
    for (ForceKind kind : kKinds) {
        reserve.push_back(geometry.forceLabel(kind) +
                          QStringLiteral("  (drawn \u00D7%1)").arg(100));
    }
}

void ArrowLayer::layoutLabels(const CameraRig& camera, vtkRenderer* overlay, int fontPoints,
                              TextPlacer& placer)
{
    for (std::size_t k = 0; k < arrows_.size(); ++k) {
        WorldLabel& label = magnitudeLabels_[k];
        label.textProperty()->SetFontSize(fontPoints);
        const ForceArrow& arrow = arrows_[k];
        if (label.actor()->GetVisibility() && arrow.isDrawn())
            placeBeyondTip(label, arrow, camera, overlay, placer);
    }
}

void ArrowLayer::placeBeyondTip(WorldLabel& label, const ForceArrow& arrow, const CameraRig& camera,
                                vtkRenderer* overlay, TextPlacer& placer)
{
    // Beyond the arrow's tip, along the arrow on screen, so that the label never hides a short
    // arrow (friction) it names; elsewhere near the tip when another text is there.
    const Eigen::Vector2d tip = camera.toDisplay(arrow.tip());
    Eigen::Vector2d direction = tip - camera.toDisplay(arrow.tip() - arrow.vector());
    if (!direction.allFinite() || direction.norm() < 1e-9) {
        direction = Eigen::Vector2d(1.0, 0.0);
    }
    direction.normalize();
    double box[4];
    label.actor()->GetBoundingBox(overlay, box);
    const Eigen::Vector2d size(box[1] - box[0], box[3] - box[2]);
    const double reach =
        std::abs(direction.x()) * 0.5 * size.x() + std::abs(direction.y()) * 0.5 * size.y() + 6.0;
    const Eigen::Vector2d beyond = tip + reach * direction - 0.5 * size;
    const std::optional<TextPlacer::Place> place = placer.place(tip, size, beyond, 6.0);
    if (!place) {
        label.actor()->VisibilityOff();
        return;
    }
    label.setPixelOffset(place->corner.x() - tip.x(), place->corner.y() - tip.y());
}

void ArrowLayer::keepVisible(const CameraRig& camera, double pixels)
{
    for (std::size_t k = 0; k < arrows_.size(); ++k) {
        ForceArrow& arrow = arrows_[k];
        if (!arrow.isDrawn())
            continue;
        const Eigen::Vector3d base = arrow.tip() - arrow.vector();
        const Eigen::Vector3d& v = toScale_[k];
        const Eigen::Vector2d b = camera.toDisplay(base);
        double shown = (camera.toDisplay(base + v) - b).norm();
        Eigen::Vector3d drawn = v;
        // On screen an arrow's length is nearly proportional to its length in the scene
        // (perspective bends that a little): two rounds make it long enough.
        for (int round = 0; round < 2 && shown < pixels && shown > 1e-9 && std::isfinite(shown);
             ++round) {
            drawn *= 1.02 * pixels / shown;
            shown = (camera.toDisplay(base + drawn) - b).norm();
        }
        const bool lengthened = drawn.norm() > v.norm() * (1.0 + 1e-9);
        if (!lengthened && !arrow.isLengthened())
            continue;
        arrow.set(base, drawn);
        arrow.setLengthened(lengthened);
        // Its length says nothing: the label gives the magnitude.
        WorldLabel& label = magnitudeLabels_[k];
        label.setPosition(arrow.tip());
        label.actor()->SetVisibility((magnitudesVisible_ || lengthened) && arrow.isDrawn() ? 1 : 0);
    }
}

void ArrowLayer::addObstacles(const CameraRig& camera, TextPlacer& placer) const
{
    for (const ForceArrow& arrow : arrows_) {
        if (arrow.isDrawn()) {
            placer.addObstacle(camera.toDisplay(arrow.tip() - arrow.vector()),
                               camera.toDisplay(arrow.tip()), 4.0);
        }
    }
}

} // namespace clab
