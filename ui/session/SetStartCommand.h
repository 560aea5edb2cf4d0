#pragma once

#include <integrate/StartState.h>

#include <QString>
#include <QUndoCommand>

#include <optional>

namespace clab {

class SceneSession;

/// \brief Undoable change of the document's stored start (SimulationOptions::start): a chain
/// dragged into a new shape, the state a pull was let go at, or Edit → Reset Start (none).
class SetStartCommand : public QUndoCommand {
public:
    /// The old start is read from `session` now; redo() applies `start`.
    SetStartCommand(SceneSession* session, std::optional<StartState> start, const QString& what,
                    QUndoCommand* parent = nullptr);

    void undo() override;
    void redo() override;

private:
    SceneSession* session_;
    std::optional<StartState> old_;
    std::optional<StartState> new_;
};

} // namespace clab
