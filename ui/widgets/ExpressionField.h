#pragma once

#include <QPlainTextEdit>
#include <QStringList>

class QCompleter;
class QStringListModel;

namespace clab {

/// \brief A one-line field for an expression, with the problem underlined where it is and
/// completion of the symbol names the expression may use.
///
/// A QLineEdit cannot underline part of its text, so this is a QPlainTextEdit kept to one line
/// (Enter and pasted line breaks do not make new lines). It reports typing (textEdited) and
/// the end of an edit (editingFinished: Enter, or leaving the field after a change), which the
/// System editor turns into one undo step.
class ExpressionField : public QPlainTextEdit {
    Q_OBJECT
public:
    explicit ExpressionField(QWidget* parent = nullptr);

    QString text() const { return toPlainText(); }
    /// Replaces the text without emitting textEdited (undo, a new document).
    void setText(const QString& text);

    /// Underlines the token starting at the 1-based `column` (the whole text when 0) and shows
    /// `message` as the field's tooltip.
    void setError(const QString& message, int column);
    void clearError();
    bool hasError() const { return !error_.isEmpty(); }
    QString error() const { return error_; }
    /// The underlined range [start, start + length) in characters, for tests.
    std::pair<int, int> errorRange() const { return errorRange_; }

    /// Names offered while typing: coordinates, NAME_dot velocities, parameters, functions.
    void setCompletions(const QStringList& words);
    QCompleter* completer() const { return completer_; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void textEdited(const QString& text);
    void editingFinished();

protected:
    void keyPressEvent(QKeyEvent* event) override;
    void focusOutEvent(QFocusEvent* event) override;
    void insertFromMimeData(const QMimeData* source) override;
    void changeEvent(QEvent* event) override;

private:
    void insertCompletion(const QString& word);
    QString wordBeforeCursor() const;
    void updateCompletionPopup();
    void finishEditing();
    void updateHeight();

    QCompleter* completer_;
    QStringListModel* words_;
    QString error_;
    std::pair<int, int> errorRange_{0, 0};
    bool settingText_ = false;
    bool changed_ = false;
};

} // namespace clab
