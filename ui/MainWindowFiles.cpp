#include "MainWindowFiles.h"

#include "LessonFile.h"
#include "MainWindowActions.h"
#include "panels/SystemEditor.h"
#include "session/SceneLoader.h"
#include "session/SceneSession.h"
#include "widgets/DialogFolders.h"
#include "widgets/LoadingIndicator.h"

#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QMessageBox>
#include <QStatusBar>

#include <algorithm>

namespace clab {

namespace {

const char* const sceneFilter =
    QT_TRANSLATE_NOOP("MainWindowFiles", "ConstraintLab scenes (*.clab.json *.json)");

} // namespace

MainWindowFiles::MainWindowFiles(QMainWindow* window, SceneSession* session, SceneStore& store,
                                 MainWindowActions& actions, const SystemEditor* systemEditor)
    : QObject(window), window_(window), session_(session), store_(store), actions_(actions),
      systemEditor_(systemEditor),
      loader_(new SceneLoader([&store](const QString& path) { return store.load(path); }, this)),
      indicator_(new LoadingIndicator(loader_, window))
{
    window_->statusBar()->addPermanentWidget(indicator_);
    connect(loader_, &SceneLoader::loaded, this, &MainWindowFiles::loaded);
    connect(loader_, &SceneLoader::failed, this, [this](const QString& path, const QString& why) {
        emit failed(tr("Could not open %1").arg(QFileInfo(path).fileName()), why);
    });
    const auto edited = [this] {
        editedWhileLoading_ = editedWhileLoading_ || loader_->isLoading();
    };
    connect(session_, &SceneSession::valueChanged, this, edited);
    connect(session_, &SceneSession::systemChanged, this, edited);
    connect(systemEditor_, &SystemEditor::problemChanged, this, edited);
    connect(loader_, &SceneLoader::cancelled, this, [this](const QString& path) {
        window_->statusBar()->showMessage(
            tr("Stopped loading %1; the scene that was open stays").arg(QFileInfo(path).fileName()),
            6000);
    });
    unsavedPrompt_ = [window](const QString& name) {
        const auto answer = QMessageBox::warning(
            window, tr("Unsaved Changes"),
            tr("The scene “%1” has unsaved changes.\nDo you want to save them?").arg(name),
            QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
        if (answer == QMessageBox::Save)
            return UnsavedChoice::Save;
        return answer == QMessageBox::Discard ? UnsavedChoice::Discard : UnsavedChoice::Cancel;
    };
    openProvider_ = [this] {
        const QString current = QFileInfo(session_->filePath()).absolutePath();
        const QString dir = !session_->filePath().isEmpty() && QFileInfo(current).isDir()
                                ? current
                                : DialogFolders::folder(QStringLiteral("scene"));
        const QString path =
            QFileDialog::getOpenFileName(window_, tr("Open Scene"), dir, tr(sceneFilter));
        DialogFolders::remember(QStringLiteral("scene"), path);
        return path;
    };
    saveProvider_ = [window](const QString& suggested, const QString& filter) {
        return QFileDialog::getSaveFileName(window, tr("Save As"), suggested, filter);
    };
}

void MainWindowFiles::setFileDialogs(OpenFileProvider open, SaveFileProvider save)
{
    openProvider_ = std::move(open);
    saveProvider_ = std::move(save);
}

bool MainWindowFiles::newFromBuiltIn(const std::string& sceneName)
{
    if (!maybeSave())
        return false;
    try {
        session_->setDocument(store_.builtIn(sceneName), {});
    } catch (const std::exception& error) {
        emit failed(tr("Could not create the scene “%1”").arg(QString::fromStdString(sceneName)),
                    QString::fromStdString(error.what()));
        return false;
    }
    return true;
}

bool MainWindowFiles::newFromSystem(const QString& path)
{
    if (!maybeSave())
        return false;
    try {
        // A new, unsaved document: Save asks where, as for a built-in scene.
        session_->setDocument(store_.load(path), {});
    } catch (const std::exception& error) {
        emit failed(tr("Could not create the system %1").arg(QFileInfo(path).baseName()),
                    QString::fromStdString(error.what()));
        return false;
    }
    return true;
}

bool MainWindowFiles::duplicateAsSystem()
{
    const SceneDocument current = session_->document();
    SceneDocument copy;
    if (current.system) {
        copy = current;
    } else {
        // A built-in scene is duplicated through its shipped format-2 file of the same name.
        const std::vector<SceneStore::SystemEntry> systems = store_.builtInSystems();
        const auto entry =
            std::find_if(systems.begin(), systems.end(), [&](const SceneStore::SystemEntry& e) {
                return QFileInfo(e.path).baseName().toStdString() == current.scene;
            });
        if (entry == systems.end()) {
            emit failed(tr("Could not duplicate “%1”").arg(session_->displayName()),
                        tr("there is no system file for the scene “%1”")
                            .arg(QString::fromStdString(current.scene)));
            return false;
        }
        try {
            copy = store_.load(entry->path);
        } catch (const std::exception& error) {
            emit failed(tr("Could not duplicate “%1”").arg(session_->displayName()),
                        QString::fromStdString(error.what()));
            return false;
        }
        copy.simulation = current.simulation;
        copy.takeValuesFrom(current);
    }
    if (!maybeSave())
        return false;
    session_->setDocument(copy, {});
    emit systemEditorWanted();
    return true;
}

void MainWindowFiles::openDialog()
{
    if (!maybeSave())
        return;
    const QString path = openProvider_ ? openProvider_() : QString();
    if (!path.isEmpty())
        openFileInBackground(path);
}

bool MainWindowFiles::isLesson(const QString& path) const
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) && LessonFile::looksLikeLesson(file.read(16 << 20));
}

void MainWindowFiles::openFileInBackground(const QString& path)
{
    if (!window_->statusBar()->isVisible()) {
        openFile(path); // presenting: the progress and Cancel would not show
        return;
    }
    if (!maybeSave())
        return;
    if (isLesson(path)) {
        emit lessonRequested(path);
        return;
    }
    editedWhileLoading_ = false;
    loader_->start(path);
}

void MainWindowFiles::loaded(const SceneDocument& document, const QString& path)
{
    // Edits made while the file loaded are asked about as any others before they go.
    if (editedWhileLoading_ && !maybeSave()) {
        // In the banner, not the status bar: the run the edit started would replace it there.
        emit warning(tr("Did not open %1: the scene that was open has changes")
                         .arg(QFileInfo(path).fileName()));
        return;
    }
    show(document, path);
}

bool MainWindowFiles::openFile(const QString& path)
{
    if (!maybeSave())
        return false;
    if (isLesson(path)) {
        emit lessonRequested(path);
        return true;
    }
    SceneDocument document;
    try {
        document = store_.load(path);
    } catch (const std::exception& error) {
        emit failed(tr("Could not open %1").arg(QFileInfo(path).fileName()),
                    QString::fromStdString(error.what()));
        return false;
    }
    return show(document, path);
}

bool MainWindowFiles::show(const SceneDocument& document, const QString& path)
{
    try {
        session_->setDocument(document, QFileInfo(path).absoluteFilePath());
    } catch (const std::exception& error) {
        emit failed(tr("Could not open %1").arg(QFileInfo(path).fileName()),
                    QString::fromStdString(error.what()));
        return false;
    }
    actions_.addRecentFile(QFileInfo(path).absoluteFilePath());
    window_->statusBar()->showMessage(tr("Opened %1").arg(QDir::toNativeSeparators(path)), 4000);
    return true;
}

bool MainWindowFiles::save()
{
    if (session_->filePath().isEmpty())
        return saveAsDialog();
    return saveAs(session_->filePath());
}

bool MainWindowFiles::saveAsDialog()
{
    QString suggested = session_->filePath();
    if (suggested.isEmpty())
        suggested = DialogFolders::suggestedPath(
            QStringLiteral("scene"), QString::fromStdString(session_->document().shortName()) +
                                         QStringLiteral(".clab.json"));
    QString path = saveProvider_ ? saveProvider_(suggested, tr(sceneFilter)) : QString();
    if (path.isEmpty())
        return false;
    DialogFolders::remember(QStringLiteral("scene"), path);
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".clab.json"); // the desktop's file type for scenes
    return saveAs(path);
}

bool MainWindowFiles::saveAs(const QString& path)
{
    try {
        store_.save(session_->document(), path);
    } catch (const std::exception& error) {
        emit failed(tr("Could not save %1").arg(QFileInfo(path).fileName()),
                    QString::fromStdString(error.what()));
        return false;
    }
    const QString absolute = QFileInfo(path).absoluteFilePath();
    session_->markSaved(absolute);
    actions_.addRecentFile(absolute);
    emit saved();
    window_->statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(absolute)), 4000);
    if (systemEditor_->hasUnappliedEdits()) {
        // The file holds the last system that built; say what stayed behind in the editor.
        emit warning(tr("Saved the last valid system. Not saved, because it does not "
                        "build yet: %1")
                         .arg(systemEditor_->problem()));
    }
    return true;
}

bool MainWindowFiles::maybeSave()
{
    // Text in the System editor that does not build yet is an edit too: ask before losing it.
    if (!session_->isModified() && !systemEditor_->hasUnappliedEdits())
        return true;
    switch (unsavedPrompt_(session_->displayName())) {
    case UnsavedChoice::Save:
        return save();
    case UnsavedChoice::Discard:
        return true;
    case UnsavedChoice::Cancel:
        return false;
    }
    return false;
}

} // namespace clab
