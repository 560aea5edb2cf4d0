#pragma once

#include "MainWindowExports.h"

#include <scenes/SceneDocument.h>

#include <QObject>
#include <QString>

#include <functional>
#include <string>

class QMainWindow;

namespace clab {

class LoadingIndicator;
class MainWindowActions;
class SceneLoader;
class SceneSession;
class SceneStore;
class SystemEditor;

/// \brief The main window's documents: New (a built-in scene, a system file, a duplicate as an
/// editable system), Open, Save and Save As, with the unsaved-changes prompt.
///
/// The session holds the document; this class asks, loads and writes it through the scene
/// store and keeps the recent files. Problems are reported through failed() for the window's
/// banner, the current document staying.
class MainWindowFiles : public QObject {
    Q_OBJECT
public:
    enum class UnsavedChoice { Save, Discard, Cancel };
    /// Asks what to do with unsaved changes of the named document.
    using UnsavedPrompt = std::function<UnsavedChoice(const QString& documentName)>;
    /// Returns a file name chosen by the user, or an empty string when cancelled.
    using OpenFileProvider = std::function<QString()>;
    using SaveFileProvider = MainWindowExports::SaveFileProvider;

    /// The dialogs are `window`'s; `systemEditor` may hold edits that do not build yet.
    MainWindowFiles(QMainWindow* window, SceneSession* session, SceneStore& store,
                    MainWindowActions& actions, const SystemEditor* systemEditor);

    // Test hooks: replace the modal dialogs.
    void setUnsavedChangesPrompt(UnsavedPrompt prompt) { unsavedPrompt_ = std::move(prompt); }
    void setFileDialogs(OpenFileProvider open, SaveFileProvider save);
    /// The save dialog, which the exports share.
    const SaveFileProvider& saveFileProvider() const { return saveProvider_; }

    bool newFromBuiltIn(const std::string& sceneName);
    bool newFromSystem(const QString& path);
    bool duplicateAsSystem();
    /// File → Open…: the unsaved-changes prompt, the dialog, then openFile.
    void openDialog();
    /// Reads and derives the file before returning (tests, scripts).
    bool openFile(const QString& path);
    /// What Open, the recent files, a dropped file and the command line use: the file loads on
    /// a worker thread while the window stays live, with progress and Cancel in the status bar
    /// (a large format-2 system takes a second or more to derive). Lessons open at once.
    void openFileInBackground(const QString& path);
    SceneLoader* loader() const { return loader_; }
    LoadingIndicator* loadingIndicator() const { return indicator_; }
    bool save();
    /// File → Save As…: the dialog, then saveAs.
    bool saveAsDialog();
    bool saveAs(const QString& path);
    bool maybeSave();

signals:
    /// What failed ("Could not open x.json") and why.
    void failed(const QString& what, const QString& message);
    /// The document was saved.
    void saved();
    /// Saved, with a caveat the banner shows (edits in the System dock that did not build).
    void warning(const QString& message);
    /// A new editable system: the System dock should show.
    void systemEditorWanted();
    /// File → Open chose a lesson file (told apart by its content).
    void lessonRequested(const QString& path);

private:
    bool isLesson(const QString& path) const;
    void loaded(const SceneDocument& document, const QString& path);
    bool show(const SceneDocument& document, const QString& path);

    QMainWindow* window_;
    SceneSession* session_;
    SceneStore& store_;
    MainWindowActions& actions_;
    const SystemEditor* systemEditor_;
    UnsavedPrompt unsavedPrompt_;
    OpenFileProvider openProvider_;
    SaveFileProvider saveProvider_;
    SceneLoader* loader_;
    LoadingIndicator* indicator_;
    bool editedWhileLoading_ = false;
};

} // namespace clab
