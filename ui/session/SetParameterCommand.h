#pragma once

#include <integrate/StartState.h>

#include <QString>
#include <QUndoCommand>

#include <optional>
#include <vector>

namespace clab {

class SceneSession;

/// \brief Undoable change of one scene parameter or simulation setting, together with the
/// parameters that follow it (mu_s rises with mu, for instance).
///
/// Consecutive commands with the same key and the same non-zero merge id (one slider drag)
/// merge into a single undo step; a drag that ends where it started disappears from the stack.
class SetParameterCommand : public QUndoCommand {
public:
    struct Change {
        QString key;
        std::vector<double> oldValue;
        std::vector<double> newValue;
    };

    /// The old value is read from `session` now; redo() applies `value`.
    SetParameterCommand(SceneSession* session, const QString& key, std::vector<double> value,
                        int mergeId = 0, QUndoCommand* parent = nullptr);

    /// Another key that changes with the main one in the same step; call before pushing.
    void addLinkedChange(const QString& key, std::vector<double> value);
    /// The step also clears the document's stored start `old` (a start parameter was edited:
    /// SceneStart::keepsStoredStart); undo puts it back. Call before pushing.
    void clearStart(StartState old);

    void undo() override;
    void redo() override;
    int id() const override;
    bool mergeWith(const QUndoCommand* other) override;

    const QString& key() const { return changes_.front().key; }
    const std::vector<double>& oldValue() const { return changes_.front().oldValue; }
    const std::vector<double>& newValue() const { return changes_.front().newValue; }
    /// The main change first, then the linked ones.
    const std::vector<Change>& changes() const { return changes_; }

private:
    void updateText();

    SceneSession* session_;
    std::vector<Change> changes_;
    std::optional<StartState> clearedStart_;
    int mergeId_;
};

} // namespace clab
