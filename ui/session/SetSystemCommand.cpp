#include "session/SetSystemCommand.h"

#include "session/SceneSession.h"

namespace clab {

namespace {
constexpr int commandId = 0x434c4153; // "CLAS"
} // namespace

SetSystemCommand::SetSystemCommand(SceneSession* session, SceneDocument document,
                                   const QString& what, int mergeId)
    : session_(session), old_(session->document()), new_(std::move(document)), mergeId_(mergeId)
{
    setText(what);
}

void SetSystemCommand::undo()
{
    session_->replaceSystem(old_);
}

void SetSystemCommand::redo()
{
    session_->replaceSystem(new_);
}

int SetSystemCommand::id() const
{
    return mergeId_ != 0 ? commandId : -1;
}

bool SetSystemCommand::mergeWith(const QUndoCommand* other)
{
    if (other->id() != id())
        return false;
    const auto* command = static_cast<const SetSystemCommand*>(other);
    if (command->mergeId_ != mergeId_ || command->session_ != session_)
        return false;
    new_ = command->new_;
    // Typing that ends where it started is no change at all.
    setObsolete(new_ == old_);
    return true;
}

} // namespace clab
