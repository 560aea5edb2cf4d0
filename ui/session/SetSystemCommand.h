#pragma once

#include <scenes/SceneDocument.h>

#include <QString>
#include <QUndoCommand>

namespace clab {

class SceneSession;

/// \brief Undoable change of the system a document holds (an edit in the System editor).
///
/// The whole document before and after is kept: a new system can add or drop parameters, so a
/// change of the system and of the parameter values is one step. Consecutive commands with the
/// same non-zero merge id (the keystrokes of one field edit) merge into one undo step.
class SetSystemCommand : public QUndoCommand {
public:
    /// The old document is read from `session` now; redo() applies `document`.
    SetSystemCommand(SceneSession* session, SceneDocument document, const QString& what,
                     int mergeId = 0);

    void undo() override;
    void redo() override;
    int id() const override;
    bool mergeWith(const QUndoCommand* other) override;

    const SceneDocument& oldDocument() const { return old_; }
    const SceneDocument& newDocument() const { return new_; }

private:
    SceneSession* session_;
    SceneDocument old_;
    SceneDocument new_;
    int mergeId_;
};

} // namespace clab
