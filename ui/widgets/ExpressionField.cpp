#include "widgets/ExpressionField.h"

#include <QAbstractItemView>
#include <QCompleter>
#include <QKeyEvent>
#include <QMimeData>
#include <QScrollBar>
#include <QStringListModel>
#include <QTextBlock>

namespace clab {

namespace {

bool isNameChar(QChar c)
{
    return c.isLetterOrNumber() || c == QLatin1Char('_');
}

} // namespace

ExpressionField::ExpressionField(QWidget* parent)
    : QPlainTextEdit(parent), completer_(new QCompleter(this)), words_(new QStringListModel(this))
{
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setWordWrapMode(QTextOption::NoWrap);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setTabChangesFocus(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    document()->setDocumentMargin(2);
    updateHeight();

    completer_->setModel(words_);
    completer_->setWidget(this);
    completer_->setCompletionMode(QCompleter::PopupCompletion);
    completer_->setCaseSensitivity(Qt::CaseSensitive);
    completer_->setModelSorting(QCompleter::UnsortedModel);
    connect(completer_, qOverload<const QString&>(&QCompleter::activated), this,
            &ExpressionField::insertCompletion);

    connect(this, &QPlainTextEdit::textChanged, this, [this] {
        if (settingText_)
            return;
        changed_ = true;
        emit textEdited(text());
    });
}

void ExpressionField::setText(const QString& text)
{
    if (text == this->text())
        return;
    settingText_ = true;
    setPlainText(text);
    settingText_ = false;
    changed_ = false;
}

void ExpressionField::setError(const QString& message, int column)
{
    error_ = message;
    const QString content = text();
    int start = 0;
    int length = static_cast<int>(content.size());
    if (column > 0 && column <= content.size()) {
        // The token that starts at the column: a name or number, else one character.
        start = column - 1;
        int end = start;
        while (end < content.size() && isNameChar(content[end]))
            ++end;
        length = std::max(1, end - start);
    } else if (column > content.size()) {
        // Past the end (a missing operand): mark the last character.
        start = std::max(0, static_cast<int>(content.size()) - 1);
        length = content.isEmpty() ? 0 : 1;
    }
    errorRange_ = {start, length};

    QTextEdit::ExtraSelection underline;
    underline.cursor = QTextCursor(document());
    underline.cursor.setPosition(start);
    underline.cursor.setPosition(start + length, QTextCursor::KeepAnchor);
    underline.format.setUnderlineStyle(QTextCharFormat::WaveUnderline);
    underline.format.setUnderlineColor(QColor(0xc0, 0x1c, 0x28));
    setExtraSelections(length > 0 ? QList<QTextEdit::ExtraSelection>{underline}
                                  : QList<QTextEdit::ExtraSelection>{});
    setToolTip(message);
}

void ExpressionField::clearError()
{
    error_.clear();
    errorRange_ = {0, 0};
    setExtraSelections({});
    setToolTip({});
}

void ExpressionField::setCompletions(const QStringList& words)
{
    words_->setStringList(words);
}

QSize ExpressionField::sizeHint() const
{
    return {200, minimumSizeHint().height()};
}

QSize ExpressionField::minimumSizeHint() const
{
    const int frame = 2 * frameWidth();
    const int margin = 2 * static_cast<int>(document()->documentMargin());
    return {60, fontMetrics().height() + frame + margin + 2};
}

void ExpressionField::updateHeight()
{
    setFixedHeight(minimumSizeHint().height());
}

void ExpressionField::changeEvent(QEvent* event)
{
    QPlainTextEdit::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        updateHeight();
}

QString ExpressionField::wordBeforeCursor() const
{
    const QString content = text();
    const int end = textCursor().position();
    int start = end;
    while (start > 0 && isNameChar(content[start - 1]))
        --start;
    return content.mid(start, end - start);
}

void ExpressionField::insertCompletion(const QString& word)
{
    QTextCursor cursor = textCursor();
    const int prefix = static_cast<int>(wordBeforeCursor().size());
    cursor.movePosition(QTextCursor::Left, QTextCursor::KeepAnchor, prefix);
    cursor.insertText(word);
    setTextCursor(cursor);
}

void ExpressionField::updateCompletionPopup()
{
    const QString prefix = wordBeforeCursor();
    // Numbers are not completed; a name starts with a letter.
    if (prefix.isEmpty() || !prefix[0].isLetter()) {
        completer_->popup()->hide();
        return;
    }
    completer_->setCompletionPrefix(prefix);
    if (completer_->completionCount() == 0 ||
        (completer_->completionCount() == 1 && completer_->currentCompletion() == prefix)) {
        completer_->popup()->hide();
        return;
    }
    QRect rect = cursorRect();
    rect.setWidth(completer_->popup()->sizeHintForColumn(0) +
                  completer_->popup()->verticalScrollBar()->sizeHint().width());
    completer_->popup()->setCurrentIndex(completer_->completionModel()->index(0, 0));
    completer_->complete(rect);
}

void ExpressionField::keyPressEvent(QKeyEvent* event)
{
    if (completer_->popup()->isVisible()) {
        switch (event->key()) {
        case Qt::Key_Enter:
        case Qt::Key_Return:
        case Qt::Key_Tab:
            // The popup's own handling inserts the chosen name.
            event->ignore();
            return;
        case Qt::Key_Escape:
        case Qt::Key_Backtab:
            event->ignore();
            return;
        default:
            break;
        }
    }
    if (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) {
        finishEditing();
        return;
    }
    QPlainTextEdit::keyPressEvent(event);
    const bool typed = !event->text().isEmpty() && isNameChar(event->text().back());
    if (typed)
        updateCompletionPopup();
    else if (event->key() != Qt::Key_Shift && event->key() != Qt::Key_Control)
        completer_->popup()->hide();
}

void ExpressionField::focusOutEvent(QFocusEvent* event)
{
    QPlainTextEdit::focusOutEvent(event);
    // The completion popup takes the focus while open: that is not the end of the edit.
    if (!completer_->popup()->isVisible())
        finishEditing();
}

void ExpressionField::finishEditing()
{
    if (!changed_)
        return;
    changed_ = false;
    emit editingFinished();
}

void ExpressionField::insertFromMimeData(const QMimeData* source)
{
    // One line: pasted line breaks become spaces.
    QString pasted = source->text();
    pasted.replace(QLatin1String("\r\n"), QLatin1String(" "));
    pasted.replace(QLatin1Char('\n'), QLatin1Char(' '));
    pasted.replace(QLatin1Char('\r'), QLatin1Char(' '));
    textCursor().insertText(pasted);
}

} // namespace clab
