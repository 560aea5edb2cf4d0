#include "SceneDocument.h"

#include "SceneRegistry.h"
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

} // namespace clab
