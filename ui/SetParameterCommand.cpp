#include "SetParameterCommand.h"

#include "SceneSession.h"

#include <QStringList>

namespace clab {

namespace {

constexpr int commandId = 0x434c4142; // "CLAB"

QString formatValue(const std::vector<double>& value)
{
    QStringList parts;
    for (double v : value)
        parts << QString::number(v, 'g', 6);
    return value.size() == 1 ? parts.front()
                             : QStringLiteral("(%1)").arg(parts.join(QStringLiteral(", ")));
}

} // namespace

SetParameterCommand::SetParameterCommand(SceneSession* session, const QString& key,
                                         std::vector<double> value, int mergeId,
                                         QUndoCommand* parent)
    : QUndoCommand(parent), session_(session), key_(key), old_(session->value(key)),
      new_(std::move(value)), mergeId_(mergeId)
{
    updateText();
}

void SetParameterCommand::undo()
{
    session_->setValue(key_, old_);
}

void SetParameterCommand::redo()
{
    session_->setValue(key_, new_);
}

int SetParameterCommand::id() const
{
    return mergeId_ != 0 ? commandId : -1;
}

bool SetParameterCommand::mergeWith(const QUndoCommand* other)
{
    if (other->id() != id())
        return false;
    const auto* command = static_cast<const SetParameterCommand*>(other);
    if (command->mergeId_ != mergeId_ || command->key_ != key_ || command->session_ != session_)
        return false;
    new_ = command->new_;
    updateText();
    // A drag back to where it started is no change at all.
    setObsolete(new_ == old_);
    return true;
}

void SetParameterCommand::updateText()
{
    QString name = key_;
    name.remove(QStringLiteral("simulation."));
    setText(QObject::tr("Set %1 to %2").arg(name, formatValue(new_)));
}

} // namespace clab
