#pragma once

#include <QString>
#include <QUndoCommand>

#include <vector>

namespace clab {

class SceneSession;

/// \brief Undoable change of one scene parameter or simulation setting.
///
/// Consecutive commands with the same key and the same non-zero merge id (one slider drag)
/// merge into a single undo step; a drag that ends where it started disappears from the stack.
class SetParameterCommand : public QUndoCommand {
public:
    /// The old value is read from `session` now; redo() applies `value`.
    SetParameterCommand(SceneSession* session, const QString& key, std::vector<double> value,
                        int mergeId = 0, QUndoCommand* parent = nullptr);

    void undo() override;
    void redo() override;
    int id() const override;
    bool mergeWith(const QUndoCommand* other) override;

    const QString& key() const { return key_; }
    const std::vector<double>& oldValue() const { return old_; }
    const std::vector<double>& newValue() const { return new_; }

private:
    void updateText();

    SceneSession* session_;
    QString key_;
    std::vector<double> old_;
    std::vector<double> new_;
    int mergeId_;
};

} // namespace clab
