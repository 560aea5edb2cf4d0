// The Lesson menu's file handling: a part of MainWindow of its own, so that MainWindow.cpp keeps
// to the window's arrangement.
#include "MainWindow.h"

#include "MainWindowActions.h"
#include "present/PresentationMode.h"

#include <LessonFile.h>

#include <QDir>
#include <QFileInfo>
#include <QStatusBar>

namespace clab {

bool MainWindow::openLesson(const QString& path)
{
    Lesson lesson;
    try {
        lesson = LessonFile::load(path);
    } catch (const std::exception& error) {
        showFileError(tr("Could not open %1").arg(QFileInfo(path).fileName()),
                      QString::fromUtf8(error.what()));
        return false;
    }
    present_->setLesson(lesson, QFileInfo(path).absoluteFilePath());
    actions_->addRecentFile(QFileInfo(path).absoluteFilePath());
    autoPlay_ = true;
    present_->enter();
    return true;
}

bool MainWindow::saveLesson(const QString& path)
{
    try {
        LessonFile::save(present_->lesson(), path);
    } catch (const std::exception& error) {
        showFileError(tr("Could not save %1").arg(QFileInfo(path).fileName()),
                      QString::fromUtf8(error.what()));
        return false;
    }
    statusBar()->showMessage(tr("Saved the lesson to %1").arg(QDir::toNativeSeparators(path)),
                             4000);
    return true;
}

void MainWindow::saveLessonDialog()
{
    if (present_->lesson().steps.empty()) {
        showFileError(tr("Nothing to save"),
                      tr("the lesson has no steps yet: Lesson → Add Current State adds one"));
        return;
    }
    const QString suggested = present_->lessonPath().isEmpty()
                                  ? QDir::home().filePath(QStringLiteral("lesson.json"))
                                  : present_->lessonPath();
    const QString path = files_->saveFileProvider()(suggested, tr("Lessons (*.json)"));
    if (!path.isEmpty())
        saveLesson(path);
}

bool MainWindow::addLessonStep()
{
    try {
        if (!present_->addCurrentState())
            return false; // the caption was cancelled
    } catch (const std::exception& error) {
        showFileError(tr("Could not add the state to the lesson"), QString::fromUtf8(error.what()));
        return false;
    }
    statusBar()->showMessage(tr("Lesson step %1 added").arg(present_->lesson().steps.size()), 4000);
    return true;
}

bool MainWindow::editLessonCaption()
{
    try {
        return present_->editCaption();
    } catch (const std::exception& error) {
        showFileError(tr("Could not change the caption"), QString::fromUtf8(error.what()));
        return false;
    }
}

} // namespace clab
