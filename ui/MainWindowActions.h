#pragma once

#include "session/SceneStore.h"

#include <QIcon>
#include <QObject>
#include <QString>
#include <QStringList>

#include <string>
#include <vector>

class QAction;
class QMainWindow;
class QMenu;

namespace clab {

class SceneSession;
class TimeControls;

/// \brief The main window's actions, its menu bar and its tool bar, and the recent files.
///
/// The actions are children of the window, so that Help lists them with their shortcuts; the
/// window connects those that act on it. The New and Open Recent menus report their choices
/// through signals.
class MainWindowActions : public QObject {
    Q_OBJECT
public:
    /// How much larger text is for projection.
    static constexpr double largeTextFactor = 1.7;
    /// The plots' text with large text: their sizes at scale 1 are already a projector's (14 to
    /// 18 px), and a legend at ×1.7 would be wider than a plot beside the 3D view.
    static constexpr double largePlotTextFactor = 1.4;
    /// The 3D view's text with large text: VTK sets it smaller than Qt does at the same size,
    /// and the view is what the class watches.
    static constexpr double largeViewTextFactor = 2.0;
    /// The application's fonts at their normal size, or largeTextFactor times that.
    static void applyLargeText(bool on);
    /// Where the window layout, display choices and recent files persist.
    static QString settingsOrganization();
    static QString settingsApplication();
    /// An icon of the desktop theme, else the bundled one.
    static QIcon themed(const char* themeName, const char* resource);

    /// Creates the actions in `window`; the undo actions follow `session`'s undo stack, the New
    /// menu lists `store`'s systems and templates.
    MainWindowActions(QMainWindow* window, SceneSession* session, const SceneStore& store);

    /// The menu bar and the tool bar, once the docks exist (View → Panels lists them).
    void createMenus(TimeControls* timeControls);

    QStringList recentFiles() const;
    /// Puts `path` first in the recent files (at most eight).
    void addRecentFile(const QString& path);

    QAction* newAction = nullptr;
    QAction* open = nullptr;
    QAction* save = nullptr;
    QAction* saveAs = nullptr;
    QAction* exportImage = nullptr;
    QAction* exportCsv = nullptr;
    QAction* exportPlot = nullptr;
    QAction* exportVideo = nullptr;
    QAction* quit = nullptr;
    QAction* undo = nullptr;
    QAction* redo = nullptr;
    QAction* defaults = nullptr;
    QAction* resetStart = nullptr; ///< clears a stored start (MainWindowDrag wires it)
    QAction* duplicate = nullptr;
    QAction* compare = nullptr;
    QAction* clearGhosts = nullptr;
    QAction* resetCamera = nullptr;
    QAction* fullScreen = nullptr;
    QAction* largeText = nullptr;
    QAction* present = nullptr;
    QAction* addLessonStep = nullptr;
    QAction* editLessonCaption = nullptr;
    QAction* saveLesson = nullptr;
    QAction* help = nullptr;
    QAction* about = nullptr;
    QAction* aboutQt = nullptr;

signals:
    /// File → New → a built-in scene.
    void newSceneRequested(const std::string& sceneName);
    /// File → New → System from Equations.
    void newSystemRequested(const QString& path);
    /// File → New → System from Template.
    void newTemplateRequested(const QString& path);
    /// File → Open Recent → a file.
    void recentFileRequested(const QString& path);

private:
    void createNewMenu(const SceneStore& store);
    /// One of File → New's submenus of system files.
    void addSystemMenu(const QString& title, const QString& objectName, const QString& prefix,
                       const std::vector<SceneStore::SystemEntry>& entries, bool templates);
    void createFileActions();
    void createEditActions(SceneSession* session);
    void createViewActions();
    void createLessonActions();
    void createHelpActions();
    void createFileMenu();
    void createToolBar(TimeControls* timeControls, QMenu* panels);
    void updateRecentMenu();

    QMainWindow* window_;
    QMenu* newMenu_ = nullptr;
    QMenu* recentMenu_ = nullptr;
};

} // namespace clab
