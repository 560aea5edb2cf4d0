#pragma once
// What the GUI tests of the main window share: the OpenGL format VTK needs, settings kept away
// from the user's, and a fresh window showing a document.

#include <GuiSceneStore.h>
#include <MainWindow.h>
#include <render/VtkSurfaceFormat.h>

#include <QSettings>
#include <QTemporaryDir>

#include <memory>

namespace clab::testing {

/// Sets the default surface format (VTK needs an OpenGL 3.2 core context); call it before
/// QApplication exists, e.g. from a namespace-scope initializer. Returns true.
inline bool setSurfaceFormat()
{
    VtkSurfaceFormat::makeDefault();
    return true;
}

/// Keeps QSettings in `dir`, never in the user's real settings; false when `dir` is not valid.
inline bool isolateSettings(const QTemporaryDir& dir)
{
    if (!dir.isValid())
        return false;
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir.path());
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir.path());
    return true;
}

/// Replaces `window` by a new main window (with its own scene store), not yet shown.
inline MainWindow& newWindow(std::unique_ptr<MainWindow>& window)
{
    window.reset();
    window = std::make_unique<MainWindow>(std::make_shared<GuiSceneStore>());
    return *window;
}

/// Shows `document` in `window` at 1200×800.
inline MainWindow& showDocument(MainWindow& window, const SceneDocument& document)
{
    window.setDocument(document);
    window.resize(1200, 800);
    window.show();
    return window;
}

} // namespace clab::testing
