#include "session/SceneSession.h"

#include "session/SetParameterCommand.h"
#include "session/SetStartCommand.h"
#include "session/SetSystemCommand.h"

#include <integrate/SimulationSetting.h>
#include <model/ConstraintLabError.h>
#include <scenes/SceneRegistry.h>
#include <scenes/SceneStart.h>

#include <QFileInfo>

#include <algorithm>

namespace clab {

namespace {

[[noreturn]] void unknownKey(const QString& key)
{
    throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter,
                             "unknown parameter \"" + key.toStdString() + "\"");
}

} // namespace

SceneSession::SceneSession(QObject* parent) : QObject(parent)
{
    connect(&undo_, &QUndoStack::cleanChanged, this,
            [this](bool clean) { emit modifiedChanged(!clean); });
}

const std::vector<QString>& SceneSession::simulationKeys()
{
    static const std::vector<QString> keys = [] {
        std::vector<QString> list;
        for (const SimulationSetting& setting : SimulationSetting::all())
            list.push_back(simulationKey(QString::fromStdString(setting.key)));
        return list;
    }();
    return keys;
}

const SimulationSetting* SceneSession::simulationSetting(const QString& key)
{
    if (!key.startsWith(QLatin1String("simulation.")))
        return nullptr;
    return SimulationSetting::find(key.mid(11).toStdString());
}

void SceneSession::setDocument(const SceneDocument& document, const QString& path)
{
    const SceneDefinition* definition = document.definition();
    if (!definition)
        throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter,
                                 "unknown scene type \"" + document.scene + "\"");
    document_ = document;
    // Missing parameters take the scene's defaults (or follow their leader, as mu_s follows
    // mu), so every key has a value to edit.
    document_.parameters = definition->complete(document.parameters);
    definition_ = definition;
    undo_.clear();
    ++serial_;
    lastMergeId_ = 0;
    markSaved(path);
    emit documentReset();
}

bool SceneSession::hasKey(const QString& key) const
{
    if (key.startsWith(QLatin1String("simulation.")))
        return std::find(simulationKeys().begin(), simulationKeys().end(), key) !=
               simulationKeys().end();
    return definition_ && definition_->parameter(key.toStdString()) != nullptr;
}

std::vector<double> SceneSession::value(const QString& key) const
{
    if (const SimulationSetting* setting = simulationSetting(key))
        return {setting->get(document_.simulation)};
    const auto it = document_.parameters.find(key.toStdString());
    if (it == document_.parameters.end() || !hasKey(key))
        unknownKey(key);
    return it->second;
}

void SceneSession::setValue(const QString& key, const std::vector<double>& value)
{
    if (value.empty())
        unknownKey(key);
    if (const SimulationSetting* setting = simulationSetting(key))
        setting->set(document_.simulation, value[0]);
    else if (hasKey(key))
        document_.parameters[key.toStdString()] = value;
    else
        unknownKey(key);
    if (!continuingDrag_)
        ++serial_;
    emit valueChanged(key);
}

void SceneSession::edit(const QString& key, const std::vector<double>& value, int mergeId)
{
    const std::vector<double> old = this->value(key);
    if (value == old)
        return;
    auto* command = new SetParameterCommand(this, key, value, mergeId);
    addLinkedChanges(*command, key, value);
    if (document_.simulation.start) {
        // A stored start outlives an edit only when the parameters' start stays as it was.
        SceneDocument after = document_;
        for (const SetParameterCommand::Change& change : command->changes())
            if (const SimulationSetting* setting = simulationSetting(change.key))
                setting->set(after.simulation, change.newValue.at(0));
            else
                after.parameters[change.key.toStdString()] = change.newValue;
        if (!SceneStart::keepsStoredStart(document_, after))
            command->clearStart(*document_.simulation.start);
    }
    continuingDrag_ = mergeId != 0 && mergeId == lastMergeId_;
    lastMergeId_ = mergeId;
    undo_.push(command);
    continuingDrag_ = false;
}

void SceneSession::editSystem(const SceneDocument& document, const QString& what, int mergeId)
{
    if (!document.system)
        throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter,
                                 "the document holds no system written as equations");
    if (document == document_)
        return;
    if (document_.simulation.start && document.simulation.start == document_.simulation.start &&
        !SceneStart::keepsStoredStart(document_, document)) {
        SceneDocument cleared = document; // an edit of the initial values: their start again
        cleared.simulation.start.reset();
        undo_.push(new SetSystemCommand(this, cleared, what, mergeId));
        return;
    }
    undo_.push(new SetSystemCommand(this, document, what, mergeId));
}

void SceneSession::editStart(const std::optional<StartState>& start, const QString& what)
{
    if (start == document_.simulation.start)
        return;
    undo_.push(new SetStartCommand(this, start, what));
}

void SceneSession::setStoredStart(const std::optional<StartState>& start)
{
    document_.simulation.start = start;
    ++serial_;
    lastMergeId_ = 0;
    emit startChanged();
}

void SceneSession::replaceSystem(const SceneDocument& document)
{
    document_ = document;
    definition_ = document_.definition();
    ++serial_;
    lastMergeId_ = 0;
    emit systemChanged();
}

void SceneSession::addLinkedChanges(SetParameterCommand& command, const QString& key,
                                    const std::vector<double>& newValue) const
{
    if (!definition_ || key.startsWith(QLatin1String("simulation.")))
        return;
    const std::string name = key.toStdString();
    const auto below = [](const std::vector<double>& a, const std::vector<double>& b) {
        for (std::size_t i = 0; i < a.size() && i < b.size(); ++i)
            if (a[i] < b[i])
                return true;
        return false;
    };
    for (const ParameterSpec& spec : definition_->parameters) {
        if (spec.name == name)
            continue;
        const std::vector<double>& current = document_.parameters.at(spec.name);
        // A follower still tied to its leader keeps following it (mu_s tracks mu, as it does
        // when a scene file leaves mu_s out); one that must not be below the leader is pushed
        // up with it.
        const bool tied =
            spec.defaultsTo == name && definition_->tiedToLeader(document_.parameters, spec.name);
        const bool pushedUp = spec.notBelow == name && below(current, newValue);
        if (tied || pushedUp)
            command.addLinkedChange(QString::fromStdString(spec.name), newValue);
    }
    // Lowering a follower below its floor takes the floor down with it (mu follows mu_s down).
    const ParameterSpec* own = definition_->parameter(name);
    if (own && !own->notBelow.empty()) {
        const auto floor = document_.parameters.find(own->notBelow);
        if (floor != document_.parameters.end() && below(newValue, floor->second))
            command.addLinkedChange(QString::fromStdString(own->notBelow), newValue);
    }
}

void SceneSession::markSaved(const QString& path)
{
    undo_.setClean();
    if (path != path_) {
        path_ = path;
        emit filePathChanged(path_);
    }
}

QString SceneSession::displayName() const
{
    if (!path_.isEmpty())
        return QFileInfo(path_).fileName();
    if (!document_.title.empty())
        return QString::fromStdString(document_.title);
    return definition_ ? QString::fromStdString(definition_->title) : tr("Untitled");
}

} // namespace clab
