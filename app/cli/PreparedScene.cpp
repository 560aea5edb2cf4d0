#include "cli/PreparedScene.h"

#include "cli/CliText.h"
#include "cli/SceneLoading.h"
#include "cli/SceneOptions.h"
#include "cli/UsageProblem.h"

#include "CsvWriter.h"
#include "FileError.h"
#include "SceneFile.h"
#include "integrate/SimulationSetting.h"
#include "integrate/Simulator.h"

#include <QStringList>

namespace clab::cli {

PreparedScene PreparedScene::prepare(const SceneOptions& request)
{
    SceneDocument document = loadScene(request.scene);
    const QString source = isBuiltInName(request.scene)
                               ? QStringLiteral("scene %1").arg(request.scene)
                               : request.scene;

    const SceneDefinition* definition = document.definition();
    for (const auto& [name, values] : request.sets) {
        if (!definition->parameter(name.toStdString())) {
            QStringList names;
            for (const ParameterSpec& p : definition->parameters)
                names << qs(p.name);
            throw FileError(FileError::Kind::Invalid,
                            QStringLiteral("--set ") + request.setText.at(name), QString(),
                            QStringLiteral("%1 has no parameter \"%2\" (its parameters: %3)")
                                .arg(sceneLabel(document), name, names.join(QStringLiteral(", "))));
        }
        document.parameters[name.toStdString()] = values;
    }
    document.parameters = definition->complete(document.parameters);
    SimulationOptions& options = document.simulation;
    for (const auto& [key, given] : request.simulation)
        SimulationSetting::find(key)->set(options, given.first);

    // Validate the combination; name the command-line option when it caused the problem.
    try {
        SceneFile::validate(document, source);
    } catch (const FileError& e) {
        const QString key = e.key();
        if (key.startsWith(QLatin1String("simulation."))) {
            const auto it = request.simulation.find(key.mid(11).toStdString());
            if (it != request.simulation.end())
                throw FileError(FileError::Kind::Invalid, it->second.second, QString(), e.reason());
        }
        // A format-2 file's parameters are under system.parameters: the same --set.
        const QString parameterKey =
            key.startsWith(QLatin1String("system.parameters.")) ? key.mid(7) : key;
        if (parameterKey.startsWith(QLatin1String("parameters."))) {
            const QString name = parameterKey.mid(11).section(QLatin1Char('['), 0, 0); // J[1] -> J
            if (const auto it = request.setText.find(name); it != request.setText.end())
                throw FileError(FileError::Kind::Invalid, QStringLiteral("--set ") + it->second,
                                parameterKey.mid(11), e.reason());
        }
        if (key == QLatin1String("parameters") && !request.sets.empty())
            throw FileError(FileError::Kind::Invalid, source + QStringLiteral(" with --set"), key,
                            e.reason());
        throw;
    }
    return {document, definition, source};
}

void checkColumns(const CsvWriter& writer, const MechanicalSystem& system)
{
    try {
        writer.columnIndices(Simulator::emptyTrace(system));
    } catch (const FileError& e) {
        throw UsageProblem{QStringLiteral("--columns: ") + e.reason()};
    }
}

} // namespace clab::cli
