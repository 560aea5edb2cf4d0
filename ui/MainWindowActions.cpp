#include "MainWindowActions.h"

#include "panels/TimeControls.h"
#include "session/SceneSession.h"
#include "widgets/AdaptiveToolBar.h"

#include <scenes/SceneRegistry.h>

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QToolBar>
#include <QToolButton>
#include <QUndoStack>

#include <vector>

namespace clab {

namespace {

constexpr int maxRecentFiles = 8;
const char* const recentFilesKey = "recentFiles";

} // namespace

/// The general font and those a desktop theme sets for particular widgets (dock titles, menus,
/// tool buttons), which the general one does not override.
void MainWindowActions::applyLargeText(bool on)
{
    static const char* const classes[] = {nullptr,   "QDockWidget", "QMenuBar",
                                          "QMenu",   "QToolButton", "QGroupBox",
                                          "QTabBar", "QLabel",      "QAbstractButton"};
    // The fonts the application started with, whatever an earlier window left behind.
    static const std::vector<QFont> normal = [] {
        std::vector<QFont> fonts;
        for (const char* name : classes)
            fonts.push_back(name ? QApplication::font(name) : QApplication::font());
        return fonts;
    }();
    for (std::size_t i = 0; i < std::size(classes); ++i) {
        QFont font = normal[i];
        if (on) {
            if (font.pointSizeF() > 0)
                font.setPointSizeF(font.pointSizeF() * largeTextFactor);
            else
                font.setPixelSize(qRound(font.pixelSize() * largeTextFactor));
        }
        QApplication::setFont(font, classes[i]);
    }
}

QString MainWindowActions::settingsOrganization()
{
    return QStringLiteral("ConstraintLab");
}

QString MainWindowActions::settingsApplication()
{
    return QStringLiteral("ConstraintLab");
}

QIcon MainWindowActions::themed(const char* themeName, const char* resource)
{
    return QIcon::fromTheme(QLatin1String(themeName), QIcon(QLatin1String(resource)));
}

MainWindowActions::MainWindowActions(QMainWindow* window, SceneSession* session,
                                     const SceneStore& store)
    : QObject(window), window_(window)
{
    createNewMenu(store);
    createFileActions();
    createEditActions(session);
    createViewActions();
    createLessonActions();
    createHelpActions();
}

// File → New: the built-in scenes, then the shipped systems written as equations.
void MainWindowActions::createNewMenu(const SceneStore& store)
{
    newAction = new QAction(themed("document-new", ":/icons/new.svg"), tr("&New"), window_);
    newMenu_ = new QMenu(tr("&New"), window_);
    newMenu_->setIcon(newAction->icon());
    bool first = true;
    for (const SceneDefinition& definition : SceneRegistry::builtIn()) {
        QAction* action = newMenu_->addAction(QString::fromStdString(definition.title));
        action->setObjectName(
            QStringLiteral("new_%1").arg(QString::fromStdString(definition.name)));
        action->setStatusTip(QString::fromStdString(definition.description));
        const std::string name = definition.name;
        connect(action, &QAction::triggered, this, [this, name] { emit newSceneRequested(name); });
        if (first) {
            // Ctrl+N starts the first scene; the others are one click away in the submenu.
            action->setShortcut(QKeySequence::New);
            action->setProperty("helpText", tr("New scene: %1").arg(action->text()));
            first = false;
        }
    }
    // Systems written as equations, in a submenu of their own; then starting points for a
    // system of one's own, edited in the System dock.
    addSystemMenu(tr("System from &Equations"), QStringLiteral("newSystemMenu"),
                  QStringLiteral("newSystem_"), store.builtInSystems(), false);
    addSystemMenu(tr("System from &Template"), QStringLiteral("newTemplateMenu"),
                  QStringLiteral("newTemplate_"), store.systemTemplates(), true);
    newAction->setMenu(newMenu_);
}

void MainWindowActions::addSystemMenu(const QString& title, const QString& objectName,
                                      const QString& prefix,
                                      const std::vector<SceneStore::SystemEntry>& entries,
                                      bool templates)
{
    if (entries.empty())
        return;
    QMenu* menu = newMenu_->addMenu(title);
    menu->setObjectName(objectName);
    for (const SceneStore::SystemEntry& entry : entries) {
        QAction* action = menu->addAction(entry.title);
        action->setObjectName(prefix + QFileInfo(entry.path).baseName());
        const QString path = entry.path;
        connect(action, &QAction::triggered, this, [this, path, templates] {
            if (templates)
                emit newTemplateRequested(path);
            else
                emit newSystemRequested(path);
        });
    }
}

void MainWindowActions::createFileActions()
{
    open = new QAction(themed("document-open", ":/icons/open.svg"), tr("&Open…"), window_);
    open->setShortcut(QKeySequence::Open);
    open->setStatusTip(tr("Open a scene file"));

    recentMenu_ = new QMenu(tr("Open &Recent"), window_);
    recentMenu_->setIcon(themed("document-open-recent", ":/icons/open.svg"));

    save = new QAction(themed("document-save", ":/icons/save.svg"), tr("&Save"), window_);
    save->setShortcut(QKeySequence::Save);
    save->setStatusTip(tr("Save the scene"));

    saveAs =
        new QAction(themed("document-save-as", ":/icons/save-as.svg"), tr("Save &As…"), window_);
    saveAs->setShortcut(QKeySequence::SaveAs);

    exportImage = new QAction(themed("image-x-generic", ":/icons/export-image.svg"),
                              tr("&Export Image…"), window_);
    exportImage->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    exportImage->setStatusTip(tr("Save the 3D view as an image at a resolution you choose"));

    exportCsv = new QAction(themed("text-csv", ":/icons/export-csv.svg"),
                            tr("Export &Trace as CSV…"), window_);
    exportCsv->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    exportCsv->setStatusTip(
        tr("Save the trajectory (all or chosen columns, every compare run) as CSV"));

    exportPlot =
        new QAction(QIcon(QStringLiteral(":/icons/export-plot.svg")), tr("Export &Plot…"), window_);
    exportPlot->setStatusTip(tr("Save the plot as PNG (any scale), SVG or PDF"));

    exportVideo = new QAction(themed("video-x-generic", ":/icons/export-video.svg"),
                              tr("Export &Video…"), window_);
    exportVideo->setStatusTip(
        tr("Record the animation as a video: MP4 (H.264), animated GIF or Ogg Theora"));

    quit = new QAction(themed("application-exit", ":/icons/quit.svg"), tr("&Quit"), window_);
    quit->setShortcut(QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);
    connect(quit, &QAction::triggered, window_, &QWidget::close);
}

void MainWindowActions::createEditActions(SceneSession* session)
{
    undo = session->undoStack()->createUndoAction(window_, tr("&Undo"));
    undo->setIcon(themed("edit-undo", ":/icons/undo.svg"));
    // The menu says what would be undone; the toolbar button keeps a steady width.
    undo->setIconText(tr("Undo"));
    undo->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Z)});
    redo = session->undoStack()->createRedoAction(window_, tr("&Redo"));
    redo->setIcon(themed("edit-redo", ":/icons/redo.svg"));
    redo->setIconText(tr("Redo"));
    redo->setShortcuts(
        {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence(Qt::CTRL | Qt::Key_Y)});

    defaults = new QAction(themed("edit-reset", ":/icons/defaults.svg"),
                           tr("Restore Scene &Defaults"), window_);
    defaults->setStatusTip(tr("Set every parameter back to the scene's default (undoable)"));
    defaults->setToolTip(tr("Set every parameter back to the scene's default (undoable)"));
    defaults->setIconText(tr("Defaults"));

    resetStart = new QAction(tr("Reset &Start"), window_);
    resetStart->setObjectName(QStringLiteral("resetStart"));
    resetStart->setStatusTip(
        tr("Start from the start parameters again instead of the stored start a drag left "
           "(undoable)"));
    resetStart->setEnabled(false);
}

void MainWindowActions::createViewActions()
{
    compare =
        new QAction(QIcon(QStringLiteral(":/icons/compare.svg")), tr("&Compare Runs"), window_);
    compare->setObjectName(QStringLiteral("compareAction"));
    compare->setCheckable(true);
    compare->setIconText(tr("Compare"));
    compare->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_K));
    compare->setToolTip(tr("Keep a faded, labelled trail of each earlier run (Ctrl+K)"));

    clearGhosts = new QAction(QIcon(QStringLiteral(":/icons/clear-ghosts.svg")),
                              tr("C&lear Ghost Trails"), window_);
    clearGhosts->setToolTip(tr("Remove the trails of earlier runs"));
    clearGhosts->setIconText(tr("Clear Ghosts"));

    resetCamera = new QAction(themed("zoom-fit-best", ":/icons/camera-reset.svg"),
                              tr("Reset &Camera"), window_);
    resetCamera->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));

    fullScreen = new QAction(themed("view-fullscreen", ":/icons/fullscreen.svg"),
                             tr("&Full Screen"), window_);
    fullScreen->setCheckable(true);
    fullScreen->setShortcut(QKeySequence::FullScreen);
    connect(fullScreen, &QAction::toggled, window_, [this](bool on) {
        if (on)
            window_->showFullScreen();
        else
            window_->showNormal();
    });

    largeText = new QAction(tr("&Large Text for Projection"), window_);
    largeText->setObjectName(QStringLiteral("largeTextAction"));
    largeText->setCheckable(true);
    largeText->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_L));
    largeText->setToolTip(
        tr("Larger text in every panel, legible from the back of a lecture room"));
}

void MainWindowActions::createLessonActions()
{
    present = new QAction(themed("x-office-presentation", ":/icons/fullscreen.svg"), tr("&Present"),
                          window_);
    present->setObjectName(QStringLiteral("presentAction"));
    present->setShortcut(QKeySequence(Qt::Key_F5));
    present->setToolTip(tr("Presentation mode for a projector: the 3D view, large sliders and "
                           "readouts; Page Down steps a lesson, Escape leaves (F5)"));
    addLessonStep = new QAction(tr("&Add Current State"), window_);
    addLessonStep->setObjectName(QStringLiteral("addLessonStepAction"));
    addLessonStep->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A));
    addLessonStep->setStatusTip(tr("Add the scene, its values, ghosts, camera and plot as the "
                                   "lesson's next step"));
    editLessonCaption = new QAction(tr("&Edit Step Caption…"), window_);
    editLessonCaption->setObjectName(QStringLiteral("editLessonCaptionAction"));
    editLessonCaption->setStatusTip(tr("Type the caption shown under the view for this step"));
    saveLesson = new QAction(tr("&Save Lesson…"), window_);
    saveLesson->setObjectName(QStringLiteral("saveLessonAction"));
    saveLesson->setStatusTip(tr("Save the lesson's steps as a lesson file"));
}

void MainWindowActions::createHelpActions()
{
    help = new QAction(themed("help-contents", ":/icons/help.svg"), tr("The &Fundamental Equation"),
                       window_);
    help->setShortcut(QKeySequence::HelpContents);
    help->setIconText(tr("Help"));
    help->setToolTip(tr("The fundamental equation and what each arrow means (F1)"));
    about = new QAction(QIcon(QStringLiteral(":/icons/constraintlab.svg")),
                        tr("&About ConstraintLab"), window_);
    about->setMenuRole(QAction::AboutRole);
    aboutQt = new QAction(tr("About &Qt"), window_);
    aboutQt->setMenuRole(QAction::AboutQtRole);
    connect(aboutQt, &QAction::triggered, qApp, &QApplication::aboutQt);
}

void MainWindowActions::createMenus(TimeControls* timeControls)
{
    createFileMenu();

    QMenuBar* bar = window_->menuBar();
    QMenu* edit = bar->addMenu(tr("&Edit"));
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    edit->addAction(defaults);
    edit->addAction(resetStart);
    duplicate = edit->addAction(tr("&Duplicate as Editable System"));
    duplicate->setObjectName(QStringLiteral("duplicateAsSystem"));
    duplicate->setStatusTip(
        tr("A copy of this scene as a system written as equations, to edit in the System dock"));

    QMenu* view = bar->addMenu(tr("&View"));
    view->addAction(compare);
    view->addAction(clearGhosts);
    view->addSeparator();
    view->addAction(resetCamera);
    view->addAction(fullScreen);
    view->addAction(largeText);
    view->addAction(present);
    view->addSeparator();
    QMenu* panels = view->addMenu(tr("&Panels"));
    for (QDockWidget* dock : window_->findChildren<QDockWidget*>())
        panels->addAction(dock->toggleViewAction());

    QMenu* playback = bar->addMenu(tr("&Playback"));
    playback->addAction(timeControls->playPauseAction());
    playback->addAction(timeControls->stepForwardAction());
    playback->addAction(timeControls->loopAction());
    playback->addAction(timeControls->stepBackwardAction());
    playback->addAction(timeControls->resetAction());

    QMenu* lesson = bar->addMenu(tr("&Lesson"));
    lesson->addAction(present);
    lesson->addSeparator();
    lesson->addAction(addLessonStep);
    lesson->addAction(editLessonCaption);
    lesson->addAction(saveLesson);

    QMenu* helpMenu = bar->addMenu(tr("&Help"));
    helpMenu->addAction(help);
    helpMenu->addSeparator();
    helpMenu->addAction(about);
    helpMenu->addAction(aboutQt);

    createToolBar(timeControls, panels);
    updateRecentMenu();
}

void MainWindowActions::createFileMenu()
{
    QMenu* file = window_->menuBar()->addMenu(tr("&File"));
    file->addMenu(newMenu_);
    file->addAction(open);
    file->addMenu(recentMenu_);
    file->addSeparator();
    file->addAction(save);
    file->addAction(saveAs);
    file->addSeparator();
    QMenu* exportMenu = file->addMenu(tr("&Export"));
    exportMenu->setIcon(themed("document-export", ":/icons/export-image.svg"));
    exportMenu->addAction(exportImage);
    exportMenu->addAction(exportVideo);
    exportMenu->addAction(exportCsv);
    exportMenu->addAction(exportPlot);
    file->addSeparator();
    file->addAction(quit);
}

void MainWindowActions::createToolBar(TimeControls* timeControls, QMenu* panels)
{
    // Its text goes before its buttons do: every action stays in reach on a small screen.
    auto* toolbar = new AdaptiveToolBar(tr("Main Toolbar"), window_);
    window_->addToolBar(toolbar);
    toolbar->setObjectName(QStringLiteral("mainToolBar"));
    toolbar->setIconSize(QSize(28, 28));
    toolbar->addAction(newAction);
    if (auto* newButton = qobject_cast<QToolButton*>(toolbar->widgetForAction(newAction)))
        newButton->setPopupMode(QToolButton::InstantPopup);
    toolbar->addAction(open);
    toolbar->addAction(save);
    toolbar->addSeparator();
    toolbar->addAction(undo);
    toolbar->addAction(redo);
    toolbar->addSeparator();
    toolbar->addAction(timeControls->resetAction());
    toolbar->addAction(timeControls->playPauseAction());
    toolbar->addAction(timeControls->stepForwardAction());
    toolbar->addSeparator();
    toolbar->addAction(compare);
    toolbar->addAction(resetCamera);
    toolbar->addSeparator();
    toolbar->addAction(help);
    panels->addSeparator();
    panels->addAction(toolbar->toggleViewAction());
}

QStringList MainWindowActions::recentFiles() const
{
    const QSettings s(settingsOrganization(), settingsApplication());
    return s.value(QLatin1String(recentFilesKey)).toStringList();
}

void MainWindowActions::addRecentFile(const QString& path)
{
    QStringList files = recentFiles();
    files.removeAll(path);
    files.prepend(path);
    while (files.size() > maxRecentFiles)
        files.removeLast();
    QSettings s(settingsOrganization(), settingsApplication());
    s.setValue(QLatin1String(recentFilesKey), files);
    updateRecentMenu();
}

void MainWindowActions::updateRecentMenu()
{
    recentMenu_->clear();
    const QStringList files = recentFiles();
    for (int i = 0; i < files.size(); ++i) {
        const QString& path = files[i];
        // &1 … &8 give keyboard access, as KDE's recent-files menus do.
        QAction* action = recentMenu_->addAction(
            QStringLiteral("&%1  %2").arg(i + 1).arg(QFileInfo(path).fileName()));
        action->setToolTip(QDir::toNativeSeparators(path));
        action->setStatusTip(QDir::toNativeSeparators(path));
        connect(action, &QAction::triggered, this,
                [this, path] { emit recentFileRequested(path); });
    }
    if (!files.isEmpty()) {
        recentMenu_->addSeparator();
        recentMenu_->addAction(tr("&Clear List"), this, [this] {
            QSettings s(settingsOrganization(), settingsApplication());
            s.remove(QLatin1String(recentFilesKey));
            updateRecentMenu();
        });
    }
    recentMenu_->setEnabled(!files.isEmpty());
}

} // namespace clab
