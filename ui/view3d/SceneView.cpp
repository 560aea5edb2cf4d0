#include "view3d/SceneView.h"

#include "render/OffscreenRenderWindow.h"
#include "render/VtkOpenGLWindow.h"
#include "view3d/ContactMarks.h"
#include "view3d/SceneViewContent.h"
#include "view3d/ViewDrag.h"

#include <model/ConstraintLabError.h>
#include <scenes/SceneRegistry.h>

#include <QKeyEvent>
#include <QVBoxLayout>

#include <vtkCamera.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

namespace clab {

/// The window's content is updated at once; the offscreen content (for renderImage) is created
/// on first use and brought up to date lazily, from the state kept here.
struct SceneView::Impl {
    VtkOpenGLWindow* window = nullptr;
    SceneViewContent onscreen;
    ViewDrag* drag = nullptr;
    std::unique_ptr<OffscreenRenderWindow> offscreenWindow;
    std::unique_ptr<SceneViewContent> offscreen;

    // The state both contents are built from.
    SceneDocument scene; ///< which scene, its system and complete parameters; no scene: empty
    bool hasScene() const { return !scene.scene.empty() || scene.system; }
    std::shared_ptr<const Trace> trace;
    std::vector<std::pair<std::shared_ptr<const Trace>, QString>> ghosts;
    Measurements measured;
    std::vector<QColor> measuredColors;
    double time = 0.0;
    double arrowScale = 1.0;
    double textScale = 1.0;
    bool legendVisible = true;
    bool magnitudesVisible = false;
    std::array<bool, 3> forceVisible = {true, true, true};
    int chosenBody = 0; ///< 0: the last body
    bool arrowField = false;
    // Until the user turns the camera, every view (any size) is framed automatically.
    bool userCamera = false;

    std::uint64_t sceneGeneration = 0;
    std::uint64_t traceGeneration = 0;
    std::uint64_t ghostGeneration = 0;
    std::uint64_t offscreenScene = 0;
    std::uint64_t offscreenTrace = 0;
    std::uint64_t offscreenGhosts = 0;
    std::uint64_t measuredGeneration = 0;
    std::uint64_t offscreenMeasured = 0;

    void syncOffscreen()
    {
        if (!offscreen) {
            offscreenWindow = std::make_unique<OffscreenRenderWindow>();
            offscreen = std::make_unique<SceneViewContent>();
            offscreen->attachTo(offscreenWindow->window());
        }
        if (offscreenScene != sceneGeneration) {
            // Before the scene, so that its trail is built once, on the chosen body.
            offscreen->setChosenBody(chosenBody);
            if (hasScene()) {
                offscreen->setScene(scene);
            }
            offscreenScene = sceneGeneration;
            offscreenTrace = 0;
            offscreenGhosts = 0;
        }
        if (hasScene() && offscreenGhosts != ghostGeneration) {
            offscreen->clearGhosts();
            for (const auto& [ghost, label] : ghosts) {
                offscreen->addGhost(ghost, label);
            }
            offscreenGhosts = ghostGeneration;
        }
        if (offscreenMeasured != measuredGeneration) {
            offscreen->setMeasured(measured, measuredColors);
            offscreenMeasured = measuredGeneration;
        }
        if (hasScene() && offscreenTrace != traceGeneration) {
            if (trace) {
                offscreen->setTrace(trace);
            }
            offscreenTrace = traceGeneration;
        }
        for (int k = 0; k < 3; ++k) {
            if (offscreen->isForceVisible(static_cast<ForceKind>(k)) != forceVisible[k]) {
                offscreen->setForceVisible(static_cast<ForceKind>(k), forceVisible[k]);
            }
        }
        if (offscreen->arrowScale() != arrowScale) {
            offscreen->setArrowScale(arrowScale);
        }
        if (offscreen->textScale() != textScale) {
            offscreen->setTextScale(textScale);
        }
        if (offscreen->isLegendVisible() != legendVisible) {
            offscreen->setLegendVisible(legendVisible);
        }
        if (offscreen->isArrowFieldVisible() != arrowField) {
            offscreen->setArrowFieldVisible(arrowField);
        }
        if (offscreen->areMagnitudesVisible() != magnitudesVisible) {
            offscreen->setMagnitudesVisible(magnitudesVisible);
        }
        offscreen->setTime(time);
    }

    void autoFrame()
    {
        if (!userCamera) {
            onscreen.frameCamera(windowPixels().width(), windowPixels().height());
        }
    }

    /// The on-screen window's size in pixels, which the renderer learns only at its next frame.
    QSize windowPixels() const
    {
        return window ? window->size() * window->devicePixelRatio() : QSize();
    }
};

SceneView::SceneView(QWidget* parent) : QWidget(parent), d(std::make_unique<Impl>())
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    // A native window in a container, not a QOpenGLWidget: Qt's composition of a QOpenGLWidget
    // would cost as much as the frame itself when the CPU renders (see VtkOpenGLWindow).
    d->window = new VtkOpenGLWindow;
    QWidget* container = QWidget::createWindowContainer(d->window, this);
    container->setObjectName(QStringLiteral("vtkView"));
    container->setFocusPolicy(Qt::StrongFocus);
    container->setMinimumSize(64, 64);
    // Files dropped on the view go to the window (opening a scene), not into the GL window.
    container->setAcceptDrops(false);
    // Keys typed into the view reach this widget (and the window's shortcuts) as usual.
    d->window->setKeyTarget(container);
    layout->addWidget(container);
    d->onscreen.attachTo(d->window->renderWindow());
    setFocusProxy(container);

    d->drag = new ViewDrag(d->window, d->onscreen, this);
    connect(d->drag, &ViewDrag::changed, d->window, &VtkOpenGLWindow::scheduleFrame);
    connect(d->drag, &ViewDrag::grabStarted, this, &SceneView::bodyGrabbed);
    connect(d->drag, &ViewDrag::startChosen, this, &SceneView::startDragged);
    connect(d->drag, &ViewDrag::failed, this, &SceneView::dragFailed);
    connect(d->window, &VtkOpenGLWindow::frameRendered, this, &SceneView::frameRendered);
    connect(d->window, &VtkOpenGLWindow::interacted, this, [this] { d->userCamera = true; });
    connect(d->window, &VtkOpenGLWindow::resized, this, [this] { d->autoFrame(); });
}

SceneView::~SceneView()
{
    // Before the content it draws into goes (the widget's children are deleted after it).
    delete d->drag;
}

void SceneView::setPlaying(bool playing)
{
    d->drag->setPlaying(playing);
}

ViewDrag& SceneView::hand() const
{
    return *d->drag;
}

void SceneView::setScene(const std::string& sceneName, const ParameterValues& values)
{
    SceneDocument document;
    document.scene = sceneName;
    document.parameters = values;
    setScene(document);
}

void SceneView::setScene(const SceneDocument& document)
{
    const SceneDefinition* definition = document.definition();
    if (definition == nullptr) {
        throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter,
                                 "SceneView::setScene: there is no built-in scene '" +
                                     document.scene + "'");
    }
    // Missing parameters take their defaults (mu_s follows mu), as everywhere else.
    SceneDocument scene;
    scene.scene = document.scene;
    scene.system = document.system;
    scene.parameters = definition->complete(document.parameters);
    const bool newScene = scene.scene != d->scene.scene || !(scene.system == d->scene.system);
    if (newScene && d->hasScene() && d->chosenBody != 0) {
        // Another scene's bodies: back to its last one (a choice made before any scene holds).
        d->chosenBody = 0;
        d->onscreen.setChosenBody(0);
    }
    d->onscreen.setScene(scene);
    if (newScene) {
        d->ghosts.clear();
        ++d->ghostGeneration;
    }
    d->scene = std::move(scene);
    d->drag->setScene(d->scene);
    d->trace.reset();
    ++d->sceneGeneration;
    ++d->traceGeneration;
    d->time = d->onscreen.time();
    // A new scene is framed whatever the user did to the camera before; a parameter change of
    // the same scene (live tuning) keeps a camera the user has turned or zoomed.
    if (newScene || !d->userCamera) {
        d->userCamera = false;
        d->autoFrame();
    }
    d->window->scheduleFrame();
}

void SceneView::setTrace(const Trace& trace)
{
    d->trace = std::make_shared<const Trace>(trace);
    ++d->traceGeneration;
    d->drag->letGo();
    if (!d->hasScene()) {
        return;
    }
    d->onscreen.setTrace(d->trace);
    d->onscreen.setTime(d->time);
    d->autoFrame();
    d->window->scheduleFrame();
}

void SceneView::setMeasured(const Measurements& measured, const std::vector<QColor>& colors)
{
    d->measured = measured;
    d->measuredColors = colors;
    ++d->measuredGeneration;
    d->onscreen.setMeasured(measured, colors);
    d->window->scheduleFrame();
}

std::vector<Eigen::Vector3d> SceneView::measuredMarkers() const
{
    return d->onscreen.measuredMarkers();
}

std::vector<Eigen::Vector3d> SceneView::shownContactMarks() const
{
    const ContactMarks& marks = d->onscreen.contactMarks();
    return {marks.positions().begin(), marks.positions().begin() + marks.shownCount()};
}

const ImpulseArrow& SceneView::impulseArrow() const
{
    return d->onscreen.contactMarks().impulse();
}

QColor SceneView::measuredMarkerColor() const
{
    return d->onscreen.measuredMarkerColor();
}

void SceneView::setTime(double t)
{
    d->time = t;
    d->onscreen.setTime(t);
    d->window->scheduleFrame();
}

double SceneView::time() const
{
    return d->time;
}

void SceneView::setForceVisible(ForceKind kind, bool visible)
{
    d->forceVisible[static_cast<int>(kind)] = visible;
    d->onscreen.setForceVisible(kind, visible);
    // The legend changed size: the scene moves to stay clear of it.
    d->autoFrame();
    d->window->scheduleFrame();
}

bool SceneView::isForceVisible(ForceKind kind) const
{
    return d->forceVisible[static_cast<int>(kind)];
}

int SceneView::bodyCount() const
{
    return d->onscreen.bodyCount();
}

QString SceneView::bodyNoun() const
{
    return d->onscreen.bodyNoun();
}

int SceneView::chosenBody() const
{
    return d->onscreen.chosenBody();
}

void SceneView::setChosenBody(int body)
{
    d->chosenBody = std::max(0, body);
    d->onscreen.setChosenBody(d->chosenBody);
    // The offscreen content learns it with the next scene it builds.
    ++d->sceneGeneration;
    d->window->scheduleFrame();
}

void SceneView::setArrowFieldVisible(bool visible)
{
    d->arrowField = visible;
    d->onscreen.setArrowFieldVisible(visible);
    // The legend gained or lost a row: the scene moves to stay clear of it.
    d->autoFrame();
    d->window->scheduleFrame();
}

bool SceneView::isArrowFieldVisible() const
{
    return d->arrowField;
}

void SceneView::setArrowScale(double scale)
{
    d->onscreen.setArrowScale(scale); // throws for a non-positive scale
    d->arrowScale = scale;
    d->window->scheduleFrame();
}

double SceneView::arrowScale() const
{
    return d->arrowScale;
}

void SceneView::setTextScale(double scale)
{
    d->onscreen.setTextScale(scale); // throws for a non-positive scale
    d->textScale = scale;
    d->window->scheduleFrame();
}

double SceneView::textScale() const
{
    return d->textScale;
}

void SceneView::setLegendVisible(bool visible)
{
    d->legendVisible = visible;
    d->onscreen.setLegendVisible(visible);
    // The legend changed size: the scene moves to stay clear of it.
    d->autoFrame();
    d->window->scheduleFrame();
}

void SceneView::addGhost(const Trace& trace, const QString& label)
{
    auto ghost = std::make_shared<const Trace>(trace);
    d->ghosts.emplace_back(ghost, label);
    ++d->ghostGeneration;
    d->onscreen.addGhost(ghost, label);
    // The legend changed size: the scene moves to stay clear of it.
    d->autoFrame();
    d->window->scheduleFrame();
}

void SceneView::setGhosts(
    const std::vector<std::pair<std::shared_ptr<const Trace>, QString>>& ghosts)
{
    d->ghosts = ghosts;
    ++d->ghostGeneration;
    d->onscreen.clearGhosts();
    for (const auto& [trace, label] : ghosts) {
        d->onscreen.addGhost(trace, label);
    }
    d->autoFrame();
    d->window->scheduleFrame();
}

QStringList SceneView::ghostLabels() const
{
    QStringList labels;
    for (const auto& ghost : d->ghosts) {
        labels << ghost.second;
    }
    return labels;
}

void SceneView::clearGhosts()
{
    d->ghosts.clear();
    ++d->ghostGeneration;
    d->onscreen.clearGhosts();
    // The legend changed size: the scene moves to stay clear of it.
    d->autoFrame();
    d->window->scheduleFrame();
}

int SceneView::ghostCount() const
{
    return static_cast<int>(d->ghosts.size());
}

void SceneView::resetCamera()
{
    d->userCamera = false;
    d->autoFrame();
    d->window->scheduleFrame();
}

std::array<Eigen::Vector3d, 3> SceneView::camera() const
{
    vtkCamera* camera = d->onscreen.renderer()->GetActiveCamera();
    return {Eigen::Vector3d(camera->GetPosition()), Eigen::Vector3d(camera->GetFocalPoint()),
            Eigen::Vector3d(camera->GetViewUp())};
}

void SceneView::setCamera(const Eigen::Vector3d& position, const Eigen::Vector3d& focalPoint,
                          const Eigen::Vector3d& viewUp)
{
    vtkCamera* camera = d->onscreen.renderer()->GetActiveCamera();
    camera->SetPosition(position.data());
    camera->SetFocalPoint(focalPoint.data());
    camera->SetViewUp(viewUp.data());
    camera->OrthogonalizeViewUp();
    d->onscreen.renderer()->ResetCameraClippingRange();
    d->userCamera = true;
    d->window->scheduleFrame();
}

void SceneView::setMagnitudesVisible(bool visible)
{
    d->magnitudesVisible = visible;
    d->onscreen.setMagnitudesVisible(visible);
    d->window->scheduleFrame();
}

bool SceneView::areMagnitudesVisible() const
{
    return d->magnitudesVisible;
}

QString SceneView::magnitudeText(ForceKind kind) const
{
    return d->onscreen.magnitudeText(kind);
}

double SceneView::arrowBoost(ForceKind kind) const
{
    return d->onscreen.arrowBoost(kind);
}

bool SceneView::isStuckShown() const
{
    return d->onscreen.isStuckShown();
}

QString SceneView::forceUnit() const
{
    return d->onscreen.forceUnit();
}

QString SceneView::forceDescription(ForceKind kind) const
{
    return d->onscreen.forceDescription(kind);
}

double SceneView::forceMagnitude(ForceKind kind) const
{
    return d->onscreen.forceMagnitude(kind);
}

QStringList SceneView::readouts() const
{
    return d->onscreen.readouts();
}

bool SceneView::isArrowDrawn(ForceKind kind) const
{
    return d->onscreen.isArrowDrawn(kind);
}

double SceneView::arrowLength(ForceKind kind) const
{
    return d->onscreen.arrowLength(kind);
}

QImage SceneView::renderImage(const QSize& size)
{
    d->syncOffscreen();
    vtkRenderWindow* window = d->offscreenWindow->window();
    window->SetSize(size.width(), size.height());
    if (d->userCamera) {
        d->offscreen->renderer()->GetActiveCamera()->DeepCopy(
            d->onscreen.renderer()->GetActiveCamera());
        d->offscreen->renderer()->ResetCameraClippingRange();
    } else {
        // At the size about to be rendered, whatever size the last export had.
        d->offscreen->frameCamera(size.width(), size.height());
    }
    QImage image = d->offscreenWindow->render(size);
    if (image.isNull()) {
        qWarning("SceneView::renderImage: %s", qPrintable(d->offscreenWindow->errorString()));
    }
    emit frameRendered();
    return image;
}

VtkOpenGLWindow* SceneView::openGLWindow() const
{
    return d->window;
}

const SceneViewContent& SceneView::content() const
{
    return d->onscreen;
}

void SceneView::keyPressEvent(QKeyEvent* event)
{
    if (event->key() == Qt::Key_R && event->modifiers() == Qt::NoModifier) {
        resetCamera();
        event->accept();
        return;
    }
    QWidget::keyPressEvent(event);
}

} // namespace clab
