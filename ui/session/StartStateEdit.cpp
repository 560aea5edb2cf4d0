#include "session/StartStateEdit.h"

#include "session/SceneSession.h"

#include <model/ConstraintLabError.h>
#include <scenes/SceneStart.h>
#include <symbolic/StartingState.h>
#include <symbolic/SymbolicModel.h>

#include <QObject>

#include <exception>
#include <memory>
#include <utility>
#include <vector>

namespace clab {

bool StartStateEdit::canSetStart(const SceneDocument& document)
{
    return document.definition() != nullptr;
}

StartStateEdit::Edits StartStateEdit::parameterEdits(const SceneDocument& document,
                                                     const Eigen::VectorXd& q,
                                                     const Eigen::VectorXd& qd)
{
    Edits edits;
    if (document.system) {
        SceneDocument started = document;
        started.system = SystemRef{
            SymbolicModel::create(withStartingState(document.system->description(), q, qd),
                                  document.title, document.notes)};
        edits.shown = true;
        if (!(started == document))
            edits.system = std::move(started);
        return edits;
    }
    const SceneStart::Function startFromState = SceneStart::of(document.scene);
    if (startFromState == nullptr)
        return edits; // a chain's shape is no set of parameters
    const ParameterValues start = startFromState(document.parameters, q, qd);
    document.definition()->validate(start);
    edits.shown = true;
    for (const auto& [name, value] : start)
        if (document.parameters.at(name) != value)
            edits.values.emplace_back(QString::fromStdString(name), value);
    return edits;
}

QString StartStateEdit::apply(SceneSession& session, double t, const Eigen::VectorXd& q,
                              const Eigen::VectorXd& qd, const QString& what)
{
    const SceneDocument& document = session.document();
    const SceneDefinition* definition = document.definition();
    if (definition == nullptr)
        return QObject::tr("the scene is unknown");
    Edits edits;
    std::optional<StartState> stored;
    try {
        const StartState state(t, q, qd);
        const std::unique_ptr<MechanicalSystem> system = definition->create(document.parameters);
        // The fields show the state where they can; a stored start holds what they cannot (a
        // chain's shape, or another time than the scene's own start: a pull let go at t).
        const bool ownTime = t == system->initialTime();
        try {
            edits = parameterEdits(document, q, qd);
        } catch (const std::exception&) {
            if (ownTime)
                throw;
            edits = {}; // read at the scene's own start, the state breaks a rule: stored only
        }
        if (!edits.shown || !ownTime) {
            // Kept as it is, the state must hold the constraints as a file's start must (the
            // parameters, where they say it, make their own start on them).
            if (const auto problem = state.problem(*system))
                throw ConstraintLabError(ConstraintLabError::Kind::InvalidInitialState,
                                         problem->key + ": " + problem->reason);
            stored = state;
        }
    } catch (const std::exception& e) {
        return QString::fromUtf8(e.what());
    }
    if (edits.values.empty() && !edits.system && stored == document.simulation.start)
        return {}; // nothing changes: no empty step on the stack
    QUndoStack* undo = session.undoStack();
    undo->beginMacro(what);
    for (const auto& [key, value] : edits.values)
        session.edit(key, value);
    if (edits.system)
        session.editSystem(*edits.system, what);
    session.editStart(stored, what);
    undo->endMacro();
    return {};
}

} // namespace clab
