#pragma once

#include <symbolic/SystemDescription.h>

#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

class QLabel;
class QWidget;

namespace clab {

/// \brief The fields of the System editor: each made for one key of the draft
/// ("system.kinetic_energy", "view.points[1].at[0]", ...), with a message label under it, and
/// found again by that key to show a problem at it.
///
/// A field's edit calls its setter, then the `edited` hook; typing into one field is one edit
/// (one merge id, typingId()) until the field loses focus.
class SystemFields : public QObject {
    Q_OBJECT
public:
    using Setter = std::function<void(const std::string&)>;
    /// The draft changed: `what` names the undo step, `typing` says a field edit is in progress.
    using EditedHook = std::function<void(const QString& what, bool typing)>;

    /// `draft` gives the completions (its coordinates and parameters).
    SystemFields(const SystemDescription& draft, EditedHook edited, QObject* parent = nullptr);

    /// A field for an expression; `set` stores its text in the draft.
    QWidget* expression(QWidget* parent, const QString& key, const std::string& text, Setter set,
                        const QString& what, const QString& placeholder = {});
    /// A field for a list of expressions separated by commas (slip velocities, view points).
    QWidget* expressionList(QWidget* parent, const QString& key,
                            const std::vector<std::string>& items,
                            std::function<void(std::vector<std::string>)> set, const QString& what);
    /// A field for a name or unit.
    QWidget* plain(QWidget* parent, const QString& key, const std::string& text, Setter set,
                   const QString& what, const QString& placeholder = {});
    /// A field for a number; empty is allowed when `optional`.
    QWidget* number(QWidget* parent, const QString& key, std::optional<double> value,
                    std::function<void(std::optional<double>)> set, const QString& what,
                    bool optional = false);

    /// The field registered under `key`; nullptr when there is none.
    QWidget* field(const QString& key) const;
    /// The message label under the field of `key`; nullptr when there is none.
    QLabel* message(const QString& key) const;
    /// Forgets every field (the editor rebuilds them).
    void clear();
    /// A coordinate or parameter was renamed: its fields' keys follow the name.
    void renameKeys(const QString& from, const QString& to);
    /// Registers `field` (made by this object) under `key` instead of the key it had.
    void rekey(QWidget* field, const QString& key);
    /// The expression fields complete the draft's current names.
    void updateCompletions();

    /// The merge id of the current field edit.
    int typingId() const { return typing_; }
    /// Ends the current field edit: the next keystroke starts a new undo step.
    void endTyping() { ++typing_; }

    /// Number fields holding text that is no number, key → reason.
    const std::map<QString, QString>& numberErrors() const { return numberErrors_; }
    void clearNumberErrors() { numberErrors_.clear(); }

    /// Takes every problem mark off the fields.
    void clearMarks();
    /// Marks the problem at the field of `key`, else of the nearest enclosing key
    /// ("system.friction[0]" for "system.friction[0].normal"), else at the first field inside
    /// it; `column` (1-based, 0: none) is within the key's part of its field. Returns the key
    /// marked, nullopt when no field has it.
    std::optional<QString> mark(const QString& key, const QString& reason, int column);

    /// "a, atan2(y, x)" split at the commas outside parentheses; `starts` gets each part's first
    /// column (0-based) in `text`.
    static std::vector<std::string> splitTopLevel(const QString& text, std::vector<int>& starts);
    /// The items joined by ", ".
    static QString joinList(const std::vector<std::string>& items);
    /// "key[i]".
    static QString indexed(const QString& key, std::size_t i);

private:
    struct Entry {
        QWidget* widget = nullptr;
        QLabel* message = nullptr;
        int offset = 0; ///< columns before this key's part of a comma-separated field
    };

    /// Wraps `field` with a message label under it and registers it under `key`.
    QWidget* withMessage(QWidget* field, const QString& key);
    QStringList completions() const;
    std::optional<double> parseNumber(const QString& text, bool optional, QString& error) const;

    const SystemDescription& draft_;
    EditedHook edited_;
    std::map<QString, Entry> entries_;
    std::map<QString, QString> numberErrors_;
    int typing_ = 1; ///< merge id of the current field edit; a new one after each commit
};

} // namespace clab
