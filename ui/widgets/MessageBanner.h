#pragma once

#include <QFrame>

class QLabel;
class QToolButton;

namespace clab {

/// \brief An inline message bar (in the style of KMessageWidget) that names a problem
/// without interrupting the user with a modal dialog.
class MessageBanner : public QFrame {
    Q_OBJECT
public:
    enum class Kind { Information, Warning, Error };

    explicit MessageBanner(QWidget* parent = nullptr);

    /// Shows the banner with a message; rich text is not interpreted.
    void showMessage(Kind kind, const QString& text);
    /// Hides the banner.
    void clearMessage();

    Kind kind() const { return kind_; }
    QString text() const;

private:
    QLabel* icon_;
    QLabel* label_;
    QToolButton* close_;
    Kind kind_ = Kind::Information;
};

} // namespace clab
