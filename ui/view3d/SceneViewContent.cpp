#include "view3d/SceneViewContent.h"

#include "render/VtkLog.h"
#include "view3d/ArrowLayer.h"
#include "view3d/CameraRig.h"
#include "view3d/ContactMarks.h"
#include "view3d/GhostLayer.h"
#include "view3d/LegendOverlay.h"
#include "view3d/MarkerLayer.h"
#include "view3d/TextPlacer.h"
#include "view3d/TitleOverlay.h"
#include "view3d/TrailActor.h"
#include "view3d/ViewStyle.h"
#include "view3d/geometry/SceneGeometry.h"

#include <integrate/Simulator.h>
#include <model/ConstraintLabError.h>
#include <scenes/SceneRegistry.h>

#include <vtkCommand.h>
#include <vtkLightKit.h>
#include <vtkNew.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkSmartPointer.h>

#include <algorithm>
#include <cmath>

namespace clab {

static_assert(SceneViewContent::kMaxFieldArrows == ArrowLayer::kMaxFieldArrows);

/// The renderers (the scene; the overlay above it, same camera: arrows, markers and captions
/// never hidden by ground or ring) and what each layer draws on them, in the order the props
/// are added.
struct SceneViewContent::Layers {
    Layers();

    /// Lays the legend out for the view; returns how far below its usual place it went (pixels).
    int layoutLegend(int width, int height, int font, double dpi);
    /// The parts of a view of width × height pixels the scene may be framed in: left of the
    /// legend panel (and below the title), or below the panel.
    std::vector<CameraRig::Region> framingRegions(int width, int height, int font);
    /// The legend panel's box on screen (pixels), when it shows.
    void addLegendBox(int legendTop, TextPlacer& placer) const;

    vtkSmartPointer<vtkRenderer> scene = vtkSmartPointer<vtkRenderer>::New();
    vtkSmartPointer<vtkRenderer> overlay = vtkSmartPointer<vtkRenderer>::New();
    CameraRig camera{scene};
    ArrowLayer arrows{overlay};
    MarkerLayer markers{overlay};
    TrailActor trail;
    ContactMarks contactMarks{overlay};
    GhostLayer ghosts{scene, overlay};
    TitleOverlay titles;
    LegendOverlay legend;
};

SceneViewContent::Layers::Layers()
{
    scene->GradientBackgroundOn();
    const QColor bottom = ViewStyle::backgroundBottom();
    const QColor top = ViewStyle::backgroundTop();
    scene->SetBackground(bottom.redF(), bottom.greenF(), bottom.blueF());
    scene->SetBackground2(top.redF(), top.greenF(), top.blueF());
    scene->UseFXAAOff();
    // A key/fill/back light kit gives shapes depth that a single headlight flattens.
    scene->RemoveAllLights();
    vtkNew<vtkLightKit> lights;
    lights->SetKeyLightIntensity(0.85);
    lights->AddLightsToRenderer(scene);
    overlay->SetLayer(1);
    overlay->InteractiveOff();
    overlay->SetActiveCamera(scene->GetActiveCamera());
    overlay->RemoveAllLights();
    lights->AddLightsToRenderer(overlay);

    trail.setColors(ViewStyle::trailColor(), ViewStyle::backgroundMid(), 0.35);
    trail.setLineWidth(5.0);
    scene->AddViewProp(trail.actor());
    titles.addTo(scene);
    legend.addTo(scene);
}

int SceneViewContent::Layers::layoutLegend(int width, int height, int font, double dpi)
{
    // Top right, beside the title; below the title and the clock when a narrow view would put
    // the two on top of each other.
    legend.layout(width, height, font, dpi);
    if (legend.entries().empty()) {
        return 0;
    }
    const double titleRight = titles.titleRight(font, dpi);
    // With the reserve's width, so that the legend does not jump down and up while tuning.
    const double legendLeft = width - legend.margin() - legend.reservedWidth();
    const int top = titleRight > legendLeft ? static_cast<int>(std::lround(3.0 * font)) : 0;
    legend.layout(width, height, font, dpi, top);
    return top;
}

std::vector<CameraRig::Region> SceneViewContent::Layers::framingRegions(int width, int height,
                                                                        int font)
{
    // Below this a window is being created or resized: framing around a legend and title that
    // would fill it leaves a speck once the window has its real size.
    constexpr int smallestLaidOut = 160;
    if (width < smallestLaidOut || height < smallestLaidOut) {
        return {{1.0, 1.0}};
    }
    const double w = width;
    const double h = height;
    const double titleHeight = 3.2 * font;
    if (!legend.isVisible() || legend.entries().empty()) {
        return {{1.0, (h - titleHeight) / h}};
    }
    vtkRenderWindow* window = scene->GetRenderWindow();
    const double dpi = window ? window->GetDPI() : 72.0;
    const int top = layoutLegend(width, height, font, dpi);
    const double legendWidth = legend.reservedWidth() + 2.0 * legend.margin();
    const double legendBottom = top + legend.reservedHeight() + 2.0 * legend.margin();
    return {{(w - legendWidth) / w, (h - titleHeight) / h},
            {1.0, (h - std::max(legendBottom, titleHeight)) / h}};
}

void SceneViewContent::Layers::addLegendBox(int legendTop, TextPlacer& placer) const
{
    if (!legend.isVisible() || legend.entries().empty()) {
        return;
    }
    const int* view = scene->GetSize();
    const double m = legend.margin();
    placer.addFixedText(
        Eigen::AlignedBox2d(Eigen::Vector2d(view[0] - m - legend.panelWidth(),
                                            view[1] - m - legendTop - legend.panelHeight()),
                            Eigen::Vector2d(view[0] - m, view[1] - m - legendTop)));
}

SceneViewContent::SceneViewContent()
{
    VtkLog::install();
    layers_ = std::make_unique<Layers>();
    layers_->scene->AddObserver(vtkCommand::StartEvent, this, &SceneViewContent::onStartRender);
}

SceneViewContent::~SceneViewContent()
{
    layers_->scene->RemoveObservers(vtkCommand::StartEvent);
}

void SceneViewContent::attachTo(vtkRenderWindow* window)
{
    window->SetNumberOfLayers(std::max(3, window->GetNumberOfLayers()));
    window->AddRenderer(layers_->scene);
    window->AddRenderer(layers_->overlay);
    layers_->camera.attachTo(window);
}

vtkRenderer* SceneViewContent::renderer() const
{
    return layers_->scene;
}

vtkRenderer* SceneViewContent::overlayRenderer() const
{
    return layers_->overlay;
}

void SceneViewContent::setScene(const std::string& sceneName, const ParameterValues& values)
{
    SceneDocument document;
    document.scene = sceneName;
    document.parameters = values;
    setScene(document);
}

namespace {

// The state the scene starts from, with its forces: what the view shows before a run.
std::optional<TraceSample> initialSampleOf(const SceneDefinition* definition,
                                           const ParameterValues& values)
{
    if (!definition) {
        return std::nullopt;
    }
    try {
        std::unique_ptr<MechanicalSystem> system = definition->create(values);
        Simulator simulator(*system);
        Eigen::VectorXd q0;
        Eigen::VectorXd qd0;
        system->initialState(q0, qd0);
        TraceSample sample;
        simulator.sample(q0, qd0, system->initialTime(), sample);
        return sample;
    } catch (const std::exception&) {
        // Invalid initial conditions: the geometry is still worth showing; the editor reports
        // the error.
        return std::nullopt;
    }
}

} // namespace

void SceneViewContent::setScene(const SceneDocument& document)
{
    std::unique_ptr<SceneGeometry> geometry = SceneGeometry::create(document);
    heldSample_.reset(); // another system's state, or a start the new run replaces
    if (geometry_) {
        geometry_->removeFrom(layers_->scene);
    }
    const bool sameScene = document.scene == sceneName_ && document.system == system_;
    geometry_ = std::move(geometry);
    geometry_->addTo(layers_->scene);
    applyBodyChoice();
    layers_->arrows.matchPoints(geometry_.get());
    sceneName_ = document.scene;
    system_ = document.system;
    const SceneDefinition* definition = document.definition();
    sceneTitle_ = definition ? QString::fromStdString(definition->title)
                             : QString::fromStdString(document.scene);
    initialSample_ = initialSampleOf(definition, document.parameters);

    trace_.reset();
    if (!sameScene) {
        clearGhosts();
    } else {
        layers_->ghosts.rebuild(geometry_.get());
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
    layers_->ghosts.rebuild(geometry_.get());
    updateArrowStyle();
    updateLegend();
    showSample();
}

std::span<const TraceSample> SceneViewContent::runSamples() const
{
    if (trace_ && !trace_->samples.empty()) {
        return trace_->samples;
    }
    if (initialSample_) {
        return std::span<const TraceSample>(&*initialSample_, 1);
    }
    return {};
}

void SceneViewContent::fitGeometry()
{
    if (!geometry_ || !trace_) {
        return;
    }
    // Geometry fitted to the motion may replace its props (a longer wire, a new patch grid).
    geometry_->removeFrom(layers_->scene);
    if (layers_->ghosts.empty()) {
        geometry_->fitToTrace(*trace_);
    } else {
        // Compare mode: the constraint must carry every run shown, not only the current one.
        Trace all = *trace_;
        layers_->ghosts.appendSamples(all.samples);
        geometry_->fitToTrace(all);
    }
    geometry_->addTo(layers_->scene);
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
    layers_->trail.setPath(points);
    layers_->contactMarks.rebuild(geometry_.get(), trace_.get());
}

void SceneViewContent::setMeasured(const Measurements& measured, const std::vector<QColor>& colors)
{
    layers_->markers.setMeasured(measured, colors);
    rebuildMarkers();
    updateLegend();
}

void SceneViewContent::rebuildMarkers()
{
    layers_->markers.rebuild(geometry_.get(), trace_.get());
}

const std::vector<Eigen::Vector3d>& SceneViewContent::measuredMarkers() const
{
    return layers_->markers.positions();
}

QColor SceneViewContent::measuredMarkerColor() const
{
    return layers_->markers.color();
}

void SceneViewContent::updateArrowStyle()
{
    layers_->arrows.fitScale(geometry_.get(), runSamples());
}

void SceneViewContent::updateLegend()
{
    Layers& l = *layers_;
    std::vector<LegendOverlay::Entry> entries;
    if (geometry_) {
        l.arrows.addLegendEntries(*geometry_, entries);
        for (const auto& extra : geometry_->extraLegendEntries()) {
            entries.push_back(extra);
        }
        if (l.trail.pointCount() > 1) {
            entries.push_back({QStringLiteral("trajectory"), ViewStyle::trailColor(),
                               LegendOverlay::Entry::Symbol::Line});
        }
        l.ghosts.addLegendEntries(entries);
        l.markers.addLegendEntry(entries);
        l.contactMarks.addLegendEntry(entries);
        l.arrows.addFieldLegendEntry(bodyNoun(), entries);
        if (!handLegend_.isEmpty())
            entries.push_back({handLegend_, handColor_, LegendOverlay::Entry::Symbol::Arrow});
    }
    l.legend.setEntries(entries);
    // What the legend may show while the parameters are tuned: every force, drawn longer,
    // and every other entry. The camera keeps clear of that.
    std::vector<QString> reserve;
    if (geometry_) {
        ArrowLayer::addLegendReserve(*geometry_, reserve);
    }
    for (const auto& entry : entries) {
        reserve.push_back(entry.label);
    }
    const int extras = geometry_ ? static_cast<int>(geometry_->extraLegendEntries().size()) : 0;
    // The measured markers' row only while they show: without data the view frames as before.
    l.legend.setReserve(reserve, 3 + extras + 1 + l.ghosts.count() +
                                     (l.markers.positions().empty() ? 0 : 1) +
                                     (l.arrows.isFieldShown() ? 1 : 0));
}

const TraceSample* SceneViewContent::currentSample() const
{
    if (heldSample_)
        return &*heldSample_;
    if (trace_ && !trace_->samples.empty()) {
        return &trace_->samples[std::min(index_, trace_->samples.size() - 1)];
    }
    return initialSample_ ? &*initialSample_ : nullptr;
}

void SceneViewContent::holdSample(const TraceSample& sample)
{
    heldSample_ = sample;
    showSample();
}

void SceneViewContent::setHandLegend(const QString& label, const QColor& color)
{
    if (label == handLegend_)
        return;
    handLegend_ = label;
    handColor_ = color;
    updateLegend();
}

void SceneViewContent::showSample()
{
    Layers& l = *layers_;
    index_ = trace_ ? trace_->sampleIndexAt(time_) : 0;
    const TraceSample* sample = currentSample();
    l.contactMarks.setTime(time_);
    if (!geometry_ || sample == nullptr) {
        l.arrows.clear();
        l.markers.hideEvents();
        l.trail.setHead(0);
        updateCaptions();
        return;
    }
    geometry_->update(*sample);
    l.trail.setHead(trace_ ? index_ + 1 : 0);
    l.arrows.show(*geometry_, *sample);
    l.markers.showEvents(*sample, geometry_->bodyPosition(sample->q));
    l.ghosts.show(*geometry_, time_);
    updateCaptions();
}

void SceneViewContent::updateCaptions()
{
    layers_->titles.setTitle(sceneTitle_);
    layers_->titles.setTitleVisible(geometry_ != nullptr);
    const TraceSample* sample = currentSample();
    if (geometry_ && sample) {
        layers_->titles.showReadings(sample->t, geometry_->annotation(*sample));
    } else {
        layers_->titles.hideReadings();
    }
}

void SceneViewContent::setForceVisible(ForceKind kind, bool visible)
{
    layers_->arrows.setForceVisible(kind, visible);
    updateLegend();
}

bool SceneViewContent::isForceVisible(ForceKind kind) const
{
    return layers_->arrows.isForceVisible(kind);
}

void SceneViewContent::setArrowScale(double scale)
{
    if (!(scale > 0.0) || !std::isfinite(scale)) {
        throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter,
                                 "SceneView::setArrowScale: the scale must be a positive number, "
                                 "got " +
                                     std::to_string(scale));
    }
    layers_->arrows.setScale(scale);
    updateArrowStyle();
    showSample();
}

double SceneViewContent::arrowScale() const
{
    return layers_->arrows.scale();
}

void SceneViewContent::setLegendVisible(bool visible)
{
    layers_->legend.setVisible(visible);
}

bool SceneViewContent::isLegendVisible() const
{
    return layers_->legend.isVisible();
}

void SceneViewContent::addGhost(std::shared_ptr<const Trace> trace, const QString& label)
{
    if (!trace) {
        return;
    }
    layers_->ghosts.add(std::move(trace), label);
    fitGeometry();
    rebuildTrail();
    layers_->ghosts.rebuild(geometry_.get());
    updateLegend();
    showSample();
}

void SceneViewContent::clearGhosts()
{
    layers_->ghosts.clear();
    updateLegend();
}

int SceneViewContent::ghostCount() const
{
    return layers_->ghosts.count();
}

void SceneViewContent::applyBodyChoice()
{
    if (!geometry_)
        return;
    const int count = geometry_->bodyCount();
    geometry_->chooseBody(chosenRequest_ <= 0 ? count : std::min(chosenRequest_, count));
    layers_->arrows.setBodyCount(count);
}

std::vector<int> SceneViewContent::fieldBodiesFor(int count)
{
    return ArrowLayer::fieldBodiesFor(count);
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
    layers_->ghosts.rebuild(geometry_.get());
    rebuildMarkers();
    updateArrowStyle();
    updateLegend();
    showSample();
}

void SceneViewContent::setArrowFieldVisible(bool visible)
{
    layers_->arrows.setFieldVisible(visible);
    updateLegend();
    showSample();
}

bool SceneViewContent::isArrowFieldVisible() const
{
    return layers_->arrows.isFieldVisible();
}

QString SceneViewContent::arrowFieldLegend() const
{
    return layers_->arrows.fieldLegend(bodyNoun());
}

std::vector<int> SceneViewContent::arrowFieldBodies() const
{
    return layers_->arrows.shownFieldBodies();
}

const ArrowField& SceneViewContent::arrowField(ForceKind kind) const
{
    return layers_->arrows.field(kind);
}

double SceneViewContent::arrowFieldShrink() const
{
    return layers_->arrows.fieldShrink();
}

QStringList SceneViewContent::legendLabels() const
{
    QStringList labels;
    for (const LegendOverlay::Entry& entry : layers_->legend.entries())
        labels << entry.label;
    return labels;
}

bool SceneViewContent::isArrowLengthened(ForceKind kind) const
{
    return layers_->arrows.isLengthened(kind);
}

int SceneViewContent::legendFontPixels() const
{
    return layers_->legend.fontPixels();
}

Eigen::Vector3d SceneViewContent::arrowBase(ForceKind kind) const
{
    const ForceArrow& arrow = layers_->arrows.arrow(kind);
    return arrow.tip() - arrow.vector();
}

Eigen::Vector3d SceneViewContent::arrowVector(ForceKind kind) const
{
    return layers_->arrows.arrow(kind).vector();
}

const std::vector<Eigen::Vector3d>& SceneViewContent::trailPath() const
{
    return layers_->trail.path();
}

const ContactMarks& SceneViewContent::contactMarks() const
{
    return layers_->contactMarks;
}

int SceneViewContent::fontPixelsFor(int width, int height) const
{
    return static_cast<int>(std::lround(textScale_ * ViewStyle::fontPixelsFor(width, height)));
}

void SceneViewContent::setTextScale(double scale)
{
    if (!(scale > 0.0) || !std::isfinite(scale)) {
        throw std::invalid_argument("the text scale must be a positive number");
    }
    textScale_ = scale;
}

void SceneViewContent::setMagnitudesVisible(bool visible)
{
    layers_->arrows.setMagnitudesVisible(visible);
    layers_->contactMarks.impulse().setLabelVisible(visible);
    showSample();
}

bool SceneViewContent::areMagnitudesVisible() const
{
    return layers_->arrows.areMagnitudesVisible();
}

QString SceneViewContent::magnitudeText(ForceKind kind) const
{
    return layers_->arrows.magnitudeText(kind);
}

double SceneViewContent::sceneSize() const
{
    return geometry_ ? geometry_->sceneSize() : 0.0;
}

double SceneViewContent::automaticArrowScale() const
{
    return layers_->arrows.automaticScale();
}

double SceneViewContent::arrowBoost(ForceKind kind) const
{
    return layers_->arrows.boost(kind);
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
    if (!geometry_ || sample == nullptr ||
        SceneGeometry::generalizedForce(*sample, kind).size() == 0) {
        return 0.0;
    }
    const double m = geometry_->arrowVector(*sample, kind).norm();
    // Round-off of a force this run never has (see ArrowLayer::fitScale) reads as zero.
    return layers_->arrows.hasForce(kind) ? m : 0.0;
}

QStringList SceneViewContent::readouts() const
{
    const TraceSample* sample = currentSample();
    return geometry_ && sample ? geometry_->readouts(*sample) : QStringList();
}

bool SceneViewContent::isStuckShown() const
{
    return layers_->markers.isStuckShown();
}

bool SceneViewContent::isArrowDrawn(ForceKind kind) const
{
    return layers_->arrows.arrow(kind).isDrawn();
}

bool SceneViewContent::isArrowMarkedCut(ForceKind kind) const
{
    return layers_->arrows.arrow(kind).isBreakMarkDrawn();
}

double SceneViewContent::arrowLength(ForceKind kind) const
{
    const ForceArrow& arrow = layers_->arrows.arrow(kind);
    return arrow.isDrawn() ? arrow.length() : 0.0;
}

void SceneViewContent::frameCamera(int width, int height)
{
    Eigen::AlignedBox3d box;
    if (geometry_) {
        box = geometry_->frameBox();
    }
    box.extend(layers_->trail.bounds());
    layers_->ghosts.extendBox(box);
    if (box.isEmpty()) {
        box = Eigen::AlignedBox3d(Eigen::Vector3d::Constant(-1.0), Eigen::Vector3d::Constant(1.0));
    }
    const Eigen::Vector3d d =
        geometry_ ? geometry_->viewDirection() : Eigen::Vector3d(0.0, 0.0, 1.0);
    const Eigen::Vector3d up = geometry_ ? geometry_->viewUp() : Eigen::Vector3d::UnitY();
    // The size the view will have when drawn: given (an export about to render at a new size),
    // else the renderer's current one.
    int size[2] = {width, height};
    if (width <= 0 || height <= 0) {
        const int* current = layers_->scene->GetSize();
        size[0] = current[0];
        size[1] = current[1];
    }
    const double aspect =
        size[0] > 0 && size[1] > 0 ? static_cast<double>(size[0]) / size[1] : 4.0 / 3.0;
    layers_->camera.frame(
        box, d, up, aspect,
        layers_->framingRegions(size[0], size[1], fontPixelsFor(size[0], size[1])));
}

double SceneViewContent::addObstacles(TextPlacer& placer) const
{
    const Layers& l = *layers_;
    const TraceSample* sample = currentSample();
    if (!geometry_ || sample == nullptr) {
        return 0.0;
    }
    // The moving body is what the class watches.
    const Eigen::Vector3d centre = geometry_->bodyPosition(sample->q);
    const Eigen::Vector2d c = l.camera.toDisplay(centre);
    const double r =
        (l.camera.toDisplay(centre + geometry_->bodyRadius() * l.camera.viewUp()) - c).norm() + 2.0;
    if (!c.allFinite() || !std::isfinite(r)) {
        return 0.0;
    }
    placer.addObstacle(Eigen::AlignedBox2d(c - Eigen::Vector2d(r, r), c + Eigen::Vector2d(r, r)));
    // The ghosts' bodies too: a caption must not hide another run's body.
    const double ghostRadius = 0.8 * (r - 2.0) + 2.0;
    std::vector<Eigen::AlignedBox2d> ghosts;
    l.ghosts.addBodyBoxes(ghostRadius, ghosts);
    for (const Eigen::AlignedBox2d& box : ghosts) {
        placer.addObstacle(box);
    }
    l.arrows.addObstacles(l.camera, placer);
    l.contactMarks.impulse().addObstacle(l.camera, placer);
    return ghostRadius;
}

void SceneViewContent::layoutText(int width, int height, double dpi)
{
    Layers& l = *layers_;
    // Text grows with the view so that it stays legible from the back of a classroom.
    fontPixels_ = fontPixelsFor(width, height);
    const double triad = CameraRig::triadSide(width, height);
    l.titles.layout(width, height, fontPixels_, dpi, triad);
    legendTop_ = l.layoutLegend(width, height, fontPixels_, dpi);
    // Every text after the fixed ones (title, clock, annotation, legend, the triad's letters)
    // goes where no text is yet: the arrows' labels by their tips first, then "stuck", then
    // the ghosts' captions, each clear of the bodies and arrows where there is room.
    TextPlacer placer(width, height);
    l.titles.addFixedTexts(l.scene, placer);
    l.addLegendBox(legendTop_, placer);
    // The triad's viewport, rounded out to whole pixels as VTK does.
    const double triadEdge = std::ceil(triad) + 1.0;
    placer.addFixedText(
        Eigen::AlignedBox2d(Eigen::Vector2d::Zero(), Eigen::Vector2d(triadEdge, triadEdge)));
    if (geometry_) {
        geometry_->layoutTexts(ViewStyle::fontPoints(1.1 * fontPixels_, dpi), l.scene, placer);
    }
    // A force too small to draw to scale at this zoom is still seen (faint, labelled).
    l.arrows.keepVisible(l.camera, ArrowLayer::minimumPixels(fontPixels_));
    const double ghostRadius = addObstacles(placer);
    l.arrows.layoutLabels(l.camera, l.overlay, ViewStyle::fontPoints(0.8 * fontPixels_, dpi),
                          placer);
    l.contactMarks.impulse().layoutLabel(l.camera, l.overlay,
                                         ViewStyle::fontPoints(0.8 * fontPixels_, dpi), placer);
    l.markers.layoutStuck(ViewStyle::fontPoints(0.85 * fontPixels_, dpi), 1.2 * fontPixels_,
                          placer);
    l.ghosts.layoutCaptions(ViewStyle::fontPoints(0.85 * fontPixels_, dpi), placer, ghostRadius);
}

void SceneViewContent::onStartRender(vtkObject* caller, unsigned long eventId, void* callData)
{
    (void)caller, (void)eventId, (void)callData;
    const int* size = layers_->scene->GetSize();
    const int w = size[0];
    const int h = size[1];
    if (w <= 0 || h <= 0) {
        return;
    }
    if (geometry_) {
        geometry_->beforeRender(layers_->scene);
    }
    vtkRenderWindow* window = layers_->scene->GetRenderWindow();
    const double dpi = window ? window->GetDPI() : 72.0;
    layoutText(w, h, dpi);
    // The arrows share the scene's camera: its clipping range must hold both layers' props.
    layers_->camera.fitClippingRange(layers_->overlay);
    layers_->camera.updateTriad(w, h, ViewStyle::fontPoints(0.95 * fontPixels_, dpi));
}

} // namespace clab
