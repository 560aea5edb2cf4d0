#include "session/StartStateEdit.h"

#include "session/SceneSession.h"

#include <model/ConstraintLabError.h>
#include <scenes/SceneStart.h>
#include <symbolic/StartingState.h>
#include <symbolic/SymbolicModel.h>

#include <QObject>

#include <exception>
#include <utility>
#include <vector>

namespace clab {

bool StartStateEdit::canSetStart(const SceneDocument& document)
{
    if (document.system)
        return true;
    return SceneStart::of(document.scene) != nullptr;
}

QString StartStateEdit::apply(SceneSession& session, const Eigen::VectorXd& q,
                              const Eigen::VectorXd& qd, const QString& what)
{
    const SceneDocument& document = session.document();
    try {
        if (document.system) {
            SceneDocument started = document;
            started.system = SystemRef{
                SymbolicModel::create(withStartingState(document.system->description(), q, qd),
                                      document.title, document.notes)};
            session.editSystem(started, what);
            return {};
        }
        const SceneDefinition* definition = document.definition();
        const SceneStart::Function startFromState = SceneStart::of(document.scene);
        if (definition == nullptr || startFromState == nullptr)
            return QObject::tr("the start of this scene is not set by its parameters");
        const ParameterValues start = startFromState(document.parameters, q, qd);
        definition->validate(start);
        std::vector<std::pair<QString, std::vector<double>>> changes;
        for (const auto& [name, value] : start)
            if (document.parameters.at(name) != value)
                changes.emplace_back(QString::fromStdString(name), value);
        if (changes.empty())
            return {};
        session.undoStack()->beginMacro(what);
        for (const auto& [key, value] : changes)
            session.edit(key, value);
        session.undoStack()->endMacro();
        return {};
    } catch (const std::exception& e) {
        return QString::fromUtf8(e.what());
    }
}

} // namespace clab
