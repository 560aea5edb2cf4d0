#pragma once

#include <QObject>

class QWidget;

namespace clab {

/// \brief Keeps the mouse wheel from changing a value behind the user's back.
///
/// Installed once on the application, it covers every spin box, combo box, slider (not scroll
/// bars) and line edit with a validator, including widgets made later. Such a control takes
/// the keyboard focus only by a click or Tab (Qt::StrongFocus instead of Qt::WheelFocus), and a
/// wheel event over it while it does not have the focus is passed on to its parents, as if the
/// control ignored it: the enclosing scroll area scrolls the panel. A focused control keeps
/// the wheel, as KDE applications do.
class WheelGuard : public QObject {
    Q_OBJECT
public:
    /// Installs the guard on the running QApplication, once; later calls do nothing.
    static void install();
    /// True when the guard is installed on the application.
    static bool isInstalled();

    /// The control whose value a wheel event over `widget` would change: `widget` or the
    /// control it is a part of (a spin box's line edit), or null.
    static QWidget* guardedControl(QWidget* widget);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    explicit WheelGuard(QObject* parent);
};

} // namespace clab
