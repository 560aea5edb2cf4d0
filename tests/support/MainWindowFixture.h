#pragma once
// What the GUI tests of the main window share: the OpenGL format VTK needs, settings kept away
// from the user's, and a fresh window showing a document.

#include <GuiSceneStore.h>
#include <MainWindow.h>
#include <render/VtkSurfaceFormat.h>

#include <QGuiApplication>
#include <QScreen>
#include <QSettings>
#include <QSize>
#include <QTemporaryDir>

#include <algorithm>
#include <initializer_list>
#include <memory>

namespace clab::testing {

/// Sets the default surface format (VTK needs an OpenGL 3.2 core context); call it before
/// QApplication exists, e.g. from a namespace-scope initializer. Returns true.
inline bool& surfaceFormatIsSet()
{
    static bool set = false;
    return set;
}

inline bool setSurfaceFormat()
{
    VtkSurfaceFormat::makeDefault();
    surfaceFormatIsSet() = true;
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

/// What a main-window test sets up once, in its initTestCase: the surface format set before the
/// application, settings of its own in a temporary folder, and for a test that only means
/// something on a projector, that screen.
class IsolatedSettings {
public:
    /// False, with problem() saying why, when something is not as the test needs it; `screens`
    /// are the primary screen sizes the test is meant for (none: any).
    bool start(std::initializer_list<QSize> screens = {})
    {
        if (!surfaceFormatIsSet())
            problem_ = QStringLiteral("testing::setSurfaceFormat() was not called before the "
                                      "application was made");
        else if (!isolateSettings(dir_))
            problem_ = QStringLiteral("no temporary folder for the settings");
        else if (const QSize screen = QGuiApplication::primaryScreen()->size();
                 screens.size() > 0 &&
                 std::find(screens.begin(), screens.end(), screen) == screens.end())
            problem_ = QStringLiteral("run on a %1x%2 screen: the test is meant for a projector's")
                           .arg(screen.width())
                           .arg(screen.height());
        return problem_.isEmpty();
    }
    QString problem() const { return problem_; }

private:
    QTemporaryDir dir_;
    QString problem_;
};

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
