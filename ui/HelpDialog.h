#pragma once

#include <QDialog>
#include <QList>

class QAction;
class QTextBrowser;

namespace clab {

/// \brief Help → The Fundamental Equation: what ConstraintLab computes, what each arrow means
/// and the keyboard shortcuts, as rich text.
class HelpDialog : public QDialog {
    Q_OBJECT
public:
    /// `actions`: the window's actions; every one with a shortcut is listed under Keyboard, so
    /// the list cannot drift from what the keys do.
    explicit HelpDialog(const QList<QAction*>& actions, QWidget* parent = nullptr);

    /// The help page as HTML, with the arrow colours of ForceKind.h and a keyboard table made
    /// from `actions` (in their order; actions without a shortcut are left out; an action's
    /// "helpText" property, when set, replaces its menu text there).
    static QString html(const QList<QAction*>& actions);

private:
    QTextBrowser* browser_;
};

} // namespace clab
