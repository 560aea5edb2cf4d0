#include "session/SetStartCommand.h"

#include "session/SceneSession.h"

#include <utility>

namespace clab {

SetStartCommand::SetStartCommand(SceneSession* session, std::optional<StartState> start,
                                 const QString& what, QUndoCommand* parent)
    : QUndoCommand(what, parent), session_(session), old_(session->document().simulation.start),
      new_(std::move(start))
{
}

void SetStartCommand::undo()
{
    session_->setStoredStart(old_);
}

void SetStartCommand::redo()
{
    session_->setStoredStart(new_);
}

} // namespace clab
