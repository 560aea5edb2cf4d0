#include "SceneRequest.h"

#include "FileError.h"
#include "SceneFile.h"
#include "SceneLoading.h"
#include "integrate/SimulationSetting.h"
#include "scenes/SceneStart.h"

#include <QStringList>

namespace clab {

SceneRequest::Prepared SceneRequest::prepare() const
{
    return prepare(loadScene(scene));
}

SceneRequest::Prepared SceneRequest::prepare(SceneDocument document) const
{
    const QString source = isBuiltInName(scene) ? QStringLiteral("scene %1").arg(scene) : scene;

    const SceneDefinition* definition = document.definition();
    const SceneDocument given = document;
    for (const auto& [name, values] : sets) {
        if (!definition->parameter(name.toStdString())) {
            QStringList names;
            for (const ParameterSpec& p : definition->parameters)
                names << QString::fromStdString(p.name);
            throw FileError(FileError::Kind::Invalid, setText.at(name), QString(),
                            QStringLiteral("%1 has no parameter \"%2\" (its parameters: %3)")
                                .arg(sceneLabel(document), name, names.join(QStringLiteral(", "))));
        }
        document.parameters[name.toStdString()] = values;
    }
    document.parameters = definition->complete(document.parameters);
    // A --set of a value the start depends on starts from the parameters again, as in the GUI.
    if (!sets.empty() && document.simulation.start &&
        !SceneStart::keepsStoredStart(given, document))
        document.simulation.start.reset();
    SimulationOptions& options = document.simulation;
    for (const auto& [key, given] : simulation)
        SimulationSetting::find(key)->set(options, given.first);

    // Validate the combination; name the given value when it caused the problem.
    try {
        SceneFile::validate(document, source);
    } catch (const FileError& e) {
        const QString key = e.key();
        if (key.startsWith(QLatin1String("simulation."))) {
            const auto it = simulation.find(key.mid(11).toStdString());
            if (it != simulation.end())
                throw FileError(FileError::Kind::Invalid, it->second.second, QString(), e.reason());
        }
        // A format-2 file's parameters are under system.parameters: the same sets.
        const QString parameterKey =
            key.startsWith(QLatin1String("system.parameters.")) ? key.mid(7) : key;
        if (parameterKey.startsWith(QLatin1String("parameters."))) {
            const QString name = parameterKey.mid(11).section(QLatin1Char('['), 0, 0); // J[1] -> J
            if (const auto it = setText.find(name); it != setText.end())
                throw FileError(FileError::Kind::Invalid, it->second, parameterKey.mid(11),
                                e.reason());
        }
        if (key == QLatin1String("parameters") && !sets.empty())
            throw FileError(FileError::Kind::Invalid, source + QStringLiteral(" with ") + setsName,
                            key, e.reason());
        throw;
    }
    return {document, definition, source};
}

} // namespace clab
