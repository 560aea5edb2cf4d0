#include "view3d/SceneViewContent.h"

#include "render/ViewFonts.h"
#include "render/VtkLog.h"
#include "view3d/WorldLabel.h"

#include <model/ConstraintLabError.h>
#include <study/ParameterFit.h>
#include <scenes/SceneRegistry.h>
#include <integrate/Simulator.h>

#include <vtkActor.h>
#include <vtkActor2D.h>
#include <vtkAxesActor.h>
#include <vtkCamera.h>
#include <vtkCaptionActor2D.h>
#include <vtkCellArray.h>
#include <vtkCommand.h>
#include <vtkCoordinate.h>
#include <vtkGlyph3DMapper.h>
#include <vtkLightKit.h>
#include <vtkNew.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkPolyDataMapper2D.h>
#include <vtkProperty.h>
#include <vtkProperty2D.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkSphereSource.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>
#include <vtkTextRenderer.h>

#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>
#include <limits>

namespace clab {

namespace {

// A cool light-grey gradient: projects well in a lit classroom, every Okabe–Ito colour reads on it.
const QColor kBackgroundTop(0xFC, 0xFD, 0xFE);
const QColor kBackgroundBottom(0xD6, 0xDD, 0xE6);
const QColor kTrailColor(0x14, 0x17, 0x1C);
const QColor kTextColor(0x1F, 0x24, 0x2C);
// The field's legend row stands for arrows of every colour: neutral grey.
const QColor kFieldLegendColor(0x70, 0x76, 0x80);

QColor backgroundMid()
{
    return QColor((kBackgroundTop.red() + kBackgroundBottom.red()) / 2,
                  (kBackgroundTop.green() + kBackgroundBottom.green()) / 2,
                  (kBackgroundTop.blue() + kBackgroundBottom.blue()) / 2);
}

QColor ghostColor(int index)
{
    // Okabe–Ito colours not used by the force arrows.
    // Orange last: it is close to the friction arrow's vermilion.
    static const QColor colors[4] = {QColor(0xCC, 0x79, 0xA7), QColor(0x56, 0xB4, 0xE9),
                                     QColor(0x80, 0x80, 0x80), QColor(0xE6, 0x9F, 0x00)};
    return colors[index % 4];
}

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

QColor blend(const QColor& a, const QColor& b, double t)
{
    return QColor::fromRgbF(static_cast<float>(a.redF() + (b.redF() - a.redF()) * t),
                            static_cast<float>(a.greenF() + (b.greenF() - a.greenF()) * t),
                            static_cast<float>(a.blueF() + (b.blueF() - a.blueF()) * t));
}

void setColor(vtkTextProperty* tp, const QColor& c)
{
    tp->SetColor(c.redF(), c.greenF(), c.blueF());
}

const Eigen::VectorXd& force(const TraceSample& s, ForceKind kind)
{
    return SceneGeometry::generalizedForce(s, kind);
}

// The shortest a kind's longest arrow may be, as a share of the longest arrow of the run.
constexpr double kMinimumShare = 0.3;

// An arrow whose largest force over the run is more than this many times its 95th percentile
// has spikes (a bob rounding a sharp edge, the crack of a whip): its kind is scaled by this many
// times the percentile, and the spikes are cut to that length (their labels keep the magnitude).
constexpr double kSpikeRatio = 3.0;

constexpr ForceKind kKinds[3] = {ForceKind::Given, ForceKind::IdealConstraint,
                                 ForceKind::NonIdealConstraint};

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

/// A label on the arrows' layer with a light backing, legible over the body and the trail.
void styleOverlayLabel(WorldLabel& label, const QColor& color, vtkRenderer* layer)
{
    vtkTextProperty* tp = label.textProperty();
    ViewFonts::apply(tp);
    setColor(tp, color);
    tp->SetBold(true);
    tp->SetBackgroundColor(1.0, 1.0, 1.0);
    tp->SetBackgroundOpacity(0.75);
    label.actor()->VisibilityOff();
    layer->AddViewProp(label.actor());
}

} // namespace

struct SceneViewContent::Ghost {
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

SceneViewContent::SceneViewContent()
    : renderer_(vtkSmartPointer<vtkRenderer>::New()),
      arrowRenderer_(vtkSmartPointer<vtkRenderer>::New()),
      triadRenderer_(vtkSmartPointer<vtkRenderer>::New()),
      triad_(vtkSmartPointer<vtkAxesActor>::New()), title_(vtkSmartPointer<vtkTextActor>::New()),
      clock_(vtkSmartPointer<vtkTextActor>::New()),
      annotation_(vtkSmartPointer<vtkTextActor>::New())
{
    VtkLog::install();
    renderer_->GradientBackgroundOn();
    renderer_->SetBackground(kBackgroundBottom.redF(), kBackgroundBottom.greenF(),
                             kBackgroundBottom.blueF());
    renderer_->SetBackground2(kBackgroundTop.redF(), kBackgroundTop.greenF(),
                              kBackgroundTop.blueF());
    renderer_->UseFXAAOff();
    // A key/fill/back light kit gives shapes depth that a single headlight flattens.
    renderer_->RemoveAllLights();
    vtkNew<vtkLightKit> lights;
    lights->SetKeyLightIntensity(0.85);
    lights->AddLightsToRenderer(renderer_);
    arrowRenderer_->SetLayer(1);
    arrowRenderer_->InteractiveOff();
    arrowRenderer_->SetActiveCamera(renderer_->GetActiveCamera());
    arrowRenderer_->RemoveAllLights();
    lights->AddLightsToRenderer(arrowRenderer_);
    renderer_->AddObserver(vtkCommand::StartEvent, this, &SceneViewContent::onStartRender);

    // Measured markers: instanced spheres on the arrow layer, so that a wire or a ring never
    // hides them.
    markerPoints_ = vtkSmartPointer<vtkPolyData>::New();
    markerPoints_->SetPoints(vtkNew<vtkPoints>());
    markerGlyph_ = vtkSmartPointer<vtkSphereSource>::New();
    markerGlyph_->SetThetaResolution(10);
    markerGlyph_->SetPhiResolution(8);
    vtkNew<vtkGlyph3DMapper> glyphs;
    glyphs->SetInputData(markerPoints_);
    glyphs->SetSourceConnection(markerGlyph_->GetOutputPort());
    glyphs->ScalingOff();
    glyphs->OrientOff();
    glyphs->ScalarVisibilityOff();
    markers_ = vtkSmartPointer<vtkActor>::New();
    markers_->SetMapper(glyphs);
    markers_->VisibilityOff();
    arrowRenderer_->AddViewProp(markers_);

    trail_.setColors(kTrailColor, backgroundMid(), 0.35);
    trail_.setLineWidth(5.0);
    renderer_->AddViewProp(trail_.actor());
    for (ForceKind kind : kKinds) {
        ForceArrow& arrow = arrows_[static_cast<int>(kind)];
        arrow.setColor(forceColor(kind));
        arrow.addTo(arrowRenderer_);
        ArrowField& field = field_[static_cast<int>(kind)];
        field.setColor(forceColor(kind));
        arrowRenderer_->AddViewProp(field.actor());
        WorldLabel& label = magnitudeLabels_[static_cast<int>(kind)];
        styleOverlayLabel(label, forceColor(kind).darker(130), arrowRenderer_);
        label.textProperty()->SetVerticalJustificationToCentered();
        label.textProperty()->SetJustificationToCentered();
    }
    styleOverlayLabel(stuckLabel_, QColor(0xA0, 0x30, 0x00), arrowRenderer_);
    stuckLabel_.setText("stuck");
    stuckLabel_.textProperty()->SetJustificationToRight();
    stuckLabel_.textProperty()->SetVerticalJustificationToTop();

    for (vtkTextActor* text : {title_.Get(), clock_.Get(), annotation_.Get()}) {
        vtkTextProperty* tp = text->GetTextProperty();
        ViewFonts::apply(tp, text == annotation_.Get());
        setColor(tp, kTextColor);
        renderer_->AddViewProp(text);
    }
    title_->GetTextProperty()->BoldOn();
    title_->GetTextProperty()->SetVerticalJustificationToTop();
    clock_->GetTextProperty()->SetVerticalJustificationToTop();
    annotation_->GetTextProperty()->SetJustificationToRight();
    annotation_->GetTextProperty()->SetVerticalJustificationToBottom();
    annotation_->GetTextProperty()->SetBackgroundColor(1.0, 1.0, 1.0);
    annotation_->GetTextProperty()->SetBackgroundOpacity(0.75);
    annotation_->GetTextProperty()->SetFrame(false);
    annotation_->VisibilityOff();
    legend_.addTo(renderer_);

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
        setColor(tp, kTextColor);
        // Fixed pixel size (set per frame) instead of scaling the text into the caption box.
        caption->GetTextActor()->SetTextScaleModeToNone();
        caption->BorderOff();
    }
    triadRenderer_->AddViewProp(triad_);
}

SceneViewContent::~SceneViewContent()
{
    renderer_->RemoveObservers(vtkCommand::StartEvent);
}

void SceneViewContent::attachTo(vtkRenderWindow* window)
{
    window->SetNumberOfLayers(std::max(3, window->GetNumberOfLayers()));
    window->AddRenderer(renderer_);
    window->AddRenderer(arrowRenderer_);
    window->AddRenderer(triadRenderer_);
}

void SceneViewContent::setScene(const std::string& sceneName, const ParameterValues& values)
{
    SceneDocument document;
    document.scene = sceneName;
    document.parameters = values;
    setScene(document);
}

void SceneViewContent::setScene(const SceneDocument& document)
{
    const ParameterValues& values = document.parameters;
    std::unique_ptr<SceneGeometry> geometry = SceneGeometry::create(document);
    if (geometry_) {
        geometry_->removeFrom(renderer_);
    }
    const bool sameScene = document.scene == sceneName_ && document.system == system_;
    geometry_ = std::move(geometry);
    geometry_->addTo(renderer_);
    applyBodyChoice();
    rebuildPointArrows();
    sceneName_ = document.scene;
    system_ = document.system;
    const SceneDefinition* definition = document.definition();
    sceneTitle_ = definition ? QString::fromStdString(definition->title)
                             : QString::fromStdString(document.scene);

    // The state the scene starts from, with its forces: what the view shows before a run.
    initialSample_.reset();
    if (definition) {
        try {
            std::unique_ptr<MechanicalSystem> system = definition->create(values);
            Simulator simulator(*system);
            Eigen::VectorXd q0;
            Eigen::VectorXd qd0;
            system->initialState(q0, qd0);
            TraceSample sample;
            simulator.sample(q0, qd0, system->initialTime(), sample);
            initialSample_ = std::move(sample);
        } catch (const std::exception&) {
            // Invalid initial conditions: the geometry is still worth showing; the editor
            // reports the error.
        }
    }

    trace_.reset();
    if (!sameScene) {
        clearGhosts();
    } else {
        for (auto& ghost : ghosts_) {
            rebuildGhost(*ghost);
        }
    }
    rebuildTrail();
    rebuildMarkers();
    updateArrowStyle();
    updateLegend();
    time_ = initialSample_ ? initialSample_->t : 0.0;
    showSample();
}

void SceneViewContent::setTrace(std::shared_ptr<const Trace> trace)
{
    trace_ = std::move(trace);
    fitGeometry();
    rebuildTrail();
    rebuildMarkers();
    for (auto& ghost : ghosts_) {
        rebuildGhost(*ghost);
    }
    updateArrowStyle();
    updateLegend();
    showSample();
}

void SceneViewContent::fitGeometry()
{
    if (!geometry_ || !trace_) {
        return;
    }
    // Geometry fitted to the motion may replace its props (a longer wire, a new patch grid).
    geometry_->removeFrom(renderer_);
    if (ghosts_.empty()) {
        geometry_->fitToTrace(*trace_);
    } else {
        // Compare mode: the constraint must carry every run shown, not only the current one.
        Trace all = *trace_;
        for (const auto& ghost : ghosts_) {
            all.samples.insert(all.samples.end(), ghost->trace->samples.begin(),
                               ghost->trace->samples.end());
        }
        geometry_->fitToTrace(all);
    }
    geometry_->addTo(renderer_);
}

void SceneViewContent::rebuildTrail()
{
    std::vector<Eigen::Vector3d> points;
    if (geometry_ && trace_) {
        points.reserve(trace_->samples.size());
        for (const TraceSample& s : trace_->samples) {
            points.push_back(geometry_->trailPoint(s.q));
        }
    }
    trail_.setPath(points);
}

void SceneViewContent::setMeasured(const Measurements& measured, const std::vector<QColor>& colors)
{
    measured_ = measured;
    measuredColors_ = colors;
    rebuildMarkers();
    updateLegend();
}

void SceneViewContent::rebuildMarkers()
{
    markerPositions_.clear();
    markerColor_ = QColor();
    markerLabel_.clear();
    const std::size_t n = measured_.times.size();
    if (geometry_ && trace_ && trace_->samples.size() > 1 && n > 0) {
        const std::vector<std::string>& coordinates = trace_->coordinateNames();
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
                // The run's coordinates at the measured times, the measured ones replaced.
                Measurements at;
                at.times = measured_.times;
                for (const std::string& name : coordinates)
                    at.columns.push_back({name, std::vector<double>(n, 0.0), 0.0, name});
                const std::vector<double> simulated = ParameterFit::simulatedAt(*trace_, at);
                Eigen::VectorXd q(static_cast<Eigen::Index>(coordinates.size()));
                for (std::size_t i = 0; i < n; ++i) {
                    for (std::size_t k = 0; k < coordinates.size(); ++k)
                        q[static_cast<Eigen::Index>(k)] = simulated[k * n + i];
                    for (const auto& [c, k] : measuredCoordinates)
                        q[static_cast<Eigen::Index>(k)] = measured_.columns[c].values[i];
                    markerPositions_.push_back(geometry_->bodyPosition(q));
                }
                colourOf = measuredCoordinates.front().first;
            } else {
                for (std::size_t c = 0; c < measured_.columns.size() && !colourOf; ++c) {
                    const int index = trace_->columnIndex(measured_.columns[c].quantity);
                    if (index < 0)
                        continue;
                    const std::vector<double> k = trace_->column(index);
                    std::vector<double> times;
                    std::vector<Eigen::Vector3d> path;
                    for (const TraceSample& sample : trace_->samples) {
                        times.push_back(sample.t);
                        path.push_back(geometry_->bodyPosition(sample.q));
                    }
                    for (std::size_t i = 0; i < n; ++i)
                        if (const std::optional<Eigen::Vector3d> point = pathPointAt(
                                times, k, path, measured_.columns[c].values[i], measured_.times[i]))
                            markerPositions_.push_back(*point);
                    colourOf = c;
                }
            }
        } catch (const std::exception&) {
            // Times the run cannot be sampled at: the Fit dock says why; no markers.
            markerPositions_.clear();
        }
        if (colourOf && *colourOf < measuredColors_.size())
            markerColor_ = measuredColors_[*colourOf];
        if (colourOf)
            markerLabel_ = QStringLiteral("measured %1")
                               .arg(QString::fromStdString(measured_.columns[*colourOf].name()));
    }
    if (!markerColor_.isValid())
        markerColor_ = QColor(0xD5, 0x5E, 0x00);
    vtkPoints* points = markerPoints_->GetPoints();
    points->SetNumberOfPoints(static_cast<vtkIdType>(markerPositions_.size()));
    for (std::size_t i = 0; i < markerPositions_.size(); ++i)
        points->SetPoint(static_cast<vtkIdType>(i), markerPositions_[i].data());
    points->Modified();
    markerPoints_->Modified();
    if (geometry_)
        markerGlyph_->SetRadius(0.25 * geometry_->bodyRadius());
    markers_->GetProperty()->SetColor(markerColor_.redF(), markerColor_.greenF(),
                                      markerColor_.blueF());
    markers_->SetVisibility(!markerPositions_.empty());
}

void SceneViewContent::rebuildGhost(Ghost& ghost)
{
    std::vector<Eigen::Vector3d> points;
    if (geometry_) {
        points.reserve(ghost.trace->samples.size());
        for (const TraceSample& s : ghost.trace->samples) {
            points.push_back(geometry_->trailPoint(s.q));
        }
    }
    ghost.trail.setPath(points);
    ghost.trail.setHead(points.size());
    if (geometry_) {
        ghost.marker->SetScale(0.8 * geometry_->bodyRadius());
    }
}

void SceneViewContent::rebuildPointArrows()
{
    const int wanted = geometry_ ? geometry_->extraArrowPointCount() : 0;
    while (static_cast<int>(pointArrows_.size()) > wanted) {
        for (ForceArrow& arrow : *pointArrows_.back())
            arrow.removeFrom(arrowRenderer_);
        pointArrows_.pop_back();
    }
    while (static_cast<int>(pointArrows_.size()) < wanted) {
        auto set = std::make_unique<std::array<ForceArrow, 3>>();
        for (ForceKind kind : kKinds) {
            ForceArrow& arrow = (*set)[static_cast<std::size_t>(kind)];
            arrow.setColor(forceColor(kind));
            arrow.setEnabled(arrows_[static_cast<std::size_t>(kind)].isEnabled());
            arrow.addTo(arrowRenderer_);
        }
        pointArrows_.push_back(std::move(set));
    }
}

SceneViewContent::ArrowSeries SceneViewContent::collectArrowSeries() const
{
    ArrowSeries out;
    const std::size_t extra = geometry_ ? geometry_->extraArrowPointCount() : 0;
    for (auto& kindSeries : out.series)
        kindSeries.resize(1 + extra + fieldBodies_.size());
    if (geometry_) {
        const auto consider = [&](const TraceSample& s) {
            for (ForceKind kind : kKinds) {
                const Eigen::VectorXd& F = force(s, kind);
                if (F.size() == 0) {
                    continue;
                }
                if (std::isfinite(F.norm())) {
                    out.largestGeneralized = std::max(out.largestGeneralized, F.norm());
                }
                std::vector<std::vector<double>>& kindSeries = out.series[static_cast<int>(kind)];
                const auto add = [&kindSeries](std::size_t arrow, double f) {
                    if (std::isfinite(f))
                        kindSeries[arrow].push_back(f);
                };
                add(0, geometry_->arrowVector(s, kind).norm());
                for (std::size_t i = 0; i < extra; ++i)
                    add(1 + i, geometry_->extraArrowVector(static_cast<int>(i), s, kind).norm());
                // The field's bodies count whether the field shows or not, so that turning it
                // on does not rescale the large arrows.
                for (std::size_t b = 0; b < fieldBodies_.size(); ++b) {
                    const double f = geometry_->forceVectorOf(fieldBodies_[b], s.q, F).norm();
                    if (std::isfinite(f) && f > 0.0) {
                        out.fieldForces[static_cast<int>(kind)].push_back(f);
                        add(1 + extra + b, f);
                    }
                }
            }
        };
        if (trace_ && !trace_->samples.empty()) {
            for (const TraceSample& s : trace_->samples) {
                consider(s);
            }
        } else if (initialSample_) {
            consider(*initialSample_);
        }
    }
    return out;
}

void SceneViewContent::updateArrowStyle()
{
    maxForce_ = 0.0;
    maxForceOfKind_ = {0.0, 0.0, 0.0};
    boost_ = {1.0, 1.0, 1.0};
    ArrowSeries collected = collectArrowSeries();
    auto& series = collected.series;
    const double largestGeneralized = collected.largestGeneralized;
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
        if (kindMax <= 1e-9 * largestGeneralized) {
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
    const double size = geometry_ ? geometry_->sceneSize() : 1.0;
    // The largest force of the whole run (spikes left out) is 40 % of the scene: long enough to
    // read, short enough to stay in the frame.
    autoScale_ = maxForce_ > 0.0 ? 0.4 * size / maxForce_ : 1.0;
    const auto style = [&](ForceArrow& arrow) {
        arrow.setDimensions(0.014 * size, 0.034 * size, 0.08 * size);
        // Below a thousandth of the largest force an arrow would be a speck: draw none.
        arrow.setMinimumLength(maxForce_ > 0.0 ? 1e-3 * maxForce_ * autoScale_ * arrowScale_
                                               : 1e300);
    };
    for (ForceArrow& arrow : arrows_)
        style(arrow);
    for (auto& set : pointArrows_)
        for (ForceArrow& arrow : *set)
            style(arrow);

    fitArrowField(collected.fieldForces);
}

void SceneViewContent::fitArrowField(std::array<std::vector<double>, 3>& fieldForces)
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
    const TraceSample* first = trace_ && !trace_->samples.empty() ? &trace_->samples.front()
                               : initialSample_                   ? &*initialSample_
                                                                  : nullptr;
    if (geometry_ && first != nullptr && fieldBodies_.size() > 1 && largestField > 0.0) {
        double spacing = 0.0;
        for (std::size_t j = 0; j + 1 < fieldBodies_.size(); ++j)
            spacing += (geometry_->bodyPositionOf(fieldBodies_[j], first->q) -
                        geometry_->bodyPositionOf(fieldBodies_[j + 1], first->q))
                           .norm();
        spacing /= static_cast<double>(fieldBodies_.size() - 1);
        const double fit = 1.5 * spacing / (autoScale_ * largestField);
        if (fit > 0.0 && fit < 1.0 && std::isfinite(fit))
            fieldShrink_ = 1.0 / niceNearest(1.0 / fit);
    }
    for (ArrowField& field : field_)
        field.setMinimumLength(
            maxForce_ > 0.0 ? 1e-3 * maxForce_ * autoScale_ * arrowScale_ * fieldShrink_ : 1e300);
}

Eigen::Vector3d SceneViewContent::drawnArrow(ForceKind kind, const Eigen::Vector3d& force,
                                             double shrink, bool* cut) const
{
    const int k = static_cast<int>(kind);
    const double scale = autoScale_ * arrowScale_ * boost_[k] * shrink;
    const Eigen::Vector3d v = scale * force;
    // A spike is drawn as long as the kind's largest force without spikes.
    const double longest = scale * maxForceOfKind_[k];
    const double n = v.norm();
    const bool cutting = n > longest && std::isfinite(n);
    if (cut != nullptr)
        *cut = cutting;
    return cutting ? Eigen::Vector3d(v * (longest / n)) : v;
}

void SceneViewContent::placeArrow(ForceArrow& arrow, ForceKind kind, const Eigen::Vector3d& at,
                                  const Eigen::Vector3d& force) const
{
    bool cut = false;
    const Eigen::Vector3d v = drawnArrow(kind, force, 1.0, &cut);
    // Arrows start on the body's surface: a short force (friction) is not swallowed by it.
    const double n = v.norm();
    arrow.set(n > 0.0 && std::isfinite(n) ? Eigen::Vector3d(at + geometry_->bodyRadius() * v / n)
                                          : at,
              v);
    arrow.setCut(cut);
}

void SceneViewContent::updateLegend()
{
    std::vector<LegendOverlay::Entry> entries;
    if (geometry_) {
        for (ForceKind kind : kKinds) {
            // A force that never shows an arrow in this run (friction with μ = 0, the ideal
            // torque of the rigid body) would only be noise in the legend.
            const int k = static_cast<int>(kind);
            const bool everDrawn = maxForceOfKind_[k] > 1e-3 * maxForce_ && maxForce_ > 0.0;
            if (arrows_[k].isEnabled() && everDrawn) {
                QString label = geometry_->forceLabel(kind);
                if (boost_[k] > 1.0) {
                    label += QStringLiteral("  (drawn \u00D7%1)").arg(boost_[k]);
                }
                // Cut arrows are not to scale: say so where the scale is read.
                if (spiked_[k]) {
                    label += QStringLiteral("  (peaks cut)");
                }
                entries.push_back({label, forceColor(kind), LegendOverlay::Entry::Symbol::Arrow});
            }
        }
        for (const auto& extra : geometry_->extraLegendEntries()) {
            entries.push_back(extra);
        }
        if (trail_.pointCount() > 1) {
            entries.push_back(
                {QStringLiteral("trajectory"), kTrailColor, LegendOverlay::Entry::Symbol::Line});
        }
        for (const auto& ghost : ghosts_) {
            entries.push_back({ghost->label, ghost->color, LegendOverlay::Entry::Symbol::Line});
        }
        if (!markerPositions_.empty()) {
            entries.push_back({markerLabel_, markerColor_, LegendOverlay::Entry::Symbol::Patch});
        }
        if (fieldVisible_ && !fieldBodies_.empty())
            entries.push_back(
                {arrowFieldLegend(), kFieldLegendColor, LegendOverlay::Entry::Symbol::Arrow});
    }
    legend_.setEntries(entries);
    // What the legend may show while the parameters are tuned: every force, drawn longer,
    // and every other entry. The camera keeps clear of that.
    std::vector<QString> reserve;
    if (geometry_) {
        for (ForceKind kind : kKinds) {
            reserve.push_back(geometry_->forceLabel(kind) +
                              QStringLiteral("  (drawn \u00D7%1)").arg(100));
        }
    }
    for (const auto& entry : entries) {
        reserve.push_back(entry.label);
    }
    const int extras = geometry_ ? static_cast<int>(geometry_->extraLegendEntries().size()) : 0;
    // The measured markers' row only while they show: without data the view frames as before.
    legend_.setReserve(reserve, 3 + extras + 1 + static_cast<int>(ghosts_.size()) +
                                    (markerPositions_.empty() ? 0 : 1) +
                                    (fieldVisible_ && !fieldBodies_.empty() ? 1 : 0));
}

const TraceSample* SceneViewContent::currentSample() const
{
    if (trace_ && !trace_->samples.empty()) {
        return &trace_->samples[std::min(index_, trace_->samples.size() - 1)];
    }
    return initialSample_ ? &*initialSample_ : nullptr;
}

void SceneViewContent::setTime(double t)
{
    time_ = t;
    showSample();
}

void SceneViewContent::showSample()
{
    index_ = trace_ ? trace_->sampleIndexAt(time_) : 0;
    const TraceSample* sample = currentSample();
    if (!geometry_ || sample == nullptr) {
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
        stuckLabel_.actor()->VisibilityOff();
        trail_.setHead(0);
        updateCaptions();
        return;
    }
    geometry_->update(*sample);
    trail_.setHead(trace_ ? index_ + 1 : 0);

    const Eigen::Vector3d origin = geometry_->bodyPosition(sample->q);
    for (ForceKind kind : kKinds) {
        const int k = static_cast<int>(kind);
        const Eigen::VectorXd& F = force(*sample, kind);
        ForceArrow& arrow = arrows_[k];
        WorldLabel& label = magnitudeLabels_[k];
        if (F.size() == 0 || maxForceOfKind_[k] == 0.0) {
            arrow.clear();
            label.actor()->VisibilityOff();
            continue;
        }
        const Eigen::Vector3d f = geometry_->arrowVector(*sample, kind);
        placeArrow(arrow, kind, origin, f);
        // The true magnitude, whatever length the arrow is drawn with.
        label.setText(QStringLiteral("%1 %2")
                          .arg(f.norm(), 0, 'g', 3)
                          .arg(geometry_->forceUnit())
                          .toStdString());
        label.setPosition(arrow.tip());
        label.actor()->SetVisibility(magnitudesVisible_ && arrow.isDrawn() ? 1 : 0);
    }
    // The other points' arrows, scaled like the body's, from their surfaces.
    for (std::size_t i = 0; i < pointArrows_.size(); ++i)
        for (ForceKind kind : kKinds) {
            const int k = static_cast<int>(kind);
            ForceArrow& arrow = (*pointArrows_[i])[static_cast<std::size_t>(k)];
            if (maxForceOfKind_[k] == 0.0) {
                arrow.clear();
                continue;
            }
            const int point = static_cast<int>(i);
            placeArrow(arrow, kind, geometry_->extraArrowOrigin(point, *sample),
                       geometry_->extraArrowVector(point, *sample, kind));
        }
    showArrowField(*sample);
    // A stuck contact is the other half of a friction lesson: say so beside the body.
    bool stuck = false;
    for (Eigen::Index i = 0; i < sample->contacts.size(); ++i) {
        stuck = stuck || sample->contacts[i] < 0.5;
    }
    stuckLabel_.setPosition(origin);
    const double offset = 1.2 * fontPixels_;
    stuckLabel_.setPixelOffset(-offset, -offset);
    stuckLabel_.actor()->SetVisibility(stuck ? 1 : 0);

    for (auto& ghost : ghosts_) {
        const auto& samples = ghost->trace->samples;
        if (samples.empty()) {
            continue;
        }
        const TraceSample& g = samples[ghost->trace->sampleIndexAt(time_)];
        const Eigen::Vector3d p = geometry_->trailPoint(g.q);
        ghost->marker->SetPosition(p.x(), p.y(), p.z());
        ghost->caption.setPosition(p);
        ghost->marker->SetVisibility(1);
        ghost->caption.actor()->SetVisibility(1);
    }
    updateCaptions();
}

void SceneViewContent::updateCaptions()
{
    title_->SetInput(sceneTitle_.toUtf8().constData());
    title_->SetVisibility(geometry_ ? 1 : 0);
    const TraceSample* sample = currentSample();
    if (geometry_ && sample) {
        clock_->SetInput(QStringLiteral("t = %1 s").arg(sample->t, 0, 'f', 3).toUtf8().constData());
        clock_->SetVisibility(1);
        const QString text = geometry_->annotation(*sample);
        annotation_->SetInput(text.toUtf8().constData());
        annotation_->SetVisibility(text.isEmpty() ? 0 : 1);
    } else {
        clock_->SetVisibility(0);
        annotation_->SetVisibility(0);
    }
}

void SceneViewContent::setForceVisible(ForceKind kind, bool visible)
{
    arrows_[static_cast<int>(kind)].setEnabled(visible);
    field_[static_cast<int>(kind)].setEnabled(visible);
    for (auto& set : pointArrows_)
        (*set)[static_cast<std::size_t>(kind)].setEnabled(visible);
    updateLegend();
}

bool SceneViewContent::isForceVisible(ForceKind kind) const
{
    return arrows_[static_cast<int>(kind)].isEnabled();
}

void SceneViewContent::setArrowScale(double scale)
{
    if (!(scale > 0.0) || !std::isfinite(scale)) {
        throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter,
                                 "SceneView::setArrowScale: the scale must be a positive number, "
                                 "got " +
                                     std::to_string(scale));
    }
    arrowScale_ = scale;
    updateArrowStyle();
    showSample();
}

void SceneViewContent::setLegendVisible(bool visible)
{
    legend_.setVisible(visible);
}

void SceneViewContent::addGhost(std::shared_ptr<const Trace> trace, const QString& label)
{
    if (!trace) {
        return;
    }
    auto ghost = std::make_unique<Ghost>();
    ghost->trace = std::move(trace);
    ghost->label = label;
    const QColor base = ghostColor(static_cast<int>(ghosts_.size()));
    // Faded: part of the way to the background, the whole run drawn at uniform strength.
    ghost->color = blend(base, backgroundMid(), 0.3);
    ghost->trail.setColors(ghost->color, backgroundMid(), 1.0);
    ghost->trail.setLineWidth(2.5);

    vtkNew<vtkSphereSource> sphere;
    sphere->SetRadius(1.0);
    sphere->SetThetaResolution(32);
    sphere->SetPhiResolution(20);
    auto mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
    mapper->SetInputConnection(sphere->GetOutputPort());
    ghost->marker = vtkSmartPointer<vtkActor>::New();
    ghost->marker->SetMapper(mapper);
    vtkProperty* p = ghost->marker->GetProperty();
    p->SetColor(ghost->color.redF(), ghost->color.greenF(), ghost->color.blueF());
    // Opaque (the colour is already faded): a translucent prop would make VTK run its
    // order-independent translucency pass, half a frame under a software renderer.
    p->SetAmbient(0.3);
    p->SetDiffuse(0.7);
    ghost->marker->VisibilityOff();

    ghost->caption.setText(label.toStdString());
    vtkTextProperty* tp = ghost->caption.textProperty();
    ViewFonts::apply(tp);
    setColor(tp, base.darker(135));
    tp->SetFontSize(std::max(8, fontPixels_ - 2));
    tp->SetJustificationToLeft();
    tp->SetVerticalJustificationToBottom();
    // A light backing keeps the caption legible where it crosses the body or an arrow.
    tp->SetBackgroundColor(1.0, 1.0, 1.0);
    tp->SetBackgroundOpacity(0.7);
    ghost->caption.setPixelOffset(8, 8);
    ghost->caption.actor()->VisibilityOff();

    ghost->leaderEnds = vtkSmartPointer<vtkPoints>::New();
    ghost->leaderEnds->SetNumberOfPoints(2);
    vtkNew<vtkCellArray> segment;
    segment->InsertNextCell(2);
    segment->InsertCellPoint(0);
    segment->InsertCellPoint(1);
    vtkNew<vtkPolyData> line;
    line->SetPoints(ghost->leaderEnds);
    line->SetLines(segment);
    vtkNew<vtkPolyDataMapper2D> leaderMapper;
    leaderMapper->SetInputData(line);
    ghost->leader = vtkSmartPointer<vtkActor2D>::New();
    ghost->leader->SetMapper(leaderMapper);
    const QColor ink = base.darker(135);
    ghost->leader->GetProperty()->SetColor(ink.redF(), ink.greenF(), ink.blueF());
    ghost->leader->GetProperty()->SetLineWidth(1.5f);
    ghost->leader->VisibilityOff();

    renderer_->AddViewProp(ghost->trail.actor());
    renderer_->AddViewProp(ghost->marker);
    // On the arrows' layer: a caption must not disappear behind the current body's arrows.
    arrowRenderer_->AddViewProp(ghost->caption.actor());
    arrowRenderer_->AddViewProp(ghost->leader);
    ghosts_.push_back(std::move(ghost));
    fitGeometry();
    rebuildTrail();
    for (auto& each : ghosts_) {
        rebuildGhost(*each);
    }
    updateLegend();
    showSample();
}

void SceneViewContent::clearGhosts()
{
    for (auto& ghost : ghosts_) {
        renderer_->RemoveViewProp(ghost->trail.actor());
        renderer_->RemoveViewProp(ghost->marker);
        arrowRenderer_->RemoveViewProp(ghost->caption.actor());
        arrowRenderer_->RemoveViewProp(ghost->leader);
    }
    ghosts_.clear();
    updateLegend();
}

} // namespace clab

namespace clab {

void SceneViewContent::applyBodyChoice()
{
    if (!geometry_)
        return;
    const int count = geometry_->bodyCount();
    geometry_->chooseBody(chosenRequest_ <= 0 ? count : std::min(chosenRequest_, count));
    fieldBodies_ = count > 1 ? fieldBodiesFor(count) : std::vector<int>();
}

std::vector<int> SceneViewContent::fieldBodiesFor(int count)
{
    const int k = std::max(1, (count + kMaxFieldArrows - 1) / kMaxFieldArrows);
    std::vector<int> bodies;
    for (int body = count; body >= 1; body -= k)
        bodies.push_back(body);
    return bodies;
}

int SceneViewContent::bodyCount() const
{
    return geometry_ ? geometry_->bodyCount() : 1;
}

int SceneViewContent::chosenBody() const
{
    return geometry_ ? geometry_->chosenBody() : 1;
}

QString SceneViewContent::bodyNoun() const
{
    return geometry_ ? geometry_->bodyNoun() : QStringLiteral("body");
}

void SceneViewContent::setChosenBody(int body)
{
    chosenRequest_ = std::max(0, body);
    if (!geometry_)
        return;
    applyBodyChoice();
    // The trail, the markers and the arrows' scale all follow the chosen body.
    rebuildTrail();
    for (auto& ghost : ghosts_)
        rebuildGhost(*ghost);
    rebuildMarkers();
    updateArrowStyle();
    updateLegend();
    showSample();
}

void SceneViewContent::setArrowFieldVisible(bool visible)
{
    fieldVisible_ = visible;
    updateLegend();
    showSample();
}

QString SceneViewContent::arrowFieldLegend() const
{
    const int k = fieldBodies_.size() > 1 ? fieldBodies_[0] - fieldBodies_[1] : 1;
    return QStringLiteral("small arrows: %1, drawn \u00D7%2")
        .arg(everyKth(k, geometry_ ? geometry_->bodyNoun() : QStringLiteral("body")))
        .arg(fieldShrink_);
}

std::vector<int> SceneViewContent::arrowFieldBodies() const
{
    return fieldVisible_ ? fieldBodies_ : std::vector<int>();
}

void SceneViewContent::showArrowField(const TraceSample& sample)
{
    for (ForceKind kind : kKinds) {
        const int k = static_cast<int>(kind);
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
            origins.push_back(geometry_->bodyPositionOf(body, sample.q));
            vectors.push_back(
                drawnArrow(kind, geometry_->forceVectorOf(body, sample.q, F), fieldShrink_));
        }
        field.set(origins, vectors);
    }
}

QStringList SceneViewContent::legendLabels() const
{
    QStringList labels;
    for (const LegendOverlay::Entry& entry : legend_.entries())
        labels << entry.label;
    return labels;
}

Eigen::Vector3d SceneViewContent::arrowBase(ForceKind kind) const
{
    const ForceArrow& arrow = arrows_[static_cast<int>(kind)];
    return arrow.tip() - arrow.vector();
}

Eigen::Vector3d SceneViewContent::arrowVector(ForceKind kind) const
{
    return arrows_[static_cast<int>(kind)].vector();
}

int SceneViewContent::fontPixelsFor(int width, int height)
{
    return std::clamp(static_cast<int>(std::lround(std::min(height, width * 3 / 4) / 32.0)), 12,
                      30);
}

void SceneViewContent::setMagnitudesVisible(bool visible)
{
    magnitudesVisible_ = visible;
    showSample();
}

QString SceneViewContent::magnitudeText(ForceKind kind) const
{
    const WorldLabel& label = magnitudeLabels_[static_cast<int>(kind)];
    return label.actor()->GetVisibility() ? QString::fromUtf8(label.actor()->GetInput())
                                          : QString();
}

double SceneViewContent::sceneSize() const
{
    return geometry_ ? geometry_->sceneSize() : 0.0;
}

QString SceneViewContent::forceUnit() const
{
    return geometry_ ? geometry_->forceUnit() : QStringLiteral("N");
}

QString SceneViewContent::forceDescription(ForceKind kind) const
{
    return geometry_ ? geometry_->forceDescription(kind) : clab::forceDescription(kind);
}

double SceneViewContent::forceMagnitude(ForceKind kind) const
{
    const TraceSample* sample = currentSample();
    if (!geometry_ || sample == nullptr || force(*sample, kind).size() == 0) {
        return 0.0;
    }
    const double m = geometry_->arrowVector(*sample, kind).norm();
    // Round-off of a force this run never has (see updateArrowStyle) reads as zero.
    return maxForceOfKind_[static_cast<int>(kind)] == 0.0 ? 0.0 : m;
}

QStringList SceneViewContent::readouts() const
{
    const TraceSample* sample = currentSample();
    return geometry_ && sample ? geometry_->readouts(*sample) : QStringList();
}

bool SceneViewContent::isStuckShown() const
{
    return stuckLabel_.actor()->GetVisibility() != 0;
}

bool SceneViewContent::isArrowDrawn(ForceKind kind) const
{
    return arrows_[static_cast<int>(kind)].isDrawn();
}

bool SceneViewContent::isArrowMarkedCut(ForceKind kind) const
{
    return arrows_[static_cast<int>(kind)].isBreakMarkDrawn();
}

double SceneViewContent::arrowLength(ForceKind kind) const
{
    const ForceArrow& arrow = arrows_[static_cast<int>(kind)];
    return arrow.isDrawn() ? arrow.length() : 0.0;
}

void SceneViewContent::frameCamera(int width, int height)
{
    Eigen::AlignedBox3d box;
    if (geometry_) {
        box = geometry_->frameBox();
    }
    box.extend(trail_.bounds());
    for (const auto& ghost : ghosts_) {
        box.extend(ghost->trail.bounds());
    }
    if (box.isEmpty()) {
        box = Eigen::AlignedBox3d(Eigen::Vector3d::Constant(-1.0), Eigen::Vector3d::Constant(1.0));
    }
    const Eigen::Vector3d center = box.center();
    const Eigen::Vector3d d =
        geometry_ ? geometry_->viewDirection() : Eigen::Vector3d(0.0, 0.0, 1.0);
    Eigen::Vector3d up = geometry_ ? geometry_->viewUp() : Eigen::Vector3d::UnitY();
    up = (up - up.dot(d) * d).normalized();
    const Eigen::Vector3d right = (-d).cross(up);

    vtkCamera* camera = renderer_->GetActiveCamera();
    camera->ParallelProjectionOff();
    const double viewAngle = 30.0;
    camera->SetViewAngle(viewAngle);
    // The size the view will have when drawn: given (an export about to render at a new size),
    // else the renderer's current one.
    int size[2] = {width, height};
    if (width <= 0 || height <= 0) {
        const int* current = renderer_->GetSize();
        size[0] = current[0];
        size[1] = current[1];
    }
    const double aspect =
        size[0] > 0 && size[1] > 0 ? static_cast<double>(size[0]) / size[1] : 4.0 / 3.0;
    const double tanV = std::tan(0.5 * viewAngle * 3.14159265358979323846 / 180.0);

    // The scene is framed in a free part of the view: left of the legend panel (and below the
    // title), or below the panel, whichever shows it larger. The projection centre is shifted
    // into that part (vtkCamera window centre, in [-1, 1] viewport units).
    struct Region {
        double width;  ///< fraction of the view's width
        double height; ///< fraction of the view's height
    };
    std::vector<Region> regions = {{1.0, 1.0}};
    // Below this a window is being created or resized: framing around a legend and title that
    // would fill it leaves a speck once the window has its real size.
    constexpr int smallestLaidOut = 160;
    if (size[0] >= smallestLaidOut && size[1] >= smallestLaidOut) {
        const double w = size[0];
        const double h = size[1];
        const int font = fontPixelsFor(size[0], size[1]);
        const double titleHeight = 3.2 * font;
        if (legend_.isVisible() && !legend_.entries().empty()) {
            vtkRenderWindow* window = renderer_->GetRenderWindow();
            const double dpi = window ? window->GetDPI() : 72.0;
            const int top = layoutLegend(size[0], size[1], font, dpi);
            const double legendWidth = legend_.reservedWidth() + 2.0 * legend_.margin();
            const double legendBottom = top + legend_.reservedHeight() + 2.0 * legend_.margin();
            regions = {{(w - legendWidth) / w, (h - titleHeight) / h},
                       {1.0, (h - std::max(legendBottom, titleHeight)) / h}};
        } else {
            regions = {{1.0, (h - titleHeight) / h}};
        }
    }
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
    camera->SetWindowCenter(1.0 - chosen.width, 1.0 - chosen.height);
    distance = std::max(distance, 1e-3);
    const Eigen::Vector3d position = center + distance * d;
    camera->SetFocalPoint(center.x(), center.y(), center.z());
    camera->SetPosition(position.x(), position.y(), position.z());
    camera->SetViewUp(up.x(), up.y(), up.z());
    renderer_->ResetCameraClippingRange();
}

int SceneViewContent::layoutLegend(int width, int height, int font, double dpi)
{
    // Top right, beside the title; below the title and the clock when a narrow view would put
    // the two on top of each other.
    legend_.layout(width, height, font, dpi);
    if (legend_.entries().empty()) {
        return 0;
    }
    vtkNew<vtkTextProperty> titleFont;
    titleFont->ShallowCopy(title_->GetTextProperty());
    titleFont->SetFontSize(std::max(1, static_cast<int>(std::lround(1.15 * font * 72.0 / dpi))));
    int box[4] = {0, 0, 0, 0};
    if (vtkTextRenderer* text = vtkTextRenderer::GetInstance()) {
        text->GetBoundingBox(titleFont, sceneTitle_.toStdString(), box, static_cast<int>(dpi));
    }
    const double titleRight = 0.8 * font + (box[1] - box[0]) + 0.8 * font;
    // With the reserve's width, so that the legend does not jump down and up while tuning.
    const double legendLeft = width - legend_.margin() - legend_.reservedWidth();
    const int top = titleRight > legendLeft ? static_cast<int>(std::lround(3.0 * font)) : 0;
    legend_.layout(width, height, font, dpi, top);
    return top;
}

void SceneViewContent::placeGhostCaptions()
{
    // Each caption sits beside its ghost: up-right, up-left, down-right or down-left of it,
    // whichever first keeps clear of the moving body, the arrows, the legend and the captions
    // placed before; when none does, it moves up until it is clear.
    const double gap = 8.0;
    const int* view = renderer_->GetSize();
    std::vector<Eigen::AlignedBox2d> placed;
    double ghostRadius = 0.0; // of a ghost's marker on screen, in pixels
    const TraceSample* sample = currentSample();
    if (geometry_ && sample != nullptr && !ghosts_.empty()) {
        const auto onScreen = [this](const Eigen::Vector3d& p) {
            return toDisplay(p);
        };
        // The moving body is what the class watches.
        const Eigen::Vector3d centre = geometry_->bodyPosition(sample->q);
        double up[3];
        renderer_->GetActiveCamera()->GetViewUp(up);
        const Eigen::Vector2d c = onScreen(centre);
        const Eigen::Vector3d upward(up[0], up[1], up[2]);
        const double r = (onScreen(centre + geometry_->bodyRadius() * upward) - c).norm() + 2.0;
        if (c.allFinite() && std::isfinite(r)) {
            placed.emplace_back(c - Eigen::Vector2d(r, r), c + Eigen::Vector2d(r, r));
        }
        // The ghosts' markers too: a caption must not hide another run's body.
        ghostRadius = 0.8 * (r - 2.0) + 2.0;
        if (std::isfinite(ghostRadius)) {
            for (const auto& ghost : ghosts_) {
                if (ghost->marker->GetVisibility() == 0) {
                    continue;
                }
                const Eigen::Vector2d g = ghost->caption.anchorOnScreen(renderer_);
                if (g.allFinite()) {
                    placed.emplace_back(g - Eigen::Vector2d(ghostRadius, ghostRadius),
                                        g + Eigen::Vector2d(ghostRadius, ghostRadius));
                }
            }
        } else {
            ghostRadius = 0.0;
        }
        // The arrows, from base to tip.
        for (const ForceArrow& arrow : arrows_) {
            if (!arrow.isDrawn()) {
                continue;
            }
            const Eigen::Vector2d a = onScreen(arrow.tip() - arrow.vector());
            const Eigen::Vector2d b = onScreen(arrow.tip());
            if (a.allFinite() && b.allFinite()) {
                const Eigen::Vector2d pad(4.0, 4.0);
                placed.emplace_back(a.cwiseMin(b) - pad, a.cwiseMax(b) + pad);
            }
        }
    }
    // The legend panel, top right.
    if (legend_.isVisible() && !legend_.entries().empty()) {
        const double m = legend_.margin();
        placed.emplace_back(Eigen::Vector2d(view[0] - m - legend_.panelWidth(),
                                            view[1] - m - legendTop_ - legend_.panelHeight()),
                            Eigen::Vector2d(view[0] - m, view[1] - m - legendTop_));
    }
    const auto clear = [&](const Eigen::AlignedBox2d& box) {
        return std::none_of(placed.begin(), placed.end(), [&](const Eigen::AlignedBox2d& other) {
            return other.intersects(box);
        });
    };
    for (auto& ghost : ghosts_) {
        vtkTextActor* actor = ghost->caption.actor();
        ghost->leader->SetVisibility(0);
        if (actor->GetVisibility() == 0) {
            continue;
        }
        double box[4];
        actor->GetBoundingBox(renderer_, box);
        const Eigen::Vector2d size(box[1] - box[0], box[3] - box[2]);
        const Eigen::Vector2d anchor = ghost->caption.anchorOnScreen(renderer_);
        // A point far off screen (near the camera's eye plane) needs no room, and there
        // stacking could not make progress.
        if (!anchor.allFinite() || std::abs(anchor.x()) > 10.0 * view[0] ||
            std::abs(anchor.y()) > 10.0 * view[1]) {
            continue;
        }
        // The nearest free place around the ghost: rings of growing distance, eight
        // directions each, up-right first.
        // The first ring clears the ghost's own marker.
        const double first = std::max(gap, ghostRadius + 3.0);
        Eigen::Vector2d corner = anchor + Eigen::Vector2d(first, first);
        bool found = false;
        int foundRing = 0;
        const double step = size.y() + 2.0;
        const int directions[8][2] = {{1, 1}, {-1, 1}, {1, -1}, {-1, -1},
                                      {0, 1}, {0, -1}, {1, 0},  {-1, 0}};
        for (int ring = 0; ring < 8 && !found; ++ring) {
            const double d = first + ring * step;
            for (const auto& dir : directions) {
                // The caption's near corner (or edge middle) at distance d in that direction.
                const double x = dir[0] > 0   ? anchor.x() + d
                                 : dir[0] < 0 ? anchor.x() - d - size.x()
                                              : anchor.x() - 0.5 * size.x();
                const double y = dir[1] > 0   ? anchor.y() + d
                                 : dir[1] < 0 ? anchor.y() - d - size.y()
                                              : anchor.y() - 0.5 * size.y();
                const Eigen::Vector2d candidate(x, y);
                const bool inside =
                    x >= 0.0 && y >= 0.0 && x + size.x() <= view[0] && y + size.y() <= view[1];
                if (inside && clear(Eigen::AlignedBox2d(candidate, candidate + size))) {
                    corner = candidate;
                    found = true;
                    foundRing = ring;
                    break;
                }
            }
        }
        // Each pass moves the caption above one more box: as many passes as boxes suffice.
        bool moved = !found;
        for (std::size_t pass = 0; moved && pass <= placed.size(); ++pass) {
            moved = false;
            for (const Eigen::AlignedBox2d& other : placed) {
                if (other.intersects(Eigen::AlignedBox2d(corner, corner + size))) {
                    corner.y() = other.max().y() + 2.0;
                    moved = true;
                }
            }
        }
        ghost->caption.setPixelOffset(corner.x() - anchor.x(), corner.y() - anchor.y());
        placed.emplace_back(corner, corner + size);
        // A caption further off than the first ring points at its ghost with a leader line to
        // the nearest point of its box.
        const Eigen::Vector2d nearest = anchor.cwiseMax(corner).cwiseMin(corner + size);
        const bool far = !found || foundRing > 0;
        ghost->leaderEnds->SetPoint(0, anchor.x(), anchor.y(), 0.0);
        ghost->leaderEnds->SetPoint(1, nearest.x(), nearest.y(), 0.0);
        ghost->leaderEnds->Modified();
        ghost->leader->SetVisibility(far ? 1 : 0);
    }
}

Eigen::Vector2d SceneViewContent::toDisplay(const Eigen::Vector3d& point) const
{
    vtkNew<vtkCoordinate> coordinate;
    coordinate->SetCoordinateSystemToWorld();
    coordinate->SetValue(point.x(), point.y(), point.z());
    const double* d = coordinate->GetComputedDoubleDisplayValue(renderer_);
    return {d[0], d[1]};
}

void SceneViewContent::placeMagnitudeLabels()
{
    // Beyond each arrow's tip, along the arrow on screen, so that the label never hides a
    // short arrow (friction) it names.
    const auto onScreen = [this](const Eigen::Vector3d& p) {
        return toDisplay(p);
    };
    for (std::size_t k = 0; k < arrows_.size(); ++k) {
        WorldLabel& label = magnitudeLabels_[k];
        const ForceArrow& arrow = arrows_[k];
        if (!label.actor()->GetVisibility() || !arrow.isDrawn()) {
            continue;
        }
        Eigen::Vector2d direction = onScreen(arrow.tip()) - onScreen(arrow.tip() - arrow.vector());
        if (!direction.allFinite() || direction.norm() < 1e-9) {
            direction = Eigen::Vector2d(1.0, 0.0);
        }
        direction.normalize();
        double box[4];
        label.actor()->GetBoundingBox(arrowRenderer_, box);
        const double halfWidth = 0.5 * (box[1] - box[0]);
        const double halfHeight = 0.5 * (box[3] - box[2]);
        const double reach =
            std::abs(direction.x()) * halfWidth + std::abs(direction.y()) * halfHeight + 6.0;
        label.setPixelOffset(reach * direction.x(), reach * direction.y());
    }
}

void SceneViewContent::onStartRender(vtkObject* caller, unsigned long eventId, void* callData)
{
    (void)caller, (void)eventId, (void)callData;
    const int* size = renderer_->GetSize();
    const int w = size[0];
    const int h = size[1];
    if (w <= 0 || h <= 0) {
        return;
    }
    if (geometry_) {
        geometry_->beforeRender(renderer_);
    }
    vtkRenderWindow* window = renderer_->GetRenderWindow();
    const double dpi = window ? window->GetDPI() : 72.0;
    // Text grows with the view so that it stays legible from the back of a classroom.
    fontPixels_ = fontPixelsFor(w, h);
    const auto points = [dpi](double pixels) {
        return std::max(1, static_cast<int>(std::lround(pixels * 72.0 / dpi)));
    };
    const int margin = static_cast<int>(std::lround(0.8 * fontPixels_));
    title_->GetTextProperty()->SetFontSize(points(1.15 * fontPixels_));
    title_->SetDisplayPosition(margin, h - margin);
    clock_->GetTextProperty()->SetFontSize(points(fontPixels_));
    clock_->SetDisplayPosition(margin,
                               h - margin - static_cast<int>(std::lround(1.7 * fontPixels_)));
    annotation_->GetTextProperty()->SetFontSize(points(0.8 * fontPixels_));
    annotation_->SetDisplayPosition(w - margin, margin);
    legendTop_ = layoutLegend(w, h, fontPixels_, dpi);
    for (auto& ghost : ghosts_) {
        ghost->caption.textProperty()->SetFontSize(points(0.85 * fontPixels_));
    }
    for (WorldLabel& label : magnitudeLabels_) {
        label.textProperty()->SetFontSize(points(0.8 * fontPixels_));
    }
    stuckLabel_.textProperty()->SetFontSize(points(0.85 * fontPixels_));
    placeMagnitudeLabels();
    placeGhostCaptions();

    // The arrows share the scene's camera: its clipping range must hold both layers' props.
    double bounds[6];
    double arrowBounds[6];
    renderer_->ComputeVisiblePropBounds(bounds);
    arrowRenderer_->ComputeVisiblePropBounds(arrowBounds);
    if (arrowBounds[0] <= arrowBounds[1]) {
        if (bounds[0] > bounds[1]) {
            std::copy(arrowBounds, arrowBounds + 6, bounds);
        }
        for (int k = 0; k < 3; ++k) {
            bounds[2 * k] = std::min(bounds[2 * k], arrowBounds[2 * k]);
            bounds[2 * k + 1] = std::max(bounds[2 * k + 1], arrowBounds[2 * k + 1]);
        }
    }
    if (bounds[0] <= bounds[1]) {
        renderer_->ResetCameraClippingRange(bounds);
    }

    // Axes triad: a square in the lower-left corner, turned like the scene.
    const double side = std::clamp(0.2 * std::min(w, h), 80.0, 220.0);
    for (vtkCaptionActor2D* caption :
         {triad_->GetXAxisCaptionActor2D(), triad_->GetYAxisCaptionActor2D(),
          triad_->GetZAxisCaptionActor2D()}) {
        caption->GetCaptionTextProperty()->SetFontSize(points(0.95 * fontPixels_));
    }
    triadRenderer_->SetViewport(0.0, 0.0, side / w, side / h);
    vtkCamera* main = renderer_->GetActiveCamera();
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
