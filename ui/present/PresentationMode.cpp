#include "PresentationMode.h"

#include "MainWindow.h"
#include "panels/ForcesPanel.h"
#include "panels/PlotsPanel.h"
#include "present/PresentationPanel.h"
#include "present/PresentationPlot.h"
#include "session/PlaybackClock.h"
#include "session/RunModel.h"
#include "session/SceneSession.h"
#include "session/SimulationWorker.h"
#include "view3d/SceneView.h"
#include "view3d/ViewStyle.h"

#include <LessonFile.h>
#include <scenes/SceneRegistry.h>

#include <QAction>
#include <QDockWidget>
#include <QEvent>
#include <QInputDialog>
#include <QLabel>
#include <QMenuBar>
#include <QScreen>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>

#include <algorithm>
#include <chrono>
#include <stdexcept>

namespace clab {

namespace {

Eigen::Vector3d vector(const std::array<double, 3>& a)
{
    return {a[0], a[1], a[2]};
}

std::array<double, 3> array(const Eigen::Vector3d& v)
{
    return {v.x(), v.y(), v.z()};
}

} // namespace

PresentationMode::PresentationMode(MainWindow* window, PresentationPanel* panel, SceneView* view)
    : QObject(window), window_(window), panel_(panel), view_(view)
{
    leave_ = addKey(tr("Leave Presentation"), Qt::Key_Escape);
    connect(leave_, &QAction::triggered, this, &PresentationMode::leave);
    next_ = addKey(tr("Next Lesson Step"), Qt::Key_PageDown);
    connect(next_, &QAction::triggered, this, &PresentationMode::next);
    previous_ = addKey(tr("Previous Lesson Step"), Qt::Key_PageUp);
    connect(previous_, &QAction::triggered, this, &PresentationMode::previous);
    blankToggle_ = addKey(tr("Blank the Screen"), Qt::Key_B);
    connect(blankToggle_, &QAction::triggered, this, [this] { setBlank(!isBlank()); });
    plotToggle_ = addKey(tr("Show a Plot"), Qt::Key_P);
    connect(plotToggle_, &QAction::triggered, this, [this] { setPlotVisible(!isPlotVisible()); });
    pendingTimer_ = new QTimer(this);
    pendingTimer_->setInterval(30);
    connect(pendingTimer_, &QTimer::timeout, this, &PresentationMode::collectComparedRuns);
    captionPrompt_ = [this](const QString& title, const QString& caption) {
        bool ok = false;
        const QString text = QInputDialog::getMultiLineText(
            window_, title, tr("Caption (shown under the view while the step is on screen):"),
            caption, &ok);
        return ok ? std::optional<QString>(text) : std::nullopt;
    };
    panel_->hide();
    connect(panel_, &PresentationPanel::parameterEdited, this,
            [this](const QString& name, double value, bool dragging) {
                // One undo step per drag, as in the Scene dock.
                static int dragId = 0x50520000;
                if (!dragging)
                    ++dragId;
                window_->session()->edit(name, {value}, dragging ? dragId : 0);
            });
    view_->installEventFilter(this);
    connect(window_->plotsPanel(), &PlotsPanel::specChanged, this, &PresentationMode::refreshPlot);
}

PresentationMode::~PresentationMode()
{
    for (std::future<ComparedRuns>& run : pending_)
        run.wait();
}

QAction* PresentationMode::addKey(const QString& text, int key)
{
    auto* action = new QAction(text, window_);
    action->setShortcut(QKeySequence(key));
    action->setShortcutContext(Qt::WindowShortcut);
    action->setEnabled(false); // only while presenting
    window_->addAction(action);
    return action;
}

bool PresentationMode::isClickerKey(int key)
{
    return key == Qt::Key_PageDown || key == Qt::Key_PageUp || key == Qt::Key_Space ||
           key == Qt::Key_Home || key == Qt::Key_B;
}

void PresentationMode::enter()
{
    if (active_)
        return;
    saved_ = {window_->saveGeometry(),
              window_->saveState(),
              window_->windowState(),
              window_->menuBar()->isVisible(),
              window_->statusBar()->isVisible(),
              view_->textScale(),
              window_->forcesPanel()->isLegendVisible(),
              window_->geometry()};
    // The column's coloured force rows are the legend; the view keeps its room for the scene.
    view_->setLegendVisible(false);
    for (QDockWidget* dock : window_->findChildren<QDockWidget*>())
        dock->hide();
    for (QToolBar* bar : window_->findChildren<QToolBar*>())
        bar->hide();
    window_->menuBar()->hide();
    window_->statusBar()->hide();
    active_ = true;
    for (QAction* action : {leave_, next_, previous_, blankToggle_, plotToggle_})
        action->setEnabled(true);
    documentChanged(true);
    showCaption();
    panel_->show();
    window_->showFullScreen();
    // Without a window manager (a bare X server) full screen is not granted: take the screen.
    if (window_->screen())
        window_->setGeometry(window_->screen()->geometry());
    updateTextScale();
    showTime(view_->time());
    refreshPlot();
    view_->setFocus(Qt::OtherFocusReason);
    emit activeChanged(true);
}

void PresentationMode::leave()
{
    if (!active_)
        return;
    setBlank(false);
    active_ = false;
    for (QAction* action : {leave_, next_, previous_, blankToggle_, plotToggle_})
        action->setEnabled(false);
    panel_->hide();
    panel_->captionLabel()->hide();
    view_->setTextScale(saved_.textScale);
    view_->setLegendVisible(saved_.legend);
    window_->menuBar()->setVisible(saved_.menuBar);
    window_->statusBar()->setVisible(saved_.statusBar);
    window_->restoreState(saved_.state);
    if (saved_.windowState & Qt::WindowFullScreen) {
        window_->showFullScreen();
    } else {
        window_->showNormal();
        window_->restoreGeometry(saved_.geometry);
        window_->setGeometry(saved_.rect);
        if (saved_.windowState & Qt::WindowMaximized)
            window_->showMaximized();
    }
    view_->setFocus(Qt::OtherFocusReason);
    emit activeChanged(false);
}

bool PresentationMode::isBlank() const
{
    return blank_ != nullptr && blank_->isVisible();
}

void PresentationMode::setBlank(bool blank)
{
    if (blank == isBlank() || (blank && !active_))
        return;
    if (!blank_) {
        blank_ = new QWidget(window_);
        blank_->setObjectName(QStringLiteral("presentationBlank"));
        blank_->setStyleSheet(QStringLiteral("background: black;"));
        blank_->setAttribute(Qt::WA_StyledBackground);
    }
    // The 3D view is a native window: hidden, so that nothing shows through the black.
    view_->setVisible(!blank);
    panel_->setVisible(!blank);
    panel_->captionLabel()->setVisible(!blank && !panel_->caption().isEmpty());
    blank_->setGeometry(window_->rect());
    blank_->setVisible(blank);
    if (blank)
        blank_->raise();
}

bool PresentationMode::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == view_ && event->type() == QEvent::Resize && active_)
        updateTextScale();
    return QObject::eventFilter(watched, event);
}

void PresentationMode::updateTextScale()
{
    // The column takes under a third of the width; the view keeps the rest.
    panel_->setFixedWidth(std::clamp(window_->width() * 3 / 10, 300, 560));
    // The view's text at three quarters of the column's (25 px on a 768-pixel projector), so
    // that the scene's title fits the view's width.
    const int wanted = PresentationPanel::textPixelsFor(window_->height()) * 3 / 4;
    const int normal = ViewStyle::fontPixelsFor(view_->width(), view_->height());
    view_->setTextScale(static_cast<double>(wanted) / std::max(normal, 1));
}

void PresentationMode::showCaption()
{
    // Without a lesson the view's title says what is shown.
    const bool inLesson = step_ >= 0 && step_ < static_cast<int>(lesson_.steps.size());
    panel_->setCaption(inLesson ? QString::fromStdString(lesson_.steps[step_].caption) : QString());
    panel_->setStep(step_, inLesson ? static_cast<int>(lesson_.steps.size()) : 0);
    panel_->captionLabel()->setVisible(active_ && !panel_->caption().isEmpty());
}

void PresentationMode::documentChanged(bool newScene)
{
    const SceneDefinition* definition = window_->session()->definition();
    if (!definition)
        return;
    if (newScene || panel_->sliderNames() != definition->keyParameters)
        panel_->setParameters(*definition, window_->session()->document().parameters);
    else
        panel_->showValues(window_->session()->document().parameters);
    if (newScene && !stepPending_)
        showCaption();
}

void PresentationMode::showTime(double t)
{
    if (!active_)
        return;
    panel_->setClock(t);
    if (isPlotVisible())
        panel_->plot()->setCursor(window_->plotsPanel()->cursor());
    panel_->setForces({view_->forceMagnitude(ForceKind::Given),
                       view_->forceMagnitude(ForceKind::IdealConstraint),
                       view_->forceMagnitude(ForceKind::NonIdealConstraint)},
                      view_->forceUnit());
    const std::shared_ptr<const Trace> trace = window_->trace();
    QString contact = tr("no friction contact");
    if (trace && !trace->samples.empty()) {
        const TraceSample& sample = trace->samples[trace->sampleIndexAt(t)];
        if (sample.contacts.size() > 0) {
            const bool stuck = (sample.contacts.array() < 0.5).any();
            contact = stuck ? tr("stuck") : tr("sliding");
        }
    }
    panel_->setContact(contact);
}

void PresentationMode::setLesson(const Lesson& lesson, const QString& path)
{
    lesson_ = lesson;
    lessonPath_ = path;
    step_ = -1;
    if (!lesson_.steps.empty())
        goToStep(0);
}

void PresentationMode::goToStep(int index)
{
    if (index < 0 || index >= static_cast<int>(lesson_.steps.size()))
        return;
    step_ = index;
    ++generation_;
    const LessonStep& step = lesson_.steps[index];
    stepPending_ = true;
    // A step that names a plot shows it.
    if (!step.plot.empty())
        setPlotVisible(true);
    window_->setDocument(step.document);
    showCaption();
    emit stepChanged(index);
}

void PresentationMode::runShown()
{
    if (!stepPending_ || step_ < 0) {
        refreshPlot();
        return;
    }
    stepPending_ = false;
    const LessonStep& step = lesson_.steps[step_];
    // The runs to compare with, off the GUI thread: the step's own run plays meanwhile.
    if (!step.compare.empty())
        startComparedRuns(step);
    if (step.camera)
        view_->setCamera(vector(step.camera->position), vector(step.camera->focalPoint),
                         vector(step.camera->viewUp));
    if (!step.plot.empty())
        window_->plotsPanel()->selectPreset(step.plot);
    refreshPlot();
}

void PresentationMode::startComparedRuns(const LessonStep& step)
{
    std::vector<SceneDocument> documents;
    for (const ParameterValues& values : step.compare)
        documents.push_back(step.comparedDocument(values));
    pending_.push_back(std::async(std::launch::async, [documents, generation = generation_] {
        ComparedRuns done;
        done.generation = generation;
        for (const SceneDocument& run : documents) {
            try {
                done.runs.emplace_back(
                    run, std::make_shared<const Trace>(SimulationWorker::simulate(run)));
            } catch (const std::exception& error) {
                done.errors << QString::fromUtf8(error.what());
            }
        }
        return done;
    }));
    pendingTimer_->start();
}

void PresentationMode::collectComparedRuns()
{
    bool added = false;
    for (auto it = pending_.begin(); it != pending_.end();) {
        if (it->wait_for(std::chrono::seconds(0)) != std::future_status::ready) {
            ++it;
            continue;
        }
        const ComparedRuns done = it->get();
        it = pending_.erase(it);
        if (done.generation != generation_ || stepPending_)
            continue; // another step is on screen by now
        for (const auto& [document, trace] : done.runs)
            window_->runModel()->addGhost(document, trace);
        for (const QString& error : done.errors)
            window_->showError(tr("A compared run of step %1").arg(step_ + 1), error);
        added = added || !done.runs.empty();
    }
    if (pending_.empty())
        pendingTimer_->stop();
    if (added) {
        window_->showGhosts();
        refreshPlot();
    }
}

void PresentationMode::setPlotVisible(bool visible)
{
    panel_->setPlotVisible(visible);
    refreshPlot();
}

bool PresentationMode::isPlotVisible() const
{
    return panel_->isPlotVisible();
}

void PresentationMode::refreshPlot()
{
    if (!isPlotVisible())
        return;
    PlotsPanel* plots = window_->plotsPanel();
    panel_->plot()->setData(plots->plotData(), plots->cursor());
}

void PresentationMode::next()
{
    if (step_ < 0)
        window_->clock()->stepForward();
    else
        goToStep(step_ + 1);
}

void PresentationMode::previous()
{
    if (step_ < 0)
        window_->clock()->stepBackward();
    else
        goToStep(step_ - 1);
}

std::string PresentationMode::currentSceneReference() const
{
    SceneSession* session = window_->session();
    const SceneDocument& document = session->document();
    if (!session->filePath().isEmpty() && !(document.system && session->isModified()))
        return session->filePath().toStdString();
    if (step_ >= 0 && lesson_.steps[step_].document.sameScene(document))
        return lesson_.steps[step_].scene;
    if (!document.system && SceneRegistry::find(document.scene))
        return document.scene;
    throw std::runtime_error(
        tr("a lesson names its scenes by file: save the system first (File → Save As)")
            .toStdString());
}

bool PresentationMode::addCurrentState()
{
    LessonStep step;
    step.scene = currentSceneReference();
    step.document = window_->session()->document();
    step.parameters = step.document.parameters;
    for (const RunModel::Ghost& ghost : window_->runModel()->ghosts())
        if (ghost.document.sameScene(step.document))
            step.compare.push_back(ghost.document.parameters);
    const std::array<Eigen::Vector3d, 3> camera = view_->camera();
    step.camera = LessonStep::Camera{array(camera[0]), array(camera[1]), array(camera[2])};
    step.plot = window_->plotsPanel()->spec().id;
    // The caption on screen, else the scene's title: a starting point to edit in the file.
    const SceneDefinition* definition = window_->session()->definition();
    const std::string offered = !panel_->caption().isEmpty()   ? panel_->caption().toStdString()
                                : !step.document.title.empty() ? step.document.title
                                : definition                   ? definition->title
                                                               : std::string();
    const std::optional<QString> caption =
        captionPrompt_(tr("Add Current State"), QString::fromStdString(offered));
    if (!caption)
        return false;
    step.caption = checkedCaption(*caption);
    lesson_.steps.push_back(step);
    step_ = static_cast<int>(lesson_.steps.size()) - 1;
    if (active_)
        showCaption();
    emit stepChanged(step_);
    return true;
}

bool PresentationMode::editCaption()
{
    if (step_ < 0 || step_ >= static_cast<int>(lesson_.steps.size()))
        return false;
    const std::optional<QString> caption = captionPrompt_(
        tr("Edit Step Caption"), QString::fromStdString(lesson_.steps[step_].caption));
    if (!caption)
        return false;
    setStepCaption(step_, *caption);
    return true;
}

void PresentationMode::setStepCaption(int index, const QString& caption)
{
    if (index < 0 || index >= static_cast<int>(lesson_.steps.size()))
        throw std::out_of_range("no lesson step " + std::to_string(index + 1));
    lesson_.steps[index].caption = checkedCaption(caption);
    if (index == step_)
        showCaption();
}

std::string PresentationMode::checkedCaption(const QString& caption)
{
    // One line on screen per sentence is the teacher's choice; the file's limit is not.
    const QString text = caption.trimmed();
    if (text.size() > LessonFile::maxCaption)
        throw std::runtime_error(tr("the caption has %1 characters, more than the %2 a lesson "
                                    "step may show")
                                     .arg(text.size())
                                     .arg(LessonFile::maxCaption)
                                     .toStdString());
    return text.toStdString();
}

} // namespace clab
