#include "SceneSession.h"

#include "SetParameterCommand.h"

#include <ConstraintLabError.h>
#include <SceneRegistry.h>

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
    static const std::vector<QString> keys = {simulationKey("t_end"), simulationKey("dt"),
                                              simulationKey("integrator"), simulationKey("rtol"),
                                              simulationKey("atol")};
    return keys;
}

void SceneSession::setDocument(const SceneDocument& document, const QString& path)
{
    const SceneDefinition* definition = SceneRegistry::find(document.scene);
    if (!definition)
        throw ConstraintLabError(ConstraintLabError::Kind::InvalidParameter,
                                 "unknown scene type \"" + document.scene + "\"");
    document_ = document;
    // Missing parameters take the scene's defaults, so every key has a value to edit.
    for (const auto& [name, value] : definition->defaults())
        document_.parameters.try_emplace(name, value);
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
    const SimulationOptions& s = document_.simulation;
    if (key == simulationKey("t_end"))
        return {s.tEnd};
    if (key == simulationKey("dt"))
        return {s.dt};
    if (key == simulationKey("integrator"))
        return {s.integrator == IntegratorKind::Rk4 ? 1.0 : 0.0};
    if (key == simulationKey("rtol"))
        return {s.rtol};
    if (key == simulationKey("atol"))
        return {s.atol};
    const auto it = document_.parameters.find(key.toStdString());
    if (it == document_.parameters.end() || !hasKey(key))
        unknownKey(key);
    return it->second;
}

void SceneSession::setValue(const QString& key, const std::vector<double>& value)
{
    if (value.empty())
        unknownKey(key);
    SimulationOptions& s = document_.simulation;
    if (key == simulationKey("t_end"))
        s.tEnd = value[0];
    else if (key == simulationKey("dt"))
        s.dt = value[0];
    else if (key == simulationKey("integrator"))
        s.integrator = value[0] != 0.0 ? IntegratorKind::Rk4 : IntegratorKind::Dopri5;
    else if (key == simulationKey("rtol"))
        s.rtol = value[0];
    else if (key == simulationKey("atol"))
        s.atol = value[0];
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
    if (value == this->value(key))
        return;
    continuingDrag_ = mergeId != 0 && mergeId == lastMergeId_;
    lastMergeId_ = mergeId;
    undo_.push(new SetParameterCommand(this, key, value, mergeId));
    continuingDrag_ = false;
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
