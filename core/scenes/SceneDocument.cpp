#include "scenes/SceneDocument.h"

#include "scenes/SceneRegistry.h"
#include "symbolic/SymbolicModel.h"

namespace clab {

namespace {

// The parameters' values are the document's (SceneDocument::parameters); the description's
// are only the defaults it started from, and a saved and reloaded document has new ones.
SystemDescription withoutValues(SystemDescription d)
{
    for (SystemDescription::Parameter& p : d.parameters)
        p.value = 0.0;
    return d;
}

} // namespace

bool operator==(const SystemRef& a, const SystemRef& b)
{
    if (a.model == b.model)
        return true;
    return a.model && b.model &&
           withoutValues(a.model->description()) == withoutValues(b.model->description()) &&
           a.model->definition().title == b.model->definition().title;
}

SceneDocument SceneDocument::fromSystem(std::shared_ptr<const SymbolicModel> model)
{
    SceneDocument document = fromDefinition(model->definition());
    document.scene.clear();
    document.system.model = std::move(model);
    return document;
}

const SceneDefinition* SceneDocument::definition() const
{
    return system ? &system->definition() : SceneRegistry::find(scene);
}

void SceneDocument::takeValuesFrom(const SceneDocument& other)
{
    for (const auto& [name, values] : other.parameters) {
        if (values.size() == 1 && parameters.count(name)) {
            parameters[name] = values;
            continue;
        }
        // One naming for the whole vector, the first whose every component exists here.
        using Naming = std::string (*)(const std::string&, std::size_t);
        const Naming namings[] = {
            [](const std::string& n, std::size_t i) { return n + std::to_string(i + 1); },
            [](const std::string& n, std::size_t i) { return n + "_" + std::to_string(i); },
            [](const std::string& n, std::size_t i) {
                return n + "_" + std::to_string(i + 1);
            }};
        for (Naming naming : namings) {
            bool all = true;
            for (std::size_t i = 0; i < values.size() && all; ++i)
                all = parameters.count(naming(name, i)) > 0;
            if (!all)
                continue;
            for (std::size_t i = 0; i < values.size(); ++i)
                parameters[naming(name, i)] = {values[i]};
            break;
        }
    }
}

} // namespace clab
