#pragma once

#include <QDialog>

class QTextBrowser;

namespace clab {

/// \brief Help → The Fundamental Equation: what ConstraintLab computes, what each arrow means
/// and the keyboard shortcuts, as rich text.
class HelpDialog : public QDialog {
    Q_OBJECT
public:
    explicit HelpDialog(QWidget* parent = nullptr);

    /// The help page as HTML, with the arrow colours of ForceKind.h.
    static QString html();

private:
    QTextBrowser* browser_;
};

} // namespace clab
