#include "session/SetParameterCommand.h"

#include "session/SceneSession.h"

#include <QStringList>

#include <algorithm>
#include <utility>

namespace clab {

namespace {

constexpr int commandId = 0x434c4142; // "CLAB"

QString formatValue(const QString& key, const std::vector<double>& value)
{
    if (key == SceneSession::simulationKey("integrator") && value.size() == 1)
        return value[0] != 0.0 ? QStringLiteral("RK4") : QStringLiteral("Dormand–Prince");
    if (key == SceneSession::simulationKey("stabilization") && value.size() == 1)
        return value[0] == 0.0   ? QStringLiteral("none")
               : value[0] == 1.0 ? QStringLiteral("Baumgarte")
                                 : QStringLiteral("projection");
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
    : QUndoCommand(parent), session_(session), mergeId_(mergeId)
{
    changes_.push_back({key, session->value(key), std::move(value)});
    updateText();
}

void SetParameterCommand::addLinkedChange(const QString& key, std::vector<double> value)
{
    changes_.push_back({key, session_->value(key), std::move(value)});
}

void SetParameterCommand::clearStart(StartState old)
{
    clearedStart_ = std::move(old);
    updateText();
}

void SetParameterCommand::undo()
{
    if (clearedStart_)
        session_->setStoredStart(clearedStart_);
    for (auto it = changes_.rbegin(); it != changes_.rend(); ++it)
        session_->setValue(it->key, it->oldValue);
}

void SetParameterCommand::redo()
{
    if (clearedStart_)
        session_->setStoredStart(std::nullopt);
    for (const Change& change : changes_)
        session_->setValue(change.key, change.newValue);
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
    if (command->mergeId_ != mergeId_ || command->key() != key() || command->session_ != session_)
        return false;
    for (const Change& change : command->changes_) {
        const auto mine = std::find_if(changes_.begin(), changes_.end(),
                                       [&](const Change& c) { return c.key == change.key; });
        if (mine != changes_.end())
            mine->newValue = change.newValue;
        else // untouched by this command until now, so its old value is still right
            changes_.push_back(change);
    }
    updateText();
    // A drag back to where it started is no change at all.
    setObsolete(!clearedStart_ &&
                std::all_of(changes_.begin(), changes_.end(),
                            [](const Change& c) { return c.newValue == c.oldValue; }));
    return true;
}

void SetParameterCommand::updateText()
{
    QString name = key();
    name.remove(QStringLiteral("simulation."));
    setText(QObject::tr("Set %1 to %2").arg(name, formatValue(key(), newValue())) +
            (clearedStart_ ? QObject::tr(" (and reset the start)") : QString()));
}

} // namespace clab
